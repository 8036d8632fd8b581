using System;
using System.IO;
using System.IO.Compression;
using System.Text;
using Arena.Client.Json;

namespace Arena.Client
{
    /// <summary>Recording scopes.</summary>
    public static class RecordingScope
    {
        /// <summary>The public-outcome events only.</summary>
        public const string Public = "public";
        /// <summary>Also the recorder's own delayed hand and pointer stream; released under the cast policy.</summary>
        public const string Full = "full";
    }

    /// <summary>
    /// Line 1 of a <c>game.replay.v1</c> file. A casual recording has MatchId 0 and no nonce; only
    /// a segment has <see cref="SegmentSeq"/> and <see cref="BaseTMs"/>.
    /// </summary>
    public sealed class ReplayHeader
    {
        /// <summary>The format tag of recordings and segments.</summary>
        public const string Format = "game.replay.v1";

        /// <summary>The match id; 0 for a casual recording.</summary>
        public long MatchId { get; set; }
        /// <summary>The match's session nonce; empty for a casual recording.</summary>
        public string SessionNonce { get; set; } = "";
        /// <summary><see cref="RecordingScope.Public"/> or <see cref="RecordingScope.Full"/>.</summary>
        public string Scope { get; set; } = RecordingScope.Public;
        /// <summary>The game's build label.</summary>
        public string GameBuild { get; set; } = "";
        /// <summary>The recording's length in milliseconds.</summary>
        public long DurationMs { get; set; }
        /// <summary>A segment's number; null for a whole recording.</summary>
        public long? SegmentSeq { get; set; }
        /// <summary>A segment's start time in the match, milliseconds; null for a whole recording.</summary>
        public long? BaseTMs { get; set; }

        /// <summary>The header of a recording of live match <paramref name="match"/>.</summary>
        public static ReplayHeader ForMatch(LiveMatch match, string scope, string gameBuild, long durationMs)
        {
            if (match == null) throw new ArgumentNullException(nameof(match));
            return new ReplayHeader { MatchId = match.MatchId, SessionNonce = match.SessionNonce, Scope = scope, GameBuild = gameBuild, DurationMs = durationMs };
        }

        /// <summary>A copy of this header as the header of segment <paramref name="seq"/> starting at <paramref name="baseTMs"/>.</summary>
        public ReplayHeader ForSegment(long seq, long baseTMs)
        {
            var h = (ReplayHeader)MemberwiseClone();
            h.SegmentSeq = seq;
            h.BaseTMs = baseTMs;
            return h;
        }

        internal JsonValue ToJson()
        {
            var o = JsonValue.NewObject().Set("format", Format).Set("scope", Scope ?? "").Set("gameBuild", GameBuild ?? "").Set("durationMs", DurationMs);
            if (MatchId != 0) o.Set("matchId", MatchId).Set("sessionNonce", SessionNonce ?? "");
            if (SegmentSeq.HasValue) o.Set("segmentSeq", SegmentSeq.Value);
            if (BaseTMs.HasValue) o.Set("baseTMs", BaseTMs.Value);
            return o;
        }

        const int MaxHeaderLine = 64 << 10;

        /// <summary>
        /// Reads the header line of a <c>game.replay.v1</c> gzip file; null when the file is not
        /// gzip or its first line is not a header object of that format.
        /// </summary>
        public static ReplayHeader Read(byte[] file)
        {
            if (file == null) throw new ArgumentNullException(nameof(file));
            var line = new MemoryStream();
            try
            {
                using (var gz = new GZipStream(new MemoryStream(file, false), CompressionMode.Decompress))
                {
                    int b;
                    while (line.Length < MaxHeaderLine && (b = gz.ReadByte()) >= 0 && b != '\n') line.WriteByte((byte)b);
                }
            }
            catch (Exception e) when (e is InvalidDataException || e is IOException)
            {
                return null;
            }
            JsonValue v;
            JsonReadError error;
            if (!JsonReader.TryParseUtf8(line.ToArray(), false, out v, out error) || v.Kind != JsonKind.Object || v.GetString("format") != Format)
                return null;
            var h = new ReplayHeader
            {
                MatchId = v.GetInt64("matchId"),
                SessionNonce = v.GetString("sessionNonce") ?? "",
                Scope = v.GetString("scope") ?? "",
                GameBuild = v.GetString("gameBuild") ?? "",
                DurationMs = v.GetInt64("durationMs"),
            };
            long n;
            if (v["segmentSeq"] != null && v["segmentSeq"].TryGetInt64(out n)) h.SegmentSeq = n;
            if (v["baseTMs"] != null && v["baseTMs"].TryGetInt64(out n)) h.BaseTMs = n;
            return h;
        }
    }

