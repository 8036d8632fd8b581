using System;
using System.Collections.Generic;
using System.Globalization;

namespace Arena.Client.Json
{
    /// <summary>The kind of a <see cref="JsonValue"/>.</summary>
    public enum JsonKind
    {
        Null,
        False,
        True,
        Number,
        String,
        Array,
        Object,
    }

    /// <summary>
    /// A JSON value as read by <see cref="JsonReader"/> or built by a game. Numbers keep
    /// their token text (so <c>9007199254740993</c> or <c>1.10</c> are never rounded on the way
    /// in); objects keep their members in the order they were read or added.
    /// </summary>
    public sealed class JsonValue
    {
        /// <summary>The JSON <c>null</c>.</summary>
        public static readonly JsonValue Null = new JsonValue(JsonKind.Null, null);
        /// <summary>The JSON <c>true</c>.</summary>
        public static readonly JsonValue True = new JsonValue(JsonKind.True, null);
        /// <summary>The JSON <c>false</c>.</summary>
        public static readonly JsonValue False = new JsonValue(JsonKind.False, null);

        readonly string text;
        readonly List<JsonValue> items;
        readonly List<KeyValuePair<string, JsonValue>> members;

        JsonValue(JsonKind kind, string text)
        {
            Kind = kind;
            this.text = text;
            if (kind == JsonKind.Array) items = new List<JsonValue>();
            if (kind == JsonKind.Object) members = new List<KeyValuePair<string, JsonValue>>();
        }

        /// <summary>What this value is.</summary>
        public JsonKind Kind { get; }

        /// <summary>A new empty object.</summary>
        public static JsonValue NewObject() { return new JsonValue(JsonKind.Object, null); }

        /// <summary>A new empty array.</summary>
        public static JsonValue NewArray() { return new JsonValue(JsonKind.Array, null); }

        /// <summary>A string value. Throws <see cref="ArgumentNullException"/> for null.</summary>
        public static JsonValue FromString(string value)
        {
            if (value == null) throw new ArgumentNullException(nameof(value));
            return new JsonValue(JsonKind.String, value);
        }

        /// <summary><see cref="True"/> or <see cref="False"/>.</summary>
        public static JsonValue FromBool(bool value) { return value ? True : False; }

        /// <summary>An integer number. Canonicalization refuses magnitudes above 2^53-1.</summary>
        public static JsonValue FromInt64(long value)
        {
            return new JsonValue(JsonKind.Number, value.ToString(CultureInfo.InvariantCulture));
        }

        /// <summary>
        /// A floating-point number. Throws <see cref="ArgumentException"/> for NaN and
        /// infinities, which JSON cannot carry.
        /// </summary>
        public static JsonValue FromDouble(double value)
        {
            if (double.IsNaN(value) || double.IsInfinity(value))
                throw new ArgumentException("JSON has no NaN or infinity", nameof(value));
            return new JsonValue(JsonKind.Number, EcmaNumber.Format(value));
        }

        /// <summary>
        /// A number from its JSON token text, e.g. <c>"1.50"</c> or <c>"12345678901234567890"</c>.
        /// Throws <see cref="FormatException"/> when the text is not a JSON number token.
        /// </summary>
        public static JsonValue FromNumberToken(string token)
        {
            if (token == null || !JsonReader.IsNumberToken(token))
                throw new FormatException("not a JSON number token: " + token);
            return new JsonValue(JsonKind.Number, token);
        }

        internal static JsonValue NumberTokenUnchecked(string token) { return new JsonValue(JsonKind.Number, token); }

        /// <summary>The string of a String value, or the token text of a Number; null otherwise.</summary>
        public string Text { get { return text; } }

        /// <summary>The members of an object in order (empty for other kinds).</summary>
        public IReadOnlyList<KeyValuePair<string, JsonValue>> Members
        {
            get { return members ?? (IReadOnlyList<KeyValuePair<string, JsonValue>>)EmptyMembers; }
        }

        /// <summary>The items of an array (empty for other kinds).</summary>
        public IReadOnlyList<JsonValue> Items
        {
            get { return items ?? (IReadOnlyList<JsonValue>)EmptyItems; }
        }

        static readonly KeyValuePair<string, JsonValue>[] EmptyMembers = new KeyValuePair<string, JsonValue>[0];
        static readonly JsonValue[] EmptyItems = new JsonValue[0];

