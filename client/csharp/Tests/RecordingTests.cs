using System;
using System.Collections.Generic;
using System.IO;
using System.IO.Compression;
using System.Text;
using System.Threading.Tasks;
using Arena.Client.Http;
using Arena.Client.Json;

namespace Arena.Client.Tests
{
    /// <summary>game.replay.v1 files, recordings and segments, and the trace recorder.</summary>
    static class RecordingTests
    {
        const string UploadUrl = "http://storage.test/bucket/rec-7?sig=abc%2Fdef";

        static byte[] SampleReplay(ReplayHeader header)
        {
            using (var w = new ReplayWriter())
            {
                w.Append(0, "match_started");
                w.Append(1000, "public_action", JsonValue.NewObject().Set("actor", 1).Set("action", "play").Set("target", "board"));
                w.Append(1200, "hand", JsonValue.NewObject().Set("cards", JsonValue.NewArray().Add(JsonValue.FromString("Ah"))));
                return w.Finish(header);
            }
        }

        // Gunzip reads every gzip member of a file (the writer makes two).
        static string Gunzip(byte[] file)
        {
            var text = new StringBuilder();
            int offset = 0;
            while (offset < file.Length)
            {
                int next = NextMember(file, offset);
                using (var gz = new GZipStream(new MemoryStream(file, offset, next - offset), CompressionMode.Decompress))
                using (var reader = new StreamReader(gz, Encoding.UTF8))
                    text.Append(reader.ReadToEnd());
                offset = next;
            }
            return text.ToString();
        }

        // NextMember finds where the gzip member starting at offset ends: the next 1f 8b 08
        // header after it, or the end (good enough for test data without that byte run).
        static int NextMember(byte[] file, int offset)
        {
            for (int i = offset + 10; i + 2 < file.Length; i++)
                if (file[i] == 0x1f && file[i + 1] == 0x8b && file[i + 2] == 0x08) return i;
            return file.Length;
        }

        [Test]
        static void ReplayFileHasHeaderThenEvents()
        {
            var file = SampleReplay(new ReplayHeader { MatchId = 42, SessionNonce = "nonce-42", Scope = "full", GameBuild = "1.2.3", DurationMs = 3300 });
            Assert.Equal(0x1f, (int)file[0], "gzip magic");
            string[] lines = Gunzip(file).Split('\n');
            Assert.Equal("{\"durationMs\":3300,\"format\":\"game.replay.v1\",\"gameBuild\":\"1.2.3\",\"matchId\":42,\"scope\":\"full\",\"sessionNonce\":\"nonce-42\"}", lines[0], "header line");
            Assert.Equal("{\"tMs\":0,\"type\":\"match_started\"}", lines[1], "first event");
            Assert.Equal("{\"action\":\"play\",\"actor\":1,\"tMs\":1000,\"target\":\"board\",\"type\":\"public_action\"}", lines[2], "second event");
            Assert.Equal(5, lines.Length, "three events and a final newline");
            var h = ReplayHeader.Read(file);
            Assert.Equal(42L, h.MatchId, "header matchId");
            Assert.Equal("full", h.Scope, "header scope");
            Assert.Equal(3300L, h.DurationMs, "header duration");
            Assert.True(!h.SegmentSeq.HasValue, "no segment");
            Assert.Null(ReplayHeader.Read(Encoding.UTF8.GetBytes("{\"format\":\"game.replay.v1\"}")), "not gzip");
        }

        [Test]
        static void CasualAndSegmentHeaders()
        {
            var casual = new ReplayHeader { Scope = "public", GameBuild = "b", DurationMs = 10 };
            Assert.Equal("{\"durationMs\":10,\"format\":\"game.replay.v1\",\"gameBuild\":\"b\",\"scope\":\"public\"}", Gunzip(SampleReplay(casual)).Split('\n')[0], "casual: no match");
            var seg = ReplayHeader.Read(SampleReplay(casual.ForSegment(3, 9000)));
            Assert.Equal(3L, seg.SegmentSeq.Value, "segmentSeq");
            Assert.Equal(9000L, seg.BaseTMs.Value, "baseTMs");
            Assert.True(!casual.SegmentSeq.HasValue, "ForSegment copies");
        }

