using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Arena.Client.Json
{
    /// <summary>
    /// Writes <see cref="JsonValue"/>s: compact in member order, or canonical per RFC 8785
    /// (JCS). Like the reader it never recurses.
    /// </summary>
    public static class JsonWriter
    {
        /// <summary>
        /// Compact JSON, members in their order, number tokens as they are. Unpaired surrogates
        /// are written as <c>\uXXXX</c> escapes so the text stays valid UTF-8.
        /// </summary>
        public static string Compact(JsonValue value)
        {
            if (value == null) throw new ArgumentNullException(nameof(value));
            var sb = new StringBuilder();
            string problem = Write(value, sb, false);
            if (problem != null) throw new InvalidOperationException(problem);
            return sb.ToString();
        }

        /// <summary>
        /// The RFC 8785 canonical form of <paramref name="value"/>: members sorted by the UTF-16
        /// code units of their names at every depth, no whitespace, numbers per ECMAScript
        /// Number.prototype.toString (integer tokens within ±(2^53-1) as integers), strings with
        /// only <c>"</c>, <c>\</c> and controls below U+0020 escaped. Returns null with
        /// <paramref name="refusal"/> set when the value cannot be canonicalized:
        /// <see cref="RefusalReason.UnsafeInteger"/>, <see cref="RefusalReason.NonFinite"/> or
        /// <see cref="RefusalReason.LoneSurrogate"/>.
        /// </summary>
        public static string Canonical(JsonValue value, out string refusal)
        {
            if (value == null) throw new ArgumentNullException(nameof(value));
            var sb = new StringBuilder();
            refusal = Write(value, sb, true);
            return refusal == null ? sb.ToString() : null;
        }

        /// <summary>
        /// The canonical number text of a JSON number token, or null with
        /// <paramref name="refusal"/> set (unsafe_integer, non_finite).
        /// </summary>
        public static string CanonicalNumber(string token, out string refusal)
        {
            refusal = null;
            if (token.IndexOf('.') < 0 && token.IndexOf('e') < 0 && token.IndexOf('E') < 0)
            {
                refusal = JsonReader.NumberProblem(token);
                if (refusal != null) return null;
                long n = long.Parse(token, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture);
                return n.ToString(CultureInfo.InvariantCulture); // "-0" becomes "0"
            }
            double d;
            if (!EcmaNumber.TryParse(token, out d) || double.IsInfinity(d))
            {
                refusal = RefusalReason.NonFinite;
                return null;
            }
            return EcmaNumber.Format(d);
        }

        sealed class Frame
        {
            public JsonValue Value;
            public IReadOnlyList<KeyValuePair<string, JsonValue>> Members;
            public int Index;
        }

        static readonly Comparison<KeyValuePair<string, JsonValue>> ByUtf16 =
            (a, b) => string.CompareOrdinal(a.Key, b.Key);

        static string Write(JsonValue root, StringBuilder sb, bool canonical)
        {
            var stack = new List<Frame>();
            JsonValue next = root;
            while (true)
            {
                if (next != null)
                {
                    switch (next.Kind)
                    {
                        case JsonKind.Null: sb.Append("null"); break;
                        case JsonKind.True: sb.Append("true"); break;
                        case JsonKind.False: sb.Append("false"); break;
                        case JsonKind.Number:
                            if (canonical)
                            {
                                string refusal;
                                string text = CanonicalNumber(next.Text, out refusal);
                                if (refusal != null) return refusal;
                                sb.Append(text);
                            }
                            else sb.Append(next.Text);
                            break;
                        case JsonKind.String:
                            if (canonical && JsonReader.HasLoneSurrogate(next.Text)) return RefusalReason.LoneSurrogate;
                            WriteString(next.Text, sb);
                            break;
                        case JsonKind.Array:
                        case JsonKind.Object:
                            if (stack.Count >= JsonReader.MaxDepth)
                                throw new ArgumentException("JSON nesting deeper than " + JsonReader.MaxDepth + " (or a value that contains itself)");
                            var f = new Frame { Value = next };
                            if (next.Kind == JsonKind.Object)
                            {
                                if (canonical)
                                {
                                    var sorted = new List<KeyValuePair<string, JsonValue>>(next.Members);
                                    sorted.Sort(ByUtf16);
                                    f.Members = sorted;
                                }
                                else f.Members = next.Members;
                                sb.Append('{');
                            }
                            else sb.Append('[');
                            stack.Add(f);
                            break;
                    }
                    next = null;
                }
                if (stack.Count == 0) return null;
                var top = stack[stack.Count - 1];
                if (top.Value.Kind == JsonKind.Object)
                {
                    if (top.Index == top.Members.Count)
                    {
                        sb.Append('}');
                        stack.RemoveAt(stack.Count - 1);
                        continue;
                    }
                    if (top.Index > 0) sb.Append(',');
                    var m = top.Members[top.Index++];
                    if (canonical && JsonReader.HasLoneSurrogate(m.Key)) return RefusalReason.LoneSurrogate;
                    WriteString(m.Key, sb);
                    sb.Append(':');
                    next = m.Value ?? JsonValue.Null;
                }
                else
                {
                    var items = top.Value.Items;
                    if (top.Index == items.Count)
                    {
                        sb.Append(']');
                        stack.RemoveAt(stack.Count - 1);
                        continue;
                    }
                    if (top.Index > 0) sb.Append(',');
                    next = items[top.Index++] ?? JsonValue.Null;
                }
            }
        }

        /// <summary>Appends <paramref name="s"/> as a JSON string literal, escaped per RFC 8785.</summary>
        public static void WriteString(string s, StringBuilder sb)
        {
            sb.Append('"');
            for (int k = 0; k < s.Length; k++)
            {
                char c = s[k];
                switch (c)
                {
                    case '"': sb.Append("\\\""); break;
                    case '\\': sb.Append("\\\\"); break;
                    case '\b': sb.Append("\\b"); break;
                    case '\f': sb.Append("\\f"); break;
                    case '\n': sb.Append("\\n"); break;
                    case '\r': sb.Append("\\r"); break;
                    case '\t': sb.Append("\\t"); break;
                    default:
                        if (c < 0x20) AppendEscape(c, sb);
                        else if (char.IsSurrogate(c))
                        {
                            if (char.IsHighSurrogate(c) && k + 1 < s.Length && char.IsLowSurrogate(s[k + 1]))
                            {
                                sb.Append(c).Append(s[k + 1]);
                                k++;
                            }
                            else AppendEscape(c, sb);
                        }
                        else sb.Append(c);
                        break;
                }
            }
            sb.Append('"');
        }

        static void AppendEscape(char c, StringBuilder sb)
        {
            sb.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
        }

        /// <summary>A JSON string literal of <paramref name="s"/>.</summary>
        public static string Quote(string s)
        {
            var sb = new StringBuilder(s.Length + 2);
            WriteString(s, sb);
            return sb.ToString();
        }
    }
}
