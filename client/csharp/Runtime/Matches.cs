using System;
using System.Collections.Generic;
using Arena.Client.Json;

namespace Arena.Client
{
    /// <summary>Recording-release policies of a match's hidden information (spec 2.1 cast.handMode).</summary>
    public static class HandMode
    {
        /// <summary>Hands never leave the players. Also what an empty or absent policy means.</summary>
        public const string Hidden = "hidden";
        /// <summary>Full-scope material unlocks <c>cast.delaySeconds</c> after capture.</summary>
        public const string Delayed = "delayed";
        /// <summary>Full scope releases immediately.</summary>
        public const string Shown = "shown";
    }

    /// <summary>The tournament a match belongs to.</summary>
    public sealed class TournamentRef
    {
        /// <summary>The tournament's slug.</summary>
        public string Slug { get; private set; }
        /// <summary>Its display name.</summary>
        public string Name { get; private set; }

        internal static TournamentRef From(JsonValue v)
        {
            if (v == null || v.Kind != JsonKind.Object) return null;
            return new TournamentRef { Slug = v.GetString("slug") ?? "", Name = v.GetString("name") ?? "" };
        }
    }

    /// <summary>One active caster of a live match.</summary>
    public sealed class Caster
    {
        /// <summary>The caster's account id; null for the arena's official channel.</summary>
        public string PlatformId { get; private set; }
        /// <summary>Where to watch.</summary>
        public string StreamUrl { get; private set; }
        /// <summary><c>community</c>, <c>invited</c> or <c>arena</c>.</summary>
        public string Source { get; private set; }

        internal static Caster From(JsonValue v)
        {
            return new Caster { PlatformId = v.GetString("platformId"), StreamUrl = v.GetString("streamUrl") ?? "", Source = v.GetString("source") ?? "" };
        }
    }

    /// <summary>Present on a live match only when the arena runs the AI referee (spec 2.1 refereeM0).</summary>
    public sealed class RefereeInfo
    {
        /// <summary>Whether the referee is on.</summary>
        public bool Enabled { get; private set; }
        /// <summary>Whether both players granted training consent; traces are accepted only then.</summary>
        public bool ConsentComplete { get; private set; }
        /// <summary><c>svc.gameplay.v1</c>.</summary>
        public string TraceProtocol { get; private set; }
        /// <summary><c>svc.capture.v1</c>.</summary>
        public string CaptureProtocol { get; private set; }

        internal static RefereeInfo From(JsonValue v)
        {
            if (v == null || v.Kind != JsonKind.Object) return null;
            return new RefereeInfo
            {
                Enabled = v.GetBool("enabled"),
                ConsentComplete = v.GetBool("consentComplete"),
                TraceProtocol = v.GetString("traceProtocol") ?? "",
                CaptureProtocol = v.GetString("captureProtocol") ?? "",
            };
        }
    }

    /// <summary>
    /// The caller's live match as discovery returns it (spec 2.1). Unknown fields are kept in
    /// <see cref="Raw"/> and otherwise ignored.
    /// </summary>
    public sealed class LiveMatch
    {
        /// <summary>The match id: goes in the result's <c>matchId</c> and the submission path.</summary>
        public long MatchId { get; private set; }

        /// <summary>
        /// The fairness seed as carried on the wire (an int64; currently an unsigned 32-bit value).
        /// 0 when absent: a casual session, the game seeds itself. See <see cref="GameSeedUInt32"/>.
        /// </summary>
        public long GameSeed { get; private set; }

        /// <summary>
        /// The fairness seed as the unsigned 32-bit value it is (e.g. 4218965659, which an
        /// <c>int</c> cannot hold): the low 32 bits of <see cref="GameSeed"/>.
        /// </summary>
        public uint GameSeedUInt32 { get { return unchecked((uint)GameSeed); } }

