using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Arena.Client.Json;

namespace Arena.Client
{
    /// <summary>
    /// The event log's signed head (docs/events.md): the last event's seq, hash and time,
    /// signed with the arena's Ed25519 key. An empty log's head has seq 0, the genesis hash and
    /// an empty time. Save it (<see cref="ToJson"/>) to check later that the log only grew.
    /// </summary>
    public sealed class LogHead
    {
        /// <summary>The last event's seq (0: the empty log).</summary>
        public long Seq { get; set; }
        /// <summary>The last event's hash (lowercase hex).</summary>
        public string Hash { get; set; }
        /// <summary>The last event's time.</summary>
        public string At { get; set; }
        /// <summary>Base64 Ed25519 signature of <see cref="ArenaClient.HeadMessage"/>.</summary>
        public string Signature { get; set; }

        /// <summary>The head as one JSON object: seq, hash, at, signature.</summary>
        public string ToJson()
        {
            return JsonWriter.Compact(JsonValue.NewObject().Set("seq", Seq).Set("hash", Hash ?? "").Set("at", At ?? "").Set("signature", Signature ?? ""));
        }

        /// <summary>
        /// Reads a head; absent members are their zero values (the signature check then fails).
        /// Throws <see cref="FormatException"/> for anything but an object of those types.
        /// </summary>
        public static LogHead FromJson(JsonValue v)
        {
            if (v == null || v.Kind != JsonKind.Object) throw new FormatException("a head is a JSON object");
            long seq = 0;
            var s = v["seq"];
            if (s != null && (s.Kind != JsonKind.Number || !s.TryGetInt64(out seq) || seq < 0)) throw new FormatException("seq is not a count");
            Func<string, string> str = name =>
            {
                var m = v[name];
                if (m == null) return "";
                if (m.Kind != JsonKind.String) throw new FormatException(name + " is not a string");
                return v.GetString(name);
            };
            return new LogHead { Seq = seq, Hash = str("hash"), At = str("at"), Signature = str("signature") };
        }
    }

    /// <summary>What <see cref="ArenaClient.VerifyLogAsync"/> reads and how.</summary>
    public sealed class VerifyLogOptions
    {
        /// <summary>
        /// A head saved by an earlier check, or null: it must be signed and its event in the log
        /// unchanged; the walk then starts at its seq, not at 1.
        /// </summary>
        public LogHead Saved { get; set; }

        /// <summary>
        /// A public-API key of the arena (<c>apikey_&lt;id&gt;_&lt;secret&gt;</c>), sent as
        /// <c>Authorization: Bearer &lt;key&gt;</c>: the reads count against its limit.
        /// </summary>
        public string ApiKey { get; set; }

        /// <summary>How many times a read answered 429 is repeated after its Retry-After (default 5; 0: none).</summary>
        public int Retries { get; set; } = ArenaClient.DefaultReadRetries;
    }

    /// <summary>The outcome of <see cref="ArenaClient.VerifyLogAsync"/>.</summary>
    public sealed class VerifyLogResult
    {
        /// <summary>The head verified (worth saving), on success.</summary>
        public LogHead Head { get; internal set; }
        /// <summary>
        /// Null on success; <c>log_invalid</c> when the log, its head or the saved head does not
        /// verify; otherwise the log could not be fetched: the arena's code (e.g.
        /// <c>rate_limited</c>), <c>http_&lt;status&gt;</c>, <c>network_error</c> or <c>bad_response</c>.
        /// </summary>
        public string Error { get; internal set; }
        /// <summary>The seq where verification failed, for <c>log_invalid</c>.</summary>
        public long Seq { get; internal set; }
        /// <summary>More about a failure, for logs.</summary>
        public string Detail { get; internal set; }
        /// <summary>Whether the log verified.</summary>
        public bool IsSuccess { get { return Error == null; } }
        /// <summary>Whether the log does not verify (rather than could not be fetched).</summary>
        public bool IsLogInvalid { get { return Error == LogInvalid; } }

