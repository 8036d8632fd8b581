using System;
using System.Collections.Generic;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Arena.Client.Http;
using Arena.Client.Json;

namespace Arena.Client
{
    /// <summary>
    /// The Arena game client (spec 4.4): discovers the local player's upcoming and live matches,
    /// marks them ready, submits results under the dual-attestation protocol
    /// <c>svc.result.v3</c>, records gameplay traces for the AI referee, and submits recordings
    /// and near-live segments.
    /// <para>
    /// Every network method is <c>async</c>, returns an <see cref="ArenaResult{T}"/> (or a
    /// <see cref="SubmitResult"/>) for whatever the arena answers, and throws only for misuse
    /// (null arguments) or cancellation. The client does not leave the caller's
    /// synchronization context, so an <see cref="Http.IArenaHttp"/> built on UnityWebRequest keeps
    /// running on Unity's main thread.
    /// </para>
    /// </summary>
    public sealed partial class ArenaClient
    {
        /// <summary>The only result protocol this client speaks (spec 9).</summary>
        public const string ResultProtocol = "svc.result.v3";

        readonly ArenaClientSettings settings;
        readonly IArenaHttp http;
        readonly IArenaTicketProvider tickets;

        /// <summary>
        /// A client for <paramref name="settings"/> (copied; later changes to the object do not
        /// reach the client). <paramref name="http"/> defaults to <see cref="SystemNetArenaHttp"/>.
        /// Tickets come from <paramref name="tickets"/>, or are <c>MOCK:&lt;id&gt;</c> when
        /// <see cref="ArenaClientSettings.MockSteamId"/> is set (which then wins).
        /// Throws <see cref="ArgumentException"/> when the settings do not validate, and when an
        /// enabled client has neither a ticket provider nor a mock account.
        /// </summary>
        public ArenaClient(ArenaClientSettings settings, IArenaHttp http = null, IArenaTicketProvider tickets = null)
        {
            if (settings == null) throw new ArgumentNullException(nameof(settings));
            this.settings = settings.Clone();
            this.settings.Validate();
            if (!string.IsNullOrEmpty(this.settings.MockSteamId)) tickets = new MockTicketProvider(this.settings.MockSteamId);
            if (this.settings.Enabled && tickets == null)
                throw new ArgumentException("an enabled client needs a ticket provider or MockSteamId");
            this.http = http ?? new SystemNetArenaHttp(TimeSpan.FromSeconds(Math.Max(1, this.settings.RequestTimeoutSeconds)));
            this.tickets = tickets;
            Clock = () => DateTime.UtcNow;
            Delay = (wait, ct) => Task.Delay(wait, ct);
        }

        /// <summary>A copy of the settings the client runs with (clamped and validated).</summary>
        public ArenaClientSettings Settings { get { return settings.Clone(); } }

        /// <summary>The current UTC time; <c>endedAt</c> is read from it. Replaceable for tests.</summary>
        public Func<DateTime> Clock { get; set; }

        /// <summary>Waits between retries and discovery polls. Replaceable for tests.</summary>
        public Func<TimeSpan, CancellationToken, Task> Delay { get; set; }

        /// <summary>Receives what the client tolerates and carries on from (retries, polls); may be null.</summary>
        public Action<string> Log { get; set; }

        void Trace(string message)
        {
            var log = Log;
            if (log != null) log(message);
        }

        /// <summary>One HTTP exchange as the client saw it.</summary>
        internal struct Reply
        {
            public int Status;           // 0: network failure or ticket failure
            public byte[] Body;
            public string TicketError;   // non-null: no request was sent
            public string NetworkReason;
        }

        internal async Task<Reply> SendAsync(string method, string pathOrUrl, JsonValue body, bool withTicket, CancellationToken ct, string contentType = null, byte[] rawBody = null)
        {
            var headers = new Dictionary<string, string>();
            if (withTicket)
            {
                string ticket;
                try
                {
                    ticket = await tickets.GetTicketAsync(ct);
                }
                catch (OperationCanceledException) when (ct.IsCancellationRequested)
                {
                    throw;
                }
                catch (Exception e)
                {
                    return new Reply { TicketError = e.Message };
                }
                if (string.IsNullOrEmpty(ticket) || ticket.IndexOfAny(new[] { ' ', '\t', '\r', '\n' }) >= 0)
                    return new Reply { TicketError = "the ticket provider returned an empty or malformed ticket" };
                headers["Authorization"] = "Platform " + ticket;
                if (!string.IsNullOrEmpty(settings.AppId)) headers["X-Platform-AppId"] = settings.AppId;
            }
            headers["Accept"] = "application/json";
            byte[] bytes = rawBody;
            if (body != null)
            {
                bytes = Encoding.UTF8.GetBytes(JsonWriter.Compact(body));
                contentType = "application/json";
            }
            if (contentType != null) headers["Content-Type"] = contentType;
            string url = pathOrUrl.StartsWith("/", StringComparison.Ordinal) ? settings.BaseUrl + pathOrUrl : pathOrUrl;
            ArenaHttpResponse response = await http.SendAsync(method, url, headers, bytes, ct);
            if (response == null || response.Status == 0)
                return new Reply { NetworkReason = response != null ? response.FailureReason : "no response" };
            return new Reply { Status = response.Status, Body = response.Body };
        }

