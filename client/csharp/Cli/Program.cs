using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Arena.Client.Json;

namespace Arena.Client.Cli
{
    /// <summary>
    /// arena-client: the command line every Arena client shares (Go, C#, TypeScript), for game
    /// developers to check their own implementation against an arena in mock mode.
    /// <code>
    /// mono arena-client.exe canonical --match 42 --nonce n --winner 76561198000000001 &lt; result.json
    /// mono arena-client.exe --base http://localhost:8787 --as 76561198000000001 live
    /// mono arena-client.exe --as 76561198000000001 ready --match 12
    /// mono arena-client.exe --as 76561198000000001 submit --match 12 --opponent 76561198000000002 --winner 76561198000000001 --score 3,1 --result '{"moves":31}'
    /// </code>
    /// Answers are one JSON line on stdout. Exit status: 0 success, 1 failure
    /// (<c>{"error":"&lt;code&gt;"}</c>; for verify-log and verify-receipt: the log or receipt does
    /// not verify), 2 for a usage error (<c>{"error":"usage"}</c>) or, for canonical, a refusal, 3
    /// when verify-log or verify-receipt could not fetch what it needs.
    /// </summary>
    public static class Program
    {
        const string Usage = @"usage: arena-client [--base URL] [--as ID] <command> [flags]

commands:
  canonical --match N --nonce S --winner W    canonicalize the game's result JSON read on stdin
  upcoming                                    the upcoming match, or {""none"":true}
  live                                        the live match (discovery), or {""none"":true}
  ready --match N                             mark yourself ready
  submit --match N [--game G] [--held LIVE] --opponent ID --winner W [--score P1,P2] [--result JSON]
         [--role host|guest] [--attempts 1..5]
                                              submit a result (stdin without --result; empty
                                              --winner: a draw, nothing is submitted); --game:
                                              the game of the series played (a series' lost
                                              answer after a restart); in a series the answer
                                              carries game, bestOf and seriesScore, and
                                              matchStatus scheduled means: ready again;
                                              --held: the live match the game holds (live's
                                              line), posted on without a fresh discovery
  verify-log [--base URL] [--head FILE] [--key K] [--origin O] [--api-key KEY] [--retries N]
                                              verify the arena's transparency log (no --as
                                              needed): its signed checkpoint (/log/checkpoint) and
                                              every tile of its tree; print {treeSize, rootHash,
                                              origin, checkpoint}; --head: that output (or a
                                              checkpoint) saved earlier, which the tree must
                                              extend; --api-key (default $ARENA_API_KEY): read
                                              under the key's limit; a 429 is retried after its
                                              Retry-After up to N times (default 5); exit 1: the
                                              log does not verify, 3: it could not be fetched;
                                              --key: the log key (base64, or a note verifier key
                                              name+hash+key naming the origin), default
                                              log.publicKey of GET /api/v1; --origin: the
                                              checkpoint's origin expected (<arena host>/log)
  verify-receipt FILE [--key K] [--origin O] [--base URL] [--api-key KEY] [--retries N]
                                              verify a receipt (a .tlog-proof file): its
                                              checkpoint signed by the arena's log key (--key,
                                              else log.publicKey of GET /api/v1 at --base), its
                                              inclusion proof of the entry; print {index,
                                              treeSize, rootHash, origin, verified, entry};
                                              offline with --key when the receipt holds its entry;
                                              exit 1 {""error"":""receipt_invalid""}: it does not
                                              verify, 3: the key or entry could not be fetched

N (--match) is a match id in decimal: [1-9][0-9]*, no sign, no leading zero (042 is refused).

global flags:
  --base URL   the arena's origin (default http://localhost:8787)
  --as ID      play as this 17-digit account (mock ticket MOCK:<id>)