        /// <summary>The error code of a log that does not verify.</summary>
        public const string LogInvalid = "log_invalid";

        public override string ToString() { return IsSuccess ? "verified to seq " + Head.Seq : Error + ": " + Detail; }
    }

    public sealed partial class ArenaClient
    {
        /// <summary>The prevHash of the first event, and the hash of an empty log's head: 64 zeros.</summary>
        public const string GenesisHash = "0000000000000000000000000000000000000000000000000000000000000000";

        /// <summary>How many events a page of <see cref="VerifyLogAsync"/> asks for: the log's largest page.</summary>
        public const int VerifyLogPage = 1000;

        /// <summary>How many times <see cref="VerifyLogAsync"/> repeats a read answered 429 by default.</summary>
        public const int DefaultReadRetries = 5;

        /// <summary>What a head's signature signs: <c>&lt;arena slug&gt;\n&lt;seq&gt;\n&lt;hash&gt;\n&lt;at&gt;</c> (UTF-8).</summary>
        public static string HeadMessage(string slug, long seq, string hash, string at)
        {
            return slug + "\n" + seq.ToString(CultureInfo.InvariantCulture) + "\n" + hash + "\n" + at;
        }

        /// <summary>
        /// The event's hash: lowercase hex SHA-256 of the RFC 8785 form of the event without its
        /// hash member (seq, at, type, tournament, matchId, data, prevHash); null when it has no
        /// RFC 8785 form.
        /// </summary>
        public static string EventHash(JsonValue e)
        {
            var o = JsonValue.NewObject();
            foreach (var name in new[] { "seq", "at", "type", "tournament", "matchId", "data", "prevHash" })
                o.Set(name, e[name] ?? JsonValue.Null);
            string refusal;
            string canonical = JsonWriter.Canonical(o, out refusal);
            return canonical == null ? null : ResultCanonicalizer.Sha256Hex(canonical);
        }

        /// <summary>The wait a 429's Retry-After asks for: its seconds, at least 1 s (also when absent), at most 2 min.</summary>
        public static TimeSpan RetryAfter(string value)
        {
            long seconds;
            DateTimeOffset date;
            double s = 1;
            if (long.TryParse((value ?? "").Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out seconds)) s = seconds;
            else if (DateTimeOffset.TryParse(value ?? "", CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out date)) s = (date - DateTimeOffset.UtcNow).TotalSeconds;
            return TimeSpan.FromSeconds(Math.Min(Math.Max(s, 1), 120));
        }

        sealed class LogFailure : Exception
        {
            public LogFailure(string code, long seq, string detail) : base(detail)
            {
                Code = code;
                Seq = seq;
            }

            public string Code { get; }
            public long Seq { get; }
        }

        static LogFailure Invalid(long seq, string detail) { return new LogFailure(VerifyLogResult.LogInvalid, seq, "event log: " + detail); }

        /// <summary>
        /// Verifies the arena's public event log (docs/events.md), as the Go and TypeScript
        /// clients do: reads the arena's slug and log.publicKey (GET /api/v1) and the signed head
        /// (GET /api/v1/events/head), checks its signature, and walks the log to the head
        /// recomputing every hash and prevHash link: from seq 1, or, given a saved head, from the
        /// saved head's own event, which must be in the log unchanged (its hash and time) and
        /// signed. Works on a disabled client (no ticket is sent; the API key when given). A read
        /// answered 429 is repeated after its Retry-After, up to <see cref="VerifyLogOptions.Retries"/>
        /// times. See <see cref="VerifyLogResult.Error"/> for the failures.
        /// </summary>
        public async Task<VerifyLogResult> VerifyLogAsync(VerifyLogOptions options, CancellationToken cancellationToken = default(CancellationToken))
        {
            if (options == null) throw new ArgumentNullException(nameof(options));
            try
            {
                return new VerifyLogResult { Head = await WalkLogAsync(options, cancellationToken) };
            }
            catch (LogFailure f)
            {
                return new VerifyLogResult { Error = f.Code, Seq = f.Seq, Detail = f.Message };
            }
        }

