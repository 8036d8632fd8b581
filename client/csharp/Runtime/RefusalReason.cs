namespace Arena.Client
{
    /// <summary>
    /// Why a game's result cannot be canonicalized. The client refuses before sending anything;
    /// these strings are the same in every Arena client (Go, C#, TypeScript).
    /// </summary>
    public static class RefusalReason
    {
        /// <summary>The text is not JSON (or has trailing data), or is not valid UTF-8.</summary>
        public const string InvalidJson = "invalid_json";
        /// <summary>The top-level value is not an object.</summary>
        public const string NotObject = "not_object";
        /// <summary>An object has the same member name twice, at any depth.</summary>
        public const string DuplicateKey = "duplicate_key";
        /// <summary>A string holds an unpaired UTF-16 surrogate.</summary>
        public const string LoneSurrogate = "lone_surrogate";
        /// <summary>An integer beyond ±(2^53-1); send it as a string instead.</summary>
        public const string UnsafeInteger = "unsafe_integer";
        /// <summary>A number whose value overflows an IEEE double (e.g. 1e400).</summary>
        public const string NonFinite = "non_finite";
        /// <summary>The winner is not 17 decimal digits.</summary>
        public const string InvalidWinner = "invalid_winner";
        /// <summary>The session nonce is empty.</summary>
        public const string InvalidNonce = "invalid_nonce";
        /// <summary>The match id is not a positive safe integer.</summary>
        public const string InvalidMatch = "invalid_match";
    }
}