        /// <summary>The caller's side, 1 or 2 (for a roster member, their side's slot).</summary>
        public int Slot { get; private set; }
        /// <summary>The per-match nonce; goes verbatim in the result's <c>sessionNonce</c>.</summary>
        public string SessionNonce { get; private set; }
        /// <summary>The slot-1 side's account id (captain in team mode).</summary>
        public string P1PlatformId { get; private set; }
        /// <summary>The slot-2 side's account id (captain in team mode).</summary>
        public string P2PlatformId { get; private set; }
        /// <summary>The other side's account id (the 1v1 anti-mixup check).</summary>
        public string OpponentPlatformId { get; private set; }
        /// <summary>The match's tournament; null when the arena sent none.</summary>
        public TournamentRef Tournament { get; private set; }
        /// <summary>When the match window closes (ISO-8601 UTC).</summary>
        public string WindowClosesAt { get; private set; }
        /// <summary>Whether casting/spectating is allowed.</summary>
        public bool AllowSpectators { get; private set; }
        /// <summary>The cast hand mode as sent (may be empty); see <see cref="CastPolicy"/>.</summary>
        public string HandModeRaw { get; private set; }
        /// <summary>For <c>delayed</c>: seconds after capture before full-scope material is fetchable.</summary>
        public int CastDelaySeconds { get; private set; }
        /// <summary>Every active caster (empty when nobody casts).</summary>
        public IReadOnlyList<Caster> Casters { get; private set; }
        /// <summary>Registered account ids of side 1 (one element in 1v1).</summary>
        public IReadOnlyList<string> P1Roster { get; private set; }
        /// <summary>Registered account ids of side 2 (one element in 1v1).</summary>
        public IReadOnlyList<string> P2Roster { get; private set; }
        /// <summary>Players per side, lower bound.</summary>
        public int TeamMinPlayers { get; private set; }
        /// <summary>Players per side, upper bound; above 1 means a team tournament.</summary>
        public int TeamMaxPlayers { get; private set; }
        /// <summary>Always <c>svc.result.v3</c> from a current arena.</summary>
        public string ResultProtocol { get; private set; }
        /// <summary>The referee block, or null: do not trace or capture.</summary>
        public RefereeInfo Referee { get; private set; }
        /// <summary>The game of the series being played, from 1 (0 from an arena without series).</summary>
        public int Game { get; private set; }
        /// <summary>The series' length: 1 for a single match (0 from an arena without series, read as 1).</summary>
        public int BestOf { get; private set; }
        /// <summary>The games each side won so far.</summary>
        public SeriesScore SeriesScore { get; private set; }
        /// <summary>Whether the match is a series of more than one game.</summary>
        public bool IsSeries { get { return BestOf > 1; } }
        /// <summary>The object as the arena sent it.</summary>
        public JsonValue Raw { get; private set; }

        /// <summary>The cast policy, an empty or absent one read as <see cref="HandMode.Hidden"/>.</summary>
        public string CastPolicy { get { return string.IsNullOrEmpty(HandModeRaw) ? HandMode.Hidden : HandModeRaw; } }

        /// <summary>Whether the match has no fairness seed (0 or absent): the game seeds the session itself.</summary>
        public bool IsCasual { get { return GameSeed == 0; } }

        /// <summary>Whether the match belongs to a team tournament (teamMaxPlayers &gt; 1).</summary>
        public bool IsTeam { get { return TeamMaxPlayers > 1; } }

        /// <summary>
        /// Whether a result can be reported on this match: a positive id, a nonce, slot 1 or 2,
        /// and result protocol <c>svc.result.v3</c>.
        /// </summary>
        public bool IsValid
        {
            get
            {
                return MatchId > 0 && !string.IsNullOrEmpty(SessionNonce) && (Slot == 1 || Slot == 2) &&
                    ResultProtocol == ArenaClient.ResultProtocol;
            }
        }

        /// <summary>
        /// The side (1 or 2) <paramref name="platformId"/> plays on, 0 when neither: p1/p2 in 1v1,
        /// the rosters in team mode.
        /// </summary>
        public int SideOf(string platformId)
        {
            if (string.IsNullOrEmpty(platformId)) return 0;
            if (IsTeam)
            {
                if (Contains(P1Roster, platformId)) return 1;
                if (Contains(P2Roster, platformId)) return 2;
                return 0;
            }
            if (platformId == P1PlatformId) return 1;
            if (platformId == P2PlatformId) return 2;
            return 0;
        }

        static bool Contains(IReadOnlyList<string> list, string id)
        {
            foreach (var s in list)
                if (s == id) return true;
            return false;
        }

