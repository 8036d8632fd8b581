using System;
using System.Globalization;
using System.Text;
using System.Threading;
using Arena.Client.Json;

namespace Arena.Client.Tests
{
    /// <summary>Numbers (RFC 8785 Appendix B and ECMAScript layout) and the reader's limits.</summary>
    static class JsonTests
    {
        // RFC 8785 Appendix B: IEEE 754 bits and the JSON text they serialize to.
        static readonly string[,] AppendixB =
        {
            { "0000000000000000", "0" },
            { "8000000000000000", "0" },
            { "0000000000000001", "5e-324" },
            { "8000000000000001", "-5e-324" },
            { "7fefffffffffffff", "1.7976931348623157e+308" },
            { "ffefffffffffffff", "-1.7976931348623157e+308" },
            { "4340000000000000", "9007199254740992" },
            { "c340000000000000", "-9007199254740992" },
            { "4430000000000000", "295147905179352830000" },
            { "44b52d02c7e14af5", "9.999999999999997e+22" },
            { "44b52d02c7e14af6", "1e+23" },
            { "44b52d02c7e14af7", "1.0000000000000001e+23" },
            { "444b1ae4d6e2ef4e", "999999999999999700000" },
            { "444b1ae4d6e2ef4f", "999999999999999900000" },
            { "444b1ae4d6e2ef50", "1e+21" },
            { "3eb0c6f7a0b5ed8c", "9.999999999999997e-7" },
            { "3eb0c6f7a0b5ed8d", "0.000001" },
            { "41b3de4355555553", "333333333.3333332" },
            { "41b3de4355555554", "333333333.33333325" },
            { "41b3de4355555555", "333333333.3333333" },
            { "41b3de4355555556", "333333333.3333334" },
            { "41b3de4355555557", "333333333.33333343" },
            { "becbf647612f3696", "-0.0000033333333333333333" },
            { "43143ff3c1cb0959", "1424953923781206.2" },
        };

        static double FromBits(string hex)
        {
            return BitConverter.Int64BitsToDouble(long.Parse(hex, NumberStyles.HexNumber, CultureInfo.InvariantCulture));
        }

        [Test]
        static void AppendixBNumbers()
        {
            for (int i = 0; i < AppendixB.GetLength(0); i++)
            {
                string hex = AppendixB[i, 0], text = AppendixB[i, 1];
                double d = FromBits(hex);
                Assert.Equal(text, EcmaNumber.Format(d), "format " + hex);
                double back;
                Assert.True(EcmaNumber.TryParse(text, out back), "parse " + text);
                Assert.Equal(d == 0 ? 0.0 : d, back == 0 ? 0.0 : back, "read back " + text);
                if (d != 0) Assert.Equal(hex, BitConverter.DoubleToInt64Bits(back).ToString("x16"), "bits of " + text);
            }
        }

        [Test]
        static void AppendixBNonFinite()
        {
            Assert.Throws<ArgumentException>(() => EcmaNumber.Format(FromBits("7fffffffffffffff")), "NaN");
            Assert.Throws<ArgumentException>(() => EcmaNumber.Format(FromBits("7ff0000000000000")), "Infinity");
            Assert.Throws<ArgumentException>(() => JsonValue.FromDouble(double.NegativeInfinity), "a JSON value of -Infinity");
        }

        [Test]
        static void PowersOfTwoTakeTheFartherNeighbour()
        {
            // At 2^896 and 2^976 the closest 16-digit decimal lies below the value, outside the
            // narrower lower half of the rounding interval; the 16-digit one above reads back, so
            // the shortest form has 16 digits, not 17 (checked against V8).
            Assert.Equal("5.282945311356653e+269", EcmaNumber.Format(FromBits("77f0000000000000")), "2^896");
            Assert.Equal("6.386688990511104e+293", EcmaNumber.Format(FromBits("7cf0000000000000")), "2^976");
        }

        [Test]
        static void EcmaScriptLayout()
        {
            var cases = new[]
            {
                new object[] { 1.0, "1" }, new object[] { -0.0, "0" }, new object[] { 0.1 + 0.2, "0.30000000000000004" },
                new object[] { 1e21, "1e+21" }, new object[] { 1e20, "100000000000000000000" }, new object[] { 123e18, "123000000000000000000" },
                new object[] { 1e-7, "1e-7" }, new object[] { 1.5e-7, "1.5e-7" }, new object[] { 1e-6, "0.000001" },
                new object[] { 0.5, "0.5" }, new object[] { -1.25e-10, "-1.25e-10" }, new object[] { 5e-324, "5e-324" },
                new object[] { 4.35, "4.35" }, new object[] { 100.0, "100" }, new object[] { 2.5e+25, "2.5e+25" },
                new object[] { 9007199254740993.0, "9007199254740992" }, new object[] { 0.000123, "0.000123" },
            };
            foreach (var c in cases) Assert.Equal((string)c[1], EcmaNumber.Format((double)c[0]), "format " + c[1]);
        }

