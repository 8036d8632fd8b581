using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Arena.Client.Http;
using Arena.Client.Json;

namespace Arena.Client.Tests
{
    /// <summary>
    /// A minimal HTTP/1.1 server on 127.0.0.1 over raw sockets (one request per connection,
    /// answered with Connection: close) that answers through a handler; a null answer closes
    /// the connection without a response, as a lost answer looks to a client.
    /// </summary>
    sealed class LoopbackServer : IDisposable
    {
        public sealed class Request
        {
            public string Method;
            public string PathAndQuery;
            public string Authorization;
            public string ContentType;
            public string Body;
        }

        public sealed class Answer
        {
            public int Status;
            public string Body;
        }

        readonly TcpListener listener;
        readonly Func<Request, Answer> handler;
        public readonly List<Request> Requests = new List<Request>();

        public LoopbackServer(Func<Request, Answer> handler)
        {
            this.handler = handler;
            listener = new TcpListener(IPAddress.Loopback, 0);
            listener.Start();
            Port = ((IPEndPoint)listener.LocalEndpoint).Port;
            // Dedicated threads, not the thread pool: a test blocked on a child process must not
            // starve the server that child talks to.
            new Thread(Accept) { IsBackground = true }.Start();
        }

        public int Port { get; }
        public string BaseUrl { get { return "http://127.0.0.1:" + Port; } }

        public static int FreePort()
        {
            var probe = new TcpListener(IPAddress.Loopback, 0);
            probe.Start();
            int port = ((IPEndPoint)probe.LocalEndpoint).Port;
            probe.Stop();
            return port;
        }

        void Accept()
        {
            while (true)
            {
                TcpClient conn;
                try
                {
                    conn = listener.AcceptTcpClient();
                }
                catch (Exception)
                {
                    return; // stopped
                }
                new Thread(() => Serve(conn)) { IsBackground = true }.Start();
            }
        }

        void Serve(TcpClient conn)
        {
            using (conn)
            {
                var stream = conn.GetStream();
                var head = new List<byte>();
                while (head.Count < 4 || head[head.Count - 4] != '\r' || head[head.Count - 3] != '\n' || head[head.Count - 2] != '\r' || head[head.Count - 1] != '\n')
                {
                    int b = stream.ReadByte();
                    if (b < 0) return;
                    head.Add((byte)b);
                }
                string[] lines = Encoding.ASCII.GetString(head.ToArray()).Split(new[] { "\r\n" }, StringSplitOptions.None);
                string[] start = lines[0].Split(' ');
                var headers = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
                for (int i = 1; i < lines.Length; i++)
                {
                    int colon = lines[i].IndexOf(':');
                    if (colon > 0) headers[lines[i].Substring(0, colon).Trim()] = lines[i].Substring(colon + 1).Trim();
                }
                string length;
                int n = headers.TryGetValue("Content-Length", out length) ? int.Parse(length) : 0;
                var body = new byte[n];
                for (int read = 0; read < n;)
                {
                    int k = stream.Read(body, read, n - read);
                    if (k <= 0) return;
                    read += k;
                }
                string value;
                var req = new Request
                {
                    Method = start[0],
                    PathAndQuery = start[1],
                    Authorization = headers.TryGetValue("Authorization", out value) ? value : null,
                    ContentType = headers.TryGetValue("Content-Type", out value) ? value : null,
                    Body = Encoding.UTF8.GetString(body),
                };
                lock (Requests) Requests.Add(req);
                Answer answer;
                try
                {
                    answer = handler(req);
                }
                catch (Exception e)
                {
                    answer = new Answer { Status = 500, Body = "{\"error\":\"" + e.GetType().Name + "\"}" };
                }
                if (answer == null) return; // closed without an answer
                byte[] payload = Encoding.UTF8.GetBytes(answer.Body ?? "");
                string response = "HTTP/1.1 " + answer.Status + " X\r\nConnection: close\r\n" +
                    (answer.Status == 204 ? "" : "Content-Type: application/json\r\nContent-Length: " + payload.Length + "\r\n") + "\r\n";
                byte[] headBytes = Encoding.ASCII.GetBytes(response);
                stream.Write(headBytes, 0, headBytes.Length);
                if (answer.Status != 204) stream.Write(payload, 0, payload.Length);
                stream.Flush();
            }
        }

