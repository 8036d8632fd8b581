using System;
using System.Collections.Generic;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Arena.Client.Json;

namespace Arena.Client
{
    /// <summary>What <see cref="ArenaClient.VerifyReceiptAsync"/> and <see cref="ArenaClient.VerifyTilesAsync"/> read and how.</summary>
    public sealed class TlogOptions
    {
        /// <summary>
        /// The arena's log key: base64 of its 32 raw bytes, or a signed-note verifier key
        /// (<c>&lt;origin&gt;+&lt;key hash&gt;+&lt;base64(0x01 || key)&gt;</c>); null: log.publicKey of
        /// GET /api/v1.
        /// </summary>
        public string PublicKey { get; set; }

        /// <summary>
        /// The origin the checkpoint must have (<c>&lt;arena host&gt;/log</c>); null: the verifier
        /// key's name, else any origin the key signed (the key hash binds key and origin).
        /// </summary>
        public string Origin { get; set; }

        /// <summary>For VerifyTilesAsync: a checkpoint saved earlier (its signed note) the tree must extend.</summary>
        public string Head { get; set; }

        /// <summary>A public-API key, sent as <c>Authorization: Bearer &lt;key&gt;</c>.</summary>
        public string ApiKey { get; set; }

        /// <summary>How many times a read answered 429 is repeated after its Retry-After (default 5).</summary>
        public int Retries { get; set; } = ArenaClient.DefaultReadRetries;
    }

    /// <summary>The outcome of <see cref="ArenaClient.VerifyReceiptAsync"/> and <see cref="ArenaClient.VerifyTilesAsync"/>.</summary>
    public sealed class TlogResult
    {
        /// <summary>The entry's index (receipts).</summary>
        public long Index { get; internal set; }
        /// <summary>The checkpoint's tree size.</summary>
        public long TreeSize { get; internal set; }
        /// <summary>Base64 of the checkpoint's root hash.</summary>
        public string RootHash { get; internal set; }
        /// <summary>The checkpoint's origin.</summary>
        public string Origin { get; internal set; }
        /// <summary>The entry proved (receipts): the event's RFC 8785 bytes.</summary>
        public byte[] Entry { get; internal set; }
        /// <summary>The checkpoint verified (worth saving as the next VerifyTilesAsync's head).</summary>
        public string Checkpoint { get; internal set; }
        /// <summary>
        /// Null on success; <c>receipt_invalid</c> (a receipt) or <c>log_invalid</c> (the tiles,
        /// checkpoint or saved head) when it does not verify; <c>invalid_settings</c> for a key
        /// that is not one; otherwise it could not be fetched: the arena's code,
        /// <c>http_&lt;status&gt;</c>, <c>network_error</c> or <c>bad_response</c>.
        /// </summary>
        public string Error { get; internal set; }
        /// <summary>More about a failure, for logs.</summary>
        public string Detail { get; internal set; }
        /// <summary>Whether it verified.</summary>
        public bool IsSuccess { get { return Error == null; } }
        /// <summary>Whether it does not verify (rather than could not be fetched or was misused).</summary>
        public bool IsInvalid { get { return Error == ReceiptInvalid || Error == VerifyLogResult.LogInvalid; } }

        /// <summary>The error code of a receipt that does not verify.</summary>
        public const string ReceiptInvalid = "receipt_invalid";
        /// <summary>The error code of a key that is not an Ed25519 key or verifier key.</summary>
        public const string InvalidSettings = "invalid_settings";

        public override string ToString() { return IsSuccess ? "verified: tree size " + TreeSize : Error + ": " + Detail; }
    }

    public sealed partial class ArenaClient
    {
        sealed class TlogFailure : Exception
        {
            public TlogFailure(string code, string detail) : base(detail) { Code = code; }
            public string Code { get; }
        }

