import { ArenaError } from "./errors.js";
import type { ArenaSettings } from "./settings.js";
/**
 * Yields a fresh platform web-API ticket (hex) for one request: in a game,
 * the platform SDK (Steam's GetAuthTicketForWebApi with the arena's
 * identity). Tickets are single-use, so it is called before every request,
 * retries included. A rejection aborts the request; it is not retried.
 */
export type TicketProvider = (signal?: AbortSignal) => string | Promise<string>;
/** The fetch the client calls; globalThis.fetch by default. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;
/** Waits ms milliseconds, rejecting with signal.reason when signal aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;
/** Options every network call takes. */
export interface CallOptions {
    /** Aborting rejects at once with the signal's reason. */
    signal?: AbortSignal;
}
/** Real sleep on setTimeout. */
export declare const sleep: Sleep;
/** One answer: the status and the body text. */
export interface Answer {
    status: number;
    text: string;
    /** The Retry-After header, null when absent. */
    retryAfter?: string | null;
}
/**
 * How a request authenticates: a fresh ticket, nothing, or a public-API key
 * (`{ apiKey }`, sent as `Authorization: Bearer <key>`).
 */
export type Auth = "ticket" | "none" | {
    apiKey: string;
};
/** The HTTP side of a client: tickets, headers, timeouts, error mapping. */
export declare class Transport {
    readonly settings: ArenaSettings;
    private readonly fetchFn;
    private readonly tickets;
    private readonly timeoutMs;
    constructor(settings: ArenaSettings, fetchFn: FetchLike, tickets: TicketProvider | undefined, timeoutMs: number);
    /** The Authorization header value of one request. */
    private authorization;
    /**
     * Performs one request against url (a path on the arena, or an absolute
     * URL) and returns status and body. No status at all (connection failed,
     * timed out, body cut short) is ArenaError `network_error`; an aborted signal
     * rejects with its reason.
     */
    send(method: string, url: string, options?: {
        body?: BodyInit;
        contentType?: string;
        auth?: Auth;
        signal?: AbortSignal | undefined;
    }): Promise<Answer>;
    /** GET of an object (no ticket: the URL is signed), body as bytes. */
    sendBytes(method: string, url: string, signal?: AbortSignal): Promise<{
        status: number;
        bytes: Uint8Array;
    }>;
    /** A GET of bytes (tiles, checkpoints) with the given auth: status, body bytes and Retry-After. */
    getBytes(url: string, options?: {
        auth?: Auth;
        signal?: AbortSignal | undefined;
    }): Promise<{
        status: number;
        bytes: Uint8Array;
        retryAfter: string | null;
    }>;
    private request;
    /**
     * Sends a JSON request and decodes a 200/201 answer. Returns undefined
     * for 204, throws ArenaError with the server's code for any other status
     * and `bad_response` for a body that is not JSON.
     */
    json<T>(method: string, path: string, body?: unknown, options?: {
        auth?: Auth;
        signal?: AbortSignal | undefined;
    }): Promise<T | undefined>;
    /** json() for answers that must have a body (204 is `bad_response`). */
    jsonBody<T>(method: string, path: string, body?: unknown, options?: {
        auth?: Auth;
        signal?: AbortSignal | undefined;
    }): Promise<T>;
}
/** Decodes an answer: the body of a 200/201, undefined for 204, else an error. */
export declare function decode<T>(method: string, path: string, answer: Answer): T | undefined;
/**
 * The error of a non-success answer: the `error` member of a
 * `{ "error": "<code>" }` body, else `http_<status>`.
 */
export declare function answerError(method: string, path: string, answer: Answer): ArenaError;
