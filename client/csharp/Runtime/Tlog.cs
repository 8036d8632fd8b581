using System;
using System.Collections.Generic;
using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;

namespace Arena.Client
{
    /// <summary>A checkpoint whose signature verified (C2SP tlog-checkpoint).</summary>
    public sealed class Checkpoint
    {
        /// <summary>The log's identity, the first line (<c>&lt;arena host&gt;/log</c>).</summary>
        public string Origin { get; internal set; }
        /// <summary>How many entries the tree has.</summary>
        public long TreeSize { get; internal set; }
        /// <summary>The tree's RFC 6962 root hash (32 bytes).</summary>
        public byte[] RootHash { get; internal set; }
        /// <summary>The whole signed note, as read.</summary>
        public string Note { get; internal set; }
    }

    /// <summary>A receipt's parts (C2SP tlog-proof), before any check.</summary>
    public sealed class Receipt
    {
        /// <summary>The extra line's bytes (the entry, in the arena's receipts), or null.</summary>
        public byte[] Extra { get; internal set; }
        /// <summary>The entry's index in the log (from 0).</summary>
        public long Index { get; internal set; }
        /// <summary>The inclusion proof's hashes.</summary>
        public List<byte[]> Proof { get; internal set; }
        /// <summary>The signed checkpoint: the text after the blank line.</summary>
        public string Checkpoint { get; internal set; }
    }

    /// <summary>Why a checkpoint or receipt does not verify.</summary>
    public sealed class TlogException : Exception
    {
        /// <summary>Creates the refusal.</summary>
        public TlogException(string message) : base(message) { }
    }

    /// <summary>
    /// A log key: the arena's Ed25519 public key, and the origin its checkpoints must have when
    /// known (from a signed-note verifier key or the caller).
    /// </summary>
    public sealed class LogKey
    {
        /// <summary>The 32 raw bytes of the Ed25519 key.</summary>
        public byte[] Raw { get; internal set; }
        /// <summary>The origin expected, or null: any origin the key signed.</summary>
        public string Origin { get; set; }

        /// <summary>
        /// Reads a key: base64 of its 32 raw bytes, or a signed-note verifier key
        /// <c>&lt;name&gt;+&lt;key hash&gt;+&lt;base64(0x01 || key)&gt;</c> whose name is the origin
        /// and whose key hash must be the key's. False when it is neither.
        /// </summary>
        public static bool TryParse(string text, out LogKey key)
        {
            key = null;
            if (text == null) return false;
            byte[] raw = Tlog.Base64(text);
            if (raw != null && raw.Length == 32)
            {
                key = new LogKey { Raw = raw };
                return true;
            }
            string[] parts = text.Split('+');
            if (parts.Length != 3 || parts[0].Length == 0 || !Regex.IsMatch(parts[1], "^[0-9a-f]{8}$")) return false;
            byte[] b = Tlog.Base64(parts[2]);
            if (b == null || b.Length != 33 || b[0] != 1) return false;
            raw = new byte[32];
            Array.Copy(b, 1, raw, 0, 32);
            if (Tlog.Hex(Tlog.KeyHash(parts[0], raw)) != parts[1]) return false;
            key = new LogKey { Raw = raw, Origin = parts[0] };
            return true;
        }
    }

    /// <summary>
    /// The arena's event log as a transparency log (docs/events.md "Receipts"): RFC 6962 hashing
    /// served as C2SP tlog-tiles under /log/, C2SP tlog-checkpoint signed notes (Ed25519, the
    /// arena's log key, verified by <see cref="Ed25519"/>) and C2SP tlog-proof receipts.
    /// </summary>
    public static class Tlog
    {
        /// <summary>The first line of a receipt (C2SP tlog-proof).</summary>
        public const string ProofHeader = "c2sp.org/tlog-proof@v1";

        /// <summary>C2SP tlog-tiles' tile height: 256 hashes or entries a tile.</summary>
        public const int TileHeight = 8;

        /// <summary>Entries (or hashes) in a full tile.</summary>
        public const int TileWidth = 1 << TileHeight;

        static readonly Regex CountPattern = new Regex("^(0|[1-9][0-9]*)$");
        static readonly Regex Base64Pattern = new Regex("^[A-Za-z0-9+/]*={0,2}$");

        internal static byte[] Base64(string s)
        {
            if (s == null || s.Length % 4 != 0 || !Base64Pattern.IsMatch(s)) return null;
            try
            {
                return Convert.FromBase64String(s);
            }
            catch (FormatException)
            {
                return null;
            }
        }

        internal static string Hex(byte[] b)
        {
            var sb = new StringBuilder(b.Length * 2);
            foreach (byte x in b) sb.Append(x.ToString("x2", CultureInfo.InvariantCulture));
            return sb.ToString();
        }

