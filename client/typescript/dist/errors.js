/**
 * The one error type of the client. `code` is the server's `error` code for
 * a refused request (e.g. `already_submitted`), `http_<status>` for a
 * non-success answer without a code (a proxy's 502 page), or one of the
 * client's own codes (ClientErrorCode).
 */
export class ArenaError extends Error {
    code;
    status;
    method;
    path;
    attempts;
    constructor(code, message, options = {}) {
        super(message ?? code, options.cause === undefined ? undefined : { cause: options.cause });
        this.name = "ArenaError";
        this.code = code;
        this.status = options.status ?? 0;
        this.method = options.method;
        this.path = options.path;
        this.attempts = options.attempts;
    }
    /**
     * Whether the failure may be repeated: no status received (network) or a
     * server failure (status >= 500). Submits retry exactly these.
     */
    get retryable() {
        return this.code === "network_error" || (this.code !== "retries_exhausted" && this.status >= 500);
    }
}
/**
 * ArenaError `log_invalid` (verifyLog): the event log does not verify at
 * `seq`, the first seq that fails. Every event before it verified; `seq`
 * is the missing event of a gap, the event whose prevHash or hash is wrong,
 * the head whose signature fails or whose event differs, or the saved head
 * the log no longer holds.
 */
export class LogInvalidError extends ArenaError {
    seq;
    constructor(seq, message) {
        super("log_invalid", message);
        this.name = "LogInvalidError";
        this.seq = seq;
    }
}