        /// <summary>
        /// The member named <paramref name="name"/> of an object (the last one, should a built
        /// object hold it twice), or null when absent or when this is not an object.
        /// </summary>
        public JsonValue this[string name]
        {
            get
            {
                if (members == null) return null;
                for (int i = members.Count - 1; i >= 0; i--)
                    if (string.Equals(members[i].Key, name, StringComparison.Ordinal)) return members[i].Value;
                return null;
            }
        }

        /// <summary>
        /// Sets member <paramref name="name"/> of an object: replaces an existing member in place,
        /// else appends. Returns this object, for chaining. Throws
        /// <see cref="InvalidOperationException"/> when this is not an object.
        /// </summary>
        public JsonValue Set(string name, JsonValue value)
        {
            if (members == null) throw new InvalidOperationException("Set needs a JSON object");
            if (name == null) throw new ArgumentNullException(nameof(name));
            if (value == null) value = Null;
            for (int i = 0; i < members.Count; i++)
            {
                if (string.Equals(members[i].Key, name, StringComparison.Ordinal))
                {
                    members[i] = new KeyValuePair<string, JsonValue>(name, value);
                    return this;
                }
            }
            members.Add(new KeyValuePair<string, JsonValue>(name, value));
            return this;
        }

        /// <summary>Sets a string member.</summary>
        public JsonValue Set(string name, string value) { return Set(name, value == null ? Null : FromString(value)); }

        /// <summary>Sets an integer member.</summary>
        public JsonValue Set(string name, long value) { return Set(name, FromInt64(value)); }

        /// <summary>Sets a floating-point member.</summary>
        public JsonValue Set(string name, double value) { return Set(name, FromDouble(value)); }

        /// <summary>Sets a boolean member.</summary>
        public JsonValue Set(string name, bool value) { return Set(name, FromBool(value)); }

        /// <summary>Removes member <paramref name="name"/> of an object; returns whether it was there.</summary>
        public bool Remove(string name)
        {
            if (members == null) return false;
            return members.RemoveAll(m => string.Equals(m.Key, name, StringComparison.Ordinal)) > 0;
        }

        internal void AddMemberUnchecked(string name, JsonValue value)
        {
            members.Add(new KeyValuePair<string, JsonValue>(name, value));
        }

        /// <summary>Appends an item to an array; returns this array. Throws when this is not an array.</summary>
        public JsonValue Add(JsonValue value)
        {
            if (items == null) throw new InvalidOperationException("Add needs a JSON array");
            items.Add(value ?? Null);
            return this;
        }

        /// <summary>The string of member <paramref name="name"/>, or null when absent or not a string.</summary>
        public string GetString(string name)
        {
            var v = this[name];
            return v != null && v.Kind == JsonKind.String ? v.text : null;
        }

        /// <summary>
        /// The integer of member <paramref name="name"/>; <paramref name="fallback"/> when absent,
        /// not a number, fractional or out of the Int64 range.
        /// </summary>
        public long GetInt64(string name, long fallback = 0)
        {
            var v = this[name];
            long n;
            return v != null && v.TryGetInt64(out n) ? n : fallback;
        }

        /// <summary>Whether member <paramref name="name"/> is <c>true</c>.</summary>
        public bool GetBool(string name)
        {
            var v = this[name];
            return v != null && v.Kind == JsonKind.True;
        }

        /// <summary>
        /// Reads this number as an integer: a token of digits (<c>42</c>), or one with a fraction
        /// or exponent whose value is a whole number in range (<c>42.0</c>, <c>4.2e1</c>).
        /// </summary>
        public bool TryGetInt64(out long value)
        {
            value = 0;
            if (Kind != JsonKind.Number) return false;
            if (long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out value)) return true;
            double d;
            if (!EcmaNumber.TryParse(text, out d) || Math.Floor(d) != d || Math.Abs(d) > 9007199254740991d) return false;
            value = (long)d;
            return true;
        }

        /// <summary>Reads this number as the nearest double.</summary>
        public bool TryGetDouble(out double value)
        {
            value = 0;
            return Kind == JsonKind.Number && EcmaNumber.TryParse(text, out value) && !double.IsInfinity(value);
        }

        /// <summary>Compact JSON of this value, members in their order (not canonical).</summary>
        public override string ToString() { return JsonWriter.Compact(this); }
    }
}