        static long Count(string s)
        {
            long n;
            if (!CountPattern.IsMatch(s) || !long.TryParse(s, NumberStyles.None, CultureInfo.InvariantCulture, out n)) return -1;
            return n;
        }

        static byte[] Sha256(params byte[][] parts)
        {
            using (var sha = SHA256.Create())
            {
                foreach (var p in parts) sha.TransformBlock(p, 0, p.Length, null, 0);
                sha.TransformFinalBlock(new byte[0], 0, 0);
                return sha.Hash;
            }
        }

        static readonly byte[] LeafPrefix = { 0 };
        static readonly byte[] NodePrefix = { 1 };

        /// <summary>RFC 6962 leaf hash: SHA-256(0x00 || entry).</summary>
        public static byte[] LeafHash(byte[] entry) { return Sha256(LeafPrefix, entry); }

        /// <summary>RFC 6962 interior node hash: SHA-256(0x01 || left || right).</summary>
        public static byte[] NodeHash(byte[] left, byte[] right) { return Sha256(NodePrefix, left, right); }

        /// <summary>The root of the empty tree: SHA-256 of nothing.</summary>
        public static byte[] EmptyRoot() { return Sha256(); }

        /// <summary>The signed-note key hash of an Ed25519 key: SHA-256(name || "\n" || 0x01 || key)[:4].</summary>
        internal static byte[] KeyHash(string name, byte[] raw)
        {
            byte[] h = Sha256(Encoding.UTF8.GetBytes(name + "\n"), NodePrefix, raw);
            return new[] { h[0], h[1], h[2], h[3] };
        }

        internal static bool Equal(byte[] a, byte[] b)
        {
            if (a == null || b == null || a.Length != b.Length) return false;
            int d = 0;
            for (int i = 0; i < a.Length; i++) d |= a[i] ^ b[i];
            return d == 0;
        }

        /// <summary>
        /// The C2SP tlog-tiles path of a tile: <c>tile/&lt;L&gt;/&lt;N&gt;[.p/&lt;W&gt;]</c>, entry bundles
        /// (level -1) <c>tile/entries/&lt;N&gt;[.p/&lt;W&gt;]</c>; N in groups of three digits, <c>x</c>
        /// before all but the last; <c>.p/&lt;W&gt;</c> for a partial tile.
        /// </summary>
        public static string TilePath(int level, long n, int width)
        {
            string s = (n % 1000).ToString("000", CultureInfo.InvariantCulture);
            for (long m = n / 1000; m > 0; m /= 1000) s = "x" + (m % 1000).ToString("000", CultureInfo.InvariantCulture) + "/" + s;
            return "tile/" + (level < 0 ? "entries" : level.ToString(CultureInfo.InvariantCulture)) + "/" + s +
                (width == TileWidth ? "" : ".p/" + width.ToString(CultureInfo.InvariantCulture));
        }

        /// <summary>
        /// Whether <paramref name="proof"/> proves that <paramref name="leaf"/> is the entry at
        /// <paramref name="index"/> of the tree of <paramref name="treeSize"/> entries whose root is
        /// <paramref name="root"/> (RFC 9162 section 2.1.3.2).
        /// </summary>
        public static bool VerifyInclusion(long index, long treeSize, byte[] leaf, IList<byte[]> proof, byte[] root)
        {
            if (index < 0 || index >= treeSize) return false;
            long fn = index, sn = treeSize - 1;
            byte[] r = leaf;
            foreach (var p in proof)
            {
                if (sn == 0) return false;
                if ((fn & 1) == 1 || fn == sn)
                {
                    r = NodeHash(p, r);
                    while ((fn & 1) == 0 && fn != 0)
                    {
                        fn >>= 1;
                        sn >>= 1;
                    }
                }
                else
                {
                    r = NodeHash(r, p);
                }
                fn >>= 1;
                sn >>= 1;
            }
            return sn == 0 && Equal(r, root);
        }

