using System;
using System.Collections.Generic;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Arena.Client.Http;
using Arena.Client.Json;

namespace Arena.Client.Tests
{
    /// <summary>One request the fake saw.</summary>
    sealed class SeenRequest
    {
        public string Method;
        public string Url;
        public string PathAndQuery;
        public Dictionary<string, string> Headers;
        public byte[] Body;

        public string BodyText { get { return Body == null ? null : Encoding.UTF8.GetString(Body); } }
        public JsonValue Json { get { return JsonReader.Parse(BodyText); } }

        public string Header(string name)
        {
            string v;
            return Headers.TryGetValue(name, out v) ? v : null;
        }

        public override string ToString() { return Method + " " + PathAndQuery; }
    }

    /// <summary>
    /// An in-process <see cref="IArenaHttp"/>: records every request and answers through
    /// <see cref="Handler"/> (404 when it returns null).
    /// </summary>
    sealed class FakeHttp : IArenaHttp
    {
        public readonly List<SeenRequest> Requests = new List<SeenRequest>();
        public Func<SeenRequest, ArenaHttpResponse> Handler = r => null;

        public Task<ArenaHttpResponse> SendAsync(string method, string url, IReadOnlyDictionary<string, string> headers, byte[] body, CancellationToken cancellationToken)
        {
            var uri = new Uri(url);
            var seen = new SeenRequest
            {
                Method = method,
                Url = url,
                PathAndQuery = uri.PathAndQuery,
                Headers = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase),
                Body = body,
            };
            foreach (var h in headers) seen.Headers[h.Key] = h.Value;
            lock (Requests) Requests.Add(seen);
            return Task.FromResult(Handler(seen) ?? Fake.Json(404, "{\"error\":\"not_found\"}"));
        }

