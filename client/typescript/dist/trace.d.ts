import type { LiveMatch } from "./match.js";
import { type Runtime } from "./runtime.js";
import type { CallOptions } from "./transport.js";
/** The gameplay-trace protocol. */
export declare const TRACE_PROTOCOL = "svc.gameplay.v1";
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
/**
 * Records a match's public gameplay for the AI referee and posts it when the
 * match ends. Actors are slots (1, 2; 0 for none), never me/opponent, so
 * both clients record the same trace. The recorder stamps seq and tMs (from
 * the game clock; it never goes back). A recorder for a match where the
 * referee is not active (see ArenaClient.refereeActive) records nothing.
 * Obtain one from ArenaClient.traceRecorder.
 */
export declare class TraceRecorder {
    private readonly rt;
    private readonly match;
    /** Whether the recorder records. */
    readonly active: boolean;
    private readonly events;
    private ended;
    private clock;
    /** @internal */
    constructor(rt: Runtime, match: LiveMatch, 
    /** Whether the recorder records. */
    active: boolean, gameClock?: () => number);
    private add;
    /** Records match_started at t=0. */
    begin(): void;
    roundStarted(round: number): void;
    /** The end of a round: its winner's slot (0: none) and both scores. */
    roundEnded(round: number, winnerSlot: Slot, p1Score: number, p2Score: number): void;
    /** Slot actor (1 or 2) is to move. */
    turnStarted(actor: 1 | 2): void;
    publicAction(actor: 1 | 2, action: string, target: ActionTarget): void;
    /** A public score change caused by slot actor (0: none), with both scores after it. */
    scoreChanged(actor: Slot, p1Score: number, p2Score: number): void;
    /** The canonical trace and its hash as they would be sent now. */
    trace(): Promise<Trace>;
    /**
     * Records match_ended (winner slot, reason) and returns the trace; the
     * recorder takes no more events. Rejects with `trace_inactive` when the
     * recorder is inert, `invalid_trace` for an unknown reason or a trace
     * that never began.
     */
    end(winnerSlot: Slot, reason: EndReason): Promise<Trace>;
    /**
     * end(), then POST the trace to the gameplay-trace endpoint, retried like
     * a result. A refused or disagreeing trace only keeps the match out of
     * training data.
     */
    endAndSubmit(winnerSlot: Slot, reason: EndReason, options?: CallOptions): Promise<TraceOutcome>;
}
