using System;
using System.Globalization;
using System.Numerics;
using System.Text;

namespace Arena.Client.Json
{
    /// <summary>
    /// Exact conversions between JSON number text and IEEE doubles, as RFC 8785 needs them:
    /// <see cref="TryParse"/> rounds a decimal to the nearest double (ties to even), and
    /// <see cref="Format"/> writes a double as ECMAScript's Number.prototype.toString does
    /// (the shortest digits that read back as the same double, the closest such when there
    /// are several; plain notation from 1e-7 up to below 1e21, exponent notation outside).
    /// Both use big-integer arithmetic instead of the runtime's double.Parse and
    /// double.ToString("R"), whose results differ between .NET, Mono and IL2CPP builds and
    /// are not always the shortest round-trip form.
    /// </summary>
    public static class EcmaNumber
    {
        static readonly double[] ExactPowers =
        {
            1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
            1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
        };

        static readonly BigInteger Two52 = BigInteger.One << 52;
        static readonly BigInteger Two53 = BigInteger.One << 53;

        // Digits beyond this many cannot change the rounding of a decimal to a double (a
        // halfway point between two doubles has at most 767 significant digits) except by being
        // non-zero, which one sticky digit keeps.
        const int MaxSignificantDigits = 800;

        /// <summary>
        /// Reads a JSON number token as the nearest double (round half to even). A value beyond
        /// the double range gives an infinity (still true); a value below the smallest subnormal
        /// gives zero. Returns false when <paramref name="token"/> is not a JSON number token.
        /// </summary>
        public static bool TryParse(string token, out double value)
        {
            value = 0;
            if (token == null || !JsonReader.IsNumberToken(token)) return false;
            int i = 0;
            bool negative = token[0] == '-';
            if (negative) i++;
            var digits = new StringBuilder(token.Length);
            long fractionDigits = 0;
            while (i < token.Length && IsDigit(token[i])) digits.Append(token[i++]);
            if (i < token.Length && token[i] == '.')
            {
                i++;
                while (i < token.Length && IsDigit(token[i]))
                {
                    digits.Append(token[i++]);
                    fractionDigits++;
                }
            }
            long exponent = 0;
            if (i < token.Length && (token[i] == 'e' || token[i] == 'E'))
            {
                i++;
                bool negativeExponent = false;
                if (token[i] == '+' || token[i] == '-') negativeExponent = token[i++] == '-';
                while (i < token.Length)
                {
                    exponent = Math.Min(exponent * 10 + (token[i++] - '0'), 100000000L);
                }
                if (negativeExponent) exponent = -exponent;
            }
            value = FromDecimal(digits.ToString(), exponent - fractionDigits);
            if (negative) value = -value;
            return true;
        }

        static bool IsDigit(char c) { return c >= '0' && c <= '9'; }

        // FromDecimal returns the double nearest to digits × 10^exponent (digits: ASCII 0-9).
        static double FromDecimal(string digits, long exponent)
        {
            int start = 0;
            while (start < digits.Length && digits[start] == '0') start++;
            int end = digits.Length;
            while (end > start && digits[end - 1] == '0') end--;
            if (start == end) return 0;
            exponent += digits.Length - end;
            string significant = digits.Substring(start, end - start);
            if (significant.Length > MaxSignificantDigits)
            {
                // The tail ends in a non-zero digit (trailing zeros are gone): keep it as a 1.
                exponent += significant.Length - (MaxSignificantDigits + 1);
                significant = significant.Substring(0, MaxSignificantDigits) + "1";
            }
            long magnitude = significant.Length + exponent; // value < 10^magnitude
            if (magnitude > 310) return double.PositiveInfinity;
            if (magnitude < -330) return 0;
            if (significant.Length <= 15 && exponent >= -22 && exponent <= 22)
            {
                // Both operands are exact doubles, so one IEEE operation rounds correctly.
                double m = long.Parse(significant, NumberStyles.None, CultureInfo.InvariantCulture);
                return exponent >= 0 ? m * ExactPowers[exponent] : m / ExactPowers[-exponent];
            }
            return ToDouble(BigInteger.Parse(significant, NumberStyles.None, CultureInfo.InvariantCulture), (int)exponent);
        }

        // ToDouble returns the double nearest to d × 10^exponent, d > 0.
        static double ToDouble(BigInteger d, int exponent)
        {
            BigInteger num = exponent >= 0 ? d * BigInteger.Pow(10, exponent) : d;
            BigInteger den = exponent >= 0 ? BigInteger.One : BigInteger.Pow(10, -exponent);
            // v = num/den lies in [2^(bl-1), 2^(bl+1)); find e with v / 2^e in [2^52, 2^53).
            int e = BitLength(num) - BitLength(den) - 53;
            if (Scaled(num, den, e) >= Two53) e++;
            if (e < -1074) e = -1074; // subnormal: the last bit is worth 2^-1074
            BigInteger dividend = e < 0 ? num << -e : num;
            BigInteger divisor = e < 0 ? den : den << e;
            BigInteger remainder;
            BigInteger q = BigInteger.DivRem(dividend, divisor, out remainder);
            int half = (remainder << 1).CompareTo(divisor);
            if (half > 0 || (half == 0 && !q.IsEven)) q += 1;
            if (q == Two53)
            {
                q = Two52;
                e++;
            }
            if (e > 971) return double.PositiveInfinity;
            long bits = q >= Two52 ? ((long)(e + 1075) << 52) | (long)(q - Two52) : (long)q;
            return BitConverter.Int64BitsToDouble(bits);
        }

