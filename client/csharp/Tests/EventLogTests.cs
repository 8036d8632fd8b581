using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading.Tasks;
using Arena.Client.Http;
using Arena.Client.Json;

namespace Arena.Client.Tests
{
    /// <summary>
    /// Ed25519 (RFC 8032's vectors) and VerifyLogAsync against client/testdata/eventlog.json, a
    /// log the Go reference signed (checked there by client/eventlog_test.go).
    /// </summary>
    static class EventLogTests
    {
        static byte[] Hex(string hex)
        {
            var b = new byte[hex.Length / 2];
            for (int i = 0; i < b.Length; i++) b[i] = byte.Parse(hex.Substring(2 * i, 2), NumberStyles.HexNumber, CultureInfo.InvariantCulture);
            return b;
        }

        [Test]
        static void Ed25519VerifiesRfc8032Vectors()
        {
            // RFC 8032 section 7.1, TEST 1, 2 and 3.
            var cases = new[]
            {
                new[] { "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
                    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b" },
                new[] { "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
                    "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00" },
                new[] { "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
                    "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a" },
            };
            foreach (var c in cases)
            {
                byte[] key = Hex(c[0]), msg = Hex(c[1]), sig = Hex(c[2]);
                Assert.True(Ed25519.Verify(key, msg, sig), "vector " + c[0].Substring(0, 8));
                var other = msg.Concat(new byte[] { 0 }).ToArray();
                Assert.True(!Ed25519.Verify(key, other, sig), "another message fails");
                var flipped = (byte[])sig.Clone();
                flipped[5] ^= 1;
                Assert.True(!Ed25519.Verify(key, msg, flipped), "a flipped signature bit fails");
            }
        }

        sealed class Fixture
        {
            public string Slug, PublicKey;
            public List<JsonValue> Events;
            public List<LogHead> Heads;
        }

        static Fixture Load()
        {
            string vectors = VectorTests.FindVectorsFile();
            string path = Path.Combine(Path.GetDirectoryName(vectors), "eventlog.json");
            var v = JsonReader.Parse(File.ReadAllText(path, Encoding.UTF8));
            return new Fixture
            {
                Slug = v.GetString("slug"),
                PublicKey = v.GetString("publicKey"),
                Events = v["events"].Items.ToList(),
                Heads = v["heads"].Items.Select(LogHead.FromJson).ToList(),
            };
        }

        // Serve answers the fixture's log (head: the last), with before given the first word.
        static FakeHttp Serve(Fixture fx, Func<SeenRequest, ArenaHttpResponse> before = null, List<JsonValue> events = null)
        {
            events = events ?? fx.Events;
            var http = new FakeHttp();
            http.Handler = r =>
            {
                var early = before != null ? before(r) : null;
                if (early != null) return early;
                var uri = new Uri(r.Url);
                if (uri.AbsolutePath == "/api/v1")
                    return Fake.Json(200, JsonValue.NewObject().Set("tenant", JsonValue.NewObject().Set("slug", fx.Slug)).Set("log", JsonValue.NewObject().Set("publicKey", fx.PublicKey)));
                if (uri.AbsolutePath == "/api/v1/events/head") return Fake.Json(200, fx.Heads[fx.Heads.Count - 1].ToJson());
                if (uri.AbsolutePath == "/api/v1/events")
                {
                    var q = uri.Query.TrimStart('?').Split('&').Select(p => p.Split('=')).ToDictionary(p => p[0], p => int.Parse(p[1], CultureInfo.InvariantCulture));
                    var page = JsonValue.NewArray();
                    foreach (var e in events.Skip(q["after"]).Take(q["limit"])) page.Add(e);
                    return Fake.Json(200, JsonValue.NewObject().Set("events", page).Set("next", JsonValue.Null));
                }
                return null;
            };
            return http;
        }

        static ArenaClient Client(FakeHttp http, List<TimeSpan> waits = null)
        {
            var client = new ArenaClient(new ArenaClientSettings { BaseUrl = Fake.BaseUrl, Enabled = false }, http);
            client.Delay = (wait, ct) =>
            {
                if (waits != null) waits.Add(wait);
                return Task.FromResult(0);
            };
            return client;
        }

        [Test]
        static async Task AGoodLogVerifies()
        {
            var fx = Load();
            var http = Serve(fx);
            var r = await Client(http).VerifyLogAsync(new VerifyLogOptions());
            Assert.True(r.IsSuccess, "verified: " + r);
            Assert.Equal(fx.Heads.Last().ToJson(), r.Head.ToJson(), "head");
            Assert.True(http.Requests.All(q => q.Header("Authorization") == null), "no ticket, no key");
        }

        [Test]
        static async Task ASavedHeadStartsTheWalkAtItsEvent()
        {
            var fx = Load();
            var http = Serve(fx);
            var r = await Client(http).VerifyLogAsync(new VerifyLogOptions { Saved = fx.Heads[19] });
            Assert.True(r.IsSuccess, "verified: " + r);
            var pages = http.Requests.Where(q => q.PathAndQuery.StartsWith("/api/v1/events?", StringComparison.Ordinal)).Select(q => q.PathAndQuery).ToList();
            Assert.Equal("/api/v1/events?after=19&limit=1,/api/v1/events?after=20&limit=1000", string.Join(",", pages), "pages read");

            var forged = LogHead.FromJson(JsonReader.Parse(fx.Heads[19].ToJson()));
            forged.Hash = new string('a', 64);
            r = await Client(Serve(fx)).VerifyLogAsync(new VerifyLogOptions { Saved = forged });
            Assert.True(r.IsLogInvalid, "a saved head the arena did not sign: " + r);
        }

        [Test]
        static async Task ATamperedEventIsLogInvalid()
        {
            var fx = Load();
            var events = fx.Events.Select(e => JsonReader.Parse(JsonWriter.Compact(e))).ToList();
            events[6].Set("data", JsonValue.NewObject().Set("altered", true));
            var r = await Client(Serve(fx, events: events)).VerifyLogAsync(new VerifyLogOptions());
            Assert.True(r.IsLogInvalid, "log_invalid: " + r);
            Assert.Equal(7L, r.Seq, "the altered event");
        }

        [Test]
        static async Task A429IsRetriedAfterItsRetryAfterThenAFetchFailure()
        {
            var fx = Load();
            int refusals = 2;
            Func<SeenRequest, ArenaHttpResponse> limit = q =>
            {
                Assert.Equal("Bearer apikey_0000000a_k", q.Header("Authorization"), "the API key");
                if (!q.PathAndQuery.StartsWith("/api/v1/events?", StringComparison.Ordinal) || refusals-- <= 0) return null;
                var answer = Fake.Json(429, "{\"error\":\"rate_limited\"}");
                answer.RetryAfter = "7";
                return answer;
            };
            var waits = new List<TimeSpan>();
            var r = await Client(Serve(fx, limit), waits).VerifyLogAsync(new VerifyLogOptions { ApiKey = "apikey_0000000a_k" });
            Assert.True(r.IsSuccess, "verified: " + r);
            Assert.Equal("7,7", string.Join(",", waits.Select(w => w.TotalSeconds)), "waits");

            refusals = 100;
            waits.Clear();
            r = await Client(Serve(fx, limit), waits).VerifyLogAsync(new VerifyLogOptions { ApiKey = "apikey_0000000a_k", Retries = 3 });
            Assert.Equal("rate_limited", r.Error, "a fetch failure");
            Assert.True(!r.IsLogInvalid, "not log_invalid");
            Assert.Equal(3, waits.Count, "three retries");
        }

        [Test]
        static void RetryAfterIsBounded()
        {
            Assert.Equal(1.0, ArenaClient.RetryAfter(null).TotalSeconds, "absent");
            Assert.Equal(1.0, ArenaClient.RetryAfter("0").TotalSeconds, "zero");
            Assert.Equal(30.0, ArenaClient.RetryAfter("30").TotalSeconds, "seconds");
            Assert.Equal(120.0, ArenaClient.RetryAfter("86400").TotalSeconds, "at most two minutes");
        }
    }
}