        /// <summary>
        /// Performs one call and reads a 200/201 answer with <paramref name="read"/>; 204 is a
        /// success without a value.
        /// </summary>
        internal async Task<ArenaResult<T>> CallAsync<T>(string method, string path, JsonValue body, bool withTicket, Func<JsonValue, T> read, CancellationToken ct) where T : class
        {
            Reply reply = await SendAsync(method, path, body, withTicket, ct);
            return Interpret(reply, method, path, read);
        }

        internal static ArenaResult<T> Interpret<T>(Reply reply, string method, string path, Func<JsonValue, T> read) where T : class
        {
            if (reply.TicketError != null) return ArenaResult<T>.Failure(ArenaError.TicketFailed, 0, reply.TicketError);
            if (reply.Status == 0) return ArenaResult<T>.Failure(ArenaError.NetworkError, 0, method + " " + path + ": " + reply.NetworkReason);
            if (reply.Status == 204) return ArenaResult<T>.Success(null, 204);
            JsonValue json = null;
            JsonReadError readError = null;
            bool parsed = reply.Body.Length > 0 && JsonReader.TryParseUtf8(reply.Body, false, out json, out readError);
            if (reply.Status == 200 || reply.Status == 201)
            {
                if (!parsed) return ArenaResult<T>.Failure(ArenaError.BadResponse, reply.Status, method + " " + path + ": body is not JSON");
                try
                {
                    return ArenaResult<T>.Success(read(json), reply.Status);
                }
                catch (FormatException e)
                {
                    return ArenaResult<T>.Failure(ArenaError.BadResponse, reply.Status, method + " " + path + ": " + e.Message);
                }
            }
            string code = parsed ? json.GetString("error") : null;
            return ArenaResult<T>.Failure(string.IsNullOrEmpty(code) ? ArenaError.ForStatus(reply.Status) : code, reply.Status, method + " " + path);
        }

        /// <summary>
        /// The wait before the next attempt after a retryable failure: 2^(maxAttempts -
        /// attemptsLeft + 1) seconds (spec 4.4), attemptsLeft being the attempts still allowed
        /// after the one that failed. With 3 attempts: 4 s, then 8 s.
        /// </summary>
        public static TimeSpan SubmitBackoff(int maxAttempts, int attemptsLeft)
        {
            int power = Math.Max(maxAttempts - attemptsLeft + 1, 0);
            return TimeSpan.FromSeconds(Math.Pow(2, power));
        }

        TimeSpan ScaledBackoff(int attemptsLeft)
        {
            return TimeSpan.FromTicks((long)(SubmitBackoff(settings.MaxSubmitAttempts, attemptsLeft).Ticks * settings.BackoffScale));
        }

        /// <summary>
        /// Runs <paramref name="step"/> until it succeeds, fails for good (not retryable), or
        /// MaxSubmitAttempts are spent (then <c>retries_exhausted</c>), waiting the spec's backoff
        /// between attempts.
        /// </summary>
        internal async Task<ArenaResult<T>> RetryAsync<T>(string what, Func<Task<ArenaResult<T>>> step, CancellationToken ct) where T : class
        {
            int max = settings.MaxSubmitAttempts;
            for (int attempt = 1; ; attempt++)
            {
                ArenaResult<T> r = await step();
                if (r.IsSuccess || !r.IsRetryable) return r;
                if (attempt >= max) return ArenaResult<T>.Failure(ArenaError.RetriesExhausted, r.HttpStatus, what + " after " + attempt + " attempts: " + r);
                TimeSpan wait = ScaledBackoff(max - attempt);
                Trace(what + " attempt " + attempt + " failed (" + r + "); retrying in " + wait.TotalSeconds + " s");
                await Delay(wait, ct);
            }
        }

        internal ArenaResult<T> DisabledResult<T>() where T : class
        {
            return ArenaResult<T>.Failure(ArenaError.Disabled, 0);
        }

        static string Invariant(long n) { return n.ToString(System.Globalization.CultureInfo.InvariantCulture); }
    }
}