        async Task<JsonValue> ReadPublicAsync(string path, VerifyLogOptions options, CancellationToken ct)
        {
            var headers = new Dictionary<string, string> { { "Accept", "application/json" } };
            if (!string.IsNullOrEmpty(options.ApiKey)) headers["Authorization"] = "Bearer " + options.ApiKey;
            for (int attempt = 0; ; attempt++)
            {
                var response = await http.SendAsync("GET", settings.BaseUrl + path, headers, null, ct);
                if (response == null || response.Status == 0)
                    throw new LogFailure(ArenaError.NetworkError, 0, "GET " + path + ": " + (response != null ? response.FailureReason : "no response"));
                if (response.Status == 429 && attempt < options.Retries)
                {
                    TimeSpan wait = RetryAfter(response.RetryAfter);
                    Trace("GET " + path + ": 429, retrying in " + wait.TotalSeconds + " s");
                    await Delay(wait, ct);
                    continue;
                }
                var result = Interpret(new Reply { Status = response.Status, Body = response.Body }, "GET", path, v => v);
                if (!result.IsSuccess) throw new LogFailure(result.Error, 0, result.Detail);
                if (result.Value == null) throw new LogFailure(ArenaError.BadResponse, 0, "GET " + path + ": 204 without a body");
                return result.Value;
            }
        }

        static LogFailure Malformed(string path, string why) { return new LogFailure(ArenaError.BadResponse, 0, "GET " + path + ": " + why); }

        static LogHead ReadHead(string path, JsonValue v)
        {
            var seq = v["seq"];
            long n;
            if (v.Kind != JsonKind.Object || seq == null || !seq.TryGetInt64(out n) || n < 0 || v.GetString("hash") == null || v.GetString("at") == null || v.GetString("signature") == null)
                throw Malformed(path, "the answer is not a signed head");
            return new LogHead { Seq = n, Hash = v.GetString("hash"), At = v.GetString("at"), Signature = v.GetString("signature") };
        }

        static List<JsonValue> ReadPage(string path, JsonValue v)
        {
            var events = v.Kind == JsonKind.Object ? v["events"] : null;
            if (events == null || events.Kind != JsonKind.Array) throw Malformed(path, "the answer has no events");
            var list = new List<JsonValue>();
            foreach (var e in events.Items)
            {
                long seq;
                if (e.Kind != JsonKind.Object || e["seq"] == null || !e["seq"].TryGetInt64(out seq) || e.GetString("hash") == null || e.GetString("prevHash") == null || e.GetString("at") == null)
                    throw Malformed(path, "an event is not of the log's shape");
                list.Add(e);
            }
            return list;
        }

        static bool HeadSigned(byte[] key, string slug, LogHead h)
        {
            byte[] sig;
            try
            {
                sig = Convert.FromBase64String(h.Signature ?? "");
            }
            catch (FormatException)
            {
                return false;
            }
            return Ed25519.Verify(key, Encoding.UTF8.GetBytes(HeadMessage(slug, h.Seq, h.Hash ?? "", h.At ?? "")), sig);
        }

        // CheckNext checks the event after prevSeq (whose hash is prevHash): the next seq, linked,
        // and hashing to its own hash.
        static void CheckNext(long prevSeq, string prevHash, JsonValue e)
        {
            long seq = e.GetInt64("seq");
            if (seq != prevSeq + 1) throw Invalid(prevSeq + 1, "seq " + seq + " follows " + prevSeq);
            if (e.GetString("prevHash") != prevHash) throw Invalid(seq, "event " + seq + "'s prevHash is not the hash before it, " + prevHash);
            string h = EventHash(e);
            if (h == null) throw Invalid(seq, "event " + seq + " has no RFC 8785 form");
            if (h != e.GetString("hash")) throw Invalid(seq, "event " + seq + "'s hash is " + e.GetString("hash") + ", its content hashes to " + h);
        }

