using System;
using System.Text.RegularExpressions;

namespace Arena.Client
{
    /// <summary>
    /// Settings of an <see cref="ArenaClient"/> (spec 4.4). Bounded values are clamped when set,
    /// so a settings object always holds values the client can run with; <see cref="Validate"/>
    /// reports the ones that cannot be clamped. (Unity's inspector does not show properties:
    /// keep serialized fields on a MonoBehaviour and copy them in, see the README.)
    /// </summary>
    public sealed class ArenaClientSettings
    {
        /// <summary>Default of <see cref="MaxSubmitAttempts"/>.</summary>
        public const int DefaultMaxSubmitAttempts = 3;
        /// <summary>Lower bound of <see cref="MaxSubmitAttempts"/>.</summary>
        public const int MinSubmitAttempts = 1;
        /// <summary>Upper bound of <see cref="MaxSubmitAttempts"/>.</summary>
        public const int MaxSubmitAttemptsLimit = 5;
        /// <summary>Default of <see cref="AutoDiscoverIntervalSeconds"/>.</summary>
        public const int DefaultAutoDiscoverIntervalSeconds = 60;
        /// <summary>Lower bound of <see cref="AutoDiscoverIntervalSeconds"/>.</summary>
        public const int MinAutoDiscoverIntervalSeconds = 15;
        /// <summary>Upper bound of <see cref="AutoDiscoverIntervalSeconds"/>.</summary>
        public const int MaxAutoDiscoverIntervalSeconds = 600;
        /// <summary>Default of <see cref="RefereeTraceSchema"/>.</summary>
        public const string DefaultRefereeTraceSchema = "game.gameplay.v1";
        /// <summary>Default of <see cref="RefereeRuleset"/>.</summary>
        public const string DefaultRefereeRuleset = "standard";
        /// <summary>The host's <see cref="ClientRole"/>.</summary>
        public const string RoleHost = "host";
        /// <summary>The guest's <see cref="ClientRole"/>.</summary>
        public const string RoleGuest = "guest";

        static readonly Regex TraceSchemaPattern = new Regex(@"^[a-z0-9][a-z0-9.-]{2,79}\.v[1-9][0-9]*$", RegexOptions.CultureInvariant);

        string baseUrl = "";
        int maxSubmitAttempts = DefaultMaxSubmitAttempts;
        int autoDiscoverIntervalSeconds = DefaultAutoDiscoverIntervalSeconds;
        double backoffScale = 1;

        /// <summary>When false, discovery, ready, submit and the recording calls do nothing and answer <c>disabled</c>. Default true.</summary>
        public bool Enabled { get; set; } = true;

        /// <summary>The arena's origin, e.g. <c>https://demo.example.com</c>; surrounding spaces and trailing slashes are stripped.</summary>
        public string BaseUrl
        {
            get { return baseUrl; }
            set { baseUrl = (value ?? "").Trim().TrimEnd('/'); }
        }

        /// <summary>How many times a result is POSTed before giving up; clamped to 1..5. Default 3.</summary>
        public int MaxSubmitAttempts
        {
            get { return maxSubmitAttempts; }
            set { maxSubmitAttempts = Math.Min(Math.Max(value, MinSubmitAttempts), MaxSubmitAttemptsLimit); }
        }

        /// <summary>Whether <see cref="ArenaClient.WaitForLiveMatchAsync"/> polls. Default true.</summary>
        public bool AutoDiscover { get; set; } = true;

        /// <summary>Seconds between two discovery polls; clamped to 15..600. Default 60.</summary>
        public int AutoDiscoverIntervalSeconds
        {
            get { return autoDiscoverIntervalSeconds; }
            set { autoDiscoverIntervalSeconds = Math.Min(Math.Max(value, MinAutoDiscoverIntervalSeconds), MaxAutoDiscoverIntervalSeconds); }
        }

        /// <summary>
        /// A 17-digit account id for development: every ticket is then <c>MOCK:&lt;id&gt;</c> (accepted
        /// only by arenas in mock mode). Production leaves it empty and supplies an
        /// <see cref="IArenaTicketProvider"/>.
        /// </summary>
        public string MockSteamId { get; set; } = "";

        /// <summary>
        /// Sent as <c>clientRole</c> with each result: <see cref="RoleHost"/>, <see cref="RoleGuest"/>
        /// or empty (omitted). Metadata only, never hashed.
        /// </summary>
        public string ClientRole { get; set; } = "";

        /// <summary>Optional <c>X-Platform-AppId</c> ordering hint (spec 5.1 item 3).</summary>
        public string AppId { get; set; } = "";

        /// <summary>Lets the game trace gameplay; inert unless the arena runs the referee and consent is complete. Default false.</summary>
        public bool EnableReferee { get; set; }

        /// <summary>The game's trace schema id; must match <c>^[a-z0-9][a-z0-9.-]{2,79}\.v[1-9][0-9]*$</c>.</summary>
        public string RefereeTraceSchema { get; set; } = DefaultRefereeTraceSchema;

        /// <summary>A ruleset label stamped into trace envelopes.</summary>
        public string RefereeRuleset { get; set; } = DefaultRefereeRuleset;

        /// <summary>
        /// Multiplies every retry wait (1 = the spec's 4, 8, 16 ... seconds; 0 = no wait). For
        /// tests and tools; negative values count as 0.
        /// </summary>
        public double BackoffScale
        {
            get { return backoffScale; }
            set { backoffScale = double.IsNaN(value) || value < 0 ? 0 : value; }
        }

        /// <summary>Seconds an HTTP request may take before it counts as a network failure. Default 30.</summary>
        public int RequestTimeoutSeconds { get; set; } = 30;

        /// <summary>A copy of these settings.</summary>
        public ArenaClientSettings Clone() { return (ArenaClientSettings)MemberwiseClone(); }

        /// <summary>Whether <paramref name="id"/> is an acceptable <see cref="RefereeTraceSchema"/>.</summary>
        public static bool IsValidTraceSchema(string id)
        {
            return id != null && TraceSchemaPattern.IsMatch(id);
        }

        /// <summary>
        /// Throws <see cref="ArgumentException"/> naming the first invalid setting: a trace schema
        /// not matching the pattern, a client role other than host/guest/empty, a mock account
        /// id that is not 17 digits, or (when enabled) a base URL that is not absolute http(s).
        /// </summary>
        public void Validate()
        {
            if (!IsValidTraceSchema(RefereeTraceSchema))
                throw new ArgumentException("RefereeTraceSchema '" + RefereeTraceSchema + "' does not match " + TraceSchemaPattern);
            if (!string.IsNullOrEmpty(ClientRole) && ClientRole != RoleHost && ClientRole != RoleGuest)
                throw new ArgumentException("ClientRole '" + ClientRole + "' is not host or guest");
            if (!string.IsNullOrEmpty(MockSteamId) && !ResultCanonicalizer.IsPlatformId(MockSteamId))
                throw new ArgumentException("MockSteamId '" + MockSteamId + "' is not 17 digits");
            if (Enabled)
            {
                Uri uri;
                if (!Uri.TryCreate(BaseUrl, UriKind.Absolute, out uri) || (uri.Scheme != "http" && uri.Scheme != "https"))
                    throw new ArgumentException("BaseUrl '" + BaseUrl + "' is not an absolute http(s) URL");
            }
        }
    }
}