        // ReadBytesAsync: the body of a 200 (null for a 404 when missingOk), a 429 repeated after its
        // Retry-After; any other answer is a fetch failure with the arena's code.
        async Task<byte[]> ReadBytesAsync(string path, TlogOptions options, CancellationToken ct, bool missingOk = false)
        {
            var headers = new Dictionary<string, string>();
            if (!string.IsNullOrEmpty(options.ApiKey)) headers["Authorization"] = "Bearer " + options.ApiKey;
            for (int attempt = 0; ; attempt++)
            {
                var response = await http.SendAsync("GET", settings.BaseUrl + path, headers, null, ct);
                if (response == null || response.Status == 0)
                    throw new TlogFailure(ArenaError.NetworkError, "GET " + path + ": " + (response != null ? response.FailureReason : "no response"));
                if (response.Status == 429 && attempt < options.Retries)
                {
                    TimeSpan wait = RetryAfter(response.RetryAfter);
                    Trace("GET " + path + ": 429, retrying in " + wait.TotalSeconds + " s");
                    await Delay(wait, ct);
                    continue;
                }
                if (response.Status == 200) return response.Body;
                if (response.Status == 404 && missingOk) return null;
                var r = Interpret(new Reply { Status = response.Status, Body = response.Body }, "GET", path, v => v);
                throw new TlogFailure(r.Error, r.Detail);
            }
        }

        // LogKeyAsync: the caller's key, or log.publicKey (and log.origin when given) of GET /api/v1.
        async Task<LogKey> LogKeyAsync(TlogOptions options, CancellationToken ct)
        {
            LogKey key;
            if (options.PublicKey != null)
            {
                if (!LogKey.TryParse(options.PublicKey, out key)) throw new TlogFailure(TlogResult.InvalidSettings, "the log key is not a base64 Ed25519 public key nor a verifier key");
                if (options.Origin != null)
                {
                    if (key.Origin != null && key.Origin != options.Origin) throw new TlogFailure(TlogResult.InvalidSettings, "the verifier key is named \"" + key.Origin + "\", not the origin \"" + options.Origin + "\"");
                    key.Origin = options.Origin;
                }
                return key;
            }
            JsonValue meta = null;
            JsonReadError readError;
            byte[] body = await ReadBytesAsync("/api/v1", options, ct);
            JsonReader.TryParseUtf8(body, false, out meta, out readError);
            var log = meta != null && meta.Kind == JsonKind.Object ? meta["log"] : null;
            string publicKey = log != null && log.Kind == JsonKind.Object ? log.GetString("publicKey") : null;
            byte[] raw = Tlog.Base64(publicKey);
            if (raw == null || raw.Length != 32) throw new TlogFailure(ArenaError.BadResponse, "GET /api/v1: the arena's log.publicKey is not a base64 Ed25519 key");
            key = new LogKey { Raw = raw, Origin = options.Origin ?? log.GetString("origin") };
            return key;
        }

        static TlogResult Fail(TlogFailure f) { return new TlogResult { Error = f.Code, Detail = f.Message }; }