        // An arena that accepts one recording: init, PUT to UploadUrl, finalize.
        static FakeHttp RecordingArena(Queue<ArenaHttpResponse> puts = null)
        {
            var http = new FakeHttp();
            http.Handler = r =>
            {
                if (r.Method == "POST" && (r.PathAndQuery == "/api/v1/matches/42/recording/init" || r.PathAndQuery == "/api/v1/me/recordings/init"))
                    return Fake.Json(200, "{\"recordingId\":7,\"upload\":{\"url\":\"" + UploadUrl + "\",\"local\":true},\"maxBytes\":2097152}");
                if (r.Method == "PUT" && r.Url == UploadUrl)
                    return puts != null && puts.Count > 0 ? puts.Dequeue() : new ArenaHttpResponse(200, null);
                if (r.Method == "POST" && r.PathAndQuery == "/api/v1/recordings/7/finalize")
                    return Fake.Json(200, "{\"id\":7,\"matchId\":42,\"game\":2,\"scope\":\"full\",\"visibility\":\"private\",\"gameBuild\":\"1.2.3\",\"durationMs\":3300,\"byteSize\":321,\"state\":\"ready\",\"uploaderPlatformId\":\"" + Fake.P1 + "\",\"createdAt\":\"2026-11-27T15:00:00Z\"}");
                return null;
            };
            return http;
        }

        [Test]
        static async Task SubmitRecordingInitsPutsAndFinalizes()
        {
            var http = RecordingArena();
            var file = SampleReplay(new ReplayHeader { MatchId = 42, SessionNonce = "nonce-42", Scope = "full", GameBuild = "1.2.3", DurationMs = 3300 });
            var r = await Fake.Client(http).SubmitRecordingAsync(file);
            Assert.True(r.IsSuccess, "success: " + r);
            Assert.Equal("ready", r.Value.State, "state");
            Assert.Equal(42L, r.Value.MatchId.Value, "matchId");
            Assert.Equal(3, http.Requests.Count, "three requests");
            var init = http.Requests[0];
            Assert.Equal("/api/v1/matches/42/recording/init", init.PathAndQuery, "match recording init");
            Assert.Equal("{\"scope\":\"full\",\"gameBuild\":\"1.2.3\",\"durationMs\":3300,\"sessionNonce\":\"nonce-42\"}", init.BodyText, "init body from the header, its game named by the session");
            Assert.Equal(2, r.Value.Game.Value, "game");
            var put = http.Requests[1];
            Assert.Equal("PUT", put.Method, "PUT");
            Assert.Equal(UploadUrl, put.Url, "to upload.url as given");
            Assert.Equal("application/gzip", put.Header("Content-Type"), "content type");
            Assert.Null(put.Header("Authorization"), "no ticket on the upload");
            Assert.Equal(Convert.ToBase64String(file), Convert.ToBase64String(put.Body), "the file's bytes");
            Assert.Equal("/api/v1/recordings/7/finalize", http.Requests[2].PathAndQuery, "finalize");
            Assert.NotNull(http.Requests[2].Header("Authorization"), "finalize carries a ticket");
        }

        [Test]
        static async Task CasualRecordingUsesMyRecordings()
        {
            var http = RecordingArena();
            var r = await Fake.Client(http).SubmitRecordingAsync(SampleReplay(new ReplayHeader { Scope = "public", GameBuild = "b", DurationMs = 5 }));
            Assert.True(r.IsSuccess, "success: " + r);
            Assert.Equal("/api/v1/me/recordings/init", http.Requests[0].PathAndQuery, "casual init");
        }