        /// <summary>Reads a live-match object; throws <see cref="FormatException"/> when it is not an object.</summary>
        public static LiveMatch FromJson(JsonValue v)
        {
            if (v == null || v.Kind != JsonKind.Object) throw new FormatException("a live match is a JSON object");
            var cast = v["cast"];
            var casters = new List<Caster>();
            var list = v["casters"];
            if (list != null)
                foreach (var c in list.Items)
                    if (c.Kind == JsonKind.Object) casters.Add(Caster.From(c));
            return new LiveMatch
            {
                MatchId = v.GetInt64("matchId"),
                GameSeed = v.GetInt64("gameSeed"),
                Slot = (int)v.GetInt64("slot"),
                SessionNonce = v.GetString("sessionNonce") ?? "",
                P1PlatformId = v.GetString("p1PlatformId") ?? "",
                P2PlatformId = v.GetString("p2PlatformId") ?? "",
                OpponentPlatformId = v.GetString("opponentPlatformId") ?? "",
                Tournament = TournamentRef.From(v["tournament"]),
                WindowClosesAt = v.GetString("windowClosesAt") ?? "",
                AllowSpectators = v.GetBool("allowSpectators"),
                HandModeRaw = cast != null ? cast.GetString("handMode") ?? "" : "",
                CastDelaySeconds = cast != null ? (int)cast.GetInt64("delaySeconds") : 0,
                Casters = casters,
                P1Roster = Strings(v["p1Roster"]),
                P2Roster = Strings(v["p2Roster"]),
                TeamMinPlayers = (int)v.GetInt64("teamMinPlayers"),
                TeamMaxPlayers = (int)v.GetInt64("teamMaxPlayers"),
                ResultProtocol = v.GetString("resultProtocol") ?? "",
                Referee = RefereeInfo.From(v["refereeM0"]),
                Game = (int)v.GetInt64("game"),
                BestOf = (int)v.GetInt64("bestOf"),
                SeriesScore = SeriesScore.From(v["seriesScore"]),
                Raw = v,
            };
        }

        internal static IReadOnlyList<string> Strings(JsonValue v)
        {
            var list = new List<string>();
            if (v != null)
                foreach (var s in v.Items)
                    if (s.Kind == JsonKind.String) list.Add(s.Text);
            return list;
        }
    }

    /// <summary>The caller's next match before it goes live (spec 2.2).</summary>
    public sealed class UpcomingMatch
    {
        /// <summary>The match id.</summary>
        public long MatchId { get; private set; }
        /// <summary>The caller's slot, 1 or 2.</summary>
        public int Slot { get; private set; }
        /// <summary>The opponent's account id.</summary>
        public string OpponentPlatformId { get; private set; }
        /// <summary>The opponent's display name.</summary>
        public string OpponentName { get; private set; }
        /// <summary>The match's tournament.</summary>
        public TournamentRef Tournament { get; private set; }
        /// <summary>When the window opens (ISO-8601 UTC).</summary>
        public string WindowOpensAt { get; private set; }
        /// <summary>When the window closes (ISO-8601 UTC).</summary>
        public string WindowClosesAt { get; private set; }
        /// <summary>Whether the window is open now.</summary>
        public bool WindowOpen { get; private set; }
        /// <summary>Whether the caller marked ready.</summary>
        public bool SelfReady { get; private set; }
        /// <summary>Whether the opponent marked ready.</summary>
        public bool OpponentReady { get; private set; }
        /// <summary>The game of the series next to be played, from 1 (0 from an arena without series).</summary>
        public int Game { get; private set; }
        /// <summary>The series' length: 1 for a single match.</summary>
        public int BestOf { get; private set; }
        /// <summary>The games each side won so far.</summary>
        public SeriesScore SeriesScore { get; private set; }
        /// <summary>The object as the arena sent it.</summary>
        public JsonValue Raw { get; private set; }

        /// <summary>Reads an upcoming-match object; throws <see cref="FormatException"/> when it is not an object.</summary>
        public static UpcomingMatch FromJson(JsonValue v)
        {
            if (v == null || v.Kind != JsonKind.Object) throw new FormatException("an upcoming match is a JSON object");
            return new UpcomingMatch
            {
                MatchId = v.GetInt64("matchId"),
                Slot = (int)v.GetInt64("slot"),
                OpponentPlatformId = v.GetString("opponentPlatformId") ?? "",
                OpponentName = v.GetString("opponentName") ?? "",
                Tournament = TournamentRef.From(v["tournament"]),
                WindowOpensAt = v.GetString("windowOpensAt") ?? "",
                WindowClosesAt = v.GetString("windowClosesAt") ?? "",
                WindowOpen = v.GetBool("windowOpen"),
                SelfReady = v.GetBool("selfReady"),
                OpponentReady = v.GetBool("opponentReady"),
                Game = (int)v.GetInt64("game"),
                BestOf = (int)v.GetInt64("bestOf"),
                SeriesScore = SeriesScore.From(v["seriesScore"]),
                Raw = v,
            };
        }
    }