        /// <summary>
        /// Verifies a receipt (C2SP tlog-proof, a .tlog-proof file of the arena): its checkpoint is
        /// signed by the arena's log key (<see cref="TlogOptions.PublicKey"/>, or log.publicKey of
        /// GET /api/v1), and its inclusion proof proves the entry at its index in the checkpoint's
        /// tree. The entry is the extra line's bytes; a receipt without one reads it from the entry
        /// bundle (GET /log/tile/entries/...). Offline when the key is given and the receipt holds
        /// its entry. Works on a disabled client. See <see cref="TlogResult.Error"/> for the failures.
        /// </summary>
        public async Task<TlogResult> VerifyReceiptAsync(string receipt, TlogOptions options, CancellationToken cancellationToken = default(CancellationToken))
        {
            if (options == null) throw new ArgumentNullException(nameof(options));
            try
            {
                Receipt r;
                try
                {
                    r = Tlog.ParseReceipt(receipt);
                }
                catch (TlogException e)
                {
                    throw new TlogFailure(TlogResult.ReceiptInvalid, e.Message);
                }
                LogKey key = await LogKeyAsync(options, cancellationToken);
                Checkpoint cp;
                try
                {
                    cp = Tlog.OpenCheckpoint(r.Checkpoint, key);
                }
                catch (TlogException e)
                {
                    throw new TlogFailure(TlogResult.ReceiptInvalid, "receipt: " + e.Message);
                }
                if (r.Index >= cp.TreeSize) throw new TlogFailure(TlogResult.ReceiptInvalid, "receipt: index " + r.Index + " is not in a tree of " + cp.TreeSize);
                byte[] entry = r.Extra;
                if (entry == null)
                {
                    long n = r.Index / Tlog.TileWidth;
                    int width = (int)Math.Min(Tlog.TileWidth, cp.TreeSize - n * Tlog.TileWidth);
                    byte[] bundle = await ReadBytesAsync("/log/" + Tlog.TilePath(-1, n, width), options, cancellationToken, width < Tlog.TileWidth);
                    if (bundle == null)
                    {
                        // The partial bundle is gone once the log filled it: the full one holds the same entries first.
                        width = Tlog.TileWidth;
                        bundle = await ReadBytesAsync("/log/" + Tlog.TilePath(-1, n, width), options, cancellationToken);
                    }
                    var entries = Tlog.BundleEntries(bundle, width);
                    if (entries == null) throw new TlogFailure(TlogResult.ReceiptInvalid, "receipt: the entry bundle " + Tlog.TilePath(-1, n, width) + " is not " + width + " entries");
                    entry = entries[(int)(r.Index % Tlog.TileWidth)];
                }
                if (!Tlog.VerifyInclusion(r.Index, cp.TreeSize, Tlog.LeafHash(entry), r.Proof, cp.RootHash))
                    throw new TlogFailure(TlogResult.ReceiptInvalid, "receipt: the proof does not prove the entry at index " + r.Index + " in the checkpoint's tree of " + cp.TreeSize);
                return new TlogResult { Index = r.Index, TreeSize = cp.TreeSize, RootHash = Convert.ToBase64String(cp.RootHash), Origin = cp.Origin, Entry = entry, Checkpoint = r.Checkpoint };
            }
            catch (TlogFailure f)
            {
                return Fail(f);
            }
        }

