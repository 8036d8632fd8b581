namespace Arena.Client
{
    /// <summary>
    /// Error codes the client reports itself. Refusals by the arena keep the arena's own code
    /// (the <c>error</c> member of its body, e.g. <c>already_submitted</c>); canonicalization
    /// refusals use <see cref="RefusalReason"/>.
    /// </summary>
    public static class ArenaError
    {
        /// <summary><see cref="ArenaClientSettings.Enabled"/> is false; nothing was sent.</summary>
        public const string Disabled = "disabled";
        /// <summary>No HTTP status was received (refused, reset, timed out): "status 0".</summary>
        public const string NetworkError = "network_error";
        /// <summary>The ticket provider failed; nothing was sent.</summary>
        public const string TicketFailed = "ticket_failed";
        /// <summary>A success answer whose body could not be read.</summary>
        public const string BadResponse = "bad_response";
        /// <summary>Discovery found no live match.</summary>
        public const string NoLiveMatch = "no_live_match";
        /// <summary>Discovery returned a match no result can be reported on (see <see cref="LiveMatch.IsValid"/>).</summary>
        public const string InvalidLiveMatch = "invalid_live_match";
        /// <summary>The live match is not the match the caller meant to report on.</summary>
        public const string MatchMismatch = "match_mismatch";
        /// <summary>The local account is on neither side of the live match; nothing was sent.</summary>
        public const string NotParticipant = "not_participant";
        /// <summary>1v1: the opponent actually played is not the match's opponent; nothing was sent.</summary>
        public const string OpponentMismatch = "opponent_mismatch";
        /// <summary>The winner is on neither side of the live match; nothing was sent.</summary>
        public const string WinnerNotOnSide = "winner_not_on_side";
        /// <summary>
        /// Every attempt failed with a network failure or a status of 500 or more; HttpStatus and
        /// Detail describe the last one.
        /// </summary>
        public const string RetriesExhausted = "retries_exhausted";
        /// <summary><see cref="ArenaClientSettings.AutoDiscover"/> is off: poll with GetLiveMatchAsync yourself.</summary>
        public const string AutoDiscoverOff = "auto_discover_off";
        /// <summary>A trace was asked of a recorder whose match the referee does not trace.</summary>
        public const string TraceInactive = "trace_inactive";
        /// <summary>A recording file without a readable game.replay.v1 header; nothing was sent.</summary>
        public const string NotReplay = "not_replay";

        /// <summary>The code of an answer without an <c>error</c> member: <c>http_&lt;status&gt;</c>.</summary>
        public static string ForStatus(int status)
        {
            return "http_" + status.ToString(System.Globalization.CultureInfo.InvariantCulture);
        }
    }

    /// <summary>
    /// The answer to one protocol call: a value on success, else an error code and the HTTP
    /// status it came with (0 for a network failure or a refusal made by the client itself).
    /// Protocol answers are results, never exceptions; exceptions mean misuse of the API.
    /// </summary>
    public sealed class ArenaResult<T> where T : class
    {
        ArenaResult(T value, string error, int httpStatus, string detail)
        {
            Value = value;
            Error = error;
            HttpStatus = httpStatus;
            Detail = detail;
        }

        internal static ArenaResult<T> Success(T value, int httpStatus)
        {
            return new ArenaResult<T>(value, null, httpStatus, null);
        }

        internal static ArenaResult<T> Failure(string error, int httpStatus, string detail = null)
        {
            return new ArenaResult<T>(null, error, httpStatus, detail);
        }

        internal ArenaResult<TOther> As<TOther>() where TOther : class
        {
            return ArenaResult<TOther>.Failure(Error, HttpStatus, Detail);
        }

        /// <summary>Whether the call succeeded. A success may carry a null value: "none" (HTTP 204).</summary>
        public bool IsSuccess { get { return Error == null; } }

        /// <summary>The answer; null on failure and for "none".</summary>
        public T Value { get; }

        /// <summary>An <see cref="ArenaError"/> code or the arena's own code; null on success.</summary>
        public string Error { get; }

        /// <summary>The HTTP status of the answer, 0 when none was received.</summary>
        public int HttpStatus { get; }

        /// <summary>More about a failure, for logs (not for program logic); may be null.</summary>
        public string Detail { get; }

        /// <summary>Whether the failure is worth retrying: a network failure or a status of 500 or more.</summary>
        public bool IsRetryable
        {
            get { return Error != null && (Error == ArenaError.NetworkError || HttpStatus >= 500); }
        }

        public override string ToString()
        {
            return IsSuccess ? "ok" : Error + (HttpStatus > 0 ? " (HTTP " + HttpStatus + ")" : "") + (Detail != null ? ": " + Detail : "");
        }
    }
}