    /// <summary>The games each side has won in a series, slot order.</summary>
    public sealed class SeriesScore
    {
        /// <summary>A score of <paramref name="p1"/> games to <paramref name="p2"/>.</summary>
        public SeriesScore(int p1, int p2)
        {
            P1 = p1;
            P2 = p2;
        }

        /// <summary>Games slot 1 won.</summary>
        public int P1 { get; }
        /// <summary>Games slot 2 won.</summary>
        public int P2 { get; }

        /// <summary>This score with one more game won by <paramref name="side"/> (1 or 2; any other side changes nothing).</summary>
        public SeriesScore WithGameWonBy(int side)
        {
            return new SeriesScore(P1 + (side == 1 ? 1 : 0), P2 + (side == 2 ? 1 : 0));
        }

        internal static SeriesScore From(JsonValue v)
        {
            if (v == null || v.Kind != JsonKind.Object) return new SeriesScore(0, 0);
            return new SeriesScore((int)v.GetInt64("p1"), (int)v.GetInt64("p2"));
        }

        /// <summary>The score as <c>{"p1":N,"p2":M}</c>.</summary>
        public JsonValue ToJson() { return JsonValue.NewObject().Set("p1", P1).Set("p2", P2); }

        public override bool Equals(object obj)
        {
            var o = obj as SeriesScore;
            return o != null && o.P1 == P1 && o.P2 == P2;
        }

        public override int GetHashCode() { return P1 * 31 + P2; }

        public override string ToString() { return P1 + "-" + P2; }
    }

    /// <summary>One game of a match's series as the public match shows it.</summary>
    public sealed class MatchGame
    {
        /// <summary>The game's number, from 1.</summary>
        public int Game { get; private set; }
        /// <summary>One of <see cref="MatchStatus"/>.</summary>
        public string Status { get; private set; }
        /// <summary>The game's winner; null while the game is undecided.</summary>
        public PlayerRef Winner { get; private set; }
        /// <summary><c>game_client</c>, <c>player_report</c>, <c>admin</c>, ... or null.</summary>
        public string ResultSource { get; private set; }
        /// <summary>When the game was decided (ISO-8601 UTC), or null.</summary>
        public string DecidedAt { get; private set; }

        internal static MatchGame From(JsonValue v)
        {
            return new MatchGame
            {
                Game = (int)v.GetInt64("game"),
                Status = v.GetString("status") ?? "",
                Winner = PlayerRef.From(v["winner"]),
                ResultSource = v.GetString("resultSource"),
                DecidedAt = v.GetString("decidedAt"),
            };
        }
    }

    /// <summary>The answer to a ready call.</summary>
    public sealed class ReadyState
    {
        /// <summary>The arena's status word.</summary>
        public string Status { get; private set; }
        /// <summary>True once both sides are ready and the match went live.</summary>
        public bool Live { get; private set; }
        /// <summary>Whether the opponent is ready.</summary>
        public bool OpponentReady { get; private set; }
        /// <summary>The object as the arena sent it.</summary>
        public JsonValue Raw { get; private set; }

        /// <summary>Reads a ready answer; throws <see cref="FormatException"/> when it is not an object.</summary>
        public static ReadyState FromJson(JsonValue v)
        {
            if (v == null || v.Kind != JsonKind.Object) throw new FormatException("a ready answer is a JSON object");
            return new ReadyState { Status = v.GetString("status") ?? "", Live = v.GetBool("live"), OpponentReady = v.GetBool("opponentReady"), Raw = v };
        }
    }

    /// <summary>A player as the public API shows one.</summary>
    public sealed class PlayerRef
    {
        /// <summary>The account id.</summary>
        public string PlatformId { get; private set; }
        /// <summary>The display name.</summary>
        public string PersonaName { get; private set; }
        /// <summary>The avatar's URL.</summary>
        public string AvatarUrl { get; private set; }

