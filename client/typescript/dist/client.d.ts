import { type GameResult } from "./canonical.js";
import { type LiveMatch, type MatchStatus, type PublicMatch, type SeriesScore, type ReadyState, type UpcomingMatch } from "./match.js";
import { Recordings } from "./recordings.js";
import { type ArenaSettings, type ArenaSettingsInput } from "./settings.js";
import { Titles } from "./titles.js";
import { TraceRecorder } from "./trace.js";
import { type CallOptions, type FetchLike, type Sleep, type TicketProvider } from "./transport.js";
/** How long one request may take before it counts as a network failure. */
export declare const DEFAULT_TIMEOUT_MS = 30000;
/** Settings plus the client's outside world. */
export interface ArenaClientOptions extends ArenaSettingsInput {
    /** Required unless mockSteamId is set (or the client is disabled). */
    tickets?: TicketProvider;
    /** Default: globalThis.fetch. */
    fetch?: FetchLike;
    /** The clock endedAt is read from. Default: the system clock. */
    now?: () => Date;
    /** Backoff and polling waits go through it. Default: setTimeout. */
    sleep?: Sleep;
    /** Multiplies submit backoff waits; default 1, 0 for no waits (tests). */
    backoffScale?: number;
    /** Per-request timeout; default 30 s. */
    timeoutMs?: number;
    /** Receives the failures retries and polling tolerate. Default: discarded. */
    log?: (message: string) => void;
}
/** A game's score in slot order; non-negative integers, never hashed. */
export interface Score {
    p1: number;
    p2: number;
}
/** What the game reports after a session. */
export interface SubmitInput {
    /** The game's own result: JSON text, UTF-8 bytes, or an object. */
    result: GameResult;
    /** The winner's platform id; "" is a draw: nothing is submitted. */
    winner: string;
    /** The opponent actually played (1v1 anti-mixup; ignored in team mode). */
    opponentId: string;
    /** The local player's platform id. Default: settings.mockSteamId. */
    localAccountId?: string;
    /** When given, the live match must be this one (else `match_mismatch`). */
    matchId?: number;
    /**
     * With matchId: the game of the series the game played. When discovery
     * shows the match at another game, or no live match, that game is over:
     * nothing is posted and the public match says how it ended (a lost
     * answer across a restart).
     */
    game?: number;
    /** Sent as score when the game has one. */
    score?: Score;
    /** Sent as startedAt when given. */
    startedAt?: Date;
    /**
     * The live match the game holds: the one discovery gave it when the
     * session began (liveMatch). Given, submit posts on it without a fresh
     * discovery, one round trip instead of two (docs/protocol.md "Submitting
     * on the held match"); the checks of steps 3 to 5 run on it, and the
     * arena refuses a match no longer live (409 not_live, already_resolved)
     * as it would after discovery. matchId and game, when given, must name it.
     */
    held?: LiveMatch;
}
/**
 * The arena's verdict on a submission (spec 2.3), or `decided` (lost answer
 * resolved), or `undecided` (after a restart: no live match, and the
 * match played is not decided; nothing was sent).
 */
export type SubmitStatus = "pending" | "confirmed" | "disputed" | "duplicate" | "decided" | "undecided";
/** What a submit sent and what the arena answered. */
export interface Submission {
    status: SubmitStatus;
    /** The match's status after the call. */
    matchStatus: MatchStatus;
    matchId: number;
    /** The canonical result string: exactly the bytes hashed and posted. */
    result: string;
    /** Lowercase hex SHA-256 of result. */
    resultHash: string;
    /** POSTs made, 1..maxSubmitAttempts. */
    attempts: number;
    /** For `decided`: the decided winner's platform id. */
    winner?: string;
    /**
     * For `decided` after a restart: whether the winner is the caller's side;
     * absent when the public match cannot tell (a team member who is not a
     * captain, or no winner).
     */
    won?: boolean;
    /** In a series (bestOf > 1): the game this submission is for (absent after a restart without input.game). */
    game?: number;
    /** In a series: its length. */
    bestOf?: number;
    /**
     * In a series: the score after this submission as far as the client
     * knows: discovery's, plus the game when the answer confirmed it, or the
     * public match's after a look-up.
     */
    seriesScore?: SeriesScore;
}
/**
 * Whether the submission's game is decided and its series is not: the
 * game readies for the next game (ready) and plays it. matchStatus is then
 * scheduled (or live, when both sides readied already).
 */
export declare function seriesGoesOn(s: Submission | Draw): boolean;
/** A draw: the protocol has none, so nothing was submitted (spec 4.4). */
export interface Draw {
    status: "draw";
}
/**
 * The arena game client of spec 4.4 for one arena and the local player.
 * Every network method rejects with ArenaError (the server's code, or one
 * of ClientErrorCode), or with the signal's reason when aborted.
 */
