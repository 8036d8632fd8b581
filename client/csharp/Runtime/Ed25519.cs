using System;
using System.Numerics;
using System.Security.Cryptography;

namespace Arena.Client
{
    /// <summary>
    /// Ed25519 signature verification (RFC 8032, section 5.1.7), for the event log's signed
    /// heads: the base class library has none. Verification only, on public data, so it need
    /// not run in constant time. As Go's crypto/ed25519: a public key whose y is not below p or
    /// that is not on the curve, an S not below L, or an R that is not the encoding of
    /// [S]B - [k]A (cofactorless check) fails.
    /// </summary>
    public static class Ed25519
    {
        static readonly BigInteger P = BigInteger.Pow(2, 255) - 19;
        static readonly BigInteger L = BigInteger.Pow(2, 252) + BigInteger.Parse("27742317777372353535851937790883648493");
        static readonly BigInteger D = Mod(-121665 * Inv(121666));
        static readonly BigInteger D2 = Mod(2 * D);
        static readonly BigInteger SqrtM1 = BigInteger.ModPow(2, (P - 1) / 4, P);
        static readonly Point B = Base();

        struct Point
        {
            public BigInteger X, Y, Z, T;
        }

        static BigInteger Mod(BigInteger a)
        {
            a %= P;
            return a.Sign < 0 ? a + P : a;
        }

        static BigInteger Inv(BigInteger a) { return BigInteger.ModPow(Mod(a), P - 2, P); }

        static Point Base()
        {
            var enc = new byte[32];
            enc[0] = 0x58;
            for (int i = 1; i < 32; i++) enc[i] = 0x66;
            Point b;
            if (!Decode(enc, out b)) throw new InvalidOperationException("Ed25519 base point");
            return b;
        }

        static BigInteger FromLittleEndian(byte[] b, int offset, int count)
        {
            var le = new byte[count + 1]; // a trailing 0: never negative
            Array.Copy(b, offset, le, 0, count);
            return new BigInteger(le);
        }

        static bool Decode(byte[] enc, out Point p)
        {
            p = default(Point);
            var copy = (byte[])enc.Clone();
            int sign = copy[31] >> 7;
            copy[31] &= 0x7f;
            BigInteger y = FromLittleEndian(copy, 0, 32);
            if (y >= P) return false;
            BigInteger y2 = Mod(y * y);
            BigInteger x2 = Mod((y2 - 1) * Inv(D * y2 + 1));
            BigInteger x = BigInteger.ModPow(x2, (P + 3) / 8, P);
            if (Mod(x * x - x2) != 0) x = Mod(x * SqrtM1);
            if (Mod(x * x - x2) != 0) return false;
            if (x.IsZero && sign == 1) return false;
            if ((int)(x & 1) != sign) x = P - x;
            p = new Point { X = x, Y = y, Z = 1, T = Mod(x * y) };
            return true;
        }

        static byte[] Encode(Point p)
        {
            BigInteger zi = Inv(p.Z);
            BigInteger x = Mod(p.X * zi), y = Mod(p.Y * zi);
            byte[] le = y.ToByteArray();
            var enc = new byte[32];
            Array.Copy(le, enc, Math.Min(le.Length, 32));
            if (!x.IsEven) enc[31] |= 0x80;
            return enc;
        }

        static Point Add(Point p, Point q)
        {
            BigInteger a = Mod((p.Y - p.X) * (q.Y - q.X));
            BigInteger b = Mod((p.Y + p.X) * (q.Y + q.X));
            BigInteger c = Mod(p.T * D2 * q.T);
            BigInteger d = Mod(2 * p.Z * q.Z);
            BigInteger e = b - a, f = d - c, g = d + c, h = b + a;
            return new Point { X = Mod(e * f), Y = Mod(g * h), Z = Mod(f * g), T = Mod(e * h) };
        }

        static Point Multiply(BigInteger k, Point p)
        {
            var r = new Point { X = 0, Y = 1, Z = 1, T = 0 };
            while (!k.IsZero)
            {
                if (!k.IsEven) r = Add(r, p);
                p = Add(p, p);
                k >>= 1;
            }
            return r;
        }

        /// <summary>Whether <paramref name="signature"/> (64 bytes) signs <paramref name="message"/> under <paramref name="publicKey"/> (32 bytes).</summary>
        public static bool Verify(byte[] publicKey, byte[] message, byte[] signature)
        {
            if (publicKey == null || publicKey.Length != 32 || signature == null || signature.Length != 64 || message == null) return false;
            Point a;
            if (!Decode(publicKey, out a)) return false;
            BigInteger s = FromLittleEndian(signature, 32, 32);
            if (s >= L) return false;
            byte[] digest;
            using (var sha = SHA512.Create())
            {
                var input = new byte[64 + message.Length];
                Array.Copy(signature, 0, input, 0, 32);
                Array.Copy(publicKey, 0, input, 32, 32);
                Array.Copy(message, 0, input, 64, message.Length);
                digest = sha.ComputeHash(input);
            }
            BigInteger k = FromLittleEndian(digest, 0, 64) % L;
            var minusA = new Point { X = Mod(-a.X), Y = a.Y, Z = a.Z, T = Mod(-a.T) };
            byte[] r = Encode(Add(Multiply(s, B), Multiply(k, minusA)));
            int diff = 0;
            for (int i = 0; i < 32; i++) diff |= r[i] ^ signature[i];
            return diff == 0;
        }
    }
}
