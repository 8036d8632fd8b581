using System;
using System.Globalization;
using System.Threading;
using System.Threading.Tasks;
using Arena.Client.Json;

namespace Arena.Client
{
    /// <summary>A match score in slot order, sent beside a result (never hashed).</summary>
    public sealed class MatchScore
    {
        /// <summary>Both scores; throws <see cref="ArgumentOutOfRangeException"/> for a negative one.</summary>
        public MatchScore(int p1, int p2)
        {
            if (p1 < 0) throw new ArgumentOutOfRangeException(nameof(p1));
            if (p2 < 0) throw new ArgumentOutOfRangeException(nameof(p2));
            P1 = p1;
            P2 = p2;
        }

        /// <summary>Slot 1's score.</summary>
        public int P1 { get; }
        /// <summary>Slot 2's score.</summary>
        public int P2 { get; }
    }

    /// <summary>What a game reports at the end of a session.</summary>
    public sealed class ResultSubmission
    {
        /// <summary>The local player's account id; empty means the mock account of the settings.</summary>
        public string LocalPlatformId { get; set; } = "";

        /// <summary>The opponent the game actually played (1v1 anti-mixup check; ignored in team mode).</summary>
        public string OpponentPlatformId { get; set; } = "";

        /// <summary>The winner's account id (any member of the winning side in team mode). Empty: a draw, nothing is submitted.</summary>
        public string Winner { get; set; } = "";

        /// <summary>The game's result as JSON text (an object). Used when <see cref="Result"/> is null; null or empty means <c>{}</c>.</summary>
        public string ResultJson { get; set; }

        /// <summary>The game's result as a built object; wins over <see cref="ResultJson"/>.</summary>
        public JsonValue Result { get; set; }

        /// <summary>An optional score, slot order.</summary>
        public MatchScore Score { get; set; }

        /// <summary>When the session started (sent as startedAt), if the game knows it.</summary>
        public DateTime? StartedAt { get; set; }

        /// <summary>When positive, the live match must be this one, else <c>match_mismatch</c> and nothing is sent.</summary>
        public long ExpectedMatchId { get; set; }

        /// <summary>
        /// When positive (with <see cref="ExpectedMatchId"/>), the game of the series the game
        /// played. When discovery shows the match at another game, or no live match, that game
        /// is over: nothing is sent and the public match says how it ended (a lost answer
        /// across a restart).
        /// </summary>
        public int ExpectedGame { get; set; }

        /// <summary>
        /// The live match the game holds: the one discovery gave it when the session began
        /// (<see cref="ArenaClient.GetLiveMatchAsync"/>). When set, the submission is posted on it
        /// without a fresh discovery, one round trip instead of two (docs/protocol.md
        /// "Submitting on the held match"); the checks of steps 3 to 5 run on it, and the arena
        /// refuses a match no longer live (409 not_live, already_resolved) as it would after
        /// discovery. <see cref="ExpectedMatchId"/> and <see cref="ExpectedGame"/>, when set, must name it.
        /// </summary>
        public LiveMatch HeldMatch { get; set; }
    }

    /// <summary>What <see cref="ArenaClient.SubmitResultAsync(ResultSubmission, CancellationToken)"/> did and what the arena answered.</summary>
    public sealed class SubmitResult
    {
        /// <summary>Submission statuses of the arena, plus <see cref="Decided"/>.</summary>
        public const string Pending = "pending", Confirmed = "confirmed", Disputed = "disputed", Duplicate = "duplicate";

        /// <summary>
        /// The status reported when an answer was lost and the match look-up showed it decided
        /// for the side this client named.
        /// </summary>
        public const string Decided = "decided";

        /// <summary>
        /// The status reported after a restart (<see cref="ResultSubmission.ExpectedMatchId"/> set,
        /// discovery answers no live match) when the match look-up shows it not decided (e.g.
        /// disputed): nothing was sent; <see cref="MatchStatus"/> is the match's status.
        /// </summary>
        public const string Undecided = "undecided";

        /// <summary>
        /// After a restart, with <see cref="Decided"/>: whether the winner is the caller's side;
        /// null when the public match cannot tell (a team member who is not a captain, or no winner).
        /// </summary>
        public bool? Won { get; internal set; }