        [Test]
        static void ParsingRoundsToNearestEven()
        {
            var cases = new[]
            {
                // 2^53 + 1 is halfway between 2^53 and 2^53 + 2: ties go to the even mantissa.
                new[] { "9007199254740993.0", "4340000000000000" },
                new[] { "9007199254740995.0", "4340000000000002" },
                // The exact value of 0.1 and a hair above the halfway point after it.
                new[] { "0.1000000000000000055511151231257827021181583404541015625", "3fb999999999999a" },
                new[] { "2.4703282292062328e-324", "0000000000000001" },
                new[] { "2.4703282292062327e-324", "0000000000000000" },
                new[] { "1e-400", "0000000000000000" },
                new[] { "2.2250738585072011e-308", "000fffffffffffff" },
                new[] { "2.2250738585072012e-308", "0010000000000000" },
                new[] { "1.7976931348623158e308", "7fefffffffffffff" },
                new[] { "123456789012345678901234567890e-10", "43e56a95319d63e1" },
                new[] { "0.000000000000000000000000000000000000000000001e45", "3ff0000000000000" },
            };
            foreach (var c in cases)
            {
                double d;
                Assert.True(EcmaNumber.TryParse(c[0], out d), "parse " + c[0].Substring(0, Math.Min(30, c[0].Length)));
                Assert.Equal(c[1], BitConverter.DoubleToInt64Bits(d).ToString("x16"), "bits of " + c[0].Substring(0, Math.Min(30, c[0].Length)));
            }
            // Exactly halfway between subnormals (2^-1075 = 5^1075 x 10^-1075): ties to even;
            // one more digit past the halfway point rounds up.
            string half = System.Numerics.BigInteger.Pow(5, 1075).ToString() + "e-1075";
            string threeHalves = (3 * System.Numerics.BigInteger.Pow(5, 1075)).ToString() + "e-1075";
            string aboveHalf = System.Numerics.BigInteger.Pow(5, 1075).ToString() + "1e-1076";
            foreach (var c in new[] { new[] { half, "0000000000000000" }, new[] { threeHalves, "0000000000000002" }, new[] { aboveHalf, "0000000000000001" } })
            {
                double d;
                Assert.True(EcmaNumber.TryParse(c[0], out d), "parse a long halfway case");
                Assert.Equal(c[1], BitConverter.DoubleToInt64Bits(d).ToString("x16"), "halfway case " + c[1]);
            }
            double inf;
            Assert.True(EcmaNumber.TryParse("1.7976931348623159e308", out inf) && double.IsPositiveInfinity(inf), "past the largest double");
            Assert.True(EcmaNumber.TryParse("-1e99999999999999999999", out inf) && double.IsNegativeInfinity(inf), "huge exponent");
            double z;
            Assert.True(!EcmaNumber.TryParse("1.", out z) && !EcmaNumber.TryParse("+1", out z) && !EcmaNumber.TryParse("0x10", out z), "not JSON numbers");
        }

        [Test]
        static void IntegersAtTheSafeLimit()
        {
            string refusal;
            Assert.Equal("9007199254740991", JsonWriter.CanonicalNumber("9007199254740991", out refusal), "2^53-1");
            Assert.Equal("-9007199254740991", JsonWriter.CanonicalNumber("-9007199254740991", out refusal), "-(2^53-1)");
            Assert.Null(JsonWriter.CanonicalNumber("9007199254740992", out refusal), "2^53");
            Assert.Equal(RefusalReason.UnsafeInteger, refusal, "2^53 refused");
            Assert.Equal("9007199254740992", JsonWriter.CanonicalNumber("9007199254740992.0", out refusal), "with a fraction it is a double");
            Assert.Equal("0", JsonWriter.CanonicalNumber("-0", out refusal), "-0");
            Assert.Equal("100", JsonWriter.CanonicalNumber("1E2", out refusal), "1E2");
        }

        [Test]
        static void CultureDoesNotLeakIn()
        {
            Assert.Equal("1,5", 1.5.ToString(), "the runner's culture writes a decimal comma");
            Assert.Equal("0.5", EcmaNumber.Format(0.5), "format under de-DE");
            Assert.Equal("1.5e-7", EcmaNumber.Format(1.5e-7), "exponent under de-DE");
            var r = ResultCanonicalizer.Canonicalize("{\"x\":2.50,\"n\":-12}", 42, "n", Fake.P1);
            Assert.Equal("{\"matchId\":42,\"n\":-12,\"sessionNonce\":\"n\",\"winner\":\"76561198000000001\",\"x\":2.5}", r.Canonical, "canonical under de-DE");
            Assert.Equal("2026-11-27T15:04:05Z", ArenaClient.Iso8601(Fake.Now), "endedAt under de-DE");
        }