        public List<SeenRequest> To(string method, string pathPrefix)
        {
            return Requests.FindAll(r => r.Method == method && r.PathAndQuery.StartsWith(pathPrefix, StringComparison.Ordinal));
        }
    }

    static class Fake
    {
        public const string P1 = "76561198000000001";
        public const string P2 = "76561198000000002";
        public const string P3 = "76561198000000003";
        public const string P4 = "76561198000000004";
        public const string Outsider = "76561198000000009";
        public const string BaseUrl = "http://arena.test";
        public static readonly DateTime Now = new DateTime(2026, 11, 27, 15, 4, 5, DateTimeKind.Utc);

        public static ArenaHttpResponse Json(int status, string body)
        {
            return new ArenaHttpResponse(status, Encoding.UTF8.GetBytes(body));
        }

        public static ArenaHttpResponse Json(int status, JsonValue body) { return Json(status, JsonWriter.Compact(body)); }

        public static ArenaHttpResponse NoContent() { return new ArenaHttpResponse(204, null); }

        public static ArenaHttpResponse Dropped() { return ArenaHttpResponse.NetworkFailure("connection reset (fake)"); }

        /// <summary>A live match of P1 (slot 1) against P2, as spec 2.1 shapes it.</summary>
        public static JsonValue LiveMatch(long matchId = 42, string nonce = "nonce-42", int slot = 1)
        {
            var v = JsonValue.NewObject()
                .Set("matchId", matchId)
                .Set("gameSeed", 4218965659L)
                .Set("slot", slot)
                .Set("sessionNonce", nonce)
                .Set("p1PlatformId", P1)
                .Set("p2PlatformId", P2)
                .Set("opponentPlatformId", slot == 1 ? P2 : P1)
                .Set("tournament", JsonValue.NewObject().Set("slug", "winter-cup").Set("name", "Winter Cup"))
                .Set("windowClosesAt", "2026-11-27T18:00:00Z")
                .Set("allowSpectators", true)
                .Set("cast", JsonValue.NewObject().Set("handMode", "delayed").Set("delaySeconds", 90))
                .Set("casters", JsonValue.NewArray())
                .Set("casterPlatformId", JsonValue.Null)
                .Set("streamUrl", JsonValue.Null)
                .Set("p1Roster", JsonValue.NewArray().Add(JsonValue.FromString(P1)))
                .Set("p2Roster", JsonValue.NewArray().Add(JsonValue.FromString(P2)))
                .Set("teamMinPlayers", 1)
                .Set("teamMaxPlayers", 1)
                .Set("resultProtocol", "svc.result.v3");
            return v;
        }

        /// <summary>A team match: P1 (captain) and P3 against P2 (captain) and P4.</summary>
        public static JsonValue TeamMatch()
        {
            return LiveMatch()
                .Set("p1Roster", JsonValue.NewArray().Add(JsonValue.FromString(P1)).Add(JsonValue.FromString(P3)))
                .Set("p2Roster", JsonValue.NewArray().Add(JsonValue.FromString(P2)).Add(JsonValue.FromString(P4)))
                .Set("teamMinPlayers", 2)
                .Set("teamMaxPlayers", 2);
        }

        /// <summary>The public match object with a status and a winner (null: none).</summary>
        public static JsonValue PublicMatch(long id, string status, string winner)
        {
            Func<string, JsonValue> player = p => JsonValue.NewObject().Set("platformId", p).Set("personaName", "Player " + p.Substring(15)).Set("avatarUrl", "");
            return JsonValue.NewObject()
                .Set("id", id).Set("stage", "group").Set("round", "Round 1").Set("bracketSlot", JsonValue.Null)
                .Set("status", status).Set("opensAt", "2026-11-27T14:00:00Z").Set("closesAt", "2026-11-27T18:00:00Z")
                .Set("player1", player(P1)).Set("player2", player(P2))
                .Set("winner", winner == null ? JsonValue.Null : player(winner))
                .Set("score", JsonValue.Null)
                .Set("resultSource", winner == null ? JsonValue.Null : JsonValue.FromString("game_client"))
                .Set("tournament", JsonValue.NewObject().Set("slug", "winter-cup").Set("name", "Winter Cup"));
        }

        /// <summary>
        /// A live match at game <paramref name="game"/> of a best of <paramref name="bestOf"/>,
        /// the series standing at <paramref name="p1Wins"/>-<paramref name="p2Wins"/>.
        /// </summary>
        public static JsonValue SeriesMatch(int game, int bestOf, int p1Wins, int p2Wins, int slot = 1)
        {
            return LiveMatch(nonce: "nonce-42-" + game, slot: slot).Set("game", game).Set("bestOf", bestOf)
                .Set("seriesScore", JsonValue.NewObject().Set("p1", p1Wins).Set("p2", p2Wins));
        }

        /// <summary>
        /// The public match of a series: its status, the decided games' winners in order, and
        /// the series' winner once decided.
        /// </summary>
        public static JsonValue PublicSeries(long id, string status, int bestOf, params string[] gameWinners)
        {
            Func<string, JsonValue> player = p => JsonValue.NewObject().Set("platformId", p).Set("personaName", "Player " + p.Substring(15)).Set("avatarUrl", "");
            var games = JsonValue.NewArray();
            int p1 = 0, p2 = 0;
            for (int i = 0; i < gameWinners.Length; i++)
            {
                if (gameWinners[i] == P1) p1++; else p2++;
                games.Add(JsonValue.NewObject().Set("game", i + 1).Set("status", "confirmed").Set("winner", player(gameWinners[i]))
                    .Set("resultSource", "game_client").Set("score", JsonValue.Null).Set("decidedAt", "2026-11-27T15:00:00Z"));
            }
            if (status == "live" || status == "awaiting_result" || status == "disputed")
                games.Add(JsonValue.NewObject().Set("game", gameWinners.Length + 1).Set("status", status).Set("winner", JsonValue.Null)
                    .Set("resultSource", JsonValue.Null).Set("score", JsonValue.Null).Set("decidedAt", JsonValue.Null));
            string winner = status == "confirmed" ? gameWinners[gameWinners.Length - 1] : null;
            return PublicMatch(id, status, winner).Set("bestOf", bestOf)
                .Set("seriesScore", JsonValue.NewObject().Set("p1", p1).Set("p2", p2)).Set("games", games);
        }

        /// <summary>A client of P1 against <paramref name="http"/> whose waits are recorded, not slept.</summary>
        public static ArenaClient Client(FakeHttp http, List<TimeSpan> waits = null, Action<ArenaClientSettings> tweak = null)
        {
            var settings = new ArenaClientSettings { BaseUrl = BaseUrl + "/", MockSteamId = P1 };
            if (tweak != null) tweak(settings);
            var client = new ArenaClient(settings, http);
            client.Clock = () => Now;
            client.Delay = (wait, ct) =>
            {
                if (waits != null) waits.Add(wait);
                return Task.FromResult(0);
            };
            return client;
        }
    }
}
