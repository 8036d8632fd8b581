using System;
using System.Threading;
using System.Threading.Tasks;

namespace Arena.Client
{
    /// <summary>
    /// Supplies platform web-API tickets. The client asks for a fresh one before every request,
    /// retries included, because the arena accepts each ticket once (spec 5.1). On Steam: call
    /// <c>SteamUser.GetAuthTicketForWebApi(identity)</c> with the arena's identity label, wait for
    /// the <c>GetTicketForWebApiResponse_t</c> callback and return its ticket bytes as hex.
    /// </summary>
    public interface IArenaTicketProvider
    {
        /// <summary>
        /// A fresh hex ticket. Throwing aborts the request (reported as <c>ticket_failed</c>); it is
        /// not retried.
        /// </summary>
        Task<string> GetTicketAsync(CancellationToken cancellationToken);
    }

    /// <summary>Adapts a delegate to <see cref="IArenaTicketProvider"/>.</summary>
    public sealed class DelegateTicketProvider : IArenaTicketProvider
    {
        readonly Func<CancellationToken, Task<string>> getTicket;

        /// <summary>Wraps <paramref name="getTicket"/>.</summary>
        public DelegateTicketProvider(Func<CancellationToken, Task<string>> getTicket)
        {
            this.getTicket = getTicket ?? throw new ArgumentNullException(nameof(getTicket));
        }

        /// <inheritdoc />
        public Task<string> GetTicketAsync(CancellationToken cancellationToken) { return getTicket(cancellationToken); }
    }

    /// <summary>Development tickets <c>MOCK:&lt;account id&gt;</c>, accepted only by arenas in mock mode.</summary>
    public sealed class MockTicketProvider : IArenaTicketProvider
    {
        readonly string ticket;

        /// <summary>Tickets for account <paramref name="platformId"/> (17 digits; else <see cref="ArgumentException"/>).</summary>
        public MockTicketProvider(string platformId)
        {
            if (!ResultCanonicalizer.IsPlatformId(platformId)) throw new ArgumentException("a mock account id is 17 digits", nameof(platformId));
            ticket = "MOCK:" + platformId;
        }

        /// <inheritdoc />
        public Task<string> GetTicketAsync(CancellationToken cancellationToken) { return Task.FromResult(ticket); }
    }
}