        [Test]
        static void NestingLimit()
        {
            string ok = new string('[', JsonReader.MaxDepth) + new string(']', JsonReader.MaxDepth);
            string deep = "[" + ok + "]";
            JsonValue v;
            JsonReadError e;
            Assert.True(JsonReader.TryParse(ok, false, out v, out e), "10000 levels read");
            Assert.True(!JsonReader.TryParse(deep, false, out v, out e) && e.Code == RefusalReason.InvalidJson, "10001 levels refused");
            var r = ResultCanonicalizer.Canonicalize("{\"a\":" + ok + "}", 42, "n", Fake.P1);
            Assert.Equal(RefusalReason.InvalidJson, r.Refusal, "a result nested past the limit");
            var inner = ResultCanonicalizer.Canonicalize("{\"a\":" + new string('[', 9000) + new string(']', 9000) + "}", 42, "n", Fake.P1);
            Assert.True(inner.IsAccepted, "9000 levels canonicalize without recursion");
        }

        [Test]
        static void KeysSortByUtf16CodeUnits()
        {
            // U+E000 sorts after the surrogate pair of U+1F600 in code points, before it in UTF-16.
            var r = ResultCanonicalizer.Canonicalize("{\"\uE000\":1,\"\U0001F600\":2,\"a\":3}", 42, "n", Fake.P1);
            Assert.Equal("{\"a\":3,\"matchId\":42,\"sessionNonce\":\"n\",\"winner\":\"76561198000000001\",\"\U0001F600\":2,\"\uE000\":1}", r.Canonical, "order");
        }

        [Test]
        static void StringEscapes()
        {
            var v = JsonReader.Parse("\"\\u0000\\u001f\\b\\f\\n\\r\\t\\\"\\\\\\/\u2028\u00e9\\u00e9<>&\u007f\"");
            Assert.Equal("\"\\u0000\\u001f\\b\\f\\n\\r\\t\\\"\\\\/\u2028\u00e9\u00e9<>&\u007f\"", JsonWriter.Quote(v.Text), "RFC 8785 escapes");
        }

        [Test]
        static void BuiltValuesCanonicalizeLikeText()
        {
            var game = JsonValue.NewObject().Set("z", 0.1 + 0.2).Set("a", JsonValue.NewArray().Add(JsonValue.FromInt64(3)).Add(JsonValue.True))
                .Set("matchId", 999).Set("s", "\u00e9");
            var fromValue = ResultCanonicalizer.Canonicalize(game, 42, "n", Fake.P1);
            var fromText = ResultCanonicalizer.Canonicalize(game.ToString(), 42, "n", Fake.P1);
            Assert.Equal(fromText.Canonical, fromValue.Canonical, "same canonical");
            Assert.True(fromValue.Canonical.Contains("\"matchId\":42"), "the game's matchId is replaced");
            Assert.Equal(999L, game.GetInt64("matchId"), "the game's object is not modified");
            var unsafeBuilt = ResultCanonicalizer.Canonicalize(JsonValue.NewObject().Set("id", long.MaxValue), 42, "n", Fake.P1);
            Assert.Equal(RefusalReason.UnsafeInteger, unsafeBuilt.Refusal, "a built unsafe integer");
            var lone = ResultCanonicalizer.Canonicalize(JsonValue.NewObject().Set("s", "\ud800"), 42, "n", Fake.P1);
            Assert.Equal(RefusalReason.LoneSurrogate, lone.Refusal, "a built lone surrogate");
        }

        [Test]
        static void InvalidUtf8IsInvalidJson()
        {
            var r = ResultCanonicalizer.Canonicalize(new byte[] { (byte)'{', (byte)'"', 0xff, (byte)'"', (byte)':', (byte)'1', (byte)'}' }, 42, "n", Fake.P1);
            Assert.Equal(RefusalReason.InvalidJson, r.Refusal, "0xff");
            var surrogateBytes = ResultCanonicalizer.Canonicalize(new byte[] { (byte)'{', (byte)'"', 0xed, 0xa0, 0x80, (byte)'"', (byte)':', (byte)'1', (byte)'}' }, 42, "n", Fake.P1);
            Assert.Equal(RefusalReason.InvalidJson, surrogateBytes.Refusal, "an encoded surrogate is not UTF-8");
            var utf8 = ResultCanonicalizer.Canonicalize(Encoding.UTF8.GetBytes("{\"s\":\"\U0001F600\"}"), 42, "n", Fake.P1);
            Assert.True(utf8.IsAccepted, "4-byte UTF-8");
        }
    }
}
