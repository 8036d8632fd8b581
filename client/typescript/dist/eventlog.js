import { canonicalize, sha256Hex } from "./canonical.js";
import { DEFAULT_TIMEOUT_MS } from "./client.js";
import { ArenaError, LogInvalidError } from "./errors.js";
import { normalizeSettings, validateSettings } from "./settings.js";
import { Transport, decode, sleep as realSleep } from "./transport.js";
/**
 * The arena's public event log (docs/events.md): every event hash-chained
 * to the one before it, the last one (the head) signed with the arena's
 * Ed25519 key. verifyLog checks a log as the Go client's VerifyLog does.
 */
/** The prevHash of the first event (and the hash of an empty log's head): 64 zeros. */
export const GENESIS_HASH = "0".repeat(64);
/** How many events verifyLog asks for a page (the log's maximum). */
export const VERIFY_LOG_PAGE = 1000;
/** How many times verifyLog repeats a read answered 429 by default. */
export const DEFAULT_READ_RETRIES = 5;
/** The longest wait on one Retry-After, in ms. */
const MAX_RETRY_AFTER_MS = 120_000;
/**
 * The wait a 429's Retry-After asks for, in ms: its seconds (or an HTTP
 * date), at least 1 s (also when absent or unreadable), at most 2 min.
 */
export function retryAfterMs(v) {
    let ms = 1000;
    const s = (v ?? "").trim();
    if (/^[0-9]+$/.test(s))
        ms = Number(s) * 1000;
    else if (s !== "" && !Number.isNaN(Date.parse(s)))
        ms = Date.parse(s) - Date.now();
    return Math.min(Math.max(ms, 1000), MAX_RETRY_AFTER_MS);
}
/**
 * The event's hash: lowercase hex SHA-256 of the RFC 8785 form of the event
 * object without its hash member (the members the log defines, data as the
 * JSON value it is).
 *
 * @throws LogInvalidError when the event has no RFC 8785 form (data holds
 *   an integer beyond ±(2^53−1), for one).
 */
export async function eventHash(e) {
    const { seq, at, type, tournament, matchId, data, prevHash } = e;
    let canonical;
    try {
        canonical = canonicalize(JSON.stringify({ seq, at, type, tournament, matchId, data, prevHash }));
    }
    catch (err) {
        if (!(err instanceof ArenaError))
            throw err;
        throw new LogInvalidError(seq, `event log: event ${seq} has no RFC 8785 form (${err.code})`);
    }
    return sha256Hex(canonical);
}
/** What a head's signature signs: `<arena slug>\n<seq>\n<hash>\n<at>` (UTF-8). */
export function headMessage(slug, seq, hash, at) {
    return `${slug}\n${seq}\n${hash}\n${at}`;
}
/**
 * Whether head's signature verifies with the arena's public key (its 32
 * raw bytes, or an imported Ed25519 CryptoKey) for the arena slug.
 */
export async function verifyHead(publicKey, slug, head) {
    const sig = base64Bytes(head.signature);
    if (sig === undefined || sig.length !== 64)
        return false;
    const key = publicKey instanceof Uint8Array ? await importPublicKey(publicKey) : publicKey;
    if (key === undefined)
        return false;
    const message = new TextEncoder().encode(headMessage(slug, head.seq, head.hash, head.at));
    return crypto.subtle.verify({ name: "Ed25519" }, key, sig, message);
}
/**
 * Checks the event after prevSeq (whose hash is prevHash; 0 and
 * GENESIS_HASH before the first): it is the next seq, its prevHash links to
 * the hash before it, and its hash is its own.
 */