export declare class ArenaClient {
    /** The normalized settings the client runs with. */
    readonly settings: ArenaSettings;
    /** Recordings and near-live segments. */
    readonly recordings: Recordings;
    /** E-sport titles: list, challenge, respond, volunteer. */
    readonly titles: Titles;
    private readonly rt;
    /**
     * @throws ArenaError `invalid_settings` (see validateSettings), or
     *   `no_ticket` for an enabled client with neither tickets nor mockSteamId.
     */
    constructor(options?: ArenaClientOptions);
    /**
     * The caller's live match (GET /api/v1/me/live-match), or null when there
     * is none (204, also when the AppID gate hides it). Returned as sent:
     * check isValidLiveMatch before relying on it.
     */
    liveMatch(options?: CallOptions): Promise<LiveMatch | null>;
    /** The caller's next match (GET /api/v1/me/upcoming-match), or null (204). */
    upcomingMatch(options?: CallOptions): Promise<UpcomingMatch | null>;
    /**
     * Marks the caller ready (POST /api/v1/matches/{id}/ready). Refusals:
     * not_participant, match_not_found, opponent_undecided, past_ready_phase,
     * window_not_open, window_closed.
     */
    ready(matchId: number, options?: CallOptions): Promise<ReadyState>;
    /**
     * The public match object (GET /api/v1/matches/{id}, no ticket): how a
     * lost answer is resolved. 404 is `match_not_found`.
     */
    publicMatch(matchId: number, options?: CallOptions): Promise<PublicMatch>;
    /**
     * Polls liveMatch until it returns a valid match and returns it. The
     * first poll is immediate, then one every autoDiscoverIntervalSeconds.
     * Transient failures (none yet, an invalid match, network, 5xx, bad
     * answers, ticket failures) are logged and polling goes on; a 4xx stops
     * it (the arena refuses this client), as does the signal. Rejects with
     * `disabled` or `auto_discover_off` without a request.
     */
    waitForLiveMatch(options?: CallOptions): Promise<LiveMatch>;
    /**
     * Whether the game should trace gameplay for m: enableReferee is on and
     * the arena runs the referee with both players' consent complete.
     */
    refereeActive(m: LiveMatch | null | undefined): boolean;
    /**
     * A trace recorder for match m (inert unless refereeActive(m)). gameClock
     * returns the game's own milliseconds since the match started, the same
     * on both machines; without it wall time from begin() is used.
     */
    traceRecorder(m: LiveMatch, gameClock?: () => number): TraceRecorder;
    /** Records the local player's AI-referee training consent. */
    setRefereeConsent(granted: boolean, options?: CallOptions): Promise<void>;
    /**
     * Reports the session the local player just played, per spec 4.4:
     *
     * 1. Disabled: `disabled`. Empty winner: a draw, resolves `{ status: "draw" }`
     *    without a request.
     * 2. Fresh discovery: none is `no_live_match` (but with input.matchId the
     *    match is looked up: `decided` or `undecided`, see afterRestart), an unusable match
     *    `invalid_live_match`, another match than input.matchId `match_mismatch`.
     * 3. The local account must be on a side (`not_participant`); in 1v1 the
     *    opponent played must be opponentPlatformId (`opponent_mismatch`); the
     *    winner must be on a side (`winner_not_on_side`).
     * 4. canonicalResult with the reserved keys merged (its RefusalCode on
     *    failure), SHA-256, and POST with protocol svc.result.v3, clientRole,
     *    endedAt (the clock's now, UTC, read once so every attempt posts the
     *    same body) and score.
     *
     * Network failures and statuses >= 500 are retried up to
     * maxSubmitAttempts, waiting 2^(maxSubmitAttempts - attemptsLeft + 1) s
     * (times backoffScale), then `retries_exhausted`; any 4xx is final. A lost answer (a retry after a
     * failure answered 409 already_resolved or 200 duplicate) is resolved by
     * the public match: decided with this client's winner on the winning side
     * is `decided`; otherwise a duplicate stays the server's answer (this
     * side's hash is recorded, e.g. the match still awaits the other side)
     * and already_resolved stays a failure with its code.
     */
    submit(input: SubmitInput, options?: CallOptions): Promise<Submission | Draw>;
    /** The attempts of a submit, with the lost-answer rule. */
    private postResult;
    /**
     * No live match for the match the game played (input.matchId), or, with
     * input.game, the series at another game: the game may have sent its
     * result and stopped (crash, lost connection) before reading the answer,
     * and the match (or the game) was decided since. The public match says
     * how it ended: `decided` (winner, won) or `undecided`; nothing is
     * posted. In a series with input.game, the game is looked for among the
     * decided games: decided, its winner is reported with the series score
     * and the match's status (scheduled or live: the series goes on). A
     * match the arena does not know stays `no_live_match`.
     */
    private afterRestart;
    /**
     * Looks the match up after a retry met already_resolved or, in a series,
     * not_live (refusal set) or duplicate (refusal undefined; submission is
     * the server's answer). In a series the game played (m.game) is looked
     * for among the decided games.
     */
    private resolveLostAnswer;
}
