import { type FetchLike, type Sleep } from "./transport.js";
/**
 * The arena's public event log (docs/events.md): every event hash-chained
 * to the one before it, the last one (the head) signed with the arena's
 * Ed25519 key. verifyLog checks a log as the Go client's VerifyLog does.
 */
/** The prevHash of the first event (and the hash of an empty log's head): 64 zeros. */
export declare const GENESIS_HASH: string;
/** How many events verifyLog asks for a page (the log's maximum). */
export declare const VERIFY_LOG_PAGE = 1000;
/** How many times verifyLog repeats a read answered 429 by default. */
export declare const DEFAULT_READ_RETRIES = 5;
/**
 * The wait a 429's Retry-After asks for, in ms: its seconds (or an HTTP
 * date), at least 1 s (also when absent or unreadable), at most 2 min.
 */
export declare function retryAfterMs(v: string | null | undefined): number;
/** One event of the log, as the arena serves it. */
export interface LogEvent {
    /** Counts from 1 without gaps. */
    seq: number;
    at: string;
    type: string;
    /** The tournament's (or title's) slug, or null. */
    tournament: string | null;
    matchId: number | null;
    /** The event's facts; which depends on type. */
    data: unknown;
    /** The previous event's hash; GENESIS_HASH for seq 1. */
    prevHash: string;
    /** Lowercase hex SHA-256 of the RFC 8785 form of the event without hash. */
    hash: string;
}
/**
 * The log's last event, signed: `signature` is the base64 Ed25519
 * signature of headMessage. An empty log's head has seq 0, GENESIS_HASH
 * and an empty at. Save it to check later that the log only grew.
 */
export interface LogHead {
    seq: number;
    hash: string;
    at: string;
    signature: string;
}
/** A page of GET /api/v1/events: next is the after of the following page, null at the end. */
export interface EventLogPage {
    events: LogEvent[];
    next: number | null;
}
/** What verifyLog reads and how. */
export interface VerifyLogOptions {
    /** The arena's origin, e.g. https://arena.example. */
    base: string;
    /**
     * A head saved by an earlier verifyLog: it must be signed and its event
     * in the log unchanged. The walk then starts at its seq, not at 1.
     */
    head?: LogHead;
    /**
     * A public-API key of the arena (apikey_<id>_<secret>), sent as
     * `Authorization: Bearer <key>`: the reads count against its limit.
     */
    apiKey?: string;
    /**
     * How many times a read answered 429 is repeated after its Retry-After;
     * default DEFAULT_READ_RETRIES, 0 none.
     */
    retries?: number;
    /** Waits between 429 retries; default setTimeout. */
    sleep?: Sleep;
    /** Default: globalThis.fetch. */
    fetch?: FetchLike;
    /** Aborting rejects at once with the signal's reason. */
    signal?: AbortSignal;
    /** Per-request timeout; default 30 s. */
    timeoutMs?: number;
}
/**
 * The event's hash: lowercase hex SHA-256 of the RFC 8785 form of the event
 * object without its hash member (the members the log defines, data as the
 * JSON value it is).
 *
 * @throws LogInvalidError when the event has no RFC 8785 form (data holds
 *   an integer beyond ±(2^53−1), for one).
 */
export declare function eventHash(e: LogEvent): Promise<string>;
/** What a head's signature signs: `<arena slug>\n<seq>\n<hash>\n<at>` (UTF-8). */
export declare function headMessage(slug: string, seq: number, hash: string, at: string): string;
/**
 * Whether head's signature verifies with the arena's public key (its 32
 * raw bytes, or an imported Ed25519 CryptoKey) for the arena slug.
 */
export declare function verifyHead(publicKey: Uint8Array | CryptoKey, slug: string, head: LogHead): Promise<boolean>;
/**
 * Verifies the arena's public event log (docs/events.md), as the Go
 * client's VerifyLog: reads the arena's slug and log.publicKey
 * (GET /api/v1), reads the signed head (GET /api/v1/events/head) and
 * checks its signature, walks the log from its first event to the head
 * (GET /api/v1/events, VERIFY_LOG_PAGE events a page) recomputing every
 * hash and prevHash link, and checks the head is the last event walked.
 * Given a saved head, it checks that head's signature too and that its
 * event is in the log unchanged, and walks from it rather than from seq 1:
 * the log still extends what was saved. Events appended after the head are
 * not covered yet and not read. Every request goes without a ticket (with
 * the API key when given); a 429 is repeated after its Retry-After, up to
 * options.retries times, then thrown as `rate_limited`.
 *
 * @returns the head verified (worth saving for the next check).
 * @throws LogInvalidError (`log_invalid`, with the seq that fails) when the
 *   log, its head or the saved head does not verify; ArenaError
 *   `bad_response` for an answer of the wrong shape (or a public key that is
 *   not a base64 Ed25519 key), `invalid_settings` for a base that is not an
 *   absolute http(s) URL, the server's code or `network_error` as every
 *   call of the client.
 */
export declare function verifyLog(options: VerifyLogOptions): Promise<LogHead>;