async function verifyNext(prevSeq, prevHash, e) {
    if (e.seq !== prevSeq + 1)
        throw new LogInvalidError(prevSeq + 1, `event log: seq ${e.seq} follows ${prevSeq}`);
    if (e.prevHash !== prevHash) {
        throw new LogInvalidError(e.seq, `event log: event ${e.seq}'s prevHash ${JSON.stringify(e.prevHash)} is not the hash before it, ${JSON.stringify(prevHash)}`);
    }
    const h = await eventHash(e);
    if (h !== e.hash)
        throw new LogInvalidError(e.seq, `event log: event ${e.seq}'s hash is ${e.hash}, its content hashes to ${h}`);
}
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
export async function verifyLog(options) {
    const settings = normalizeSettings({ baseUrl: options.base });
    validateSettings(settings);
    const fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    const transport = new Transport(settings, fetchFn, undefined, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const auth = options.apiKey ? { apiKey: options.apiKey } : "none";
    const retries = options.retries ?? DEFAULT_READ_RETRIES;
    const wait = options.sleep ?? realSleep;
    const get = async (path) => {
        for (let attempt = 0;; attempt++) {
            const answer = await transport.send("GET", path, { auth, signal: options.signal });
            if (answer.status === 429 && attempt < retries) {
                await wait(retryAfterMs(answer.retryAfter), options.signal);
                continue;
            }
            const out = decode("GET", path, answer);
            if (out === undefined)
                throw new ArenaError("bad_response", `GET ${path}: 204 without a body`, { status: 204, method: "GET", path });
            return out;
        }
    };
    const saved = options.head;
    const meta = (await get("/api/v1"));
    const slug = typeof meta?.tenant?.slug === "string" ? meta.tenant.slug : "";
    const raw = base64Bytes(meta?.log?.publicKey);
    const key = raw === undefined ? undefined : await importPublicKey(raw);
    if (key === undefined)
        throw malformed("/api/v1", "the arena's log.publicKey is not a base64 Ed25519 key");
    const head = decodeHead(await get("/api/v1/events/head"));
    if (!(await verifyHead(key, slug, head))) {
        throw new LogInvalidError(head.seq, `event log: the head's signature (seq ${head.seq}) does not verify`);
    }
    if (saved !== undefined) {
        if (!(await verifyHead(key, slug, saved))) {
            throw new LogInvalidError(saved.seq, `event log: the saved head's signature (seq ${saved.seq}) does not verify`);
        }
        if (saved.seq > head.seq) {
            throw new LogInvalidError(saved.seq, `event log: the saved head (seq ${saved.seq}) is past the arena's head (seq ${head.seq})`);
        }
        if (saved.seq === 0 && saved.hash !== GENESIS_HASH) {
            throw new LogInvalidError(0, `event log: the saved empty head's hash is not ${GENESIS_HASH}`);
        }
    }
    if (head.seq === 0 && head.hash !== GENESIS_HASH) {
        throw new LogInvalidError(0, `event log: the empty log's head hash is not ${GENESIS_HASH}`);
    }
    let seq = 0;
    let prev = GENESIS_HASH;
    if (saved !== undefined && saved.seq > 0) {
        // Start at the saved head's own event: its hash must be the one saved,
        // and the walk links on from it.
        const path = `/api/v1/events?after=${saved.seq - 1}&limit=1`;
        const [e] = decodePage(path, await get(path));
        if (e === undefined || e.seq !== saved.seq) {
            throw new LogInvalidError(saved.seq, `event log: the log has no event ${saved.seq}, the saved head's`);
        }
        if (e.hash !== saved.hash || e.at !== saved.at) {
            throw new LogInvalidError(e.seq, `event log: event ${e.seq} is not the one the saved head signed`);
        }
        await verifyNext(e.seq - 1, e.prevHash, e);
        if (e.seq === head.seq && (e.hash !== head.hash || e.at !== head.at)) {
            throw new LogInvalidError(e.seq, `event log: event ${e.seq} is not the one the head signed`);
        }
        seq = e.seq;
        prev = e.hash;
    }
    while (seq < head.seq) {
        const path = `/api/v1/events?after=${seq}&limit=${VERIFY_LOG_PAGE}`;
        const events = decodePage(path, await get(path));
        if (events.length === 0) {
            throw new LogInvalidError(seq + 1, `event log: the log ends at seq ${seq}, before its head (seq ${head.seq})`);
        }
        for (const e of events) {
            if (seq === head.seq)
                break; // the head does not cover the rest yet
            await verifyNext(seq, prev, e);
            if (e.seq === head.seq && (e.hash !== head.hash || e.at !== head.at)) {
                throw new LogInvalidError(e.seq, `event log: event ${e.seq} is not the one the head signed`);
            }
            seq = e.seq;
            prev = e.hash;
        }
    }
    return head;
}
/** The raw bytes of standard base64 (padded), or undefined when s is not that. */
function base64Bytes(s) {
    if (typeof s !== "string" || s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(s))
        return undefined;
    try {
        return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
    }
    catch {
        return undefined;
    }
}
/** An Ed25519 verification key from its 32 raw bytes, or undefined when they are not one. */
async function importPublicKey(raw) {
    if (raw.length !== 32)
        return undefined;
    try {
        return await crypto.subtle.importKey("raw", raw, { name: "Ed25519" }, false, ["verify"]);
    }
    catch {
        return undefined;
    }
}
function malformed(path, why) {
    return new ArenaError("bad_response", `GET ${path}: ${why}`, { status: 200, method: "GET", path });
}
const isSeq = (v) => Number.isSafeInteger(v) && v >= 0;
/** A head as served: seq, hash, at and signature of the right types. */
function decodeHead(v) {
    const h = v;
    if (h === null || typeof h !== "object" || !isSeq(h.seq) || typeof h.hash !== "string" || typeof h.at !== "string" || typeof h.signature !== "string") {
        throw malformed("/api/v1/events/head", "the answer is not a signed head");
    }
    return { seq: h.seq, hash: h.hash, at: h.at, signature: h.signature };
}
/** The events of a page, each with the members the log defines (absent nullable ones are null). */
function decodePage(path, v) {
    const events = v?.events;
    if (!Array.isArray(events))
        throw malformed(path, "the answer has no events");
    return events.map((raw) => {
        const e = raw;
        const tournament = e?.tournament ?? null;
        const matchId = e?.matchId ?? null;
        if (e === null || typeof e !== "object" || !isSeq(e.seq) || typeof e.at !== "string" || typeof e.type !== "string" ||
            typeof e.prevHash !== "string" || typeof e.hash !== "string" ||
            !(tournament === null || typeof tournament === "string") || !(matchId === null || Number.isSafeInteger(matchId))) {
            throw malformed(path, "an event is not of the log's shape");
        }
        return {
            seq: e.seq, at: e.at, type: e.type, tournament, matchId: matchId,
            data: e.data ?? null, prevHash: e.prevHash, hash: e.hash,
        };
    });
}