        /// <summary>Whether the result stands: the arena took it (or a lost answer was settled in its favour).</summary>
        public bool IsSuccess { get { return Error == null && !IsDraw; } }

        /// <summary>The winner was empty: a draw, nothing was submitted.</summary>
        public bool IsDraw { get; internal set; }

        /// <summary>pending, confirmed, disputed or duplicate as the arena answered; <see cref="Decided"/> after a look-up.</summary>
        public string Status { get; internal set; }

        /// <summary>The match's status after the call (for a look-up: confirmed or forfeited).</summary>
        public string MatchStatus { get; internal set; }

        /// <summary>After a look-up: the decided winner's account id.</summary>
        public string DecidedWinner { get; internal set; }

        /// <summary>The match reported on (0 when discovery did not get that far).</summary>
        public long MatchId { get; internal set; }

        /// <summary>The game of the series this submission is for (0 after a restart without <see cref="ResultSubmission.ExpectedGame"/>).</summary>
        public int Game { get; internal set; }

        /// <summary>The series' length: 1 (or 0, from an arena without series) for a single match.</summary>
        public int BestOf { get; internal set; }

        /// <summary>
        /// The series score after this submission as far as the client knows: discovery's score,
        /// plus the game when the answer confirmed it, or the public match's after a look-up.
        /// </summary>
        public SeriesScore SeriesScore { get; internal set; }

        /// <summary>Whether the match is a series of more than one game.</summary>
        public bool IsSeries { get { return BestOf > 1; } }

        /// <summary>
        /// Whether this submission's game is decided and its series is not: the game readies
        /// for the next game (<see cref="ArenaClient.ReadyAsync"/>) and plays it.
        /// <see cref="MatchStatus"/> is then scheduled (or live, when both sides readied already).
        /// </summary>
        public bool SeriesGoesOn
        {
            get
            {
                return IsSuccess && (Status == Confirmed || Status == Decided) &&
                    MatchStatus != Client.MatchStatus.Confirmed && MatchStatus != Client.MatchStatus.Forfeited;
            }
        }

        /// <summary>The canonical result string: exactly the bytes hashed and posted. Null when nothing was built.</summary>
        public string Canonical { get; internal set; }

        /// <summary>Lowercase hex SHA-256 of <see cref="Canonical"/>.</summary>
        public string ResultHash { get; internal set; }

        /// <summary>POSTs made, 0..MaxSubmitAttempts.</summary>
        public int Attempts { get; internal set; }

        /// <summary>
        /// Null on success; else an <see cref="ArenaError"/> code, a <see cref="RefusalReason"/>, or
        /// the arena's code (already_submitted, not_live, ...).
        /// </summary>
        public string Error { get; internal set; }

        /// <summary>The HTTP status of the deciding answer, 0 when none.</summary>
        public int HttpStatus { get; internal set; }

        /// <summary>More about a failure, for logs; may be null.</summary>
        public string Detail { get; internal set; }

        public override string ToString()
        {
            if (IsDraw) return "draw: nothing submitted";
            return IsSuccess ? Status + " (match " + MatchStatus + ")" : "failed: " + Error + (Detail != null ? " (" + Detail + ")" : "");
        }
    }

