using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using Arena.Client.Json;

namespace Arena.Client
{
    /// <summary>End reasons of a traced match (spec 4.4).</summary>
    public static class EndReason
    {
        /// <summary>Played to the end.</summary>
        public const string Normal = "normal";
        /// <summary>A player gave up.</summary>
        public const string Forfeit = "forfeit";
        /// <summary>A player dropped.</summary>
        public const string Disconnect = "disconnect";
        /// <summary>A clock ran out.</summary>
        public const string Timeout = "timeout";
    }

    /// <summary>Targets of a public action.</summary>
    public static class ActionTarget
    {
        /// <summary>Slot 1's side.</summary>
        public const string P1 = "p1";
        /// <summary>Slot 2's side.</summary>
        public const string P2 = "p2";
        /// <summary>The shared board.</summary>
        public const string Board = "board";
        /// <summary>No target.</summary>
        public const string None = "";
    }

    /// <summary>The arena's verdict on a trace; it never changes the match's result.</summary>
    public sealed class TraceOutcome
    {
        /// <summary>pending, agreed, disagreed or duplicate.</summary>
        public string Status { get; private set; }
        /// <summary>pending, usable or excluded.</summary>
        public string Training { get; private set; }

        internal static TraceOutcome FromJson(JsonValue v)
        {
            if (v == null || v.Kind != JsonKind.Object) throw new FormatException("a trace answer is a JSON object");
            return new TraceOutcome { Status = v.GetString("status") ?? "", Training = v.GetString("training") ?? "" };
        }
    }

    /// <summary>
    /// Records a match's public gameplay for the AI referee (<c>svc.gameplay.v1</c>) and posts it
    /// when the match ends. Actors are slots (1, 2; 0 for none), never me/opponent, so both
    /// clients of a match record the same trace. The recorder stamps <c>seq</c> and <c>tMs</c>;
    /// tMs comes from the game clock given to <see cref="ArenaClient.CreateTraceRecorder"/>, which
    /// must be the simulation's own time since the match started for both traces to agree.
    /// A recorder of a match the referee does not trace records nothing. Thread-safe.
    /// </summary>
    public sealed class TraceRecorder
    {
        /// <summary>The trace protocol tag.</summary>
        public const string Protocol = "svc.gameplay.v1";

        readonly ArenaClient client;
        readonly LiveMatch match;
        Func<TimeSpan> gameClock;
        readonly object gate = new object();
        readonly List<JsonValue> events = new List<JsonValue>();
        long lastTMs;
        bool ended;

        internal TraceRecorder(ArenaClient client, LiveMatch match, Func<TimeSpan> gameClock, bool active)
        {
            this.client = client;
            this.match = match;
            this.gameClock = gameClock;
            IsActive = active;
        }

        /// <summary>Whether the recorder records (the referee is active for the match).</summary>
        public bool IsActive { get; }

        /// <summary>Events recorded so far.</summary>
        public int EventCount { get { lock (gate) return events.Count; } }

        void Add(string type, JsonValue fields)
        {
            if (!IsActive) return;
            lock (gate)
            {
                if (ended || (events.Count == 0) != (type == "match_started")) return; // before Begin or after the end
                if (gameClock == null)
                {
                    DateTime start = client.Clock();
                    gameClock = () => client.Clock() - start;
                }
                long t = Math.Max((long)gameClock().TotalMilliseconds, 0);
                if (events.Count > 0) t = Math.Max(t, lastTMs); // tMs never goes back
                lastTMs = t;
                var ev = JsonValue.NewObject();
                if (fields != null)
                    foreach (var m in fields.Members) ev.Set(m.Key, m.Value);
                ev.Set("seq", events.Count + 1).Set("tMs", t).Set("type", type);
                events.Add(ev);
            }
        }

        /// <summary>Records match_started at t=0 of the game clock.</summary>
        public void Begin() { Add("match_started", null); }

        /// <summary>Records the start of round <paramref name="round"/>.</summary>
        public void RoundStarted(int round) { Add("round_started", JsonValue.NewObject().Set("round", round)); }

        /// <summary>Records the end of a round: the winner's slot (0: none) and both scores.</summary>
        public void RoundEnded(int round, int winnerSlot, int p1Score, int p2Score)
        {
            Add("round_ended", JsonValue.NewObject().Set("round", round).Set("winnerSlot", winnerSlot).Set("p1Score", p1Score).Set("p2Score", p2Score));
        }

        /// <summary>Records that slot <paramref name="actor"/> (1 or 2) is to move.</summary>
        public void TurnStarted(int actor) { Add("turn_started", JsonValue.NewObject().Set("actor", actor)); }

