using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using Arena.Client.Http;
using Arena.Client.Json;

namespace Arena.Client.Tests
{
    /// <summary>The spec 4.4 submit flow against an in-process fake arena.</summary>
    static class SubmitTests
    {
        const string ResultPath = "/api/v1/matches/42/result";

        // Arena answers discovery with live, the result POSTs with the queue's answers in turn
        // (the last one repeats), and the public match with lookup (null: 404).
        static FakeHttp Arena(JsonValue live, Queue<ArenaHttpResponse> results, JsonValue lookup = null)
        {
            var http = new FakeHttp();
            http.Handler = r =>
            {
                if (r.Method == "GET" && r.PathAndQuery == "/api/v1/me/live-match") return live == null ? Fake.NoContent() : Fake.Json(200, live);
                if (r.Method == "POST" && r.PathAndQuery == ResultPath) return results.Count > 1 ? results.Dequeue() : results.Peek();
                if (r.Method == "GET" && r.PathAndQuery == "/api/v1/matches/42")
                    return lookup == null ? Fake.Json(404, "{\"error\":\"match_not_found\"}") : Fake.Json(200, lookup);
                return null;
            };
            return http;
        }

        static Queue<ArenaHttpResponse> Answers(params ArenaHttpResponse[] answers) { return new Queue<ArenaHttpResponse>(answers); }

        static ArenaHttpResponse Pending() { return Fake.Json(200, "{\"status\":\"pending\",\"matchStatus\":\"awaiting_result\"}"); }

        static Task<SubmitResult> SubmitP1Wins(ArenaClient client, string opponent = Fake.P2, MatchScore score = null)
        {
            return client.SubmitResultAsync(new ResultSubmission
            {
                OpponentPlatformId = opponent,
                Winner = Fake.P1,
                ResultJson = "{\"moves\":31,\"winner\":\"ignored\",\"z\":[1.0,0.5]}",
                Score = score,
            });
        }

