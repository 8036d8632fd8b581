import { canonicalize, sha256Hex } from "./canonical.js";
import { ArenaError } from "./errors.js";
import { retry } from "./runtime.js";
/** The gameplay-trace protocol. */
export const TRACE_PROTOCOL = "svc.gameplay.v1";
const END_REASONS = ["normal", "forfeit", "disconnect", "timeout"];
/**
 * Records a match's public gameplay for the AI referee and posts it when the
 * match ends. Actors are slots (1, 2; 0 for none), never me/opponent, so
 * both clients record the same trace. The recorder stamps seq and tMs (from
 * the game clock; it never goes back). A recorder for a match where the
 * referee is not active (see ArenaClient.refereeActive) records nothing.
 * Obtain one from ArenaClient.traceRecorder.
 */
export class TraceRecorder {
    rt;
    match;
    active;
    events = [];
    ended = false;
    clock;
    /** @internal */
    constructor(rt, match, 
    /** Whether the recorder records. */
    active, gameClock) {
        this.rt = rt;
        this.match = match;
        this.active = active;
        this.clock = gameClock;
    }
    add(type, fields = {}) {
        if (!this.active || this.ended || (this.events.length === 0) !== (type === "match_started"))
            return;
        if (this.clock === undefined) {
            const start = this.rt.now().getTime();
            this.clock = () => this.rt.now().getTime() - start;
        }
        const last = this.events[this.events.length - 1];
        const tMs = Math.max(Math.floor(this.clock()), last?.tMs ?? 0);
        this.events.push({ ...fields, seq: this.events.length + 1, tMs, type });
    }
    /** Records match_started at t=0. */
    begin() {
        this.add("match_started");
    }
    roundStarted(round) {
        this.add("round_started", { round });
    }
    /** The end of a round: its winner's slot (0: none) and both scores. */
    roundEnded(round, winnerSlot, p1Score, p2Score) {
        this.add("round_ended", { round, winnerSlot, p1Score, p2Score });
    }
    /** Slot actor (1 or 2) is to move. */
    turnStarted(actor) {
        this.add("turn_started", { actor });
    }
    publicAction(actor, action, target) {
        this.add("public_action", { actor, action, target });
    }
    /** A public score change caused by slot actor (0: none), with both scores after it. */
    scoreChanged(actor, p1Score, p2Score) {
        this.add("score_changed", { actor, p1Score, p2Score });
    }
    /** The canonical trace and its hash as they would be sent now. */
    async trace() {
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
    async end(winnerSlot, reason) {
        if (!this.active)
            throw new ArenaError("trace_inactive", "the referee is not active for this match");
        if (!END_REASONS.includes(reason))
            throw new ArenaError("invalid_trace", `reason ${JSON.stringify(reason)} is not normal, forfeit, disconnect or timeout`);
        this.add("match_ended", { winnerSlot, reason });
        if (this.events.length === 0)
            throw new ArenaError("invalid_trace", "begin() was never called");
        this.ended = true;
        return this.trace();
    }
    /**
     * end(), then POST the trace to the gameplay-trace endpoint, retried like
     * a result. A refused or disagreeing trace only keeps the match out of
     * training data.
     */
    async endAndSubmit(winnerSlot, reason, options = {}) {
        const { trace, traceHash } = await this.end(winnerSlot, reason);
        const envelope = { protocol: TRACE_PROTOCOL, slot: this.match.slot, trace, traceHash };
        const path = `/api/v1/matches/${this.match.matchId}/gameplay-trace`;
        return retry(this.rt, "gameplay trace", () => this.rt.transport.jsonBody("POST", path, envelope, options), options.signal);
    }
}