        public void Dispose()
        {
            listener.Stop();
        }
    }

    /// <summary>SystemNetArenaHttp over real sockets, and the arena-client command line.</summary>
    static class LoopbackTests
    {
        static LoopbackServer.Answer Json(int status, string body) { return new LoopbackServer.Answer { Status = status, Body = body }; }

        [Test]
        static async Task SystemNetHttpSendsAndReads()
        {
            using (var server = new LoopbackServer(r => r.Method == "POST" ? Json(201, "{\"echo\":" + r.Body + "}") : new LoopbackServer.Answer { Status = 204 }))
            using (var http = new SystemNetArenaHttp(TimeSpan.FromSeconds(10)))
            {
                var headers = new Dictionary<string, string> { { "Authorization", "Platform MOCK:" + Fake.P1 }, { "Content-Type", "application/json" } };
                var r = await http.SendAsync("POST", server.BaseUrl + "/x?y=1", headers, Encoding.UTF8.GetBytes("{\"a\":\"\u00e9\"}"), CancellationToken.None);
                Assert.Equal(201, r.Status, "status");
                Assert.Equal("{\"echo\":{\"a\":\"\u00e9\"}}", Encoding.UTF8.GetString(r.Body), "body");
                Assert.Equal("Platform MOCK:" + Fake.P1, server.Requests[0].Authorization, "authorization");
                Assert.Equal("application/json", server.Requests[0].ContentType, "content type");
                Assert.Equal("/x?y=1", server.Requests[0].PathAndQuery, "path");
                var none = await http.SendAsync("GET", server.BaseUrl + "/none", headers, null, CancellationToken.None);
                Assert.Equal(204, none.Status, "204");
                Assert.Equal(0, none.Body.Length, "empty body");
            }
        }

        [Test]
        static async Task NetworkFailuresAreStatusZero()
        {
            using (var http = new SystemNetArenaHttp(TimeSpan.FromSeconds(10)))
            {
                var refused = await http.SendAsync("GET", "http://127.0.0.1:" + LoopbackServer.FreePort() + "/", new Dictionary<string, string>(), null, CancellationToken.None);
                Assert.Equal(0, refused.Status, "connection refused");
                Assert.True(refused.IsNetworkFailure && refused.FailureReason != null, "a reason");
                using (var server = new LoopbackServer(r => null))
                {
                    var dropped = await http.SendAsync("POST", server.BaseUrl + "/", new Dictionary<string, string>(), new byte[] { 1 }, CancellationToken.None);
                    Assert.Equal(0, dropped.Status, "answer dropped");
                }
            }
        }

