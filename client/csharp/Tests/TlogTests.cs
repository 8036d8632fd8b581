using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading.Tasks;
using Arena.Client.Http;
using Arena.Client.Json;

namespace Arena.Client.Tests
{
    /// <summary>
    /// VerifyReceiptAsync and VerifyTilesAsync against client/testdata/tlog.json: a log built,
    /// signed and proved with golang.org/x/mod/sumdb/tlog and sumdb/note (client/tlog_vectors_test.go
    /// checks every case with x/mod), so this client is held to the third-party library.
    /// </summary>
    static class TlogTests
    {
        static JsonValue Load()
        {
            string dir = Path.GetDirectoryName(VectorTests.FindVectorsFile());
            return JsonReader.Parse(File.ReadAllText(Path.Combine(dir, "tlog.json"), Encoding.UTF8));
        }

        // Serve answers the vectors' arena: GET /api/v1 (log.publicKey), /log/checkpoint and the
        // tiles under /log/, the checkpoint and tiles replaced as given.
        static FakeHttp Serve(JsonValue doc, string checkpoint = null, JsonValue tiles = null, Func<SeenRequest, ArenaHttpResponse> before = null)
        {
            var served = new Dictionary<string, byte[]>();
            foreach (var t in doc["tiles"].Members) served["/log/" + t.Key] = Convert.FromBase64String(t.Value.Text);
            if (tiles != null)
                foreach (var t in tiles.Members) served["/log/" + t.Key] = Convert.FromBase64String(t.Value.Text);
            served["/log/checkpoint"] = Encoding.UTF8.GetBytes(checkpoint ?? doc.GetString("checkpoint"));
            var http = new FakeHttp();
            http.Handler = r =>
            {
                var early = before != null ? before(r) : null;
                if (early != null) return early;
                if (r.PathAndQuery == "/api/v1")
                    return Fake.Json(200, JsonValue.NewObject().Set("log", JsonValue.NewObject().Set("publicKey", doc.GetString("publicKey"))));
                byte[] body;
                return served.TryGetValue(r.PathAndQuery, out body) ? new ArenaHttpResponse(200, body) : null;
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
        static void TilePathsAreXModsInC2spForm()
        {
            foreach (var p in Load()["tilePaths"].Items)
                Assert.Equal(p.GetString("path"), Tlog.TilePath((int)p.GetInt64("level"), p.GetInt64("n"), (int)p.GetInt64("width")), "tile path");
        }

        static string Hex(byte[] b) { return BitConverter.ToString(b).Replace("-", "").ToLowerInvariant(); }

        [Test]
        static void Rfc6962Hashes()
        {
            // certificate-transparency-go's vectors: the leaf of nothing, of 0x00, and their node.
            Assert.Equal("6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d", Hex(Tlog.LeafHash(new byte[0])), "leaf of nothing");
            Assert.Equal("fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125", Hex(Tlog.NodeHash(Tlog.LeafHash(new byte[0]), Tlog.LeafHash(new byte[] { 0 }))), "node");
            var leaf = Tlog.LeafHash(new byte[] { 1 });
            Assert.True(Tlog.VerifyInclusion(0, 1, leaf, new List<byte[]>(), leaf), "a tree of one");
            Assert.False(Tlog.VerifyInclusion(1, 1, leaf, new List<byte[]>(), leaf), "an index past the tree");
            Assert.False(Tlog.VerifyInclusion(0, 1, leaf, new List<byte[]> { leaf }, leaf), "a hash too many");
        }

        [TestCases]
        static IEnumerable<TestCase> Receipts()
        {
            var doc = Load();
            Assert.True(doc["receipts"].Items.Count(r => r.GetBool("valid")) >= 10, "valid receipts");
            Assert.True(doc["receipts"].Items.Count(r => !r.GetBool("valid")) >= 15, "tampered receipts");
            foreach (var item in doc["receipts"].Items)
            {
                var r = item;
                yield return new TestCase(r.GetString("name"), async () =>
                {
                    var http = Serve(doc);
                    // The verifier key names the origin, as x/mod's note verifier does.
                    var v = await Client(http).VerifyReceiptAsync(r.GetString("proof"), new TlogOptions { PublicKey = doc.GetString("verifierKey") });
                    if (!r.GetBool("valid"))
                    {
                        Assert.Equal(TlogResult.ReceiptInvalid, v.Error, "refused: " + v);
                        return;
                    }
                    Assert.True(v.IsSuccess, "verified: " + v);
                    Assert.Equal(r.GetInt64("index"), v.Index, "index");
                    Assert.Equal(r.GetInt64("treeSize"), v.TreeSize, "tree size");
                    Assert.Equal(r.GetString("rootHash"), v.RootHash, "root");
                    Assert.Equal(doc.GetString("origin"), v.Origin, "origin");
                    Assert.Equal(r.GetInt64("index") + 1, JsonReader.Parse(Encoding.UTF8.GetString(v.Entry)).GetInt64("seq"), "the entry proved");
                    bool needsTiles = r.GetBool("needsTiles");
                    // The bundle of the checkpoint's size; when it is a partial one the arena dropped, the full one.
                    string reads = !needsTiles ? "" : v.TreeSize == 300 ? "/log/tile/entries/001.p/44,/log/tile/entries/001" : "/log/tile/entries/001";
                    Assert.Equal(reads, string.Join(",", http.Requests.Select(q => q.PathAndQuery)), "reads");
                });
            }
        }

        [TestCases]
        static IEnumerable<TestCase> LogCases()
        {
            var doc = Load();
            foreach (var item in doc["logCases"].Items)
            {
                var c = item;
                yield return new TestCase(c.GetString("name"), async () =>
                {
                    var http = Serve(doc, c.GetString("checkpoint"), c["tiles"]);
                    var r = await Client(http).VerifyTilesAsync(new TlogOptions { Head = c.GetString("head"), Origin = doc.GetString("origin") });
                    if (!c.GetBool("valid"))
                    {
                        Assert.Equal(VerifyLogResult.LogInvalid, r.Error, "refused: " + r);
                        return;
                    }
                    Assert.True(r.IsSuccess, "verified: " + r);
                    Assert.Equal(doc.GetInt64("size"), r.TreeSize, "size");
                    Assert.Equal(doc.GetString("checkpoint"), r.Checkpoint, "checkpoint");
                    Assert.Equal(doc["tiles"].Members.Count + 2, http.Requests.Count, "every tile read once, the key and the checkpoint");
                });
            }
        }

        [Test]
        static async Task TheOriginAndTheKey()
        {
            var doc = Load();
            var other = doc["receipts"].Items.First(r => r.GetString("name").Contains("under another name")).GetString("proof");
            var client = Client(Serve(doc));
            var v = await client.VerifyReceiptAsync(other, new TlogOptions { PublicKey = doc.GetString("publicKey") });
            Assert.Equal("other.example/log", v.Origin, "a raw key, no origin expected: any the key signed");
            v = await client.VerifyReceiptAsync(other, new TlogOptions { PublicKey = doc.GetString("publicKey"), Origin = doc.GetString("origin") });
            Assert.Equal(TlogResult.ReceiptInvalid, v.Error, "the origin expected");
            v = await client.VerifyReceiptAsync(other, new TlogOptions { PublicKey = doc.GetString("verifierKey"), Origin = "x/log" });
            Assert.Equal(TlogResult.InvalidSettings, v.Error, "a verifier key of another name than the origin");
            v = await client.VerifyReceiptAsync(other, new TlogOptions { PublicKey = "AAAA" });
            Assert.Equal(TlogResult.InvalidSettings, v.Error, "not a key");
            // The witness's key (seed 32 bytes 0x02) is a valid Ed25519 key, not the log's.
            var good = doc["receipts"].Items.First(r => r.GetBool("valid")).GetString("proof");
            v = await client.VerifyReceiptAsync(good, new TlogOptions { PublicKey = "gTl3Dqh9F19Wo1Rmw0x+zMuNipG07jeiXfYPW4/Js5Q=" });
            Assert.Equal(TlogResult.ReceiptInvalid, v.Error, "another key");
            var http = Serve(doc);
            v = await Client(http).VerifyReceiptAsync(good, new TlogOptions());
            Assert.True(v.IsSuccess, "the arena's log.publicKey: " + v);
            Assert.Equal("/api/v1", string.Join(",", http.Requests.Select(q => q.PathAndQuery)), "reads");
        }

        [Test]
        static async Task APartialTileThatIsGoneIsReadFromTheFullOne()
        {
            // The checkpoint of 300 names entries/001.p/44, 0/001.p/44 and 1/000.p/1: an arena at
            // 600 that dropped its partial tiles serves the full 001 ones.
            var doc = Load();
            var level1 = Convert.FromBase64String(doc["tiles"].GetString("tile/1/000.p/2")).Take(32).ToArray();
            var tiles = JsonValue.NewObject().Set("tile/1/000.p/1", Convert.ToBase64String(level1));
            var http = Serve(doc, doc["checkpoints"].GetString("300"), tiles);
            var r = await Client(http).VerifyTilesAsync(new TlogOptions());
            Assert.True(r.IsSuccess, "verified: " + r);
            Assert.Equal(300L, r.TreeSize, "size");
            var paths = string.Join(",", http.Requests.Select(q => q.PathAndQuery));
            foreach (var p in new[] { "/log/tile/entries/001.p/44,/log/tile/entries/001", "/log/tile/0/001.p/44,/log/tile/0/001", "/log/tile/1/000.p/1" })
                Assert.True(paths.Contains(p), p + " in " + paths);

            var raw = Convert.FromBase64String(doc["tiles"].GetString("tile/0/001"));
            raw[100] ^= 1; // a hash within the first 44
            tiles.Set("tile/0/001", Convert.ToBase64String(raw));
            r = await Client(Serve(doc, doc["checkpoints"].GetString("300"), tiles)).VerifyTilesAsync(new TlogOptions());
            Assert.Equal(VerifyLogResult.LogInvalid, r.Error, "a full tile that is not the tree: " + r);
        }

        [Test]
        static async Task A429IsRetriedAndAMissingTileIsAFetchFailure()
        {
            var doc = Load();
            int refusals = 2;
            Func<SeenRequest, ArenaHttpResponse> limit = q =>
            {
                Assert.Equal("Bearer apikey_0000000a_k", q.Header("Authorization"), "the API key");
                if (q.PathAndQuery != "/log/tile/0/001" || refusals-- <= 0) return null;
                var answer = Fake.Json(429, "{\"error\":\"rate_limited\"}");
                answer.RetryAfter = "3";
                return answer;
            };
            var waits = new List<TimeSpan>();
            var r = await Client(Serve(doc, before: limit), waits).VerifyTilesAsync(new TlogOptions { ApiKey = "apikey_0000000a_k" });
            Assert.True(r.IsSuccess, "verified: " + r);
            Assert.Equal("3,3", string.Join(",", waits.Select(w => w.TotalSeconds)), "waits");

            Func<SeenRequest, ArenaHttpResponse> gone = q => q.PathAndQuery == "/log/tile/entries/001" ? Fake.Json(404, "{\"error\":\"not_found\"}") : null;
            r = await Client(Serve(doc, before: gone)).VerifyTilesAsync(new TlogOptions());
            Assert.Equal("not_found", r.Error, "a fetch failure");
            Assert.False(r.IsInvalid, "not log_invalid");
            r = await Client(Serve(doc, before: q => Fake.Dropped())).VerifyTilesAsync(new TlogOptions());
            Assert.Equal(ArenaError.NetworkError, r.Error, "network");
        }
    }
}
