using System;
using System.Collections.Generic;
using System.Text;

namespace Arena.Client.Json
{
    /// <summary>Why a JSON text was not accepted: a reason code and where it was found.</summary>
    public sealed class JsonReadError
    {
        internal JsonReadError(string code, int position)
        {
            Code = code;
            Position = position;
        }

        /// <summary>
        /// One of <see cref="RefusalReason.InvalidJson"/>, <see cref="RefusalReason.DuplicateKey"/>,
        /// <see cref="RefusalReason.LoneSurrogate"/>, <see cref="RefusalReason.UnsafeInteger"/> or
        /// <see cref="RefusalReason.NonFinite"/>.
        /// </summary>
        public string Code { get; }

        /// <summary>The UTF-16 index in the text where the problem was found.</summary>
        public int Position { get; }

        public override string ToString() { return Code + " at " + Position; }
    }

    /// <summary>
    /// A strict RFC 8259 JSON reader: one value, optional whitespace around it, nothing after.
    /// It keeps number tokens as text and never recurses (nesting is bounded by
    /// <see cref="MaxDepth"/>), so a hostile text cannot overflow the stack of a game thread.
    /// Besides syntax it reports what makes a text ambiguous to hash (I-JSON, RFC 7493):
    /// duplicate member names (compared after unescaping) and unpaired surrogates; with
    /// <c>checkNumbers</c> also integers beyond 2^53-1 and numbers that overflow a double.
    /// A syntax error anywhere wins over those; among them the first in the text wins.
    /// </summary>
    public static class JsonReader
    {
        /// <summary>Deepest nesting of arrays and objects accepted (the same bound as Go's encoding/json).</summary>
        public const int MaxDepth = 10000;

        /// <summary>Reads <paramref name="text"/>; throws <see cref="FormatException"/> when it is not accepted.</summary>
        public static JsonValue Parse(string text)
        {
            JsonValue value;
            JsonReadError error;
            if (!TryParse(text, false, out value, out error))
                throw new FormatException("JSON refused: " + error);
            return value;
        }

        /// <summary>
        /// Reads <paramref name="text"/>. Returns false with <paramref name="error"/> set when the
        /// text is not one JSON value, or holds a duplicate member name or an unpaired surrogate,
        /// or (with <paramref name="checkNumbers"/>) an unsafe integer or a non-finite number.
        /// </summary>
        public static bool TryParse(string text, bool checkNumbers, out JsonValue value, out JsonReadError error)
        {
            if (text == null) throw new ArgumentNullException(nameof(text));
            var p = new Parser(text, checkNumbers);
            value = p.Run();
            if (p.SyntaxError >= 0)
            {
                value = null;
                error = new JsonReadError(RefusalReason.InvalidJson, p.SyntaxError);
                return false;
            }
            if (p.Problem != null)
            {
                value = null;
                error = p.Problem;
                return false;
            }
            error = null;
            return true;
        }

        /// <summary>
        /// Reads UTF-8 bytes: invalid UTF-8 (and a byte order mark, which JSON does not allow) is
        /// <see cref="RefusalReason.InvalidJson"/>.
        /// </summary>
        public static bool TryParseUtf8(byte[] utf8, bool checkNumbers, out JsonValue value, out JsonReadError error)
        {
            if (utf8 == null) throw new ArgumentNullException(nameof(utf8));
            string text;
            try
            {
                text = StrictUtf8.GetString(utf8);
            }
            catch (ArgumentException)
            {
                value = null;
                error = new JsonReadError(RefusalReason.InvalidJson, 0);
                return false;
            }
            return TryParse(text, checkNumbers, out value, out error);
        }

        internal static readonly UTF8Encoding StrictUtf8 = new UTF8Encoding(false, true);

        /// <summary>Whether <paramref name="token"/> is exactly one JSON number token.</summary>
        public static bool IsNumberToken(string token)
        {
            int i = 0;
            return ScanNumber(token, ref i) && i == token.Length;
        }