        async Task<LogHead> WalkLogAsync(VerifyLogOptions options, CancellationToken ct)
        {
            var meta = await ReadPublicAsync("/api/v1", options, ct);
            var tenant = meta["tenant"];
            var log = meta["log"];
            string slug = tenant != null && tenant.Kind == JsonKind.Object ? tenant.GetString("slug") ?? "" : "";
            string publicKey = log != null && log.Kind == JsonKind.Object ? log.GetString("publicKey") : null;
            byte[] key = null;
            try
            {
                if (publicKey != null) key = Convert.FromBase64String(publicKey);
            }
            catch (FormatException)
            {
            }
            if (key == null || key.Length != 32) throw Malformed("/api/v1", "the arena's log.publicKey is not a base64 Ed25519 key");

            LogHead head = ReadHead("/api/v1/events/head", await ReadPublicAsync("/api/v1/events/head", options, ct));
            if (!HeadSigned(key, slug, head)) throw Invalid(head.Seq, "the head's signature (seq " + head.Seq + ") does not verify");
            if (head.Seq == 0 && head.Hash != GenesisHash) throw Invalid(0, "the empty log's head hash is not " + GenesisHash);
            LogHead saved = options.Saved;
            long at = 0;
            string prev = GenesisHash;
            if (saved != null)
            {
                if (!HeadSigned(key, slug, saved)) throw Invalid(saved.Seq, "the saved head's signature (seq " + saved.Seq + ") does not verify");
                if (saved.Seq > head.Seq) throw Invalid(saved.Seq, "the saved head (seq " + saved.Seq + ") is past the arena's head (seq " + head.Seq + ")");
                if (saved.Seq == 0 && saved.Hash != GenesisHash) throw Invalid(0, "the saved empty head's hash is not " + GenesisHash);
                if (saved.Seq > 0)
                {
                    // Start at the saved head's own event: its hash must be the one saved, and the
                    // walk links on from it.
                    string path = "/api/v1/events?after=" + (saved.Seq - 1).ToString(CultureInfo.InvariantCulture) + "&limit=1";
                    var page = ReadPage(path, await ReadPublicAsync(path, options, ct));
                    if (page.Count == 0 || page[0].GetInt64("seq") != saved.Seq) throw Invalid(saved.Seq, "the log has no event " + saved.Seq + ", the saved head's");
                    var e = page[0];
                    if (e.GetString("hash") != saved.Hash || e.GetString("at") != saved.At) throw Invalid(saved.Seq, "event " + saved.Seq + " is not the one the saved head signed");
                    CheckNext(saved.Seq - 1, e.GetString("prevHash"), e);
                    if (saved.Seq == head.Seq && (e.GetString("hash") != head.Hash || e.GetString("at") != head.At))
                        throw Invalid(saved.Seq, "event " + saved.Seq + " is not the one the head signed");
                    at = saved.Seq;
                    prev = saved.Hash;
                }
            }
            while (at < head.Seq)
            {
                string path = "/api/v1/events?after=" + at.ToString(CultureInfo.InvariantCulture) + "&limit=" + VerifyLogPage.ToString(CultureInfo.InvariantCulture);
                var page = ReadPage(path, await ReadPublicAsync(path, options, ct));
                if (page.Count == 0) throw Invalid(at + 1, "the log ends at seq " + at + ", before its head (seq " + head.Seq + ")");
                foreach (var e in page)
                {
                    if (at == head.Seq) break; // events after the head are not covered yet
                    CheckNext(at, prev, e);
                    long seq = e.GetInt64("seq");
                    if (seq == head.Seq && (e.GetString("hash") != head.Hash || e.GetString("at") != head.At))
                        throw Invalid(seq, "event " + seq + " is not the one the head signed");
                    at = seq;
                    prev = e.GetString("hash");
                }
            }
            return head;
        }
    }
}