        internal static PlayerRef From(JsonValue v)
        {
            if (v == null || v.Kind != JsonKind.Object) return null;
            return new PlayerRef { PlatformId = v.GetString("platformId") ?? "", PersonaName = v.GetString("personaName") ?? "", AvatarUrl = v.GetString("avatarUrl") ?? "" };
        }
    }

    /// <summary>Match statuses (spec 3).</summary>
    public static class MatchStatus
    {
        /// <summary>Before both sides are ready.</summary>
        public const string Scheduled = "scheduled";
        /// <summary>Being played.</summary>
        public const string Live = "live";
        /// <summary>One side submitted.</summary>
        public const string AwaitingResult = "awaiting_result";
        /// <summary>Both hashes agreed (or an admin decided).</summary>
        public const string Confirmed = "confirmed";
        /// <summary>The hashes differ.</summary>
        public const string Disputed = "disputed";
        /// <summary>Decided by forfeit.</summary>
        public const string Forfeited = "forfeited";
    }

    /// <summary>The public match object (GET /api/v1/matches/{id}).</summary>
    public sealed class PublicMatch
    {
        /// <summary>The match id.</summary>
        public long Id { get; private set; }
        /// <summary><c>group</c>, <c>playoff</c>, <c>small_final</c> or <c>final</c>.</summary>
        public string Stage { get; private set; }
        /// <summary>One of <see cref="MatchStatus"/>.</summary>
        public string Status { get; private set; }
        /// <summary>Slot 1's player, or null when undecided.</summary>
        public PlayerRef Player1 { get; private set; }
        /// <summary>Slot 2's player, or null when undecided.</summary>
        public PlayerRef Player2 { get; private set; }
        /// <summary>The winner, or null until resolved.</summary>
        public PlayerRef Winner { get; private set; }
        /// <summary><c>player_report</c>, <c>admin</c>, <c>game_client</c>, ... or null.</summary>
        public string ResultSource { get; private set; }
        /// <summary>The series' length: 1 for a single match.</summary>
        public int BestOf { get; private set; }
        /// <summary>The games each side won so far.</summary>
        public SeriesScore SeriesScore { get; private set; }
        /// <summary>The decided games, then the game under way (no winner).</summary>
        public IReadOnlyList<MatchGame> Games { get; private set; }
        /// <summary>The object as the arena sent it.</summary>
        public JsonValue Raw { get; private set; }

        /// <summary>Whether the match is decided: confirmed or forfeited.</summary>
        public bool IsDecided { get { return Status == MatchStatus.Confirmed || Status == MatchStatus.Forfeited; } }

        /// <summary>Game <paramref name="game"/> when it is decided (has a winner), else null.</summary>
        public MatchGame DecidedGame(int game)
        {
            foreach (var g in Games)
                if (g.Game == game && g.Winner != null) return g;
            return null;
        }

        /// <summary>The slot (1 or 2) of a player the match names, 0 when neither (it names the captains only).</summary>
        public int SideOf(string platformId)
        {
            if (string.IsNullOrEmpty(platformId)) return 0;
            if (Player1 != null && platformId == Player1.PlatformId) return 1;
            if (Player2 != null && platformId == Player2.PlatformId) return 2;
            return 0;
        }

        /// <summary>Reads a public match; throws <see cref="FormatException"/> when it is not an object.</summary>
        public static PublicMatch FromJson(JsonValue v)
        {
            if (v == null || v.Kind != JsonKind.Object) throw new FormatException("a match is a JSON object");
            return new PublicMatch
            {
                Id = v.GetInt64("id"),
                Stage = v.GetString("stage") ?? "",
                Status = v.GetString("status") ?? "",
                Player1 = PlayerRef.From(v["player1"]),
                Player2 = PlayerRef.From(v["player2"]),
                Winner = PlayerRef.From(v["winner"]),
                ResultSource = v.GetString("resultSource"),
                BestOf = (int)v.GetInt64("bestOf"),
                SeriesScore = SeriesScore.From(v["seriesScore"]),
                Games = ReadGames(v["games"]),
                Raw = v,
            };
        }

        static IReadOnlyList<MatchGame> ReadGames(JsonValue v)
        {
            var list = new List<MatchGame>();
            if (v != null)
                foreach (var g in v.Items)
                    if (g.Kind == JsonKind.Object) list.Add(MatchGame.From(g));
            return list;
        }
    }
}