        // ScanNumber advances i over -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? and reports
        // whether a whole number token was there.
        static bool ScanNumber(string s, ref int i)
        {
            int n = s.Length;
            if (i < n && s[i] == '-') i++;
            if (i >= n) return false;
            if (s[i] == '0') i++;
            else if (s[i] >= '1' && s[i] <= '9') { while (i < n && IsDigit(s[i])) i++; }
            else return false;
            if (i < n && s[i] == '.')
            {
                i++;
                if (i >= n || !IsDigit(s[i])) return false;
                while (i < n && IsDigit(s[i])) i++;
            }
            if (i < n && (s[i] == 'e' || s[i] == 'E'))
            {
                i++;
                if (i < n && (s[i] == '+' || s[i] == '-')) i++;
                if (i >= n || !IsDigit(s[i])) return false;
                while (i < n && IsDigit(s[i])) i++;
            }
            return true;
        }

        static bool IsDigit(char c) { return c >= '0' && c <= '9'; }

        /// <summary>
        /// The I-JSON problem of a number token, or null: <see cref="RefusalReason.UnsafeInteger"/>
        /// for a token without fraction and exponent beyond ±(2^53-1),
        /// <see cref="RefusalReason.NonFinite"/> for one whose value overflows a double.
        /// </summary>
        public static string NumberProblem(string token)
        {
            if (token.IndexOf('.') < 0 && token.IndexOf('e') < 0 && token.IndexOf('E') < 0)
            {
                int start = token[0] == '-' ? 1 : 0;
                int digits = token.Length - start;
                if (digits < 16) return null;
                if (digits > 16) return RefusalReason.UnsafeInteger;
                return string.CompareOrdinal(token.Substring(start), "9007199254740991") > 0 ? RefusalReason.UnsafeInteger : null;
            }
            double d;
            if (!EcmaNumber.TryParse(token, out d) || double.IsInfinity(d)) return RefusalReason.NonFinite;
            return null;
        }

        sealed class Frame
        {
            public JsonValue Container;
            public string Key;
            public HashSet<string> Names;
        }

        sealed class Parser
        {
            readonly string s;
            readonly bool checkNumbers;
            int i;
            readonly StringBuilder sb = new StringBuilder();

            public int SyntaxError = -1;
            public JsonReadError Problem;

            public Parser(string s, bool checkNumbers)
            {
                this.s = s;
                this.checkNumbers = checkNumbers;
            }

            void Fail() { if (SyntaxError < 0) SyntaxError = i; }

            void Note(string code, int at) { if (Problem == null) Problem = new JsonReadError(code, at); }

            void SkipSpace()
            {
                while (i < s.Length)
                {
                    char c = s[i];
                    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
                    i++;
                }
            }

            public JsonValue Run()
            {
                var stack = new List<Frame>();
                JsonValue done;
                while (true)
                {
                    // Read a value; containers are pushed and read member by member.
                    SkipSpace();
                    if (i >= s.Length) { Fail(); return null; }
                    char c = s[i];
                    if (c == '{' || c == '[')
                    {
                        if (stack.Count >= MaxDepth) { Fail(); return null; }
                        i++;
                        var f = new Frame { Container = c == '{' ? JsonValue.NewObject() : JsonValue.NewArray() };
                        stack.Add(f);
                        SkipSpace();
                        if (c == '{')
                        {
                            f.Names = new HashSet<string>(StringComparer.Ordinal);
                            if (i < s.Length && s[i] == '}') { i++; done = f.Container; stack.RemoveAt(stack.Count - 1); }
                            else { if (!ReadName(f)) return null; continue; }
                        }
                        else
                        {
                            if (i < s.Length && s[i] == ']') { i++; done = f.Container; stack.RemoveAt(stack.Count - 1); }
                            else continue;
                        }
                    }
                    else
                    {
                        done = ReadScalar();
                        if (done == null) return null;
                    }

                    // Place the finished value; close every container it completes.
                    while (true)
                    {
                        if (stack.Count == 0)
                        {
                            SkipSpace();
                            if (i != s.Length) { Fail(); return null; }
                            return done;
                        }
                        var top = stack[stack.Count - 1];
                        if (top.Names != null) top.Container.AddMemberUnchecked(top.Key, done);
                        else top.Container.Add(done);
                        SkipSpace();
                        if (i >= s.Length) { Fail(); return null; }
                        char d = s[i];
                        if (d == ',')
                        {
                            i++;
                            if (top.Names != null) { SkipSpace(); if (!ReadName(top)) return null; }
                            break;
                        }
                        if ((top.Names != null && d == '}') || (top.Names == null && d == ']'))
                        {
                            i++;
                            stack.RemoveAt(stack.Count - 1);
                            done = top.Container;
                            continue;
                        }
                        Fail();
                        return null;
                    }
                }
            }