        // Cli runs build/arena-client.exe with stdin and returns (exit status, stdout).
        static Tuple<int, string> Cli(string stdin, params string[] args)
        {
            string exe = Path.Combine(Path.GetDirectoryName(typeof(LoopbackTests).Assembly.Location), "arena-client.exe");
            var psi = new ProcessStartInfo("mono")
            {
                UseShellExecute = false,
                RedirectStandardInput = true,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                StandardOutputEncoding = Encoding.UTF8,
            };
            psi.Arguments = "\"" + exe + "\"";
            foreach (string a in args) psi.Arguments += " \"" + a.Replace("\\", "\\\\").Replace("\"", "\\\"") + "\"";
            psi.EnvironmentVariables["ARENA_CLIENT_BACKOFF_SCALE"] = "0";
            psi.EnvironmentVariables["LANG"] = "de_DE.UTF-8"; // a decimal comma must not reach the output
            // A proxy that answers nothing: requests to the loopback arena must go direct.
            psi.EnvironmentVariables["http_proxy"] = "http://127.0.0.1:9";
            psi.EnvironmentVariables["HTTP_PROXY"] = "http://127.0.0.1:9";
            using (var p = Process.Start(psi))
            {
                var stderr = p.StandardError.ReadToEndAsync();
                var stdinBytes = Encoding.UTF8.GetBytes(stdin ?? "");
                p.StandardInput.BaseStream.Write(stdinBytes, 0, stdinBytes.Length);
                p.StandardInput.Close();
                var stdout = p.StandardOutput.ReadToEndAsync();
                if (!p.WaitForExit(30000))
                {
                    p.Kill();
                    throw new AssertionException("arena-client " + string.Join(" ", args) + " did not exit within 30 s");
                }
                stderr.Wait();
                return Tuple.Create(p.ExitCode, stdout.Result);
            }
        }

        [Test]
        static void CliCanonical()
        {
            var ok = Cli("{\"b\":1.0,\"a\":\"\u00e9\\u2028\"}", "canonical", "--match", "42", "--nonce", "n", "-winner", Fake.P1);
            Assert.Equal(0, ok.Item1, "exit status");
            string canonical = "{\"a\":\"\u00e9\u2028\",\"b\":1,\"matchId\":42,\"sessionNonce\":\"n\",\"winner\":\"76561198000000001\"}";
            Assert.Equal("{\"canonical\":" + JsonWriter.Quote(canonical) + ",\"sha256\":\"" + ResultCanonicalizer.Sha256Hex(canonical) + "\"}\n", ok.Item2, "one line, UTF-8");
            var refused = Cli("{\"a\":1,\"a\":2}", "canonical", "--match=42", "--nonce", "n", "--winner", Fake.P1);
            Assert.Equal(2, refused.Item1, "refusal exit status");
            Assert.Equal("{\"error\":\"duplicate_key\"}\n", refused.Item2, "refusal line");
            var badWinner = Cli("{}", "canonical", "--match", "42", "--nonce", "n", "--winner", "123");
            Assert.Equal("{\"error\":\"invalid_winner\"}\n", badWinner.Item2, "winner");
            var usage = Cli("", "frobnicate");
            Assert.Equal(2, usage.Item1, "unknown command");
            Assert.Equal("{\"error\":\"usage\"}\n", usage.Item2, "usage line");
        }

        [Test]
        static void CliSubmitSettlesALostAnswer()
        {
            int posts = 0;
            using (var server = new LoopbackServer(r =>
            {
                if (r.PathAndQuery == "/api/v1/me/live-match") return Json(200, JsonWriter.Compact(Fake.LiveMatch()));
                if (r.PathAndQuery == "/api/v1/matches/42/result") return ++posts == 1 ? null : Json(409, "{\"error\":\"already_resolved\"}");
                if (r.PathAndQuery == "/api/v1/matches/42") return Json(200, JsonWriter.Compact(Fake.PublicMatch(42, "confirmed", Fake.P1)));
                return Json(404, "{\"error\":\"not_found\"}");
            }))
            {
                var r = Cli("{\"moves\":[1,2]}", "--base", server.BaseUrl, "-as", Fake.P1, "submit", "--match", "42", "--opponent", Fake.P2, "--winner", Fake.P1, "--score", "2,0");
                Assert.Equal(0, r.Item1, "exit status: " + r.Item2);
                Assert.Equal("{\"status\":\"decided\",\"matchStatus\":\"confirmed\",\"winner\":\"" + Fake.P1 + "\"}\n", r.Item2, "answer");
                Assert.Equal(2, posts, "posted twice");
                var body = JsonReader.Parse(server.Requests.Find(q => q.Method == "POST").Body);
                Assert.Equal("{\"matchId\":42,\"moves\":[1,2],\"sessionNonce\":\"nonce-42\",\"winner\":\"76561198000000001\"}", body.GetString("result"), "result from stdin");
                Assert.Equal(2L, body["score"].GetInt64("p1"), "score");
            }
        }

