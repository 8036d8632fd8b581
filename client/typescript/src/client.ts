import { canonicalResult, sha256Hex, type GameResult } from "./canonical.js";
import { ArenaError } from "./errors.js";
import {
  RESULT_PROTOCOL,
  decidedGame,
  isSeries,
  isTeam,
  isValidLiveMatch,
  sideOf,
  type LiveMatch,
  type MatchStatus,
  type PublicMatch,
  type PublicPlayer,
  type SeriesScore,
  type ReadyState,
  type UpcomingMatch,
} from "./match.js";
import { Recordings } from "./recordings.js";
import { ensureEnabled, exhausted, submitBackoffSeconds, type Runtime } from "./runtime.js";
import { normalizeSettings, validateSettings, type ArenaSettings, type ArenaSettingsInput } from "./settings.js";
import { Titles } from "./titles.js";
import { TraceRecorder } from "./trace.js";
import { Transport, answerError, sleep as realSleep, type CallOptions, type FetchLike, type Sleep, type TicketProvider } from "./transport.js";

/** How long one request may take before it counts as a network failure. */
export const DEFAULT_TIMEOUT_MS = 30_000;

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
export function seriesGoesOn(s: Submission | Draw): boolean {
  return (
    (s.status === "confirmed" || s.status === "decided") &&
    (s as Submission).matchStatus !== "confirmed" &&
    (s as Submission).matchStatus !== "forfeited"
  );
}

/** A draw: the protocol has none, so nothing was submitted (spec 4.4). */
export interface Draw {
  status: "draw";
}

/** The body of POST /api/v1/matches/{id}/result (spec 2.3). */
interface ResultSubmission {
  protocol: string;
  result: string;
  resultHash: string;
  clientRole?: string;
  startedAt?: string;
  endedAt: string;
  score?: Score;
}

interface ResultAnswer {
  status: "pending" | "confirmed" | "disputed" | "duplicate";
  matchStatus: MatchStatus;
}

/**
 * The arena game client of spec 4.4 for one arena and the local player.
 * Every network method rejects with ArenaError (the server's code, or one
 * of ClientErrorCode), or with the signal's reason when aborted.
 */
export class ArenaClient {
  /** The normalized settings the client runs with. */
  readonly settings: ArenaSettings;
  /** Recordings and near-live segments. */
  readonly recordings: Recordings;
  /** E-sport titles: list, challenge, respond, volunteer. */
  readonly titles: Titles;
  private readonly rt: Runtime;