        /// <summary>
        /// Verifies the arena's log as a transparency log (docs/events.md "Receipts"), as the Go
        /// and TypeScript clients do: reads the log key (GET /api/v1 unless given) and the
        /// checkpoint (GET /log/checkpoint) and checks its signature; reads every entry bundle of
        /// its tree, rebuilds the RFC 6962 tree, checks every hash tile against it and its root
        /// against the checkpoint's (a partial tile that is gone, 404, is read from the full tile,
        /// its first entries or hashes). Given a saved head (<see cref="TlogOptions.Head"/>), checks its
        /// signature and origin too and that the tree extends it (the root of its first entries is
        /// the saved root). Works on a disabled client.
        /// </summary>
        public async Task<TlogResult> VerifyTilesAsync(TlogOptions options, CancellationToken cancellationToken = default(CancellationToken))
        {
            if (options == null) throw new ArgumentNullException(nameof(options));
            var ct = cancellationToken;
            try
            {
                LogKey key = await LogKeyAsync(options, ct);
                Func<string, string, Checkpoint> open = (signed, what) =>
                {
                    try
                    {
                        return Tlog.OpenCheckpoint(signed, key);
                    }
                    catch (TlogException e)
                    {
                        throw new TlogFailure(VerifyLogResult.LogInvalid, "transparency log: " + what + ": " + e.Message);
                    }
                };
                byte[] body = await ReadBytesAsync("/log/checkpoint", options, ct);
                string note;
                try
                {
                    note = new UTF8Encoding(false, true).GetString(body);
                }
                catch (ArgumentException)
                {
                    throw new TlogFailure(VerifyLogResult.LogInvalid, "transparency log: the arena's checkpoint is not UTF-8");
                }
                Checkpoint cp = open(note, "the arena's checkpoint");
                Checkpoint head = options.Head != null ? open(options.Head, "the saved head") : null;
                if (head != null)
                {
                    if (head.Origin != cp.Origin) throw new TlogFailure(VerifyLogResult.LogInvalid, "transparency log: the saved head is of log \"" + head.Origin + "\", the arena's is \"" + cp.Origin + "\"");
                    if (head.TreeSize > cp.TreeSize) throw new TlogFailure(VerifyLogResult.LogInvalid, "transparency log: the saved head (size " + head.TreeSize + ") is past the arena's checkpoint (size " + cp.TreeSize + ")");
                }
                long n = cp.TreeSize;
                if (n > int.MaxValue) throw new TlogFailure(VerifyLogResult.LogInvalid, "transparency log: a tree of " + n + " is more than this client holds");
                var levels = new List<List<byte[]>> { new List<byte[]>() };
                for (long t = 0; t * Tlog.TileWidth < n; t++)
                {
                    int width = (int)Math.Min(Tlog.TileWidth, n - t * Tlog.TileWidth);
                    string path = Tlog.TilePath(-1, t, width);
                    byte[] bundle = await ReadBytesAsync("/log/" + path, options, ct, width < Tlog.TileWidth);
                    var entries = bundle != null ? Tlog.BundleEntries(bundle, width) : null;
                    if (bundle == null)
                    {
                        // The partial tile is gone (a log may drop partial tiles once full): the
                        // full one's first entries.
                        path = Tlog.TilePath(-1, t, Tlog.TileWidth);
                        entries = Tlog.BundleEntries(await ReadBytesAsync("/log/" + path, options, ct), Tlog.TileWidth);
                        if (entries != null) entries = entries.GetRange(0, width);
                    }
                    if (entries == null) throw new TlogFailure(VerifyLogResult.LogInvalid, "transparency log: " + path + " is not " + width + " length-prefixed entries");
                    foreach (var e in entries) levels[0].Add(Tlog.LeafHash(e));
                }
                for (int k = 1; levels[k - 1].Count > 1; k++)
                {
                    var below = levels[k - 1];
                    var level = new List<byte[]>(below.Count / 2);
                    for (int i = 0; i + 1 < below.Count; i += 2) level.Add(Tlog.NodeHash(below[i], below[i + 1]));
                    levels.Add(level);
                }
                for (int l = 0; Tlog.TileHeight * l < levels.Count; l++)
                {
                    var hashes = levels[Tlog.TileHeight * l];
                    for (int t = 0; t * Tlog.TileWidth < hashes.Count; t++)
                    {
                        int width = Math.Min(Tlog.TileWidth, hashes.Count - t * Tlog.TileWidth);
                        string path = Tlog.TilePath(l, t, width);
                        byte[] tile = await ReadBytesAsync("/log/" + path, options, ct, width < Tlog.TileWidth);
                        bool ok = tile != null && tile.Length == 32 * width;
                        if (tile == null)
                        {
                            // The partial tile is gone: the full one's first hashes.
                            path = Tlog.TilePath(l, t, Tlog.TileWidth);
                            tile = await ReadBytesAsync("/log/" + path, options, ct);
                            ok = tile.Length == 32 * Tlog.TileWidth;
                        }
                        for (int i = 0; ok && i < width; i++)
                        {
                            var h = new byte[32];
                            Array.Copy(tile, 32 * i, h, 0, 32);
                            ok = Tlog.Equal(h, hashes[t * Tlog.TileWidth + i]);
                        }
                        if (!ok) throw new TlogFailure(VerifyLogResult.LogInvalid, "transparency log: " + path + " is not the tree of the entry bundles");
                    }
                }
                if (!Tlog.Equal(Tlog.RootOf(levels, n), cp.RootHash))
                    throw new TlogFailure(VerifyLogResult.LogInvalid, "transparency log: the entries' tree of " + n + " is not the checkpoint's root");
                if (head != null && !Tlog.Equal(Tlog.RootOf(levels, head.TreeSize), head.RootHash))
                    throw new TlogFailure(VerifyLogResult.LogInvalid, "transparency log: the tree does not extend the saved head (size " + head.TreeSize + "): its first " + head.TreeSize + " entries have another root");
                return new TlogResult { TreeSize = n, RootHash = Convert.ToBase64String(cp.RootHash), Origin = cp.Origin, Checkpoint = note };
            }
            catch (TlogFailure f)
            {
                return Fail(f);
            }
        }
    }
}
