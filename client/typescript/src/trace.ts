import { canonicalize, sha256Hex } from "./canonical.js";
import { ArenaError } from "./errors.js";
import type { LiveMatch } from "./match.js";
import { retry, type Runtime } from "./runtime.js";
import type { CallOptions } from "./transport.js";

/** The gameplay-trace protocol. */
export const TRACE_PROTOCOL = "svc.gameplay.v1";

/** Why a traced match ended (spec 4.4). */
export type EndReason = "normal" | "forfeit" | "disconnect" | "timeout";

/** Target of a public action; "" for none. */
export type ActionTarget = "p1" | "p2" | "board" | "";

/** A side by slot; 0 means none. */
export type Slot = 0 | 1 | 2;

/** The arena's verdict on a trace; it never changes the match's result. */
export interface TraceOutcome {
  /** pending, agreed, disagreed or duplicate. */
  status: string;
  /** pending, usable or excluded. */
  training: string;
}

/** A canonical trace and its hash, as posted. */
export interface Trace {
  trace: string;
  traceHash: string;
}

type TraceEvent = Record<string, string | number> & { seq: number; tMs: number; type: string };

const END_REASONS: readonly string[] = ["normal", "forfeit", "disconnect", "timeout"];

/**
 * Records a match's public gameplay for the AI referee and posts it when the
 * match ends. Actors are slots (1, 2; 0 for none), never me/opponent, so
 * both clients record the same trace. The recorder stamps seq and tMs (from
 * the game clock; it never goes back). A recorder for a match where the
 * referee is not active (see ArenaClient.refereeActive) records nothing.
 * Obtain one from ArenaClient.traceRecorder.
 */
export class TraceRecorder {
  private readonly events: TraceEvent[] = [];
  private ended = false;
  private clock: (() => number) | undefined;

  /** @internal */
  constructor(
    private readonly rt: Runtime,
    private readonly match: LiveMatch,
    /** Whether the recorder records. */
    readonly active: boolean,
    gameClock?: () => number,
  ) {
    this.clock = gameClock;
  }

  private add(type: string, fields: Record<string, string | number> = {}): void {
    if (!this.active || this.ended || (this.events.length === 0) !== (type === "match_started")) return;
    if (this.clock === undefined) {
      const start = this.rt.now().getTime();
      this.clock = () => this.rt.now().getTime() - start;
    }
    const last = this.events[this.events.length - 1];
    const tMs = Math.max(Math.floor(this.clock()), last?.tMs ?? 0);
    this.events.push({ ...fields, seq: this.events.length + 1, tMs, type });
  }

  /** Records match_started at t=0. */
  begin(): void {
    this.add("match_started");
  }

  roundStarted(round: number): void {
    this.add("round_started", { round });
  }

  /** The end of a round: its winner's slot (0: none) and both scores. */
  roundEnded(round: number, winnerSlot: Slot, p1Score: number, p2Score: number): void {
    this.add("round_ended", { round, winnerSlot, p1Score, p2Score });
  }

  /** Slot actor (1 or 2) is to move. */
  turnStarted(actor: 1 | 2): void {
    this.add("turn_started", { actor });
  }

  publicAction(actor: 1 | 2, action: string, target: ActionTarget): void {
    this.add("public_action", { actor, action, target });
  }

  /** A public score change caused by slot actor (0: none), with both scores after it. */
  scoreChanged(actor: Slot, p1Score: number, p2Score: number): void {
    this.add("score_changed", { actor, p1Score, p2Score });
  }

  /** The canonical trace and its hash as they would be sent now. */
  async trace(): Promise<Trace> {
    const trace = canonicalize({
      matchId: this.match.matchId,
      sessionNonce: this.match.sessionNonce,
      ruleset: this.rt.settings.refereeRuleset,
      schema: this.rt.settings.refereeTraceSchema,
      events: this.events,
    });
    return { trace, traceHash: await sha256Hex(trace) };
  }

  /**
   * Records match_ended (winner slot, reason) and returns the trace; the
   * recorder takes no more events. Rejects with `trace_inactive` when the
   * recorder is inert, `invalid_trace` for an unknown reason or a trace
   * that never began.
   */
  async end(winnerSlot: Slot, reason: EndReason): Promise<Trace> {
    if (!this.active) throw new ArenaError("trace_inactive", "the referee is not active for this match");
    if (!END_REASONS.includes(reason)) throw new ArenaError("invalid_trace", `reason ${JSON.stringify(reason)} is not normal, forfeit, disconnect or timeout`);
    this.add("match_ended", { winnerSlot, reason });
    if (this.events.length === 0) throw new ArenaError("invalid_trace", "begin() was never called");
    this.ended = true;
    return this.trace();
  }

  /**
   * end(), then POST the trace to the gameplay-trace endpoint, retried like
   * a result. A refused or disagreeing trace only keeps the match out of
   * training data.
   */
  async endAndSubmit(winnerSlot: Slot, reason: EndReason, options: CallOptions = {}): Promise<TraceOutcome> {
    const { trace, traceHash } = await this.end(winnerSlot, reason);
    const envelope = { protocol: TRACE_PROTOCOL, slot: this.match.slot, trace, traceHash };
    const path = `/api/v1/matches/${this.match.matchId}/gameplay-trace`;
    return retry(this.rt, "gameplay trace", () => this.rt.transport.jsonBody<TraceOutcome>("POST", path, envelope, options), options.signal);
  }
}
