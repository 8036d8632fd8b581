/**
 * Why the client refused to canonicalize a result, before anything was sent
 * (the shared contract's reason codes, exactly these strings).
 */
export type RefusalCode = "invalid_json" | "not_object" | "duplicate_key" | "lone_surrogate" | "unsafe_integer" | "non_finite" | "invalid_winner" | "invalid_nonce" | "invalid_match";
/**
 * Failures decided by the client itself, with nothing sent (or, for
 * `network_error`, nothing received):
 * - `disabled`: settings.enabled is false.
 * - `invalid_settings`: a setting cannot be used as given.
 * - `no_ticket`: the ticket provider failed or gave a malformed ticket.
 * - `network_error`: no HTTP status was received (connection failed, timed
 *   out, answer cut short). Status 0.
 * - `retries_exhausted`: every attempt of a retried call failed by network
 *   error or status >= 500; `cause` is the last failure, `status` its
 *   status, `attempts` the attempts made.
 * - `bad_response`: a 2xx answer that does not decode.
 * - `auto_discover_off`: waitForLiveMatch with settings.autoDiscover false.
 * - `no_live_match`: the submit's fresh discovery found no live match.
 * - `invalid_live_match`: discovery returned a match this client cannot
 *   report on (see isValidLiveMatch).
 * - `match_mismatch`: the live match is not the match the caller named.
 * - `not_participant`: the local account is on neither side (checked
 *   before sending; the server's 403 has the same code).
 * - `opponent_mismatch`: 1v1 anti-mixup: the opponent actually played is
 *   not the match's opponentPlatformId.
 * - `winner_not_on_side`: the winner is on neither side of the match.
 * - `invalid_score`: score is not two non-negative safe integers.
 * - `trace_inactive`, `invalid_trace`: see TraceRecorder.
 * - `not_replay`: bytes without a readable game.replay.v1 header.
 * - `log_invalid`: the arena's event log, its signed head or a saved head
 *   does not verify (verifyLog), or its tiles, checkpoint or a saved
 *   checkpoint (verifyTiles); thrown as a LogInvalidError.
 * - `receipt_invalid`: a receipt (C2SP tlog-proof) or checkpoint does not
 *   verify: its entry, proof or checkpoint was tampered with, or the
 *   checkpoint is not signed by the arena's log key (verifyReceipt).
 */
export type ClientErrorCode = RefusalCode | "disabled" | "invalid_settings" | "no_ticket" | "network_error" | "retries_exhausted" | "bad_response" | "auto_discover_off" | "no_live_match" | "invalid_live_match" | "match_mismatch" | "not_participant" | "opponent_mismatch" | "winner_not_on_side" | "invalid_score" | "trace_inactive" | "invalid_trace" | "not_replay" | "log_invalid" | "receipt_invalid";
/**
 * Codes the arena answers with (spec 7), as `{ "error": "<code>" }`. Newer
 * servers may add codes, so any string is accepted.
 */
export type ServerErrorCode = "missing_ticket" | "match_not_found" | "not_participant" | "already_resolved" | "not_live" | "already_submitted" | "unsupported_protocol" | "invalid_result" | "invalid_resultHash" | "hash_mismatch" | "result_not_for_match" | "invalid_winner" | "opponent_undecided" | "past_ready_phase" | "window_not_open" | "window_closed" | "upload_missing" | "invalid_recording" | "header_mismatch" | "plan_size_exceeded" | "recording_ended" | "internal";
/** Every code an ArenaError can carry. */
export type ArenaErrorCode = ClientErrorCode | ServerErrorCode | (string & {});
/** Options of an ArenaError beyond its code. */
export interface ArenaErrorOptions {
    /** HTTP status; 0 when no answer was received or the client refused. */
    status?: number;
    method?: string;
    /** The request path (an upload URL's path, never its signature). */
    path?: string;
    /** How many attempts were made when retries were exhausted. */
    attempts?: number;
    cause?: unknown;
}
/**
 * The one error type of the client. `code` is the server's `error` code for
 * a refused request (e.g. `already_submitted`), `http_<status>` for a
 * non-success answer without a code (a proxy's 502 page), or one of the
 * client's own codes (ClientErrorCode).
 */
export declare class ArenaError extends Error {
    readonly code: ArenaErrorCode;
    readonly status: number;
    readonly method: string | undefined;
    readonly path: string | undefined;
    readonly attempts: number | undefined;
    constructor(code: ArenaErrorCode, message?: string, options?: ArenaErrorOptions);
    /**
     * Whether the failure may be repeated: no status received (network) or a
     * server failure (status >= 500). Submits retry exactly these.
     */
    get retryable(): boolean;
}
/**
 * ArenaError `log_invalid` (verifyLog): the event log does not verify at
 * `seq`, the first seq that fails. Every event before it verified; `seq`
 * is the missing event of a gap, the event whose prevHash or hash is wrong,
 * the head whose signature fails or whose event differs, or the saved head
 * the log no longer holds.
 */
export declare class LogInvalidError extends ArenaError {
    readonly seq: number;
    constructor(seq: number, message: string);
}