        /// <summary>Records a public action of slot <paramref name="actor"/> on a target (<see cref="ActionTarget"/>).</summary>
        public void PublicAction(int actor, string action, string target)
        {
            Add("public_action", JsonValue.NewObject().Set("actor", actor).Set("action", action ?? "").Set("target", target ?? ""));
        }

        /// <summary>Records a public score change caused by slot <paramref name="actor"/> (0: none) and both scores after it.</summary>
        public void PublicScoreChanged(int actor, int p1Score, int p2Score)
        {
            Add("score_changed", JsonValue.NewObject().Set("actor", actor).Set("p1Score", p1Score).Set("p2Score", p2Score));
        }

        /// <summary>
        /// The canonical trace as it would be sent now and its SHA-256 (after the end, as sent).
        /// </summary>
        public CanonicalResult Snapshot()
        {
            lock (gate) return Canonical();
        }

        CanonicalResult Canonical()
        {
            var list = JsonValue.NewArray();
            foreach (var ev in events) list.Add(ev);
            var trace = JsonValue.NewObject()
                .Set("matchId", match.MatchId)
                .Set("sessionNonce", match.SessionNonce)
                .Set("ruleset", client.Settings.RefereeRuleset)
                .Set("schema", client.Settings.RefereeTraceSchema)
                .Set("events", list);
            string refusal;
            string canonical = JsonWriter.Canonical(trace, out refusal);
            return refusal != null ? CanonicalResult.Refused(refusal) : CanonicalResult.Accepted(canonical);
        }

        /// <summary>
        /// Records match_ended with the winner's slot (0: none) and a reason (<see cref="EndReason"/>;
        /// anything else throws <see cref="ArgumentException"/>), then answers the canonical trace;
        /// the recorder takes no more events. Null when the recorder is inactive or Begin was never called.
        /// </summary>
        public CanonicalResult End(int winnerSlot, string reason)
        {
            if (reason != EndReason.Normal && reason != EndReason.Forfeit && reason != EndReason.Disconnect && reason != EndReason.Timeout)
                throw new ArgumentException("reason must be normal, forfeit, disconnect or timeout", nameof(reason));
            if (!IsActive) return null;
            Add("match_ended", JsonValue.NewObject().Set("winnerSlot", winnerSlot).Set("reason", reason));
            lock (gate)
            {
                if (events.Count == 0) return null;
                ended = true;
                return Canonical();
            }
        }

        /// <summary>
        /// Ends the trace (<see cref="End"/>) and posts it (POST /api/v1/matches/{id}/gameplay-trace),
        /// retried like a result. An inactive recorder answers <c>trace_inactive</c> and sends
        /// nothing. A refused or disagreeing trace only keeps the match out of training data.
        /// </summary>
        public async Task<ArenaResult<TraceOutcome>> EndAndSubmitAsync(int winnerSlot, string reason, CancellationToken cancellationToken = default(CancellationToken))
        {
            CanonicalResult trace = End(winnerSlot, reason);
            if (trace == null) return ArenaResult<TraceOutcome>.Failure(ArenaError.TraceInactive, 0);
            if (!trace.IsAccepted) return ArenaResult<TraceOutcome>.Failure(trace.Refusal, 0);
            var envelope = JsonValue.NewObject()
                .Set("protocol", Protocol)
                .Set("slot", match.Slot)
                .Set("trace", trace.Canonical)
                .Set("traceHash", trace.Sha256);
            string path = "/api/v1/matches/" + match.MatchId.ToString(System.Globalization.CultureInfo.InvariantCulture) + "/gameplay-trace";
            return await client.RetryAsync("gameplay trace", () => client.CallAsync("POST", path, envelope, true, TraceOutcome.FromJson, cancellationToken), cancellationToken);
        }
    }

    public sealed partial class ArenaClient
    {
        /// <summary>
        /// A trace recorder for <paramref name="match"/>. <paramref name="gameClock"/> is the game's
        /// time since the match started; null measures wall time from Begin (fine for one client,
        /// but two such traces rarely agree). The recorder is inactive unless
        /// <see cref="IsRefereeActive"/> holds for the match.
        /// </summary>
        public TraceRecorder CreateTraceRecorder(LiveMatch match, Func<TimeSpan> gameClock = null)
        {
            if (match == null) throw new ArgumentNullException(nameof(match));
            return new TraceRecorder(this, match, gameClock, IsRefereeActive(match));
        }
    }
}