    public sealed partial class ArenaClient
    {
        /// <summary>
        /// Reports the session the local player just played, in the steps of spec 4.4:
        /// <list type="number">
        /// <item>Disabled: <c>disabled</c>. Empty winner: a draw, <see cref="SubmitResult.IsDraw"/>, nothing sent.</item>
        /// <item>Fresh discovery (none with <see cref="ResultSubmission.HeldMatch"/>: the match the game holds stands for its answer): none is <c>no_live_match</c> (but with
        /// <see cref="ResultSubmission.ExpectedMatchId"/> the match is looked up:
        /// <see cref="SubmitResult.Decided"/> or <see cref="SubmitResult.Undecided"/>), an invalid one <c>invalid_live_match</c>, another match than
        /// <see cref="ResultSubmission.ExpectedMatchId"/> <c>match_mismatch</c>.</item>
        /// <item>The local account must be on a side (a roster in team mode): else <c>not_participant</c>.</item>
        /// <item>1v1: the opponent played must be the match's opponent: else <c>opponent_mismatch</c>.</item>
        /// <item>The winner must be on a side: else <c>winner_not_on_side</c>.</item>
        /// <item>Canonicalize with the reserved keys merged (a refusal is its <see cref="RefusalReason"/>), hash.</item>
        /// <item>POST protocol, result, resultHash, clientRole, startedAt, endedAt (UTC now, read once) and score.</item>
        /// </list>
        /// Each attempt takes a fresh ticket. A network failure or a status of 500 or more is
        /// retried after the spec's backoff up to MaxSubmitAttempts (then <c>retries_exhausted</c>);
        /// any other answer is final.
        /// When an earlier attempt failed that way and a later one answers 409
        /// <c>already_resolved</c> or 200 <c>duplicate</c>, the first answer may have been lost:
        /// the client looks the match up (GET /api/v1/matches/{id}) and reports
        /// <see cref="SubmitResult.Decided"/> when it is confirmed or forfeited for the side of
        /// the winner it submitted; otherwise a duplicate stands as answered (the arena holds
        /// this hash) and already_resolved fails with that code.
        /// </summary>
        public async Task<SubmitResult> SubmitResultAsync(ResultSubmission submission, CancellationToken cancellationToken = default(CancellationToken))
        {
            if (submission == null) throw new ArgumentNullException(nameof(submission));
            var outcome = new SubmitResult();
            if (!settings.Enabled) return Fail(outcome, ArenaError.Disabled, 0, null);
            if (string.IsNullOrEmpty(submission.Winner))
            {
                outcome.IsDraw = true;
                return outcome;
            }
            string local = string.IsNullOrEmpty(submission.LocalPlatformId) ? settings.MockSteamId : submission.LocalPlatformId;

            LiveMatch match = submission.HeldMatch;
            if (match != null)
            {
                if (submission.ExpectedMatchId > 0 && submission.ExpectedGame > 0 && match.MatchId == submission.ExpectedMatchId && match.Game != submission.ExpectedGame)
                    return Fail(outcome, ArenaError.MatchMismatch, 0, "played game " + submission.ExpectedGame + ", the held match is at game " + match.Game);
            }
            else
            {
                var discovery = await GetLiveMatchAsync(cancellationToken);
                if (!discovery.IsSuccess) return Fail(outcome, discovery.Error, discovery.HttpStatus, "discovery: " + discovery.Detail);
                match = discovery.Value;
            }
            if (match == null)
            {
                if (submission.ExpectedMatchId > 0) return await AfterRestartAsync(outcome, submission, local, cancellationToken);
                return Fail(outcome, ArenaError.NoLiveMatch, 204, null);
            }
            if (submission.ExpectedMatchId > 0 && submission.ExpectedGame > 0 && match.MatchId == submission.ExpectedMatchId && match.Game != submission.ExpectedGame)
                return await AfterRestartAsync(outcome, submission, local, cancellationToken); // the series moved on from the game played
            outcome.MatchId = match.MatchId;
            if (!match.IsValid) return Fail(outcome, ArenaError.InvalidLiveMatch, 200, "match " + match.MatchId);
            if (submission.ExpectedMatchId > 0 && submission.ExpectedMatchId != match.MatchId)
                return Fail(outcome, ArenaError.MatchMismatch, 200, "the live match is " + match.MatchId);
            if (match.SideOf(local) == 0) return Fail(outcome, ArenaError.NotParticipant, 0, local + " in match " + match.MatchId);
            if (!match.IsTeam && submission.OpponentPlatformId != match.OpponentPlatformId)
                return Fail(outcome, ArenaError.OpponentMismatch, 0, "played " + submission.OpponentPlatformId + ", the match expects " + match.OpponentPlatformId);
            int winnerSide = match.SideOf(submission.Winner);
            if (winnerSide == 0) return Fail(outcome, ArenaError.WinnerNotOnSide, 0, submission.Winner + " in match " + match.MatchId);

            CanonicalResult canonical = submission.Result != null
                ? ResultCanonicalizer.Canonicalize(submission.Result, match.MatchId, match.SessionNonce, submission.Winner)
                : ResultCanonicalizer.Canonicalize(string.IsNullOrEmpty(submission.ResultJson) ? "{}" : submission.ResultJson, match.MatchId, match.SessionNonce, submission.Winner);
            if (!canonical.IsAccepted) return Fail(outcome, canonical.Refusal, 0, "the game's result cannot be canonicalized");
            outcome.Canonical = canonical.Canonical;
            outcome.ResultHash = canonical.Sha256;
            outcome.Game = match.Game;
            outcome.BestOf = match.BestOf;
            outcome.SeriesScore = match.SeriesScore;

            var body = JsonValue.NewObject()
                .Set("protocol", ResultProtocol)
                .Set("result", canonical.Canonical)
                .Set("resultHash", canonical.Sha256);
            if (!string.IsNullOrEmpty(settings.ClientRole)) body.Set("clientRole", settings.ClientRole);
            if (submission.StartedAt.HasValue) body.Set("startedAt", Iso8601(submission.StartedAt.Value));
            body.Set("endedAt", Iso8601(Clock()));
            if (submission.Score != null)
                body.Set("score", JsonValue.NewObject().Set("p1", submission.Score.P1).Set("p2", submission.Score.P2));

            return await PostResultAsync(outcome, match, winnerSide, body, cancellationToken);
        }

