using System;
using System.Security.Cryptography;
using System.Text;
using Arena.Client.Json;

namespace Arena.Client
{
    /// <summary>
    /// The outcome of canonicalizing a game's result: the canonical string and its SHA-256, or
    /// the reason (<see cref="RefusalReason"/>) it was refused.
    /// </summary>
    public sealed class CanonicalResult
    {
        CanonicalResult(string canonical, string sha256, string refusal)
        {
            Canonical = canonical;
            Sha256 = sha256;
            Refusal = refusal;
        }

        internal static CanonicalResult Accepted(string canonical)
        {
            return new CanonicalResult(canonical, ResultCanonicalizer.Sha256Hex(canonical), null);
        }

        internal static CanonicalResult Refused(string reason) { return new CanonicalResult(null, null, reason); }

        /// <summary>Whether the result was canonicalized.</summary>
        public bool IsAccepted { get { return Refusal == null; } }

        /// <summary>The exact string both clients hash and post; null when refused.</summary>
        public string Canonical { get; }

        /// <summary>Lowercase hex SHA-256 of the UTF-8 bytes of <see cref="Canonical"/>; null when refused.</summary>
        public string Sha256 { get; }

        /// <summary>A <see cref="RefusalReason"/> code, or null when accepted.</summary>
        public string Refusal { get; }
    }

    /// <summary>
    /// Builds the result string of <c>svc.result.v3</c>: RFC 8785 (JCS) of the game's result
    /// object with the reserved keys <c>matchId</c>, <c>sessionNonce</c> and <c>winner</c> set
    /// by the client (values the game supplies for them are replaced), restricted to I-JSON.
    /// </summary>
    public static class ResultCanonicalizer
    {
        /// <summary>The reserved key holding the match id (a number).</summary>
        public const string MatchIdKey = "matchId";
        /// <summary>The reserved key holding the session nonce.</summary>
        public const string SessionNonceKey = "sessionNonce";
        /// <summary>The reserved key holding the winner's platform account id.</summary>
        public const string WinnerKey = "winner";

        /// <summary>The largest integer a double holds exactly, 2^53-1.</summary>
        public const long MaxSafeInteger = 9007199254740991L;

        /// <summary>Canonicalizes the game's result given as JSON text (it must be an object).</summary>
        public static CanonicalResult Canonicalize(string gameResultJson, long matchId, string sessionNonce, string winner)
        {
            if (gameResultJson == null) throw new ArgumentNullException(nameof(gameResultJson));
            string refusal = CheckReserved(matchId, sessionNonce, winner);
            if (refusal != null) return CanonicalResult.Refused(refusal);
            JsonValue game;
            JsonReadError error;
            if (!JsonReader.TryParse(gameResultJson, true, out game, out error)) return Refuse(gameResultJson, error);
            return Merge(game, matchId, sessionNonce, winner);
        }

        /// <summary>Canonicalizes the game's result given as UTF-8 JSON bytes; invalid UTF-8 is <c>invalid_json</c>.</summary>
        public static CanonicalResult Canonicalize(byte[] gameResultUtf8, long matchId, string sessionNonce, string winner)
        {
            if (gameResultUtf8 == null) throw new ArgumentNullException(nameof(gameResultUtf8));
            string refusal = CheckReserved(matchId, sessionNonce, winner);
            if (refusal != null) return CanonicalResult.Refused(refusal);
            string text;
            try
            {
                text = JsonReader.StrictUtf8.GetString(gameResultUtf8);
            }
            catch (ArgumentException)
            {
                return CanonicalResult.Refused(RefusalReason.InvalidJson);
            }
            return Canonicalize(text, matchId, sessionNonce, winner);
        }

        /// <summary>
        /// Canonicalizes a result object the game built as a <see cref="JsonValue"/> (not modified).
        /// A value that is not an object is <c>not_object</c>.
        /// </summary>
        public static CanonicalResult Canonicalize(JsonValue gameResult, long matchId, string sessionNonce, string winner)
        {
            if (gameResult == null) throw new ArgumentNullException(nameof(gameResult));
            string refusal = CheckReserved(matchId, sessionNonce, winner);
            if (refusal != null) return CanonicalResult.Refused(refusal);
            return Merge(gameResult, matchId, sessionNonce, winner);
        }

        // Refuse names the refusal of a text the reader did not accept. A syntax error wins;
        // then a top level that is not an object; then the reader's first I-JSON problem.
        static CanonicalResult Refuse(string text, JsonReadError error)
        {
            if (error.Code != RefusalReason.InvalidJson && !StartsWithObject(text))
                return CanonicalResult.Refused(RefusalReason.NotObject);
            return CanonicalResult.Refused(error.Code);
        }

        static bool StartsWithObject(string text)
        {
            foreach (char c in text)
            {
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
                return c == '{';
            }
            return false;
        }

        static CanonicalResult Merge(JsonValue game, long matchId, string sessionNonce, string winner)
        {
            if (game.Kind != JsonKind.Object) return CanonicalResult.Refused(RefusalReason.NotObject);
            var merged = JsonValue.NewObject();
            foreach (var m in game.Members)
            {
                if (m.Key == MatchIdKey || m.Key == SessionNonceKey || m.Key == WinnerKey) continue;
                merged.Set(m.Key, m.Value);
            }
            merged.Set(MatchIdKey, matchId);
            merged.Set(SessionNonceKey, sessionNonce);
            merged.Set(WinnerKey, winner);
            string refusal;
            string canonical = JsonWriter.Canonical(merged, out refusal);
            return refusal != null ? CanonicalResult.Refused(refusal) : CanonicalResult.Accepted(canonical);
        }

        // CheckReserved checks the client's own values: winner, nonce, match id.
        static string CheckReserved(long matchId, string sessionNonce, string winner)
        {
            if (!IsPlatformId(winner)) return RefusalReason.InvalidWinner;
            if (string.IsNullOrEmpty(sessionNonce)) return RefusalReason.InvalidNonce;
            if (JsonReader.HasLoneSurrogate(sessionNonce)) return RefusalReason.LoneSurrogate;
            if (matchId <= 0 || matchId > MaxSafeInteger) return RefusalReason.InvalidMatch;
            return null;
        }

        /// <summary>Whether <paramref name="id"/> is a platform account id: exactly 17 decimal digits.</summary>
        public static bool IsPlatformId(string id)
        {
            if (id == null || id.Length != 17) return false;
            foreach (char c in id)
                if (c < '0' || c > '9') return false;
            return true;
        }

        /// <summary>Lowercase hex SHA-256 of the UTF-8 bytes of <paramref name="text"/>.</summary>
        public static string Sha256Hex(string text)
        {
            return Sha256Hex(Encoding.UTF8.GetBytes(text));
        }

        /// <summary>Lowercase hex SHA-256 of <paramref name="bytes"/>.</summary>
        public static string Sha256Hex(byte[] bytes)
        {
            byte[] sum;
            using (var sha = SHA256.Create()) sum = sha.ComputeHash(bytes);
            var sb = new StringBuilder(64);
            foreach (byte b in sum) sb.Append(b.ToString("x2", System.Globalization.CultureInfo.InvariantCulture));
            return sb.ToString();
        }
    }
}