        [Test]
        static async Task PostsTheCanonicalResultWithMetadata()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Pending()));
            var client = Fake.Client(http, tweak: s => s.ClientRole = "host");
            var r = await SubmitP1Wins(client, score: new MatchScore(3, 1));
            Assert.True(r.IsSuccess, "success: " + r);
            Assert.Equal("pending", r.Status, "status");
            Assert.Equal("awaiting_result", r.MatchStatus, "matchStatus");
            Assert.Equal(1, r.Attempts, "attempts");
            string canonical = "{\"matchId\":42,\"moves\":31,\"sessionNonce\":\"nonce-42\",\"winner\":\"76561198000000001\",\"z\":[1,0.5]}";
            Assert.Equal(canonical, r.Canonical, "canonical");
            Assert.Equal(ResultCanonicalizer.Sha256Hex(canonical), r.ResultHash, "hash");

            var posts = http.To("POST", ResultPath);
            Assert.Equal(1, posts.Count, "POSTs");
            var body = posts[0].Json;
            Assert.Equal("svc.result.v3", body.GetString("protocol"), "protocol");
            Assert.Equal(canonical, body.GetString("result"), "result");
            Assert.Equal(r.ResultHash, body.GetString("resultHash"), "resultHash");
            Assert.Equal("host", body.GetString("clientRole"), "clientRole");
            Assert.Equal("2026-11-27T15:04:05Z", body.GetString("endedAt"), "endedAt");
            Assert.Equal(3L, body["score"].GetInt64("p1"), "score.p1");
            Assert.Equal(1L, body["score"].GetInt64("p2"), "score.p2");
            Assert.Null(body["startedAt"], "startedAt unless given");
            Assert.Equal("Platform MOCK:" + Fake.P1, posts[0].Header("Authorization"), "ticket");
            Assert.Equal("application/json", posts[0].Header("Content-Type"), "content type");
            Assert.Equal("http://arena.test/api/v1/me/live-match", http.Requests[0].Url, "discovery first, base URL without its slash");
        }

        [Test]
        static async Task PostsOnTheHeldMatchWithoutDiscovery()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Pending()));
            var client = Fake.Client(http);
            var held = (await client.GetLiveMatchAsync()).Value;
            int before = http.Requests.Count;
            var r = await client.SubmitResultAsync(new ResultSubmission
            {
                OpponentPlatformId = Fake.P2,
                Winner = Fake.P1,
                ResultJson = "{\"moves\":31}",
                HeldMatch = held,
            });
            Assert.True(r.IsSuccess, "success: " + r);
            Assert.Equal(before + 1, http.Requests.Count, "one request: the result's POST, no discovery");
            Assert.Equal("{\"matchId\":42,\"moves\":31,\"sessionNonce\":\"nonce-42\",\"winner\":\"76561198000000001\"}", r.Canonical, "canonical");

            var mixup = await client.SubmitResultAsync(new ResultSubmission { OpponentPlatformId = Fake.P3, Winner = Fake.P1, HeldMatch = held });
            Assert.Equal("opponent_mismatch", mixup.Error, "the 1v1 guard runs on the held match");
            var other = await client.SubmitResultAsync(new ResultSubmission
            {
                OpponentPlatformId = Fake.P2, Winner = Fake.P1, HeldMatch = held, ExpectedMatchId = 42, ExpectedGame = 2,
            });
            Assert.Equal("match_mismatch", other.Error, "another game than the held one");
            Assert.Equal(before + 1, http.Requests.Count, "nothing more sent");
        }

        [Test]
        static async Task OmitsRoleAndScoreWhenUnset()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Pending()));
            var r = await SubmitP1Wins(Fake.Client(http));
            Assert.True(r.IsSuccess, "success: " + r);
            var body = http.To("POST", ResultPath)[0].Json;
            Assert.Null(body["clientRole"], "clientRole");
            Assert.Null(body["score"], "score");
        }

        [Test]
        static async Task RetriesNetworkFailuresAnd5xxWithBackoff()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Fake.Dropped(), Fake.Json(503, "{\"error\":\"unavailable\"}"), Pending()));
            var waits = new List<TimeSpan>();
            var tickets = 0;
            var client = new ArenaClient(new ArenaClientSettings { BaseUrl = Fake.BaseUrl }, http,
                new DelegateTicketProvider(ct => Task.FromResult("ticket" + (++tickets))));
            client.Delay = (w, ct) => { waits.Add(w); return Task.FromResult(0); };
            var r = await client.SubmitResultAsync(Fake.P1, Fake.P2, "{}", Fake.P1);
            Assert.True(r.IsSuccess, "success: " + r);
            Assert.Equal(3, r.Attempts, "attempts");
            Assert.Equal(2, waits.Count, "waits");
            Assert.Equal(TimeSpan.FromSeconds(4), waits[0], "first wait 2^(3-2+1)");
            Assert.Equal(TimeSpan.FromSeconds(8), waits[1], "second wait 2^(3-1+1)");
            var posts = http.To("POST", ResultPath);
            Assert.Equal(3, posts.Count, "POSTs");
            Assert.Equal(posts[0].BodyText, posts[2].BodyText, "every attempt posts identical bytes");
            var seen = new HashSet<string>();
            foreach (var req in http.Requests) Assert.True(seen.Add(req.Header("Authorization")), "a fresh ticket per request");
            Assert.Equal(4, tickets, "tickets: discovery plus three attempts");
        }

        [Test]
        static async Task BackoffScaleMultipliesWaits()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Fake.Json(500, "{}"), Pending()));
            var waits = new List<TimeSpan>();
            var client = Fake.Client(http, waits, s => { s.MaxSubmitAttempts = 5; s.BackoffScale = 0.25; });
            var r = await SubmitP1Wins(client);
            Assert.True(r.IsSuccess, "success: " + r);
            Assert.Equal(1, waits.Count, "waits");
            Assert.Equal(TimeSpan.FromSeconds(1), waits[0], "2^(5-4+1) s x 0.25");
        }

        [Test]
        static async Task GivesUpAfterMaxAttempts()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Fake.Json(502, "<html>bad gateway</html>")));
            var waits = new List<TimeSpan>();
            var r = await SubmitP1Wins(Fake.Client(http, waits, s => s.MaxSubmitAttempts = 2));
            Assert.True(!r.IsSuccess, "failure");
            Assert.Equal("retries_exhausted", r.Error, "error");
            Assert.Equal(502, r.HttpStatus, "the last status");
            Assert.True(r.Detail.Contains("http_502"), "the last failure in the detail: " + r.Detail);
            Assert.Equal(2, r.Attempts, "attempts");
            Assert.Equal(1, waits.Count, "no wait after the last attempt");
            Assert.NotNull(r.Canonical, "the canonical string is kept for a later resubmission");
        }

        [Test]
        static async Task NetworkFailureToTheEndIsRetriesExhausted()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Fake.Dropped()));
            var r = await SubmitP1Wins(Fake.Client(http, tweak: s => s.MaxSubmitAttempts = 1));
            Assert.Equal("retries_exhausted", r.Error, "error");
            Assert.True(r.Detail.Contains("network_error"), "the last failure in the detail: " + r.Detail);
            Assert.Equal(0, r.HttpStatus, "status 0");
            Assert.Equal(1, r.Attempts, "one attempt allowed");
        }

        [Test]
        static async Task ClientErrorsAreFinal()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Fake.Json(409, "{\"error\":\"already_submitted\"}"), Pending()));
            var waits = new List<TimeSpan>();
            var r = await SubmitP1Wins(Fake.Client(http, waits));
            Assert.Equal("already_submitted", r.Error, "error");
            Assert.Equal(409, r.HttpStatus, "status");
            Assert.Equal(1, r.Attempts, "attempts");
            Assert.Equal(0, waits.Count, "no wait");
        }

        [Test]
        static async Task AlreadyResolvedWithoutALostAnswerIsFinal()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Fake.Json(409, "{\"error\":\"already_resolved\"}")), Fake.PublicMatch(42, "confirmed", Fake.P1));
            var r = await SubmitP1Wins(Fake.Client(http));
            Assert.Equal("already_resolved", r.Error, "error");
            Assert.Equal(0, http.To("GET", "/api/v1/matches/42").Count, "no look-up without a lost answer");
        }

        [Test]
        static async Task LostAnswerThenAlreadyResolvedForOurSideIsDecided()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Fake.Dropped(), Fake.Json(409, "{\"error\":\"already_resolved\"}")),
                Fake.PublicMatch(42, "confirmed", Fake.P1));
            var r = await SubmitP1Wins(Fake.Client(http));
            Assert.True(r.IsSuccess, "success: " + r);
            Assert.Equal("decided", r.Status, "status");
            Assert.Equal("confirmed", r.MatchStatus, "matchStatus");
            Assert.Equal(Fake.P1, r.DecidedWinner, "winner");
            var lookups = http.To("GET", "/api/v1/matches/42");
            Assert.Equal(1, lookups.Count, "one look-up");
            Assert.Null(lookups[0].Header("Authorization"), "the public look-up carries no ticket");
        }

        [Test]
        static async Task LostAnswerThenAlreadyResolvedForTheOtherSideFails()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Fake.Json(500, "{\"error\":\"internal\"}"), Fake.Json(409, "{\"error\":\"already_resolved\"}")),
                Fake.PublicMatch(42, "forfeited", Fake.P2));
            var r = await SubmitP1Wins(Fake.Client(http));
            Assert.Equal("already_resolved", r.Error, "error");
            Assert.Equal(409, r.HttpStatus, "status");
        }

        [Test]
        static async Task LostAnswerWithAFailedLookUpFails()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Fake.Dropped(), Fake.Json(409, "{\"error\":\"already_resolved\"}")), null);
            var r = await SubmitP1Wins(Fake.Client(http));
            Assert.Equal("already_resolved", r.Error, "error");
            Assert.Equal(1, http.To("GET", "/api/v1/matches/42").Count, "looked up");
        }

        [Test]
        static async Task LostAnswerThenDuplicateAwaitingIsSuccess()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Fake.Dropped(), Fake.Json(200, "{\"status\":\"duplicate\",\"matchStatus\":\"awaiting_result\"}")),
                Fake.PublicMatch(42, "awaiting_result", null));
            var r = await SubmitP1Wins(Fake.Client(http));
            Assert.True(r.IsSuccess, "success: " + r);
            Assert.Equal("duplicate", r.Status, "status");
            Assert.Equal("awaiting_result", r.MatchStatus, "matchStatus");
        }

        [Test]
        static async Task LostAnswerThenDuplicateConfirmedIsDecided()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Fake.Dropped(), Fake.Json(200, "{\"status\":\"duplicate\",\"matchStatus\":\"confirmed\"}")),
                Fake.PublicMatch(42, "confirmed", Fake.P1));
            var r = await SubmitP1Wins(Fake.Client(http));
            Assert.Equal("decided", r.Status, "status");
            Assert.Equal(Fake.P1, r.DecidedWinner, "winner");
        }

        [Test]
        static async Task TeamLostAnswerComparesSidesByRoster()
        {
            // P3 submitted P3 (side 1) as the winner; the arena names the captain P1.
            var http = Arena(Fake.TeamMatch(), Answers(Fake.Dropped(), Fake.Json(409, "{\"error\":\"already_resolved\"}")),
                Fake.PublicMatch(42, "confirmed", Fake.P1));
            var client = Fake.Client(http, tweak: s => s.MockSteamId = Fake.P3);
            var r = await client.SubmitResultAsync(new ResultSubmission { Winner = Fake.P3, ResultJson = "{}" });
            Assert.Equal("decided", r.Status, "status: " + r);
        }

        [Test]
        static async Task AfterARestartTheMatchPlayedIsLookedUp()
        {
            // The game sent its result and stopped before reading the answer; run again,
            // discovery answers no live match: the public match says how it ended.
            foreach (var c in new[] { new { As = Fake.P1, Won = true }, new { As = Fake.P2, Won = false } })
            {
                var http = Arena(null, Answers(Pending()), Fake.PublicMatch(42, "confirmed", Fake.P1));
                var client = Fake.Client(http, tweak: s => s.MockSteamId = c.As);
                var r = await client.SubmitResultAsync(new ResultSubmission { Winner = Fake.P1, ResultJson = "{}", ExpectedMatchId = 42,
                    OpponentPlatformId = c.As == Fake.P1 ? Fake.P2 : Fake.P1 });
                Assert.True(r.IsSuccess, "success: " + r);
                Assert.Equal("decided", r.Status, "status");
                Assert.Equal("confirmed", r.MatchStatus, "matchStatus");
                Assert.Equal(Fake.P1, r.DecidedWinner, "winner");
                Assert.Equal<bool?>(c.Won, r.Won, "won, as " + c.As);
                Assert.Equal(0, http.To("POST", ResultPath).Count, "nothing posted");
                Assert.Null(http.To("GET", "/api/v1/matches/42")[0].Header("Authorization"), "the look-up is public");
            }
        }

        [Test]
        static async Task AfterARestartAnUndecidedMatchIsUndecided()
        {
            var http = Arena(null, Answers(Pending()), Fake.PublicMatch(42, "disputed", null));
            var r = await Fake.Client(http).SubmitResultAsync(new ResultSubmission { Winner = Fake.P1, OpponentPlatformId = Fake.P2, ResultJson = "{}", ExpectedMatchId = 42 });
            Assert.True(r.IsSuccess, "success: " + r);
            Assert.Equal("undecided", r.Status, "status");
            Assert.Equal("disputed", r.MatchStatus, "matchStatus");
            Assert.Null(r.DecidedWinner, "no winner");
            Assert.Equal<bool?>(null, r.Won, "won");
        }

        [Test]
        static async Task SeriesGameConfirmedGoesOn()
        {
            // Game 2 of a best of 3 at 1-0: P1 wins it, the series is P1's.
            var http = Arena(Fake.SeriesMatch(2, 3, 1, 0), Answers(Fake.Json(200, "{\"status\":\"confirmed\",\"matchStatus\":\"confirmed\"}")));
            var r = await SubmitP1Wins(Fake.Client(http));
            Assert.Equal("confirmed", r.Status, "status: " + r);
            Assert.Equal(2, r.Game, "game");
            Assert.Equal(3, r.BestOf, "bestOf");
            Assert.Equal(new SeriesScore(2, 0), r.SeriesScore, "series score");
            Assert.False(r.SeriesGoesOn, "the series is decided");
            // Game 1 at 0-0, won by P1: back to scheduled, the series goes on.
            http = Arena(Fake.SeriesMatch(1, 3, 0, 0), Answers(Fake.Json(200, "{\"status\":\"confirmed\",\"matchStatus\":\"scheduled\"}")));
            r = await SubmitP1Wins(Fake.Client(http));
            Assert.Equal(new SeriesScore(1, 0), r.SeriesScore, "series score");
            Assert.True(r.SeriesGoesOn, "ready for game 2");
            Assert.True(http.To("POST", ResultPath)[0].Json.GetString("result").Contains("nonce-42-1"), "game 1's nonce");
        }

        [Test]
        static async Task SeriesLostAnswerThenNotLiveIsTheGameDecided()
        {
            // Game 1's confirming answer is lost; the retry meets not_live (the match went back
            // to scheduled): the public match's games show game 1 won by P1.
            var http = Arena(Fake.SeriesMatch(1, 3, 0, 0), Answers(Fake.Dropped(), Fake.Json(409, "{\"error\":\"not_live\"}")),
                Fake.PublicSeries(42, "scheduled", 3, Fake.P1));
            var r = await SubmitP1Wins(Fake.Client(http));
            Assert.True(r.IsSuccess, "success: " + r);
            Assert.Equal("decided", r.Status, "status");
            Assert.Equal("scheduled", r.MatchStatus, "matchStatus");
            Assert.Equal(Fake.P1, r.DecidedWinner, "winner");
            Assert.Equal(1, r.Game, "game");
            Assert.Equal(new SeriesScore(1, 0), r.SeriesScore, "series score");
            Assert.True(r.SeriesGoesOn, "the series goes on");
            // Decided for the other side: the 409 stands.
            http = Arena(Fake.SeriesMatch(1, 3, 0, 0), Answers(Fake.Dropped(), Fake.Json(409, "{\"error\":\"not_live\"}")),
                Fake.PublicSeries(42, "scheduled", 3, Fake.P2));
            r = await SubmitP1Wins(Fake.Client(http));
            Assert.Equal("not_live", r.Error, "the other side won game 1");
            // not_live in a single match is not a lost answer.
            http = Arena(Fake.LiveMatch(), Answers(Fake.Dropped(), Fake.Json(409, "{\"error\":\"not_live\"}")), Fake.PublicMatch(42, "confirmed", Fake.P1));
            r = await SubmitP1Wins(Fake.Client(http));
            Assert.Equal("not_live", r.Error, "best of 1");
        }

        [Test]
        static async Task SeriesLostAnswerThenAlreadyResolvedIsTheDecidingGame()
        {
            var http = Arena(Fake.SeriesMatch(3, 3, 1, 1), Answers(Fake.Dropped(), Fake.Json(409, "{\"error\":\"already_resolved\"}")),
                Fake.PublicSeries(42, "confirmed", 3, Fake.P2, Fake.P1, Fake.P1));
            var r = await SubmitP1Wins(Fake.Client(http));
            Assert.Equal("decided", r.Status, "status: " + r);
            Assert.Equal("confirmed", r.MatchStatus, "matchStatus");
            Assert.Equal(3, r.Game, "game");
            Assert.Equal(new SeriesScore(2, 1), r.SeriesScore, "series score");
            Assert.False(r.SeriesGoesOn, "decided");
        }

        [Test]
        static async Task SeriesAfterARestartTheGamePlayedIsLookedUp()
        {
            // P2 played game 1, won by P1; restarted, discovery shows no live match (scheduled)
            // or game 2 live already: game 1 is reported decided, nothing is posted.
            foreach (var live in new[] { null, Fake.SeriesMatch(2, 3, 1, 0, slot: 2) })
            {
                var lookup = Fake.PublicSeries(42, live == null ? "scheduled" : "live", 3, Fake.P1);
                var http = Arena(live, Answers(Pending()), lookup);
                var client = Fake.Client(http, tweak: s => s.MockSteamId = Fake.P2);
                var r = await client.SubmitResultAsync(new ResultSubmission { Winner = Fake.P1, OpponentPlatformId = Fake.P1, ResultJson = "{}",
                    ExpectedMatchId = 42, ExpectedGame = 1 });
                string label = live == null ? "scheduled" : "game 2 live";
                Assert.True(r.IsSuccess, "success: " + r);
                Assert.Equal("decided", r.Status, "status, " + label);
                Assert.Equal(lookup.GetString("status"), r.MatchStatus, "matchStatus, " + label);
                Assert.Equal(Fake.P1, r.DecidedWinner, "winner, " + label);
                Assert.Equal<bool?>(false, r.Won, "won, " + label);
                Assert.Equal(1, r.Game, "game, " + label);
                Assert.Equal(new SeriesScore(1, 0), r.SeriesScore, "series score, " + label);
                Assert.True(r.SeriesGoesOn, "goes on, " + label);
                Assert.Equal(0, http.To("POST", ResultPath).Count, "nothing posted, " + label);
            }
            // Without the game, a series back to scheduled is undecided.
            var h = Arena(null, Answers(Pending()), Fake.PublicSeries(42, "scheduled", 3, Fake.P1));
            var u = await Fake.Client(h).SubmitResultAsync(new ResultSubmission { Winner = Fake.P1, OpponentPlatformId = Fake.P2, ResultJson = "{}", ExpectedMatchId = 42 });
            Assert.Equal("undecided", u.Status, "without the game");
        }

        [Test]
        static async Task NoLiveMatchWithoutAMatchIdOrForAnUnknownMatch()
        {
            var http = Arena(null, Answers(Pending()), Fake.PublicMatch(42, "confirmed", Fake.P1));
            var r = await SubmitP1Wins(Fake.Client(http));
            Assert.Equal("no_live_match", r.Error, "without ExpectedMatchId");
            http = Arena(null, Answers(Pending()), null);
            r = await Fake.Client(http).SubmitResultAsync(new ResultSubmission { Winner = Fake.P1, OpponentPlatformId = Fake.P2, ResultJson = "{}", ExpectedMatchId = 42 });
            Assert.Equal("no_live_match", r.Error, "an unknown match");
        }

        [Test]
        static async Task DrawSubmitsNothing()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Pending()));
            var r = await Fake.Client(http).SubmitResultAsync(Fake.P1, Fake.P2, "{}", "");
            Assert.True(r.IsDraw, "draw");
            Assert.True(!r.IsSuccess, "a draw is not a submitted result");
            Assert.Null(r.Error, "no error");
            Assert.Equal(0, http.Requests.Count, "no request at all");
        }

        [Test]
        static async Task DisabledClientSendsNothing()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Pending()));
            var client = new ArenaClient(new ArenaClientSettings { Enabled = false }, http);
            var r = await client.SubmitResultAsync(Fake.P1, Fake.P2, "{}", Fake.P1);
            Assert.Equal("disabled", r.Error, "submit");
            Assert.Equal("disabled", (await client.GetLiveMatchAsync()).Error, "discovery");
            Assert.Equal("disabled", (await client.ReadyAsync(42)).Error, "ready");
            Assert.Equal("disabled", (await client.SubmitRecordingAsync(new byte[] { 1 })).Error, "recording");
            Assert.Equal(0, http.Requests.Count, "no request");
        }

        [Test]
        static async Task AntiMixupRefusesAnotherOpponent()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Pending()));
            var r = await SubmitP1Wins(Fake.Client(http), opponent: Fake.Outsider);
            Assert.Equal("opponent_mismatch", r.Error, "error");
            Assert.Equal(0, http.To("POST", ResultPath).Count, "nothing posted");
        }

        [Test]
        static async Task TeamModeIgnoresTheOpponentAndChecksRosters()
        {
            var http = Arena(Fake.TeamMatch(), Answers(Pending()));
            var client = Fake.Client(http, tweak: s => s.MockSteamId = Fake.P3);
            var ok = await client.SubmitResultAsync(new ResultSubmission { OpponentPlatformId = Fake.Outsider, Winner = Fake.P4, ResultJson = "{}" });
            Assert.True(ok.IsSuccess, "roster member reports, any opponent id: " + ok);
            Assert.True(ok.Canonical.Contains("\"winner\":\"" + Fake.P4 + "\""), "winner is any member of the winning side");
            var notOnSide = await client.SubmitResultAsync(new ResultSubmission { Winner = Fake.Outsider, ResultJson = "{}" });
            Assert.Equal("winner_not_on_side", notOnSide.Error, "winner off the rosters");
        }

        [Test]
        static async Task LocalAccountMustPlay()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Pending()));
            var r = await Fake.Client(http).SubmitResultAsync(Fake.Outsider, Fake.P2, "{}", Fake.P1);
            Assert.Equal("not_participant", r.Error, "error");
            Assert.Equal(0, http.To("POST", ResultPath).Count, "nothing posted");
        }

        [Test]
        static async Task WinnerMustBeOnASide()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Pending()));
            var r = await Fake.Client(http).SubmitResultAsync(Fake.P1, Fake.P2, "{}", Fake.Outsider);
            Assert.Equal("winner_not_on_side", r.Error, "error");
            Assert.Equal(0, http.To("POST", ResultPath).Count, "nothing posted");
        }

        [Test]
        static async Task RefusedResultIsNotPosted()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Pending()));
            var r = await Fake.Client(http).SubmitResultAsync(Fake.P1, Fake.P2, "{\"replayId\":9007199254740993}", Fake.P1);
            Assert.Equal("unsafe_integer", r.Error, "error");
            Assert.Equal(0, http.To("POST", ResultPath).Count, "nothing posted");
        }

        [Test]
        static async Task NoLiveMatchAndWrongMatch()
        {
            var none = Arena(null, Answers(Pending()));
            Assert.Equal("no_live_match", (await SubmitP1Wins(Fake.Client(none))).Error, "204");
            var other = Arena(Fake.LiveMatch(), Answers(Pending()));
            var r = await Fake.Client(other).SubmitResultAsync(new ResultSubmission { OpponentPlatformId = Fake.P2, Winner = Fake.P1, ExpectedMatchId = 41 });
            Assert.Equal("match_mismatch", r.Error, "another match is live");
            var invalid = Arena(Fake.LiveMatch().Set("resultProtocol", "svc.result.v2"), Answers(Pending()));
            Assert.Equal("invalid_live_match", (await SubmitP1Wins(Fake.Client(invalid))).Error, "old protocol");
            Assert.Equal(0, none.To("POST", "/").Count + other.To("POST", "/").Count + invalid.To("POST", "/").Count, "nothing posted");
        }

        [Test]
        static async Task DiscoveryFailureIsReported()
        {
            var http = new FakeHttp { Handler = req => Fake.Json(401, "{\"error\":\"missing_ticket\"}") };
            var r = await SubmitP1Wins(Fake.Client(http));
            Assert.Equal("missing_ticket", r.Error, "error");
            Assert.Equal(401, r.HttpStatus, "status");
        }

        [Test]
        static async Task TicketFailureSendsNothing()
        {
            var http = Arena(Fake.LiveMatch(), Answers(Pending()));
            var client = new ArenaClient(new ArenaClientSettings { BaseUrl = Fake.BaseUrl }, http,
                new DelegateTicketProvider(ct => { throw new InvalidOperationException("Steam is not running"); }));
            var r = await client.GetLiveMatchAsync();
            Assert.Equal("ticket_failed", r.Error, "error");
            Assert.Equal(0, http.Requests.Count, "no request");
        }

        [Test]
        static void BackoffFollowsTheSpec()
        {
            Assert.Equal(TimeSpan.FromSeconds(4), ArenaClient.SubmitBackoff(3, 2), "3 attempts, 2 left");
            Assert.Equal(TimeSpan.FromSeconds(8), ArenaClient.SubmitBackoff(3, 1), "3 attempts, 1 left");
            Assert.Equal(TimeSpan.FromSeconds(32), ArenaClient.SubmitBackoff(5, 1), "5 attempts, 1 left");
        }
    }
}