        // Scaled returns floor(num / den / 2^e).
        static BigInteger Scaled(BigInteger num, BigInteger den, int e)
        {
            return e < 0 ? BigInteger.Divide(num << -e, den) : BigInteger.Divide(num, den << e);
        }

        static int BitLength(BigInteger x)
        {
            byte[] bytes = x.ToByteArray(); // little-endian two's complement, x > 0
            int top = bytes.Length - 1;
            while (top > 0 && bytes[top] == 0) top--;
            int bits = top * 8;
            for (int b = bytes[top]; b != 0; b >>= 1) bits++;
            return bits;
        }

        /// <summary>
        /// ECMAScript Number::toString of <paramref name="value"/>: <c>1</c> for 1.0, <c>0</c> for
        /// -0, <c>1e+21</c>, <c>5e-324</c>, <c>0.30000000000000004</c>. Throws
        /// <see cref="ArgumentException"/> for NaN and infinities.
        /// </summary>
        public static string Format(double value)
        {
            if (double.IsNaN(value) || double.IsInfinity(value))
                throw new ArgumentException("NaN and infinities have no JSON form", nameof(value));
            if (value == 0) return "0";
            if (value < 0) return "-" + Format(-value);
            if (value < 9007199254740992d && Math.Floor(value) == value)
                return ((long)value).ToString(CultureInfo.InvariantCulture);

            long bits = BitConverter.DoubleToInt64Bits(value);
            int biased = (int)(bits >> 52) & 0x7ff;
            long fraction = bits & 0xfffffffffffffL;
            long mantissa = biased == 0 ? fraction : fraction | (1L << 52);
            int e = biased == 0 ? -1074 : biased - 1075;
            BigInteger num = e >= 0 ? new BigInteger(mantissa) << e : new BigInteger(mantissa);
            BigInteger den = e >= 0 ? BigInteger.One : BigInteger.One << -e;

            // n: 10^(n-1) <= value < 10^n.
            int n = (int)Math.Floor(Math.Log10(value)) + 1;
            while (CompareWithPowerOf10(num, den, n - 1) < 0) n--;
            while (CompareWithPowerOf10(num, den, n) >= 0) n++;

            // For a normal double at most one decimal of 15 or fewer significant digits lies in
            // its rounding interval (the interval is under 2^-52 of the value wide, the 15-digit
            // grid at least 10^-15 of it apart), so when the correctly rounded 15 digits read
            // back, they (trailing zeros dropped) are the shortest form; otherwise only 16 and 17
            // remain. Subnormals, whose interval is relatively wider, try every length.
            int shortest = biased == 0 ? 1 : 15;
            for (int p = shortest; p <= 17; p++)
            {
                int shift = p - n;
                BigInteger dividend = shift >= 0 ? num * BigInteger.Pow(10, shift) : num;
                BigInteger divisor = shift >= 0 ? den : den * BigInteger.Pow(10, -shift);
                BigInteger remainder;
                BigInteger s = BigInteger.DivRem(dividend, divisor, out remainder);
                int half = (remainder << 1).CompareTo(divisor);
                // Only the two p-digit neighbours of the value can read back as it. The closer one
                // first (on an exact tie the even one); the farther one still counts, because at a
                // power of two the interval below the value is half as wide as the one above.
                BigInteger closer = half > 0 || (half == 0 && !s.IsEven) ? s + 1 : s;
                string found = TryCandidate(closer, p, n, value) ?? TryCandidate(closer == s ? s + 1 : s, p, n, value);
                if (found != null) return found;
            }
            throw new InvalidOperationException("no 17-digit form reads back as " + bits.ToString("x16", CultureInfo.InvariantCulture));
        }

        // TryCandidate returns the layout of digits s (p of them, the first worth 10^(n-1)) when
        // they read back as value, else null.
        static string TryCandidate(BigInteger s, int p, int n, double value)
        {
            if (s.IsZero) return null;
            string digits = s.ToString(CultureInfo.InvariantCulture);
            if (digits.Length > p)
            {
                digits = digits.Substring(0, p); // s was 10^p: one more digit position
                n++;
            }
            digits = digits.TrimEnd('0');
            double back = FromDecimal(digits, n - digits.Length);
            if (BitConverter.DoubleToInt64Bits(back) != BitConverter.DoubleToInt64Bits(value)) return null;
            return Layout(digits, n);
        }

        // CompareWithPowerOf10 compares num/den with 10^k.
        static int CompareWithPowerOf10(BigInteger num, BigInteger den, int k)
        {
            return k >= 0
                ? num.CompareTo(den * BigInteger.Pow(10, k))
                : (num * BigInteger.Pow(10, -k)).CompareTo(den);
        }

        // Layout writes digits (no trailing zeros, the first worth 10^(n-1)) per ECMAScript
        // Number::toString, steps 6 to 10.
        static string Layout(string digits, int n)
        {
            int k = digits.Length;
            if (k <= n && n <= 21) return digits + new string('0', n - k);
            if (0 < n && n <= 21) return digits.Substring(0, n) + "." + digits.Substring(n);
            if (-6 < n && n <= 0) return "0." + new string('0', -n) + digits;
            int e = n - 1;
            string exponent = (e < 0 ? "-" : "+") + Math.Abs(e).ToString(CultureInfo.InvariantCulture);
            if (k == 1) return digits + "e" + exponent;
            return digits.Substring(0, 1) + "." + digits.Substring(1) + "e" + exponent;
        }
    }
}