        /// <summary>
        /// The positional form of <see cref="SubmitResultAsync(ResultSubmission, CancellationToken)"/>:
        /// the game's result as JSON text, the opponent actually played and the winner (empty: a draw).
        /// </summary>
        public Task<SubmitResult> SubmitResultAsync(string localPlatformId, string opponentPlatformId, string gameResultJson, string winner, MatchScore score = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            return SubmitResultAsync(new ResultSubmission
            {
                LocalPlatformId = localPlatformId,
                OpponentPlatformId = opponentPlatformId,
                ResultJson = gameResultJson,
                Winner = winner,
                Score = score,
            }, cancellationToken);
        }

        async Task<SubmitResult> PostResultAsync(SubmitResult outcome, LiveMatch match, int winnerSide, JsonValue body, CancellationToken ct)
        {
            string path = "/api/v1/matches/" + Invariant(match.MatchId) + "/result";
            int max = settings.MaxSubmitAttempts;
            int attemptsLeft = max;
            bool answerMayBeLost = false;
            while (true)
            {
                outcome.Attempts++;
                attemptsLeft--;
                Reply reply = await SendAsync("POST", path, body, true, ct);
                var r = Interpret(reply, "POST", path, v => v);
                if (r.IsSuccess)
                {
                    if (r.Value == null) return Fail(outcome, ArenaError.BadResponse, r.HttpStatus, "POST " + path + ": no body");
                    outcome.Status = r.Value.GetString("status") ?? "";
                    outcome.MatchStatus = r.Value.GetString("matchStatus") ?? "";
                    outcome.HttpStatus = r.HttpStatus;
                    if (outcome.Status == SubmitResult.Confirmed) outcome.SeriesScore = outcome.SeriesScore.WithGameWonBy(winnerSide);
                    if (answerMayBeLost && outcome.Status == SubmitResult.Duplicate)
                        return await SettleLostAnswerAsync(outcome, match, winnerSide, SubmitResult.Duplicate, r.HttpStatus, ct);
                    return outcome;
                }
                if (answerMayBeLost && r.HttpStatus == 409 && (r.Error == "already_resolved" || match.IsSeries && r.Error == "not_live"))
                    return await SettleLostAnswerAsync(outcome, match, winnerSide, r.Error, r.HttpStatus, ct);
                if (!r.IsRetryable) return Fail(outcome, r.Error, r.HttpStatus, r.Detail);
                if (attemptsLeft == 0) return Fail(outcome, ArenaError.RetriesExhausted, r.HttpStatus, "after " + outcome.Attempts + " attempts, the last: " + r);
                answerMayBeLost = true;
                TimeSpan wait = ScaledBackoff(attemptsLeft);
                Trace("submit match " + match.MatchId + " attempt " + outcome.Attempts + " failed (" + r + "); retrying in " + wait.TotalSeconds + " s");
                await Delay(wait, ct);
            }
        }