    /// <summary>
    /// Builds a <c>game.replay.v1</c> file: the game appends events as they happen, the writer
    /// compresses them at once (memory holds compressed bytes), and <see cref="Finish"/> puts the
    /// header line in front once the duration is known. The file is two gzip members, header
    /// then events, which every gzip reader reads as one stream (RFC 1952).
    /// </summary>
    public sealed class ReplayWriter : IDisposable
    {
        readonly MemoryStream events = new MemoryStream();
        GZipStream gzip;

        /// <summary>An empty writer.</summary>
        public ReplayWriter()
        {
            gzip = new GZipStream(events, CompressionMode.Compress, true);
        }

        /// <summary>Events appended so far.</summary>
        public int EventCount { get; private set; }

        /// <summary>
        /// Appends one event line <c>{ "tMs", "type", ...fields }</c> (canonical JSON). Public events
        /// use the trace vocabulary (match_started, round_started, ...), the recorder's hidden
        /// information other types (hand, pointer). Throws <see cref="ArgumentException"/> for an
        /// empty type, a negative tMs or fields that cannot be written, and
        /// <see cref="InvalidOperationException"/> after <see cref="Finish"/>.
        /// </summary>
        public void Append(long tMs, string type, JsonValue fields = null)
        {
            if (gzip == null) throw new InvalidOperationException("the replay is finished");
            if (string.IsNullOrEmpty(type) || tMs < 0) throw new ArgumentException("an event needs a type and tMs >= 0");
            if (fields != null && fields.Kind != JsonKind.Object) throw new ArgumentException("fields must be an object", nameof(fields));
            var ev = JsonValue.NewObject();
            if (fields != null)
                foreach (var m in fields.Members) ev.Set(m.Key, m.Value);
            ev.Set("tMs", tMs).Set("type", type);
            string refusal;
            string line = JsonWriter.Canonical(ev, out refusal);
            if (refusal != null) throw new ArgumentException("event fields refused: " + refusal, nameof(fields));
            byte[] bytes = Encoding.UTF8.GetBytes(line + "\n");
            gzip.Write(bytes, 0, bytes.Length);
            EventCount++;
        }

        /// <summary>The whole file for <paramref name="header"/>; the writer takes no more events.</summary>
        public byte[] Finish(ReplayHeader header)
        {
            if (header == null) throw new ArgumentNullException(nameof(header));
            if (gzip != null)
            {
                gzip.Dispose();
                gzip = null;
            }
            string refusal;
            string line = JsonWriter.Canonical(header.ToJson(), out refusal);
            if (refusal != null) throw new ArgumentException("header refused: " + refusal, nameof(header));
            var file = new MemoryStream();
            using (var head = new GZipStream(file, CompressionMode.Compress, true))
            {
                byte[] bytes = Encoding.UTF8.GetBytes(line + "\n");
                head.Write(bytes, 0, bytes.Length);
            }
            if (EventCount > 0)
            {
                byte[] body = events.ToArray();
                file.Write(body, 0, body.Length);
            }
            return file.ToArray();
        }

        /// <summary>Releases the compressor.</summary>
        public void Dispose()
        {
            if (gzip != null) gzip.Dispose();
            gzip = null;
        }
    }
}
