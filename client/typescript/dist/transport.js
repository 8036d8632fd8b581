import { ArenaError } from "./errors.js";
/** Real sleep on setTimeout. */
export const sleep = (ms, signal) => new Promise((resolve, reject) => {
    if (signal?.aborted) {
        reject(signal.reason);
        return;
    }
    const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
    };
    const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
});
/** The HTTP side of a client: tickets, headers, timeouts, error mapping. */
export class Transport {
    settings;
    fetchFn;
    tickets;
    timeoutMs;
    constructor(settings, fetchFn, tickets, timeoutMs) {
        this.settings = settings;
        this.fetchFn = fetchFn;
        this.tickets = tickets;
        this.timeoutMs = timeoutMs;
    }
    /** The Authorization header value of one request. */
    async authorization(signal) {
        if (this.settings.mockSteamId !== "")
            return `Platform MOCK:${this.settings.mockSteamId}`;
        if (this.tickets === undefined)
            throw new ArenaError("no_ticket", "no ticket provider and no mockSteamId");
        let ticket;
        try {
            ticket = await this.tickets(signal);
        }
        catch (e) {
            if (signal?.aborted)
                throw signal.reason;
            throw new ArenaError("no_ticket", `ticket provider failed: ${String(e)}`, { cause: e });
        }
        if (typeof ticket !== "string" || ticket === "" || /\s/.test(ticket)) {
            throw new ArenaError("no_ticket", "the ticket provider returned a malformed ticket");
        }
        return `Platform ${ticket}`;
    }
    /**
     * Performs one request against url (a path on the arena, or an absolute
     * URL) and returns status and body. No status at all (connection failed,
     * timed out, body cut short) is ArenaError `network_error`; an aborted signal
     * rejects with its reason.
     */
    async send(method, url, options = {}) {
        return this.request(method, url, options, async (res) => ({ status: res.status, text: await res.text(), retryAfter: res.headers.get("Retry-After") }));
    }
    /** GET of an object (no ticket: the URL is signed), body as bytes. */
    async sendBytes(method, url, signal) {
        return this.request(method, url, { auth: "none", signal }, async (res) => ({ status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) }));
    }
    /** A GET of bytes (tiles, checkpoints) with the given auth: status, body bytes and Retry-After. */
    async getBytes(url, options = {}) {
        return this.request("GET", url, options, async (res) => ({ status: res.status, bytes: new Uint8Array(await res.arrayBuffer()), retryAfter: res.headers.get("Retry-After") }));
    }
    async request(method, url, options, read) {
        const { signal } = options;
        signal?.throwIfAborted();
        const headers = { Accept: "application/json" };
        const absolute = /^https?:\/\//i.test(url);
        const auth = options.auth ?? "ticket";
        if (auth === "ticket") {
            headers["Authorization"] = await this.authorization(signal);
            if (this.settings.appId !== "")
                headers["X-Platform-AppId"] = this.settings.appId;
        }
        else if (typeof auth === "object" && auth.apiKey !== "") {
            headers["Authorization"] = `Bearer ${auth.apiKey}`;
        }
        if (options.contentType !== undefined)
            headers["Content-Type"] = options.contentType;
        const target = absolute ? url : this.settings.baseUrl + url;
        const path = pathOf(target);
        const ctrl = new AbortController();
        const timer = setTimeout(() => ctrl.abort(new Error(`timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
        const onAbort = () => ctrl.abort(signal?.reason);
        signal?.addEventListener("abort", onAbort, { once: true });
        try {
            const init = { method, headers, signal: ctrl.signal, redirect: "follow" };
            if (options.body !== undefined)
                init.body = options.body;
            return await read(await this.fetchFn(target, init));
        }
        catch (e) {
            if (signal?.aborted)
                throw signal.reason;
            throw new ArenaError("network_error", `${method} ${path}: ${describe(e)}`, { method, path, cause: e });
        }
        finally {
            clearTimeout(timer);
            signal?.removeEventListener("abort", onAbort);
        }
    }
    /**
     * Sends a JSON request and decodes a 200/201 answer. Returns undefined
     * for 204, throws ArenaError with the server's code for any other status
     * and `bad_response` for a body that is not JSON.
     */
    async json(method, path, body, options = {}) {
        const answer = await this.send(method, path, {
            ...(body === undefined ? {} : { body: JSON.stringify(body), contentType: "application/json" }),
            ...options,
        });
        return decode(method, path, answer);
    }
    /** json() for answers that must have a body (204 is `bad_response`). */
    async jsonBody(method, path, body, options = {}) {
        const out = await this.json(method, path, body, options);
        if (out === undefined)
            throw new ArenaError("bad_response", `${method} ${path}: 204 without a body`, { status: 204, method, path });
        return out;
    }
}
/** Decodes an answer: the body of a 200/201, undefined for 204, else an error. */
export function decode(method, path, answer) {
    if (answer.status === 204)
        return undefined;
    if (answer.status === 200 || answer.status === 201) {
        try {
            return JSON.parse(answer.text);
        }
        catch (e) {
            throw new ArenaError("bad_response", `${method} ${path}: the answer is not JSON`, { status: answer.status, method, path, cause: e });
        }
    }
    throw answerError(method, path, answer);
}
/**
 * The error of a non-success answer: the `error` member of a
 * `{ "error": "<code>" }` body, else `http_<status>`.
 */
export function answerError(method, path, answer) {
    let code = "";
    try {
        const body = JSON.parse(answer.text);
        if (body !== null && typeof body === "object" && typeof body.error === "string") {
            code = body.error;
        }
    }
    catch {
        // a body of another shape: no code
    }
    if (code === "")
        code = `http_${answer.status}`;
    return new ArenaError(code, `${method} ${path}: ${answer.status} ${code}`, { status: answer.status, method, path });
}
/** A URL's path without its query (an upload URL's signature stays out of errors). */
function pathOf(url) {
    try {
        return new URL(url).pathname;
    }
    catch {
        return url.replace(/\?.*$/, "");
    }
}
function describe(e) {
    if (e instanceof Error) {
        const cause = e.cause;
        return cause instanceof Error ? `${e.message} (${cause.message})` : e.message;
    }
    return String(e);
}