        // AfterRestartAsync answers a submission for the match the game played when discovery
        // says there is no live match (or, with ExpectedGame, that the series is at another
        // game): the game may have sent its result and stopped (crash, lost connection) before
        // reading the answer, and the match (or the game) was decided since. The public match
        // says how it ended: decided (winner, won) or undecided; nothing is posted. In a series
        // with ExpectedGame, the game is looked for among the decided games: decided, its winner
        // is reported with the series score and the match's status (scheduled or live: the
        // series goes on). A match the arena does not know stays no_live_match.
        async Task<SubmitResult> AfterRestartAsync(SubmitResult outcome, ResultSubmission submission, string local, CancellationToken ct)
        {
            long matchId = submission.ExpectedMatchId;
            outcome.MatchId = matchId;
            var lookup = await GetMatchAsync(matchId, ct);
            if (!lookup.IsSuccess && lookup.Error == "match_not_found")
                return Fail(outcome, ArenaError.NoLiveMatch, 204, "no live match, and match " + matchId + " is not known either");
            if (!lookup.IsSuccess) return Fail(outcome, lookup.Error, lookup.HttpStatus, "no live match; looking match " + matchId + " up: " + lookup.Detail);
            PublicMatch pm = lookup.Value;
            outcome.HttpStatus = lookup.HttpStatus;
            outcome.MatchStatus = pm.Status;
            outcome.Status = SubmitResult.Undecided;
            PlayerRef won = null;
            if (pm.BestOf > 1)
            {
                outcome.Game = submission.ExpectedGame;
                outcome.BestOf = pm.BestOf;
                outcome.SeriesScore = pm.SeriesScore;
                var game = pm.DecidedGame(submission.ExpectedGame);
                if (game != null)
                {
                    outcome.Status = SubmitResult.Decided;
                    won = game.Winner;
                }
            }
            if (outcome.Status == SubmitResult.Undecided && pm.IsDecided)
            {
                outcome.Status = SubmitResult.Decided;
                won = pm.Winner;
            }
            if (won != null)
            {
                outcome.DecidedWinner = won.PlatformId;
                int mine = pm.SideOf(local), theirs = pm.SideOf(won.PlatformId);
                if (mine != 0 && theirs != 0) outcome.Won = mine == theirs;
            }
            return outcome;
        }

        // SettleLostAnswerAsync reads the public match after a retry was answered
        // already_resolved or duplicate (or, in a series, not_live: the game was decided and the
        // match went back to scheduled): decided for the side of our winner is success
        // ("decided"): the match in a single match, the game played in a series (then with the
        // series score). Otherwise a duplicate stands as answered (the arena holds our hash; the
        // match awaits the other side or was disputed), and the 409 fails with its code.
        async Task<SubmitResult> SettleLostAnswerAsync(SubmitResult outcome, LiveMatch match, int winnerSide, string code, int httpStatus, CancellationToken ct)
        {
            var lookup = await GetMatchAsync(match.MatchId, ct);
            PlayerRef won = null;
            if (lookup.IsSuccess)
            {
                if (match.IsSeries)
                {
                    var game = lookup.Value.DecidedGame(match.Game);
                    if (game != null) won = game.Winner;
                }
                else if (lookup.Value.IsDecided) won = lookup.Value.Winner;
            }
            if (won != null && match.SideOf(won.PlatformId) == winnerSide)
            {
                outcome.Status = SubmitResult.Decided;
                outcome.MatchStatus = lookup.Value.Status;
                outcome.DecidedWinner = won.PlatformId;
                outcome.HttpStatus = lookup.HttpStatus;
                if (match.IsSeries) outcome.SeriesScore = lookup.Value.SeriesScore;
                return outcome;
            }
            if (!lookup.IsSuccess) Trace("submit match " + match.MatchId + ": look-up after a lost answer failed: " + lookup);
            if (code == SubmitResult.Duplicate) return outcome;
            return Fail(outcome, code, httpStatus, lookup.IsSuccess
                ? "match " + match.MatchId + " is " + lookup.Value.Status + (lookup.Value.Winner != null ? ", won by " + lookup.Value.Winner.PlatformId : "")
                : "look-up failed: " + lookup);
        }

        static SubmitResult Fail(SubmitResult outcome, string error, int httpStatus, string detail)
        {
            outcome.Error = error;
            outcome.HttpStatus = httpStatus;
            outcome.Detail = detail;
            return outcome;
        }

        /// <summary>ISO-8601 UTC with seconds, e.g. <c>2026-11-27T15:04:05Z</c>.</summary>
        public static string Iso8601(DateTime time)
        {
            if (time.Kind == DateTimeKind.Local) time = time.ToUniversalTime();
            return time.ToString("yyyy-MM-dd'T'HH:mm:ss'Z'", CultureInfo.InvariantCulture);
        }
    }
}