        [Test]
        static async Task UploadRetriesAndRefusals()
        {
            var waits = new List<TimeSpan>();
            var http = RecordingArena(new Queue<ArenaHttpResponse>(new[] { Fake.Dropped(), new ArenaHttpResponse(503, null) }));
            var file = SampleReplay(new ReplayHeader { MatchId = 42, SessionNonce = "n", Scope = "public", GameBuild = "b", DurationMs = 1 });
            var r = await Fake.Client(http, waits).SubmitRecordingAsync(file);
            Assert.True(r.IsSuccess, "success after two failed PUTs: " + r);
            Assert.Equal(3, http.To("PUT", "/").Count, "three PUTs");
            Assert.Equal(2, waits.Count, "two waits");

            var refusing = RecordingArena(new Queue<ArenaHttpResponse>(new[] { Fake.Json(403, "<Error><Code>SignatureDoesNotMatch</Code></Error>") }));
            var refused = await Fake.Client(refusing).SubmitRecordingAsync(file);
            Assert.Equal("http_403", refused.Error, "a 4xx upload is final");
            Assert.Equal(0, refusing.To("POST", "/api/v1/recordings/7/finalize").Count, "no finalize");

            var notReplay = await Fake.Client(http).SubmitRecordingAsync(Encoding.UTF8.GetBytes("hello"));
            Assert.Equal("not_replay", notReplay.Error, "not a replay");
        }

        [Test]
        static async Task FinalizeRefusalCarriesTheCode()
        {
            var http = RecordingArena();
            var inner = http.Handler;
            http.Handler = r => r.PathAndQuery.EndsWith("/finalize", StringComparison.Ordinal) ? Fake.Json(422, "{\"error\":\"header_mismatch\"}") : inner(r);
            var r2 = await Fake.Client(http).SubmitRecordingAsync(SampleReplay(new ReplayHeader { MatchId = 42, SessionNonce = "n", Scope = "public", GameBuild = "b", DurationMs = 1 }));
            Assert.Equal("header_mismatch", r2.Error, "finalize refusal");
            Assert.Equal(422, r2.HttpStatus, "status");
        }

        [Test]
        static async Task ListFetchShareAndSegments()
        {
            var http = new FakeHttp();
            http.Handler = r =>
            {
                switch (r.Method + " " + r.PathAndQuery)
                {
                    case "GET /api/v1/me/recordings":
                        return Fake.Json(200, "{\"recordings\":[{\"id\":7,\"matchId\":null,\"scope\":\"public\",\"visibility\":\"private\",\"state\":\"ready\"},{\"id\":8,\"matchId\":42,\"state\":\"pending\"}]}");
                    case "GET /api/v1/recordings/7?token=a%2Bb%2Fc":
                        return Fake.Json(200, "{\"url\":\"http://storage.test/get/7\"}");
                    case "POST /api/v1/recordings/7/share":
                        return Fake.Json(200, "{\"token\":\"tok\",\"path\":\"/api/v1/recordings/7?token=tok\"}");
                    case "POST /api/v1/recordings/7/segments/init":
                        return Fake.Json(200, "{\"recordingId\":7,\"seq\":2,\"upload\":{\"url\":\"http://storage.test/seg/2\",\"local\":false},\"maxBytes\":1048576}");
                    case "PUT /seg/2":
                        return new ArenaHttpResponse(200, null);
                    case "POST /api/v1/recordings/7/segments/2/finalize":
                        return Fake.Json(200, "{\"seq\":2}");
                    case "GET /api/v1/recordings/7/segments?after=1&token=tok":
                        return Fake.Json(200, "{\"state\":\"live\",\"segments\":[{\"seq\":2,\"url\":\"http://storage.test/get/seg/2\"}]}");
                }
                return null;
            };
            var client = Fake.Client(http);
            var list = await client.GetMyRecordingsAsync();
            Assert.Equal(2, list.Value.Count, "two recordings");
            Assert.True(!list.Value[0].MatchId.HasValue, "casual: matchId null");
            Assert.Equal(42L, list.Value[1].MatchId.Value, "match recording");
            var url = await client.FetchRecordingAsync(7, "a+b/c");
            Assert.Equal("http://storage.test/get/7", url.Value, "fetch URL with an escaped token");
            var share = await client.ShareRecordingAsync(7);
            Assert.Equal("tok", share.Value.Token, "share token");

            var segment = SampleReplay(new ReplayHeader { MatchId = 42, SessionNonce = "n", Scope = "full", GameBuild = "b", DurationMs = 3000 }.ForSegment(2, 6000));
            var sent = await client.SubmitSegmentAsync(7, 2, segment);
            Assert.True(sent.IsSuccess, "segment: " + sent);
            Assert.Equal("{\"seq\":2}", http.To("POST", "/api/v1/recordings/7/segments/init")[0].BodyText, "segment init body");
            Assert.Equal("application/gzip", http.To("PUT", "/seg/2")[0].Header("Content-Type"), "segment content type");
            var feed = await client.GetSegmentsAsync(7, 1, "tok");
            Assert.True(feed.Value.IsLive, "live");
            Assert.Equal(2L, feed.Value.Segments[0].Seq, "seq");
        }