            // ReadName reads `"name" :` of an object member.
            bool ReadName(Frame f)
            {
                if (i >= s.Length || s[i] != '"') { Fail(); return false; }
                int at = i;
                string name = ReadString();
                if (name == null) return false;
                if (!f.Names.Add(name)) Note(RefusalReason.DuplicateKey, at);
                f.Key = name;
                SkipSpace();
                if (i >= s.Length || s[i] != ':') { Fail(); return false; }
                i++;
                return true;
            }

            JsonValue ReadScalar()
            {
                char c = s[i];
                if (c == '"')
                {
                    string str = ReadString();
                    return str == null ? null : JsonValue.FromString(str);
                }
                if (c == 't') return Literal("true", JsonValue.True);
                if (c == 'f') return Literal("false", JsonValue.False);
                if (c == 'n') return Literal("null", JsonValue.Null);
                int start = i;
                if (!ScanNumber(s, ref i)) { Fail(); return null; }
                string token = s.Substring(start, i - start);
                if (checkNumbers)
                {
                    string problem = NumberProblem(token);
                    if (problem != null) Note(problem, start);
                }
                return JsonValue.NumberTokenUnchecked(token);
            }

            JsonValue Literal(string word, JsonValue value)
            {
                if (string.CompareOrdinal(s, i, word, 0, word.Length) != 0) { Fail(); return null; }
                i += word.Length;
                return value;
            }

            // ReadString reads a string token starting at its opening quote and returns its
            // value, or null on a syntax error. An unpaired surrogate (escaped, or raw in a
            // .NET string) is noted, and kept, so the reading goes on.
            string ReadString()
            {
                int at = i;
                i++;
                sb.Length = 0;
                while (true)
                {
                    if (i >= s.Length) { Fail(); return null; }
                    char c = s[i];
                    if (c == '"') { i++; break; }
                    if (c < 0x20) { Fail(); return null; }
                    if (c != '\\') { sb.Append(c); i++; continue; }
                    i++;
                    if (i >= s.Length) { Fail(); return null; }
                    char e = s[i++];
                    switch (e)
                    {
                        case '"': sb.Append('"'); break;
                        case '\\': sb.Append('\\'); break;
                        case '/': sb.Append('/'); break;
                        case 'b': sb.Append('\b'); break;
                        case 'f': sb.Append('\f'); break;
                        case 'n': sb.Append('\n'); break;
                        case 'r': sb.Append('\r'); break;
                        case 't': sb.Append('\t'); break;
                        case 'u':
                            int code = 0;
                            for (int k = 0; k < 4; k++)
                            {
                                if (i >= s.Length) { Fail(); return null; }
                                int h = Hex(s[i++]);
                                if (h < 0) { Fail(); return null; }
                                code = code * 16 + h;
                            }
                            sb.Append((char)code);
                            break;
                        default:
                            i--;
                            Fail();
                            return null;
                    }
                }
                string value = sb.ToString();
                if (HasLoneSurrogate(value)) Note(RefusalReason.LoneSurrogate, at);
                return value;
            }

            static int Hex(char c)
            {
                if (c >= '0' && c <= '9') return c - '0';
                if (c >= 'a' && c <= 'f') return c - 'a' + 10;
                if (c >= 'A' && c <= 'F') return c - 'A' + 10;
                return -1;
            }
        }

        /// <summary>Whether <paramref name="s"/> holds a UTF-16 surrogate that is not part of a pair.</summary>
        public static bool HasLoneSurrogate(string s)
        {
            for (int k = 0; k < s.Length; k++)
            {
                char c = s[k];
                if (char.IsHighSurrogate(c))
                {
                    if (k + 1 < s.Length && char.IsLowSurrogate(s[k + 1])) { k++; continue; }
                    return true;
                }
                if (char.IsLowSurrogate(c)) return true;
            }
            return false;
        }
    }
}
