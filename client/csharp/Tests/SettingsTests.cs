using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using Arena.Client.Json;

namespace Arena.Client.Tests
{
    /// <summary>Spec 4.4 settings, discovery and the live match's fields.</summary>
    static class SettingsTests
    {
        [Test]
        static void Defaults()
        {
            var s = new ArenaClientSettings();
            Assert.True(s.Enabled, "Enabled");
            Assert.Equal(3, s.MaxSubmitAttempts, "MaxSubmitAttempts");
            Assert.True(s.AutoDiscover, "AutoDiscover");
            Assert.Equal(60, s.AutoDiscoverIntervalSeconds, "AutoDiscoverIntervalSeconds");
            Assert.Equal("", s.MockSteamId, "MockSteamId");
            Assert.True(!s.EnableReferee, "EnableReferee");
            Assert.Equal("game.gameplay.v1", s.RefereeTraceSchema, "RefereeTraceSchema");
            Assert.Equal(1.0, s.BackoffScale, "BackoffScale");
        }

        [Test]
        static void Clamps()
        {
            var cases = new[] { new[] { -3, 1 }, new[] { 0, 1 }, new[] { 1, 1 }, new[] { 4, 4 }, new[] { 5, 5 }, new[] { 6, 5 }, new[] { int.MaxValue, 5 } };
            foreach (var c in cases)
                Assert.Equal(c[1], new ArenaClientSettings { MaxSubmitAttempts = c[0] }.MaxSubmitAttempts, "MaxSubmitAttempts " + c[0]);
            var intervals = new[] { new[] { 0, 15 }, new[] { 14, 15 }, new[] { 15, 15 }, new[] { 120, 120 }, new[] { 600, 600 }, new[] { 601, 600 }, new[] { int.MinValue, 15 } };
            foreach (var c in intervals)
                Assert.Equal(c[1], new ArenaClientSettings { AutoDiscoverIntervalSeconds = c[0] }.AutoDiscoverIntervalSeconds, "AutoDiscoverIntervalSeconds " + c[0]);
            Assert.Equal(0.0, new ArenaClientSettings { BackoffScale = -1 }.BackoffScale, "negative backoff scale");
        }

        [Test]
        static void BaseUrlLosesTrailingSlashes()
        {
            Assert.Equal("https://demo.example.com", new ArenaClientSettings { BaseUrl = " https://demo.example.com// " }.BaseUrl, "stripped");
            Assert.Equal("http://127.0.0.1:8787/arena", new ArenaClientSettings { BaseUrl = "http://127.0.0.1:8787/arena/" }.BaseUrl, "path kept");
        }

        [Test]
        static void ValidateNamesTheBadSetting()
        {
            Func<ArenaClientSettings> ok = () => new ArenaClientSettings { BaseUrl = "https://arena.example" };
            ok().Validate();
            new ArenaClientSettings { Enabled = false }.Validate(); // a disabled client needs no origin
            var badSchema = ok(); badSchema.RefereeTraceSchema = "Game.v1";
            Assert.True(Assert.Throws<ArgumentException>(badSchema.Validate, "schema").Message.Contains("RefereeTraceSchema"), "names the schema");
            var badRole = ok(); badRole.ClientRole = "server";
            Assert.Throws<ArgumentException>(badRole.Validate, "role");
            var badMock = ok(); badMock.MockSteamId = "7656119800000000";
            Assert.Throws<ArgumentException>(badMock.Validate, "mock id");
            Assert.Throws<ArgumentException>(new ArenaClientSettings { BaseUrl = "arena.example" }.Validate, "relative base URL");
            Assert.Throws<ArgumentException>(() => new ArenaClient(ok()), "an enabled client needs tickets");
            foreach (var good in new[] { "game.gameplay.v1", "abc.v9", "my-game.trace.v12" })
                Assert.True(ArenaClientSettings.IsValidTraceSchema(good), good);
            foreach (var bad in new[] { "ab.v1", "game.gameplay.v0", "-game.v1", "game_play.v1", "game.gameplay" })
                Assert.True(!ArenaClientSettings.IsValidTraceSchema(bad), bad);
        }

        [Test]
        static void ClientKeepsItsOwnCopy()
        {
            var s = new ArenaClientSettings { BaseUrl = Fake.BaseUrl, MockSteamId = Fake.P1 };
            var client = new ArenaClient(s, new FakeHttp());
            s.MaxSubmitAttempts = 5;
            Assert.Equal(3, client.Settings.MaxSubmitAttempts, "later changes do not reach the client");
        }

        [Test]
        static async Task LiveMatchFields()
        {
            var http = new FakeHttp { Handler = req => Fake.Json(200, Fake.LiveMatch()) };
            var r = await Fake.Client(http).GetLiveMatchAsync();
            Assert.True(r.IsSuccess, "success: " + r);
            var m = r.Value;
            Assert.Equal(42L, m.MatchId, "matchId");
            Assert.Equal(4218965659L, m.GameSeed, "gameSeed as int64");
            Assert.Equal(4218965659u, m.GameSeedUInt32, "gameSeed as uint");
            Assert.True(!m.IsCasual, "organized");
            Assert.Equal("delayed", m.CastPolicy, "cast policy");
            Assert.Equal(90, m.CastDelaySeconds, "delay");
            Assert.Equal("winter-cup", m.Tournament.Slug, "tournament");
            Assert.True(m.IsValid, "valid");
            Assert.Equal(1, m.SideOf(Fake.P1), "side of P1");
            Assert.Equal(2, m.SideOf(Fake.P2), "side of P2");
            Assert.Equal(0, m.SideOf(Fake.Outsider), "outsider");
            Assert.Null(m.Referee, "no referee block");
            Assert.Equal("GET", http.Requests[0].Method, "GET");
            Assert.Equal("Platform MOCK:" + Fake.P1, http.Requests[0].Header("Authorization"), "mock ticket");
        }

