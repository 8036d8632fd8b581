using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace Arena.Client.Http
{
    /// <summary>
    /// The one network operation the client needs. The default is <see cref="SystemNetArenaHttp"/>
    /// (System.Net.Http); a Unity game may plug in UnityWebRequest instead (see the README).
    /// </summary>
    public interface IArenaHttp
    {
        /// <summary>
        /// Sends one request and returns the answer. Implementations never throw for network
        /// trouble (refused connection, reset, timeout, an answer cut short): they return a
        /// response with <see cref="ArenaHttpResponse.Status"/> 0 instead. Cancellation through
        /// <paramref name="cancellationToken"/> throws <see cref="System.OperationCanceledException"/>.
        /// </summary>
        /// <param name="method">GET, POST or PUT.</param>
        /// <param name="url">The absolute URL.</param>
        /// <param name="headers">Request headers (Authorization, Content-Type, Accept, ...).</param>
        /// <param name="body">The request body, or null for none.</param>
        /// <param name="cancellationToken">Cancels the request.</param>
        Task<ArenaHttpResponse> SendAsync(string method, string url, IReadOnlyDictionary<string, string> headers, byte[] body, CancellationToken cancellationToken);
    }

    /// <summary>An HTTP answer, or a network failure (status 0).</summary>
    public sealed class ArenaHttpResponse
    {
        /// <summary>An answer with an HTTP status and a body (null means empty).</summary>
        public ArenaHttpResponse(int status, byte[] body)
        {
            Status = status;
            Body = body ?? new byte[0];
        }

        /// <summary>A network failure: no HTTP status was received.</summary>
        public static ArenaHttpResponse NetworkFailure(string reason)
        {
            return new ArenaHttpResponse(0, null) { FailureReason = reason };
        }

        /// <summary>The HTTP status, or 0 for a network failure.</summary>
        public int Status { get; }

        /// <summary>The answer's body bytes (empty, never null).</summary>
        public byte[] Body { get; }

        /// <summary>For a network failure, what went wrong (for logs); otherwise null.</summary>
        public string FailureReason { get; private set; }

        /// <summary>The answer's Retry-After header (a 429's or a 503's), null when absent.</summary>
        public string RetryAfter { get; set; }

        /// <summary>Whether no HTTP status was received.</summary>
        public bool IsNetworkFailure { get { return Status == 0; } }
    }
}