  /**
   * @throws ArenaError `invalid_settings` (see validateSettings), or
   *   `no_ticket` for an enabled client with neither tickets nor mockSteamId.
   */
  constructor(options: ArenaClientOptions = {}) {
    const settings = normalizeSettings(options);
    validateSettings(settings);
    if (settings.enabled && settings.mockSteamId === "" && options.tickets === undefined) {
      throw new ArenaError("no_ticket", "an enabled client needs a ticket provider or a mockSteamId");
    }
    const fetchFn: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    const scale = options.backoffScale ?? 1;
    this.settings = settings;
    this.rt = {
      settings,
      transport: new Transport(settings, fetchFn, options.tickets, options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      now: options.now ?? (() => new Date()),
      sleep: options.sleep ?? realSleep,
      backoffScale: Number.isFinite(scale) && scale >= 0 ? scale : 1,
      log: options.log ?? (() => {}),
    };
    this.recordings = new Recordings(this.rt);
    this.titles = new Titles(this.rt);
  }

  /**
   * The caller's live match (GET /api/v1/me/live-match), or null when there
   * is none (204, also when the AppID gate hides it). Returned as sent:
   * check isValidLiveMatch before relying on it.
   */
  async liveMatch(options: CallOptions = {}): Promise<LiveMatch | null> {
    ensureEnabled(this.rt);
    return (await this.rt.transport.json<LiveMatch>("GET", "/api/v1/me/live-match", undefined, options)) ?? null;
  }

  /** The caller's next match (GET /api/v1/me/upcoming-match), or null (204). */
  async upcomingMatch(options: CallOptions = {}): Promise<UpcomingMatch | null> {
    ensureEnabled(this.rt);
    return (await this.rt.transport.json<UpcomingMatch>("GET", "/api/v1/me/upcoming-match", undefined, options)) ?? null;
  }

  /**
   * Marks the caller ready (POST /api/v1/matches/{id}/ready). Refusals:
   * not_participant, match_not_found, opponent_undecided, past_ready_phase,
   * window_not_open, window_closed.
   */
  async ready(matchId: number, options: CallOptions = {}): Promise<ReadyState> {
    ensureEnabled(this.rt);
    return this.rt.transport.jsonBody<ReadyState>("POST", `/api/v1/matches/${matchId}/ready`, undefined, options);
  }

  /**
   * The public match object (GET /api/v1/matches/{id}, no ticket): how a
   * lost answer is resolved. 404 is `match_not_found`.
   */
  async publicMatch(matchId: number, options: CallOptions = {}): Promise<PublicMatch> {
    ensureEnabled(this.rt);
    return this.rt.transport.jsonBody<PublicMatch>("GET", `/api/v1/matches/${matchId}`, undefined, { ...options, auth: "none" });
  }

  /**
   * Polls liveMatch until it returns a valid match and returns it. The
   * first poll is immediate, then one every autoDiscoverIntervalSeconds.
   * Transient failures (none yet, an invalid match, network, 5xx, bad
   * answers, ticket failures) are logged and polling goes on; a 4xx stops
   * it (the arena refuses this client), as does the signal. Rejects with
   * `disabled` or `auto_discover_off` without a request.
   */
  async waitForLiveMatch(options: CallOptions = {}): Promise<LiveMatch> {
    ensureEnabled(this.rt);
    if (!this.settings.autoDiscover) throw new ArenaError("auto_discover_off", "auto-discovery is off");
    const { signal } = options;
    for (;;) {
      signal?.throwIfAborted();
      try {
        const m = await this.liveMatch(options);
        if (m !== null && isValidLiveMatch(m)) return m;
        if (m !== null) this.rt.log(`live match ${m.matchId} is not valid for ${RESULT_PROTOCOL}; polling on`);
      } catch (e) {
        if (signal?.aborted) throw signal.reason;
        if (e instanceof ArenaError && e.status >= 400 && e.status < 500) throw e;
        this.rt.log(`live-match poll failed: ${e instanceof Error ? e.message : String(e)}`);
      }
      await this.rt.sleep(this.settings.autoDiscoverIntervalSeconds * 1000, signal);
    }
  }

  /**
   * Whether the game should trace gameplay for m: enableReferee is on and
   * the arena runs the referee with both players' consent complete.
   */
  refereeActive(m: LiveMatch | null | undefined): boolean {
    return this.settings.enabled && this.settings.enableReferee && m?.refereeM0?.enabled === true && m.refereeM0.consentComplete === true;
  }

  /**
   * A trace recorder for match m (inert unless refereeActive(m)). gameClock
   * returns the game's own milliseconds since the match started, the same
   * on both machines; without it wall time from begin() is used.
   */
  traceRecorder(m: LiveMatch, gameClock?: () => number): TraceRecorder {
    return new TraceRecorder(this.rt, m, this.refereeActive(m), gameClock);
  }

  /** Records the local player's AI-referee training consent. */
  async setRefereeConsent(granted: boolean, options: CallOptions = {}): Promise<void> {
    ensureEnabled(this.rt);
    await this.rt.transport.json("POST", "/api/v1/me/referee-consent", { granted }, options);
  }

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
  async submit(input: SubmitInput, options: CallOptions = {}): Promise<Submission | Draw> {
    ensureEnabled(this.rt);
    const { signal } = options;
    if (input.winner === "") return { status: "draw" };
    if (input.score !== undefined && !validScore(input.score)) {
      throw new ArenaError("invalid_score", "score must be two non-negative integers");
    }
    const held = input.held;
    if (held !== undefined && input.game !== undefined && input.game > 0 && held.matchId === input.matchId && held.game !== input.game) {
      throw new ArenaError("match_mismatch", `played game ${input.game}, the held match is at game ${held.game}`);
    }
    const m = held ?? (await this.liveMatch(options));
    if (m === null) {
      if (input.matchId !== undefined) return this.afterRestart(input, signal);
      throw new ArenaError("no_live_match", "no live match");
    }
    if (input.matchId !== undefined && input.game !== undefined && input.game > 0 && m.matchId === input.matchId && m.game !== input.game) {
      return this.afterRestart(input, signal); // the series moved on from the game played
    }
    if (!isValidLiveMatch(m)) throw new ArenaError("invalid_live_match", `live match ${m.matchId} (slot ${m.slot}, protocol ${m.resultProtocol}) cannot be reported on`);
    if (input.matchId !== undefined && input.matchId !== m.matchId) {
      throw new ArenaError("match_mismatch", `the live match is ${m.matchId}, not ${input.matchId}`);
    }
    const local = input.localAccountId ?? this.settings.mockSteamId;
    if (sideOf(m, local) === 0) throw new ArenaError("not_participant", `${local} is not a player of match ${m.matchId}`);
    if (!isTeam(m) && input.opponentId !== m.opponentPlatformId) {
      throw new ArenaError("opponent_mismatch", `played ${input.opponentId}, match ${m.matchId} expects ${m.opponentPlatformId}`);
    }
    if (sideOf(m, input.winner) === 0) throw new ArenaError("winner_not_on_side", `${input.winner} is on neither side of match ${m.matchId}`);

    const result = canonicalResult(input.result, { matchId: m.matchId, sessionNonce: m.sessionNonce, winner: input.winner });
    const resultHash = await sha256Hex(result);
    const body: ResultSubmission = { protocol: RESULT_PROTOCOL, result, resultHash, endedAt: isoSeconds(this.rt.now()) };
    if (this.settings.clientRole !== "") body.clientRole = this.settings.clientRole;
    if (input.startedAt !== undefined) body.startedAt = isoSeconds(input.startedAt);
    if (input.score !== undefined) body.score = { p1: input.score.p1, p2: input.score.p2 };
    const sent: Sent = { matchId: m.matchId, result, resultHash };
    if (isSeries(m)) Object.assign(sent, { game: m.game, bestOf: m.bestOf, seriesScore: { p1: m.seriesScore?.p1 ?? 0, p2: m.seriesScore?.p2 ?? 0 } });
    return this.postResult(m, input.winner, sent, JSON.stringify(body), signal);
  }

  /** The attempts of a submit, with the lost-answer rule. */
  private async postResult(
    m: LiveMatch,
    winner: string,
    sent: Sent,
    body: string,
    signal: AbortSignal | undefined,
  ): Promise<Submission> {
    const path = `/api/v1/matches/${m.matchId}/result`;
    const maxAttempts = this.settings.maxSubmitAttempts;
    let attemptsLeft = maxAttempts;
    let attempts = 0;
    let failedBefore = false; // an earlier attempt may have landed unseen
    for (;;) {
      attempts++;
      attemptsLeft--;
      let failure: ArenaError;
      try {
        const answer = await this.rt.transport.send("POST", path, { body, contentType: "application/json", signal });
        if (answer.status === 204) throw new ArenaError("bad_response", `POST ${path}: 204 without a status`, { status: 204, method: "POST", path });
        if (answer.status === 200 || answer.status === 201) {
          const verdict = parseVerdict(path, answer.text);
          const submission: Submission = { ...sent, status: verdict.status, matchStatus: verdict.matchStatus, attempts };
          if (verdict.status === "confirmed" && submission.seriesScore !== undefined) {
            const side = sideOf(m, winner);
            submission.seriesScore = { p1: submission.seriesScore.p1 + (side === 1 ? 1 : 0), p2: submission.seriesScore.p2 + (side === 2 ? 1 : 0) };
          }
          if (failedBefore && verdict.status === "duplicate") return this.resolveLostAnswer(m, winner, submission, undefined, signal);
          return submission;
        }
        failure = answerError("POST", path, answer);
        if (!failure.retryable) {
          if (failedBefore && (failure.code === "already_resolved" || (isSeries(m) && failure.code === "not_live"))) {
            return this.resolveLostAnswer(m, winner, { ...sent, status: "pending", matchStatus: "", attempts }, failure, signal);
          }
          throw failure;
        }
      } catch (e) {
        if (signal?.aborted) throw signal.reason;
        if (!(e instanceof ArenaError) || !e.retryable) throw e;
        failure = e;
      }
      failedBefore = true;
      if (attemptsLeft === 0) throw exhausted(failure, attempts);
      const waitMs = submitBackoffSeconds(maxAttempts, attemptsLeft) * 1000 * this.rt.backoffScale;
      this.rt.log(`submit match ${m.matchId}: attempt ${attempts} failed, retrying in ${waitMs} ms: ${failure.message}`);
      await this.rt.sleep(waitMs, signal);
    }
  }

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
  private async afterRestart(input: SubmitInput, signal: AbortSignal | undefined): Promise<Submission> {
    const matchId = input.matchId as number;
    let pm: PublicMatch;
    try {
      pm = await this.publicMatch(matchId, { ...(signal === undefined ? {} : { signal }) });
    } catch (e) {
      if (e instanceof ArenaError && e.code === "match_not_found") {
        throw new ArenaError("no_live_match", `no live match, and match ${matchId} is not known either`, { cause: e });
      }
      throw e;
    }
    const out: Submission = { status: "undecided", matchStatus: pm.status, matchId, result: "", resultHash: "", attempts: 0 };
    let won: PublicPlayer | null = null;
    if (isSeries(pm)) {
      if (input.game !== undefined && input.game > 0) out.game = input.game;
      out.bestOf = pm.bestOf as number;
      out.seriesScore = { p1: pm.seriesScore?.p1 ?? 0, p2: pm.seriesScore?.p2 ?? 0 };
      const game = input.game === undefined ? undefined : decidedGame(pm, input.game);
      if (game !== undefined) {
        out.status = "decided";
        won = game.winner;
      }
    }
    if (out.status === "undecided" && (pm.status === "confirmed" || pm.status === "forfeited")) {
      out.status = "decided";
      won = pm.winner;
    }
    if (won != null) {
      out.winner = won.platformId;
      const side = (id: string | undefined) => (id === undefined ? 0 : id === pm.player1?.platformId ? 1 : id === pm.player2?.platformId ? 2 : 0);
      const local = side(input.localAccountId ?? this.settings.mockSteamId);
      const w = side(won.platformId);
      if (local !== 0 && w !== 0) out.won = local === w;
    }
    return out;
  }

  /**
   * Looks the match up after a retry met already_resolved or, in a series,
   * not_live (refusal set) or duplicate (refusal undefined; submission is
   * the server's answer). In a series the game played (m.game) is looked
   * for among the decided games.
   */
  private async resolveLostAnswer(
    m: LiveMatch,
    winner: string,
    submission: Submission,
    refusal: ArenaError | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Submission> {
    let pm: PublicMatch;
    try {
      pm = await this.publicMatch(m.matchId, { ...(signal === undefined ? {} : { signal }) });
    } catch (e) {
      if (signal?.aborted) throw signal.reason;
      this.rt.log(`submit match ${m.matchId}: look-up after a lost answer failed: ${e instanceof Error ? e.message : String(e)}`);
      if (refusal !== undefined) throw refusal;
      return submission; // the duplicate answer stands: this side's hash is recorded
    }
    let won: PublicPlayer | null | undefined;
    if (isSeries(m)) won = decidedGame(pm, m.game ?? 0)?.winner;
    else if (pm.status === "confirmed" || pm.status === "forfeited") won = pm.winner;
    const decidedWinner = won?.platformId ?? "";
    if (decidedWinner !== "" && sameSide(m, decidedWinner, winner)) {
      const out: Submission = { ...submission, status: "decided", matchStatus: pm.status, winner: decidedWinner };
      if (isSeries(m)) out.seriesScore = { p1: pm.seriesScore?.p1 ?? 0, p2: pm.seriesScore?.p2 ?? 0 };
      return out;
    }
    if (refusal !== undefined) throw refusal;
    return submission; // the duplicate answer stands: this side's hash is recorded
  }
}

/** What a submit sent: the fields every answer carries. */
type Sent = Pick<Submission, "matchId" | "result" | "resultHash" | "game" | "bestOf" | "seriesScore">;

/** Whether a and b are on the same side: the same id in 1v1, the same roster in team mode. */
function sameSide(m: LiveMatch, a: string, b: string): boolean {
  if (!isTeam(m)) return a === b;
  const side = sideOf(m, a);
  return side !== 0 && side === sideOf(m, b);
}

function parseVerdict(path: string, text: string): ResultAnswer {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new ArenaError("bad_response", `POST ${path}: the answer is not JSON`, { status: 200, method: "POST", path, cause: e });
  }
  const a = v as Partial<ResultAnswer> | null;
  if (a === null || typeof a !== "object" || typeof a.status !== "string") {
    throw new ArenaError("bad_response", `POST ${path}: no status in the answer`, { status: 200, method: "POST", path });
  }
  return { status: a.status, matchStatus: typeof a.matchStatus === "string" ? a.matchStatus : "" };
}

function validScore(s: Score): boolean {
  return Number.isSafeInteger(s.p1) && s.p1 >= 0 && Number.isSafeInteger(s.p2) && s.p2 >= 0;
}

/** RFC 3339 UTC with whole seconds, as the Go client writes endedAt. */
function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, "Z");
}