        [Test]
        static async Task CasualSessionAndHiddenDefault()
        {
            var live = Fake.LiveMatch();
            live.Remove("gameSeed");
            live.Remove("cast");
            var m = (await Fake.Client(new FakeHttp { Handler = req => Fake.Json(200, live) }).GetLiveMatchAsync()).Value;
            Assert.True(m.IsCasual, "no gameSeed: casual");
            Assert.Equal("hidden", m.CastPolicy, "absent cast policy");
            live.Set("gameSeed", 0).Set("cast", JsonValue.NewObject().Set("handMode", "").Set("delaySeconds", 0));
            m = (await Fake.Client(new FakeHttp { Handler = req => Fake.Json(200, live) }).GetLiveMatchAsync()).Value;
            Assert.True(m.IsCasual, "gameSeed 0: casual");
            Assert.Equal("hidden", m.CastPolicy, "empty cast policy");
        }

        [Test]
        static async Task NoneIsSuccessWithoutValue()
        {
            var http = new FakeHttp { Handler = req => Fake.NoContent() };
            var live = await Fake.Client(http).GetLiveMatchAsync();
            Assert.True(live.IsSuccess && live.Value == null, "204 live");
            var upcoming = await Fake.Client(http).GetUpcomingMatchAsync();
            Assert.True(upcoming.IsSuccess && upcoming.Value == null, "204 upcoming");
            Assert.Equal("/api/v1/me/upcoming-match", http.Requests[1].PathAndQuery, "upcoming path");
        }

        [Test]
        static async Task UpcomingAndReady()
        {
            var http = new FakeHttp();
            http.Handler = r =>
            {
                if (r.PathAndQuery == "/api/v1/me/upcoming-match")
                    return Fake.Json(200, "{\"matchId\":7,\"slot\":2,\"opponentPlatformId\":\"" + Fake.P1 + "\",\"opponentName\":\"Ann\",\"windowOpen\":true,\"selfReady\":false,\"opponentReady\":true,\"extra\":1}");
                if (r.PathAndQuery == "/api/v1/matches/7/ready" && r.Method == "POST") return Fake.Json(200, "{\"status\":\"ready\",\"live\":true,\"opponentReady\":true}");
                if (r.PathAndQuery == "/api/v1/matches/8/ready") return Fake.Json(409, "{\"error\":\"window_not_open\"}");
                return null;
            };
            var client = Fake.Client(http);
            var up = (await client.GetUpcomingMatchAsync()).Value;
            Assert.Equal(7L, up.MatchId, "matchId");
            Assert.Equal(2, up.Slot, "slot");
            Assert.True(up.WindowOpen && up.OpponentReady && !up.SelfReady, "flags");
            var ready = await client.ReadyAsync(7);
            Assert.True(ready.IsSuccess && ready.Value.Live, "ready and live");
            var refused = await client.ReadyAsync(8);
            Assert.Equal("window_not_open", refused.Error, "refusal code");
            Assert.Equal(409, refused.HttpStatus, "status");
        }

        [Test]
        static async Task WaitForLiveMatchPollsUntilValid()
        {
            int polls = 0;
            var http = new FakeHttp
            {
                Handler = req =>
                {
                    polls++;
                    if (polls == 1) return Fake.NoContent();
                    if (polls == 2) return Fake.Json(503, "{}");
                    if (polls == 3) return Fake.Dropped();
                    if (polls == 4) return Fake.Json(200, Fake.LiveMatch().Set("slot", 0));
                    return Fake.Json(200, Fake.LiveMatch());
                },
            };
            var waits = new List<TimeSpan>();
            var logs = new List<string>();
            var client = Fake.Client(http, waits, s => s.AutoDiscoverIntervalSeconds = 5);
            client.Log = logs.Add;
            var r = await client.WaitForLiveMatchAsync();
            Assert.True(r.IsSuccess && r.Value.MatchId == 42, "found: " + r);
            Assert.Equal(5, polls, "polls");
            Assert.Equal(4, waits.Count, "waits between polls");
            foreach (var w in waits) Assert.Equal(TimeSpan.FromSeconds(15), w, "interval clamped to 15 s");
            Assert.Equal(3, logs.Count, "logged the 503, the network failure and the invalid match");
        }

        [Test]
        static async Task WaitForLiveMatchStopsOnRefusal()
        {
            var http = new FakeHttp { Handler = req => Fake.Json(401, "{\"error\":\"missing_ticket\"}") };
            var waits = new List<TimeSpan>();
            var r = await Fake.Client(http, waits).WaitForLiveMatchAsync();
            Assert.Equal("missing_ticket", r.Error, "error");
            Assert.Equal(0, waits.Count, "no wait");
            var off = await Fake.Client(http, waits, s => s.AutoDiscover = false).WaitForLiveMatchAsync();
            Assert.Equal("auto_discover_off", off.Error, "auto-discovery off");
            Assert.Equal(1, http.Requests.Count, "nothing sent when off");
        }

        [Test]
        static async Task AppIdHintIsSent()
        {
            var http = new FakeHttp { Handler = req => Fake.NoContent() };
            await Fake.Client(http, tweak: s => s.AppId = "480").GetLiveMatchAsync();
            Assert.Equal("480", http.Requests[0].Header("X-Platform-AppId"), "X-Platform-AppId");
        }
    }
}
