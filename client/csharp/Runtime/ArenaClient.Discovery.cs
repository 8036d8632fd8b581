using System;
using System.Threading;
using System.Threading.Tasks;
using Arena.Client.Json;

namespace Arena.Client
{
    public sealed partial class ArenaClient
    {
        /// <summary>
        /// Discovery: the caller's live match (GET /api/v1/me/live-match). Success with a null
        /// value when there is none (204, also when the arena's AppID gate hides it). The match is
        /// returned as sent; check <see cref="LiveMatch.IsValid"/> before reporting on it.
        /// </summary>
        public Task<ArenaResult<LiveMatch>> GetLiveMatchAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            if (!settings.Enabled) return Task.FromResult(DisabledResult<LiveMatch>());
            return CallAsync("GET", "/api/v1/me/live-match", null, true, LiveMatch.FromJson, cancellationToken);
        }

        /// <summary>
        /// The caller's next match (GET /api/v1/me/upcoming-match); success with a null value when
        /// there is none (204).
        /// </summary>
        public Task<ArenaResult<UpcomingMatch>> GetUpcomingMatchAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            if (!settings.Enabled) return Task.FromResult(DisabledResult<UpcomingMatch>());
            return CallAsync("GET", "/api/v1/me/upcoming-match", null, true, UpcomingMatch.FromJson, cancellationToken);
        }

        /// <summary>
        /// Marks the caller ready (POST /api/v1/matches/{id}/ready). Refusals carry the arena's
        /// code: not_participant, match_not_found, opponent_undecided, past_ready_phase,
        /// window_not_open, window_closed.
        /// </summary>
        public async Task<ArenaResult<ReadyState>> ReadyAsync(long matchId, CancellationToken cancellationToken = default(CancellationToken))
        {
            if (!settings.Enabled) return DisabledResult<ReadyState>();
            string path = "/api/v1/matches/" + Invariant(matchId) + "/ready";
            var r = await CallAsync("POST", path, null, true, ReadyState.FromJson, cancellationToken);
            if (r.IsSuccess && r.Value == null) return ArenaResult<ReadyState>.Failure(ArenaError.BadResponse, r.HttpStatus, "POST " + path + ": no body");
            return r;
        }

        /// <summary>
        /// The public match object (GET /api/v1/matches/{id}, no ticket): status, players and
        /// winner. Used to settle a submission whose answer was lost; 404 match_not_found.
        /// </summary>
        public async Task<ArenaResult<PublicMatch>> GetMatchAsync(long matchId, CancellationToken cancellationToken = default(CancellationToken))
        {
            if (!settings.Enabled) return DisabledResult<PublicMatch>();
            string path = "/api/v1/matches/" + Invariant(matchId);
            var r = await CallAsync("GET", path, null, false, PublicMatch.FromJson, cancellationToken);
            if (r.IsSuccess && r.Value == null) return ArenaResult<PublicMatch>.Failure(ArenaError.BadResponse, r.HttpStatus, "GET " + path + ": no body");
            return r;
        }

        /// <summary>
        /// Polls discovery until it returns a valid live match and answers it. The first poll is
        /// immediate, then one every <see cref="ArenaClientSettings.AutoDiscoverIntervalSeconds"/>.
        /// Passing trouble (no match yet, an invalid match, network failures, 5xx, unreadable
        /// answers, ticket failures) is logged and polling goes on; a 4xx refusal (the arena
        /// refuses this client, e.g. 401 missing_ticket) ends it with that failure. Disabled:
        /// <c>disabled</c>; auto-discovery off: <c>auto_discover_off</c>; cancellation throws.
        /// </summary>
        public async Task<ArenaResult<LiveMatch>> WaitForLiveMatchAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            if (!settings.Enabled) return DisabledResult<LiveMatch>();
            if (!settings.AutoDiscover) return ArenaResult<LiveMatch>.Failure(ArenaError.AutoDiscoverOff, 0);
            TimeSpan interval = TimeSpan.FromSeconds(settings.AutoDiscoverIntervalSeconds);
            while (true)
            {
                cancellationToken.ThrowIfCancellationRequested();
                var r = await GetLiveMatchAsync(cancellationToken);
                if (!r.IsSuccess && r.HttpStatus >= 400 && r.HttpStatus < 500) return r;
                if (r.IsSuccess && r.Value != null && r.Value.IsValid) return r;
                if (!r.IsSuccess) Trace("live-match poll failed: " + r);
                else if (r.Value != null) Trace("live match " + r.Value.MatchId + " is not valid for " + ResultProtocol + "; polling on");
                await Delay(interval, cancellationToken);
            }
        }

        /// <summary>
        /// Whether the game should trace gameplay of <paramref name="match"/>: EnableReferee is on
        /// and the arena runs the referee with both players' consent complete.
        /// </summary>
        public bool IsRefereeActive(LiveMatch match)
        {
            return settings.Enabled && settings.EnableReferee && match != null && match.Referee != null &&
                match.Referee.Enabled && match.Referee.ConsentComplete;
        }

        /// <summary>
        /// Records the local player's AI-referee training consent (POST /api/v1/me/referee-consent);
        /// traces are accepted only for matches whose two players both granted it.
        /// </summary>
        public async Task<ArenaResult<JsonValue>> SetRefereeConsentAsync(bool granted, CancellationToken cancellationToken = default(CancellationToken))
        {
            if (!settings.Enabled) return DisabledResult<JsonValue>();
            var body = JsonValue.NewObject().Set("granted", granted);
            return await CallAsync("POST", "/api/v1/me/referee-consent", body, true, v => v, cancellationToken);
        }
    }
}
