using System;
using System.Collections.Generic;
using System.IO;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Threading;
using System.Threading.Tasks;

namespace Arena.Client.Http
{
    /// <summary>
    /// <see cref="IArenaHttp"/> over System.Net.Http (.NET, Mono, Godot 4 .NET, Unity's scripting
    /// backends that ship HttpClient). One instance may serve many clients.
    /// </summary>
    public sealed class SystemNetArenaHttp : IArenaHttp, IDisposable
    {
        /// <summary>The most bytes of an answer read; a longer answer counts as a network failure.</summary>
        public const int MaxResponseBytes = 17 << 20;

        readonly HttpClient http;
        readonly HttpClient loopback; // no proxy for 127.0.0.1 and localhost, as Go's client does
        readonly bool ownsClient;

        /// <summary>
        /// New HttpClients whose requests time out after <paramref name="timeout"/>. Requests use
        /// the system's proxy settings, except requests to a loopback address (a local arena in
        /// development), which always go direct.
        /// </summary>
        public SystemNetArenaHttp(TimeSpan timeout)
        {
            http = new HttpClient { Timeout = timeout };
            loopback = new HttpClient(new HttpClientHandler { UseProxy = false }) { Timeout = timeout };
            ownsClient = true;
        }

        /// <summary>A default of 30 seconds per request.</summary>
        public SystemNetArenaHttp() : this(TimeSpan.FromSeconds(30)) { }

        /// <summary>Uses the caller's HttpClient (not disposed by this object).</summary>
        public SystemNetArenaHttp(HttpClient client)
        {
            http = client ?? throw new ArgumentNullException(nameof(client));
            loopback = client;
        }

        /// <inheritdoc />
        public async Task<ArenaHttpResponse> SendAsync(string method, string url, IReadOnlyDictionary<string, string> headers, byte[] body, CancellationToken cancellationToken)
        {
            using (var request = new HttpRequestMessage(new HttpMethod(method), url))
            {
                request.Headers.ExpectContinue = false; // no 100-continue round trip before a body
                string contentType = null;
                if (headers != null)
                {
                    foreach (var h in headers)
                    {
                        if (string.Equals(h.Key, "Content-Type", StringComparison.OrdinalIgnoreCase)) contentType = h.Value;
                        else request.Headers.TryAddWithoutValidation(h.Key, h.Value);
                    }
                }
                if (body != null)
                {
                    request.Content = new ByteArrayContent(body);
                    if (contentType != null) request.Content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
                }
                try
                {
                    var client = request.RequestUri.IsLoopback ? loopback : http;
                    using (var response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken).ConfigureAwait(false))
                    {
                        byte[] data = await ReadBoundedAsync(response.Content, cancellationToken).ConfigureAwait(false);
                        if (data == null) return ArenaHttpResponse.NetworkFailure("answer over " + MaxResponseBytes + " bytes");
                        IEnumerable<string> retryAfter;
                        return new ArenaHttpResponse((int)response.StatusCode, data)
                        {
                            RetryAfter = response.Headers.TryGetValues("Retry-After", out retryAfter) ? string.Join(",", retryAfter) : null,
                        };
                    }
                }
                catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
                {
                    throw;
                }
                catch (Exception e) when (e is HttpRequestException || e is IOException || e is OperationCanceledException || e is System.Net.WebException || e is ObjectDisposedException)
                {
                    // HttpClient reports its own timeout as a cancellation: a network failure here.
                    return ArenaHttpResponse.NetworkFailure(e.GetType().Name + ": " + e.Message);
                }
            }
        }

        static async Task<byte[]> ReadBoundedAsync(HttpContent content, CancellationToken cancellationToken)
        {
            if (content == null) return new byte[0];
            using (var stream = await content.ReadAsStreamAsync().ConfigureAwait(false))
            using (var buffer = new MemoryStream())
            {
                var chunk = new byte[16384];
                while (true)
                {
                    int n = await stream.ReadAsync(chunk, 0, chunk.Length, cancellationToken).ConfigureAwait(false);
                    if (n == 0) return buffer.ToArray();
                    if (buffer.Length + n > MaxResponseBytes) return null;
                    buffer.Write(chunk, 0, n);
                }
            }
        }

        /// <summary>Disposes the HttpClient this object created.</summary>
        public void Dispose()
        {
            if (!ownsClient) return;
            http.Dispose();
            loopback.Dispose();
        }
    }
}