        [Test]
        static void CliSubmitFailuresAndLive()
        {
            using (var server = new LoopbackServer(r =>
            {
                if (r.PathAndQuery == "/api/v1/me/live-match") return r.Authorization == "Platform MOCK:" + Fake.P1 ? Json(200, JsonWriter.Compact(Fake.LiveMatch())) : new LoopbackServer.Answer { Status = 204 };
                if (r.PathAndQuery == "/api/v1/matches/42/result") return Json(409, "{\"error\":\"already_submitted\"}");
                if (r.PathAndQuery == "/api/v1/matches/42/ready") return Json(200, "{\"status\":\"live\",\"live\":true,\"opponentReady\":true}");
                if (r.PathAndQuery == "/api/v1/matches/43/ready") return Json(409, "{\"error\":\"window_closed\"}");
                if (r.PathAndQuery == "/api/v1/me/upcoming-match") return new LoopbackServer.Answer { Status = 204 };
                return Json(404, "{\"error\":\"not_found\"}");
            }))
            {
                var mixup = Cli("", "--base", server.BaseUrl, "--as", Fake.P1, "submit", "--match", "42", "--opponent", Fake.Outsider, "--winner", Fake.P1, "--result", "{}");
                Assert.Equal(1, mixup.Item1, "anti-mixup exit status");
                Assert.Equal("{\"error\":\"opponent_mismatch\"}\n", mixup.Item2, "anti-mixup");
                var refused = Cli("", "--base", server.BaseUrl, "--as", Fake.P1, "submit", "--match", "42", "--opponent", Fake.P2, "--winner", Fake.P1, "--result", "{}");
                Assert.Equal("{\"error\":\"already_submitted\"}\n", refused.Item2, "the arena's code");
                var draw = Cli("", "--base", server.BaseUrl, "--as", Fake.P1, "submit", "--match", "42", "--opponent", Fake.P2, "--winner", "", "--result", "{}");
                Assert.Equal(0, draw.Item1, "draw exit status");
                Assert.Equal(1, server.Requests.FindAll(q => q.Method == "POST").Count, "only the refused submission posted");
                var live = Cli("", "--base", server.BaseUrl, "--as", Fake.P1, "live");
                Assert.Equal(0, live.Item1, "live exit status");
                Assert.Equal(42L, JsonReader.Parse(live.Item2.Trim()).GetInt64("matchId"), "live match line");
                var none = Cli("", "--base", server.BaseUrl, "--as", Fake.P2, "live");
                Assert.Equal("{\"none\":true}\n", none.Item2, "none");
                var ready = Cli("", "--base", server.BaseUrl, "--as", Fake.P1, "ready", "--match", "42");
                Assert.Equal(0, ready.Item1, "ready exit status");
                Assert.Equal("{\"status\":\"live\",\"live\":true,\"opponentReady\":true}\n", ready.Item2, "ready answer line");
                var closed = Cli("", "--base", server.BaseUrl, "--as", Fake.P1, "ready", "--match", "43");
                Assert.Equal(1, closed.Item1, "refused ready exit status");
                Assert.Equal("{\"error\":\"window_closed\"}\n", closed.Item2, "refused ready");
                var upcoming = Cli("", "--base", server.BaseUrl, "--as", Fake.P1, "upcoming");
                Assert.Equal("{\"none\":true}\n", upcoming.Item2, "no upcoming match");
                var badScore = Cli("", "--base", server.BaseUrl, "--as", Fake.P1, "submit", "--match", "42", "--opponent", Fake.P2, "--winner", Fake.P1, "--score", "2");
                Assert.Equal(2, badScore.Item1, "usage error");
            }
        }
    }
}