        [Test]
        static async Task SegmentAfterTheEndIsRefused()
        {
            var http = new FakeHttp { Handler = r => Fake.Json(409, "{\"error\":\"recording_ended\"}") };
            var r2 = await Fake.Client(http).SubmitSegmentAsync(7, 5, new byte[] { 1, 2 });
            Assert.Equal("recording_ended", r2.Error, "code");
            Assert.Equal(1, http.Requests.Count, "no PUT");
        }

        [Test]
        static async Task SpoolResubmission()
        {
            string dir = Path.Combine(Path.GetTempPath(), "arena-spool-" + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(dir);
            try
            {
                File.WriteAllBytes(Path.Combine(dir, "a" + ArenaClient.SpoolSuffix), SampleReplay(new ReplayHeader { MatchId = 42, SessionNonce = "n", Scope = "public", GameBuild = "b", DurationMs = 1 }));
                File.WriteAllBytes(Path.Combine(dir, "b" + ArenaClient.SpoolSuffix), Encoding.UTF8.GetBytes("not a replay"));
                File.WriteAllText(Path.Combine(dir, "c.txt"), "ignored");
                var results = await Fake.Client(RecordingArena()).ResubmitSpoolAsync(dir);
                Assert.Equal(2, results.Count, "two spool files");
                Assert.True(results[0].Result.IsSuccess, "a submitted");
                Assert.True(!File.Exists(Path.Combine(dir, "a" + ArenaClient.SpoolSuffix)), "a deleted");
                Assert.True(File.Exists(Path.Combine(dir, "b" + ArenaClient.SpoolSuffix + ".refused")), "b set aside");
                Assert.True(File.Exists(Path.Combine(dir, "c.txt")), "other files left alone");
            }
            finally
            {
                Directory.Delete(dir, true);
            }
        }

        static LiveMatch RefereeMatch(bool consent)
        {
            var live = Fake.LiveMatch(slot: 2).Set("refereeM0", JsonValue.NewObject().Set("enabled", true).Set("consentComplete", consent)
                .Set("traceProtocol", "svc.gameplay.v1").Set("captureProtocol", "svc.capture.v1"));
            return LiveMatch.FromJson(live);
        }

        [Test]
        static async Task TraceRecorderStampsHashesAndPosts()
        {
            var http = new FakeHttp { Handler = r => Fake.Json(200, "{\"status\":\"pending\",\"training\":\"pending\"}") };
            var client = Fake.Client(http, tweak: s => { s.EnableReferee = true; s.RefereeRuleset = "ranked"; });
            var ms = 0;
            var rec = client.CreateTraceRecorder(RefereeMatch(true), () => TimeSpan.FromMilliseconds(ms));
            Assert.True(rec.IsActive, "active");
            rec.TurnStarted(1); // before Begin: ignored
            ms = 5;
            rec.Begin();
            ms = 100;
            rec.RoundStarted(1);
            rec.TurnStarted(2);
            ms = 90; // the game clock went back: tMs does not
            rec.PublicAction(2, "play", ActionTarget.Board);
            ms = 400;
            rec.PublicScoreChanged(2, 0, 1);
            rec.RoundEnded(1, 2, 0, 1);
            var outcome = await rec.EndAndSubmitAsync(2, EndReason.Normal);
            Assert.True(outcome.IsSuccess, "posted: " + outcome);
            Assert.Equal("pending", outcome.Value.Training, "training");
            rec.TurnStarted(1); // after the end: ignored
            Assert.Equal(7, rec.EventCount, "events");

            var post = http.Requests[0];
            Assert.Equal("/api/v1/matches/42/gameplay-trace", post.PathAndQuery, "path");
            var env = post.Json;
            Assert.Equal("svc.gameplay.v1", env.GetString("protocol"), "protocol");
            Assert.Equal(2L, env.GetInt64("slot"), "slot");
            string trace = env.GetString("trace");
            Assert.Equal(ResultCanonicalizer.Sha256Hex(trace), env.GetString("traceHash"), "hash of the trace");
            Assert.Equal(
                "{\"events\":[{\"seq\":1,\"tMs\":5,\"type\":\"match_started\"},{\"round\":1,\"seq\":2,\"tMs\":100,\"type\":\"round_started\"}," +
                "{\"actor\":2,\"seq\":3,\"tMs\":100,\"type\":\"turn_started\"},{\"action\":\"play\",\"actor\":2,\"seq\":4,\"tMs\":100,\"target\":\"board\",\"type\":\"public_action\"}," +
                "{\"actor\":2,\"p1Score\":0,\"p2Score\":1,\"seq\":5,\"tMs\":400,\"type\":\"score_changed\"}," +
                "{\"p1Score\":0,\"p2Score\":1,\"round\":1,\"seq\":6,\"tMs\":400,\"type\":\"round_ended\",\"winnerSlot\":2}," +
                "{\"reason\":\"normal\",\"seq\":7,\"tMs\":400,\"type\":\"match_ended\",\"winnerSlot\":2}]," +
                "\"matchId\":42,\"ruleset\":\"ranked\",\"schema\":\"game.gameplay.v1\",\"sessionNonce\":\"nonce-42\"}", trace, "canonical trace");
        }

        [Test]
        static async Task TraceRecorderIsInertWithoutConsentOrSetting()
        {
            var http = new FakeHttp();
            var noConsent = Fake.Client(http, tweak: s => s.EnableReferee = true).CreateTraceRecorder(RefereeMatch(false));
            var settingOff = Fake.Client(http).CreateTraceRecorder(RefereeMatch(true));
            var noReferee = Fake.Client(http, tweak: s => s.EnableReferee = true).CreateTraceRecorder(LiveMatch.FromJson(Fake.LiveMatch()));
            foreach (var rec in new[] { noConsent, settingOff, noReferee })
            {
                Assert.True(!rec.IsActive, "inactive");
                rec.Begin();
                rec.TurnStarted(1);
                Assert.Equal(0, rec.EventCount, "records nothing");
                Assert.Equal("trace_inactive", (await rec.EndAndSubmitAsync(1, EndReason.Forfeit)).Error, "nothing to submit");
            }
            Assert.Equal(0, http.Requests.Count, "nothing sent");
            Assert.Throws<ArgumentException>(() => noConsent.End(1, "rage_quit"), "an unknown end reason");
        }
    }
}