Single-dash forms (-as) and --flag=value are accepted. ARENA_CLIENT_BACKOFF_SCALE
multiplies the retry waits (default 1, 0 = no wait).";

        sealed class UsageException : Exception
        {
            public UsageException(string message) : base(message) { }
        }

        /// <summary>Runs the command line and exits with its status.</summary>
        public static int Main(string[] args)
        {
            int status = Run(args);
            Console.Error.Flush();
            // Exit at once: Mono sometimes hangs at the end of Main waiting for the threads
            // HttpClient left behind, and the interop test waits for this process.
            Environment.Exit(status);
            return status;
        }

        static int Run(string[] args)
        {
            var stdout = Console.OpenStandardOutput();
            var stderr = Console.Error;
            try
            {
                return RunAsync(args, Console.OpenStandardInput(), stdout, stderr, CancellationToken.None).GetAwaiter().GetResult();
            }
            catch (UsageException e)
            {
                WriteLine(stdout, "{\"error\":\"usage\"}");
                stderr.WriteLine("arena-client: " + e.Message);
                stderr.WriteLine(Usage);
                return 2;
            }
        }

        static readonly HashSet<string> GlobalFlags = new HashSet<string> { "base", "as" };
        static readonly HashSet<string> CommandFlags = new HashSet<string> { "match", "game", "held", "nonce", "winner", "opponent", "score", "result", "role", "attempts" };
        static readonly HashSet<string> VerifyLogFlags = new HashSet<string> { "base", "head", "key", "origin", "api-key", "retries" };
        static readonly HashSet<string> VerifyReceiptFlags = new HashSet<string> { "base", "key", "origin", "api-key", "retries" };

        // verify-log's and verify-receipt's exit status when something could not be fetched (1: it
        // does not verify).
        const int ExitNoFetch = 3;

        // ParseFlags reads "--name value", "-name value" and "--name=value" pairs from args[start..]
        // until the first argument that is not a flag; it returns the index of that argument.
        static int ParseFlags(string[] args, int start, HashSet<string> allowed, Dictionary<string, string> into, bool stopAtNonFlag)
        {
            int i = start;
            while (i < args.Length)
            {
                string a = args[i];
                if (!a.StartsWith("-", StringComparison.Ordinal) || a == "-" || a == "--")
                {
                    if (stopAtNonFlag) return i;
                    throw new UsageException("unexpected argument " + a);
                }
                string name = a.TrimStart('-');
                string value = null;
                int eq = name.IndexOf('=');
                if (eq >= 0)
                {
                    value = name.Substring(eq + 1);
                    name = name.Substring(0, eq);
                }
                if (!allowed.Contains(name)) throw new UsageException("unknown flag " + a);
                if (value == null)
                {
                    if (i + 1 >= args.Length) throw new UsageException("flag " + a + " needs a value");
                    value = args[++i];
                }
                into[name] = value;
                i++;
            }
            return i;
        }

        internal static async Task<int> RunAsync(string[] args, Stream stdin, Stream stdout, TextWriter stderr, CancellationToken ct)
        {
            var global = new Dictionary<string, string>();
            int next = ParseFlags(args, 0, GlobalFlags, global, true);
            if (next >= args.Length) throw new UsageException("no command");
            string command = args[next];
            var flags = new Dictionary<string, string>();
            string receiptFile = null;
            if (command == "verify-receipt")
            {
                // verify-receipt FILE: the one argument, with flags before or after it
                int at = ParseFlags(args, next + 1, VerifyReceiptFlags, flags, true);
                if (at < args.Length) receiptFile = args[at++];
                ParseFlags(args, at, VerifyReceiptFlags, flags, false);
                return await VerifyReceipt(receiptFile, global, flags, stdout, stderr, ct);
            }
            ParseFlags(args, next + 1, command == "verify-log" ? VerifyLogFlags : CommandFlags, flags, false);

            if (command == "canonical") return Canonical(flags, stdin, stdout);
            if (command == "verify-log") return await VerifyLog(global, flags, stdout, stderr, ct);

            string baseUrl;
            if (!global.TryGetValue("base", out baseUrl)) baseUrl = "http://localhost:8787";
            string account;
            if (!global.TryGetValue("as", out account) || !ResultCanonicalizer.IsPlatformId(account))
                throw new UsageException(command + " needs --as <17 digits>");
            var settings = new ArenaClientSettings { BaseUrl = baseUrl, MockSteamId = account, BackoffScale = BackoffScale() };
            string role, attemptsText;
            if (flags.TryGetValue("role", out role)) settings.ClientRole = role;
            if (flags.TryGetValue("attempts", out attemptsText))
            {
                int attempts;
                if (!int.TryParse(attemptsText, NumberStyles.None, CultureInfo.InvariantCulture, out attempts) ||
                    attempts < 1 || attempts > ArenaClientSettings.MaxSubmitAttemptsLimit)
                    throw new UsageException("--attempts must be 1 to " + ArenaClientSettings.MaxSubmitAttemptsLimit);
                settings.MaxSubmitAttempts = attempts;
            }
            ArenaClient client;
            try
            {
                client = new ArenaClient(settings);
            }
            catch (ArgumentException e)
            {
                throw new UsageException(e.Message);
            }
            client.Log = message => stderr.WriteLine("arena-client: " + message);

            switch (command)
            {
                case "upcoming":
                    {
                        var r = await client.GetUpcomingMatchAsync(ct);
                        return Answer(stdout, stderr, r, r.Value != null ? r.Value.Raw : null);
                    }
                case "live":
                    {
                        var r = await client.GetLiveMatchAsync(ct);
                        return Answer(stdout, stderr, r, r.Value != null ? r.Value.Raw : null);
                    }
                case "ready":
                    {
                        var r = await client.ReadyAsync(RequireMatch(flags), ct);
                        return Answer(stdout, stderr, r, r.Value != null ? r.Value.Raw : null);
                    }
                case "submit":
                    return await Submit(client, account, flags, stdin, stdout, stderr, ct);
                default:
                    throw new UsageException("unknown command " + command);
            }
        }

        // TlogOptionsOf reads --key, --origin, --api-key (default $ARENA_API_KEY) and --retries.
        static TlogOptions TlogOptionsOf(Dictionary<string, string> flags, string command)
        {
            string apiKey, retriesText, key, origin;
            if (!flags.TryGetValue("api-key", out apiKey)) apiKey = Environment.GetEnvironmentVariable("ARENA_API_KEY");
            var options = new TlogOptions { ApiKey = apiKey };
            if (flags.TryGetValue("key", out key)) options.PublicKey = key;
            if (flags.TryGetValue("origin", out origin)) options.Origin = origin;
            if (flags.TryGetValue("retries", out retriesText))
            {
                int retries;
                if (!int.TryParse(retriesText, NumberStyles.None, CultureInfo.InvariantCulture, out retries))
                    throw new UsageException(command + ": --retries must be 0 or more");
                options.Retries = retries;
            }
            return options;
        }

        static string ReadText(string file)
        {
            try
            {
                return File.ReadAllText(file, new UTF8Encoding(false, true));
            }
            catch (Exception e) when (e is IOException || e is UnauthorizedAccessException || e is ArgumentException || e is NotSupportedException)
            {
                throw new UsageException(e.Message);
            }
        }

        // VerifierClient is a disabled client (no ticket) of the arena at --base.
        static ArenaClient VerifierClient(Dictionary<string, string> global, Dictionary<string, string> flags, TextWriter stderr)
        {
            string baseUrl;
            if (!flags.TryGetValue("base", out baseUrl) && !global.TryGetValue("base", out baseUrl)) baseUrl = "http://localhost:8787";
            ArenaClient client;
            try
            {
                client = new ArenaClient(new ArenaClientSettings { BaseUrl = baseUrl, Enabled = false });
            }
            catch (ArgumentException e)
            {
                throw new UsageException(e.Message);
            }
            client.Log = message => stderr.WriteLine("arena-client: " + message);
            return client;
        }

        // Verified prints a verification's line and returns 0; a result that does not verify is exit
        // 1, a key that is not one a usage error, a failure to fetch exit 3.
        static int Verified(TlogResult r, JsonValue line, Stream stdout, TextWriter stderr)
        {
            if (r.Error == TlogResult.InvalidSettings) throw new UsageException(r.Detail);
            if (!r.IsSuccess)
            {
                Failure(stdout, stderr, r.Error, r.Detail);
                return r.IsInvalid ? 1 : ExitNoFetch;
            }
            WriteLine(stdout, JsonWriter.Compact(line));
            return 0;
        }

        // VerifyLog checks the arena's transparency log (ArenaClient.VerifyTilesAsync) and prints
        // the checkpoint verified as one JSON line, the file a later run's --head reads.
        static async Task<int> VerifyLog(Dictionary<string, string> global, Dictionary<string, string> flags, Stream stdout, TextWriter stderr, CancellationToken ct)
        {
            var options = TlogOptionsOf(flags, "verify-log");
            string headFile;
            if (flags.TryGetValue("head", out headFile) && headFile != "")
            {
                string text = ReadText(headFile);
                if (!text.TrimStart().StartsWith("{", StringComparison.Ordinal)) options.Head = text;
                else
                {
                    JsonValue v = null;
                    try
                    {
                        v = JsonReader.Parse(text);
                    }
                    catch (FormatException)
                    {
                    }
                    var cp = v != null && v.Kind == JsonKind.Object ? v["checkpoint"] : null;
                    if (cp == null || cp.Kind != JsonKind.String)
                        throw new UsageException("verify-log: " + headFile + " is not a saved checkpoint (verify-log's output, or a checkpoint)");
                    options.Head = v.GetString("checkpoint");
                }
            }
            var r = await VerifierClient(global, flags, stderr).VerifyTilesAsync(options, ct);
            return Verified(r, r.IsSuccess ? JsonValue.NewObject().Set("treeSize", r.TreeSize).Set("rootHash", r.RootHash).Set("origin", r.Origin).Set("checkpoint", r.Checkpoint) : null, stdout, stderr);
        }

        // VerifyReceipt checks a receipt (ArenaClient.VerifyReceiptAsync) and prints what it proves:
        // the entry as JSON when it is JSON, else its base64.
        static async Task<int> VerifyReceipt(string file, Dictionary<string, string> global, Dictionary<string, string> flags, Stream stdout, TextWriter stderr, CancellationToken ct)
        {
            if (string.IsNullOrEmpty(file)) throw new UsageException("verify-receipt: FILE (a .tlog-proof receipt) is required");
            string text;
            try
            {
                // Bytes that are not UTF-8 become U+FFFD: such a file is no receipt (exit 1), as in
                // the other clients, not a usage error.
                text = Encoding.UTF8.GetString(File.ReadAllBytes(file));
            }
            catch (Exception e) when (e is IOException || e is UnauthorizedAccessException || e is ArgumentException || e is NotSupportedException)
            {
                throw new UsageException(e.Message);
            }
            var options = TlogOptionsOf(flags, "verify-receipt");
            var r = await VerifierClient(global, flags, stderr).VerifyReceiptAsync(text, options, ct);
            JsonValue line = null;
            if (r.IsSuccess)
            {
                line = JsonValue.NewObject().Set("index", r.Index).Set("treeSize", r.TreeSize).Set("rootHash", r.RootHash).Set("origin", r.Origin).Set("verified", true);
                JsonValue entry = null;
                JsonReadError readError;
                if (JsonReader.TryParseUtf8(r.Entry, false, out entry, out readError) && entry != null) line.Set("entry", entry);
                else line.Set("entry", Convert.ToBase64String(r.Entry));
            }
            return Verified(r, line, stdout, stderr);
        }

        static double BackoffScale()
        {
            string text = Environment.GetEnvironmentVariable("ARENA_CLIENT_BACKOFF_SCALE");
            if (string.IsNullOrEmpty(text)) return 1;
            double scale;
            if (!double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out scale) || scale < 0 || double.IsInfinity(scale))
                throw new UsageException("ARENA_CLIENT_BACKOFF_SCALE must be a non-negative number");
            return scale;
        }

        static long RequireMatch(Dictionary<string, string> flags)
        {
            string text;
            if (!flags.TryGetValue("match", out text)) throw new UsageException("--match needs a match id");
            return MatchId(text);
        }

        // MatchId reads --match: a match id in decimal, [1-9][0-9]* within a long, as every
        // client reads it; 042 is refused (a usage error), never read as 42 or octal 34.
        internal static long MatchId(string text)
        {
            long id;
            bool digits = text.Length > 0 && text[0] >= '1' && text[0] <= '9';
            for (int i = 1; digits && i < text.Length; i++) digits = text[i] >= '0' && text[i] <= '9';
            if (!digits || !long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out id))
                throw new UsageException("--match: not a match id: \"" + text + "\" (decimal digits, no sign, no leading zero)");
            return id;
        }

        static int Canonical(Dictionary<string, string> flags, Stream stdin, Stream stdout)
        {
            string text, nonce, winner;
            long matchId;
            if (!flags.TryGetValue("match", out text)) matchId = 0; // refused below as invalid_match
            else matchId = MatchId(text);
            if (!flags.TryGetValue("nonce", out nonce)) nonce = "";
            if (!flags.TryGetValue("winner", out winner)) winner = "";
            var result = ResultCanonicalizer.Canonicalize(ReadAll(stdin), matchId, nonce, winner);
            if (!result.IsAccepted)
            {
                WriteLine(stdout, "{\"error\":" + JsonWriter.Quote(result.Refusal) + "}");
                return 2;
            }
            WriteLine(stdout, "{\"canonical\":" + JsonWriter.Quote(result.Canonical) + ",\"sha256\":" + JsonWriter.Quote(result.Sha256) + "}");
            return 0;
        }

        static async Task<int> Submit(ArenaClient client, string account, Dictionary<string, string> flags, Stream stdin, Stream stdout, TextWriter stderr, CancellationToken ct)
        {
            long matchId = RequireMatch(flags);
            string opponent, winner, scoreText, resultJson, gameText;
            int game = 0;
            if (flags.TryGetValue("game", out gameText))
            {
                long g = MatchId(gameText);
                if (g > int.MaxValue) throw new UsageException("--game is a game number");
                game = (int)g;
            }
            if (!flags.TryGetValue("opponent", out opponent)) opponent = "";
            if (!flags.TryGetValue("winner", out winner)) winner = "";
            MatchScore score = null;
            if (flags.TryGetValue("score", out scoreText)) score = ParseScore(scoreText);
            byte[] resultBytes = flags.TryGetValue("result", out resultJson) ? Encoding.UTF8.GetBytes(resultJson) : null;
            string heldText;
            LiveMatch held = null;
            if (flags.TryGetValue("held", out heldText))
            {
                try
                {
                    held = LiveMatch.FromJson(JsonReader.Parse(heldText));
                }
                catch (FormatException e)
                {
                    throw new UsageException("--held must be the live match as live printed it: " + e.Message);
                }
            }
            if (string.IsNullOrEmpty(winner))
            {
                WriteLine(stdout, "{\"status\":\"draw\"}");
                stderr.WriteLine("arena-client: empty winner: a draw, nothing submitted");
                return 0;
            }
            if (resultBytes == null) resultBytes = ReadAll(stdin);
            string text;
            try
            {
                text = new UTF8Encoding(false, true).GetString(resultBytes);
            }
            catch (ArgumentException)
            {
                return Failure(stdout, stderr, RefusalReason.InvalidJson, "the result is not UTF-8");
            }
            var outcome = await client.SubmitResultAsync(new ResultSubmission
            {
                LocalPlatformId = account,
                OpponentPlatformId = opponent,
                Winner = winner,
                ResultJson = string.IsNullOrWhiteSpace(text) ? "{}" : text,
                Score = score,
                ExpectedMatchId = matchId,
                ExpectedGame = game,
                HeldMatch = held,
            }, ct);
            if (outcome.Canonical != null) stderr.WriteLine("arena-client: result " + outcome.Canonical + " sha256 " + outcome.ResultHash + ", " + outcome.Attempts + " attempt(s)");
            if (!outcome.IsSuccess) return Failure(stdout, stderr, outcome.Error, outcome.Detail);
            var answer = JsonValue.NewObject().Set("status", outcome.Status).Set("matchStatus", outcome.MatchStatus ?? "");
            if (outcome.DecidedWinner != null) answer.Set("winner", outcome.DecidedWinner);
            if (outcome.Won.HasValue) answer.Set("won", outcome.Won.Value);
            if (outcome.IsSeries)
            {
                // the series fields only for a series: a best of 1 prints as before
                if (outcome.Game > 0) answer.Set("game", outcome.Game);
                answer.Set("bestOf", outcome.BestOf).Set("seriesScore", outcome.SeriesScore.ToJson());
            }
            WriteLine(stdout, JsonWriter.Compact(answer));
            return 0;
        }

        static MatchScore ParseScore(string text)
        {
            string[] parts = text.Split(',');
            int p1, p2;
            if (parts.Length != 2 ||
                !int.TryParse(parts[0].Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out p1) ||
                !int.TryParse(parts[1].Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out p2))
                throw new UsageException("--score needs P1,P2 (two non-negative integers)");
            return new MatchScore(p1, p2);
        }

        static int Answer<T>(Stream stdout, TextWriter stderr, ArenaResult<T> r, JsonValue raw) where T : class
        {
            if (!r.IsSuccess) return Failure(stdout, stderr, r.Error, r.Detail);
            WriteLine(stdout, raw != null ? JsonWriter.Compact(raw) : "{\"none\":true}");
            return 0;
        }

        static int Failure(Stream stdout, TextWriter stderr, string code, string detail)
        {
            if (!string.IsNullOrEmpty(detail)) stderr.WriteLine("arena-client: " + code + ": " + detail);
            WriteLine(stdout, "{\"error\":" + JsonWriter.Quote(code ?? "unknown") + "}");
            return 1;
        }

        static byte[] ReadAll(Stream stream)
        {
            using (var buffer = new MemoryStream())
            {
                stream.CopyTo(buffer);
                return buffer.ToArray();
            }
        }

        // WriteLine writes one line of UTF-8 whatever the console's encoding (a C locale would
        // otherwise turn non-ASCII characters into '?').
        static void WriteLine(Stream stdout, string line)
        {
            byte[] bytes = new UTF8Encoding(false).GetBytes(line + "\n");
            stdout.Write(bytes, 0, bytes.Length);
            stdout.Flush();
        }
    }
}