        /// <summary>
        /// Verifies a C2SP checkpoint: a signed note (text, a blank line, lines
        /// <c>— &lt;name&gt; &lt;base64(key hash || signature)&gt;</c>) whose text is the origin, the
        /// tree size and the base64 root hash (then optional extension lines), with a signature by
        /// name = origin whose key hash and Ed25519 signature are the key's; other signatures
        /// (witness cosignatures) are ignored. Throws <see cref="TlogException"/> when it does not
        /// verify.
        /// </summary>
        public static Checkpoint OpenCheckpoint(string note, LogKey key)
        {
            if (note == null) throw new TlogException("no checkpoint");
            int split = note.LastIndexOf("\n\n", StringComparison.Ordinal);
            if (split < 0) throw new TlogException("the checkpoint is not a signed note (no blank line)");
            string text = note.Substring(0, split + 1);
            string sigs = note.Substring(split + 2);
            if (sigs.Length == 0 || !sigs.EndsWith("\n", StringComparison.Ordinal)) throw new TlogException("the checkpoint has no signature lines");
            string[] lines = text.Substring(0, text.Length - 1).Split('\n');
            if (lines.Length < 3 || Array.IndexOf(lines, "") >= 0) throw new TlogException("the checkpoint's text is not origin, size and root hash");
            string origin = lines[0];
            if (key.Origin != null && origin != key.Origin) throw new TlogException("the checkpoint is of log \"" + origin + "\", not \"" + key.Origin + "\"");
            long size = Count(lines[1]);
            if (size < 0) throw new TlogException("the checkpoint's size \"" + lines[1] + "\" is not a count");
            byte[] root = Base64(lines[2]);
            if (root == null || root.Length != 32) throw new TlogException("the checkpoint's root hash is not 32 bytes of base64");
            byte[] want = KeyHash(origin, key.Raw);
            byte[] message = Encoding.UTF8.GetBytes(text);
            foreach (string line in sigs.Substring(0, sigs.Length - 1).Split('\n'))
            {
                var m = Regex.Match(line, "^\u2014 (\\S+) (\\S+)$");
                if (!m.Success) throw new TlogException("the checkpoint has a malformed signature line");
                if (m.Groups[1].Value != origin) continue; // a witness's cosignature, or another key's
                byte[] sig = Base64(m.Groups[2].Value);
                if (sig == null || sig.Length < 4 || sig[0] != want[0] || sig[1] != want[1] || sig[2] != want[2] || sig[3] != want[3]) continue;
                var ed = new byte[sig.Length - 4];
                Array.Copy(sig, 4, ed, 0, ed.Length);
                if (ed.Length == 64 && Ed25519.Verify(key.Raw, message, ed))
                    return new Checkpoint { Origin = origin, TreeSize = size, RootHash = root, Note = note };
                throw new TlogException("the checkpoint's signature by " + origin + " does not verify");
            }
            throw new TlogException("the checkpoint has no signature of the log's key named " + origin);
        }

        /// <summary>Parses a C2SP tlog-proof. Throws <see cref="TlogException"/> when it is not one.</summary>
        public static Receipt ParseReceipt(string text)
        {
            if (text == null) throw new TlogException("receipt: none");
            int split = text.IndexOf("\n\n", StringComparison.Ordinal);
            if (split < 0) throw new TlogException("receipt: no blank line before the checkpoint");
            string[] lines = text.Substring(0, split).Split('\n');
            if (lines[0] != ProofHeader) throw new TlogException("receipt: the first line is not " + ProofHeader);
            int i = 1;
            byte[] extra = null;
            if (i < lines.Length && lines[i].StartsWith("extra ", StringComparison.Ordinal))
            {
                extra = Base64(lines[i].Substring(6));
                if (extra == null) throw new TlogException("receipt: the extra line is not base64");
                i++;
            }
            long index = i < lines.Length && lines[i].StartsWith("index ", StringComparison.Ordinal) ? Count(lines[i].Substring(6)) : -1;
            if (index < 0) throw new TlogException("receipt: no index line of a count");
            var proof = new List<byte[]>();
            for (i++; i < lines.Length; i++)
            {
                byte[] h = Base64(lines[i]);
                if (h == null || h.Length != 32) throw new TlogException("receipt: a proof line is not a base64 hash");
                proof.Add(h);
            }
            return new Receipt { Extra = extra, Index = index, Proof = proof, Checkpoint = text.Substring(split + 2) };
        }

        /// <summary>The entries of an entry bundle of <paramref name="width"/> entries (uint16 big-endian length-prefixed), or null.</summary>
        public static List<byte[]> BundleEntries(byte[] bundle, int width)
        {
            var list = new List<byte[]>(width);
            int at = 0;
            for (int k = 0; k < width; k++)
            {
                if (at + 2 > bundle.Length) return null;
                int n = (bundle[at] << 8) | bundle[at + 1];
                if (at + 2 + n > bundle.Length) return null;
                var e = new byte[n];
                Array.Copy(bundle, at + 2, e, 0, n);
                list.Add(e);
                at += 2 + n;
            }
            return at == bundle.Length ? list : null;
        }

        /// <summary>
        /// The root of the first <paramref name="n"/> leaves, from levels[k]: the hashes of the
        /// complete subtrees of 2^k leaves, left to right.
        /// </summary>
        internal static byte[] RootOf(List<List<byte[]>> levels, long n)
        {
            if (n == 0) return EmptyRoot();
            var parts = new List<byte[]>();
            long offset = 0;
            for (int k = levels.Count - 1; k >= 0; k--)
            {
                long size = 1L << k;
                if (n - offset >= size)
                {
                    parts.Add(levels[k][(int)(offset / size)]);
                    offset += size;
                }
            }
            byte[] h = parts[parts.Count - 1];
            for (int i = parts.Count - 2; i >= 0; i--) h = NodeHash(parts[i], h);
            return h;
        }
    }
}
