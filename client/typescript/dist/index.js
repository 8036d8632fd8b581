/**
 * Arena game client (spec 4.4) for browsers, Node 20+ and Workers, and a
 * verifier of an arena's public event log and its receipts: fetch only, crypto.subtle for
 * SHA-256 and Ed25519, no runtime dependencies.
 *
 * @module
 */
export { ArenaClient, DEFAULT_TIMEOUT_MS, seriesGoesOn } from "./client.js";
export { RESERVED_KEYS, canonicalResult, canonicalize, hashResult, sha256Hex } from "./canonical.js";
export { ArenaError, LogInvalidError } from "./errors.js";
export { DEFAULT_READ_RETRIES, GENESIS_HASH, VERIFY_LOG_PAGE, eventHash, headMessage, retryAfterMs, verifyHead, verifyLog } from "./eventlog.js";
export { TILE_HEIGHT, TLOG_PROOF_HEADER, leafHash, nodeHash, parseReceipt, tilePath, verifyCheckpoint, verifyInclusion, verifyReceipt, verifyTiles, } from "./tlog.js";
export { RESULT_PROTOCOL, castPolicy, decidedGame, isCasual, isSeries, isTeam, isValidLiveMatch, sideOf } from "./match.js";
export { Recordings, UPLOAD_CONTENT_TYPE } from "./recordings.js";
export { REPLAY_FORMAT, ReplayWriter, gzip, matchHeader, readReplayHeader } from "./replay.js";
export { submitBackoffSeconds } from "./runtime.js";
export { DEFAULT_DISCOVER_INTERVAL_SECONDS, DEFAULT_MAX_SUBMIT_ATTEMPTS, DEFAULT_REFEREE_RULESET, DEFAULT_REFEREE_TRACE_SCHEMA, MAX_DISCOVER_INTERVAL_SECONDS, MAX_SUBMIT_ATTEMPTS, MIN_DISCOVER_INTERVAL_SECONDS, MIN_SUBMIT_ATTEMPTS, PLATFORM_ID_PATTERN, TRACE_SCHEMA_PATTERN, normalizeSettings, validateSettings, } from "./settings.js";
export { Titles } from "./titles.js";
export { TRACE_PROTOCOL, TraceRecorder } from "./trace.js";
export { sleep } from "./transport.js";
