using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using Arena.Client.Json;

namespace Arena.Client
{
    /// <summary>The arena's answer to a recording or segment init: where to PUT the file.</summary>
    public sealed class UploadTarget
    {
        /// <summary>The recording's id.</summary>
        public long RecordingId { get; private set; }
        /// <summary>A segment's number (segment init only).</summary>
        public long Seq { get; private set; }
        /// <summary>The presigned upload URL (or, in dev mode, the arena's own signed route).</summary>
        public string UploadUrl { get; private set; }
        /// <summary>True only in dev/mock mode, where the URL is a service route.</summary>
        public bool UploadIsLocal { get; private set; }
        /// <summary>The most bytes the arena keeps for this recording (2 to 16 MB).</summary>
        public long MaxBytes { get; private set; }

        internal static UploadTarget FromJson(JsonValue v)
        {
            if (v == null || v.Kind != JsonKind.Object) throw new FormatException("an init answer is a JSON object");
            var upload = v["upload"];
            string url = upload != null ? upload.GetString("url") : null;
            if (string.IsNullOrEmpty(url)) throw new FormatException("the init answer has no upload.url");
            return new UploadTarget
            {
                RecordingId = v.GetInt64("recordingId"),
                Seq = v.GetInt64("seq"),
                UploadUrl = url,
                UploadIsLocal = upload.GetBool("local"),
                MaxBytes = v.GetInt64("maxBytes"),
            };
        }
    }

    /// <summary>A recording as the arena lists it.</summary>
    public sealed class Recording
    {
        /// <summary>The recording's id.</summary>
        public long Id { get; private set; }
        /// <summary>The match, or null for a casual recording.</summary>
        public long? MatchId { get; private set; }
        /// <summary>The game of the match's series it records (from 1), or null for a casual recording.</summary>
        public int? Game { get; private set; }
        /// <summary>public or full.</summary>
        public string Scope { get; private set; }
        /// <summary>private, arena or link.</summary>
        public string Visibility { get; private set; }
        /// <summary>The game's build label.</summary>
        public string GameBuild { get; private set; }
        /// <summary>Length in milliseconds.</summary>
        public long DurationMs { get; private set; }
        /// <summary>Stored size in bytes.</summary>
        public long ByteSize { get; private set; }
        /// <summary>pending or ready.</summary>
        public string State { get; private set; }
        /// <summary>Who uploaded it.</summary>
        public string UploaderPlatformId { get; private set; }
        /// <summary>When it was created (ISO-8601).</summary>
        public string CreatedAt { get; private set; }
        /// <summary>The object as the arena sent it.</summary>
        public JsonValue Raw { get; private set; }

        /// <summary>Reads a recording object; throws <see cref="FormatException"/> when it is not an object.</summary>
        public static Recording FromJson(JsonValue v)
        {
            if (v == null || v.Kind != JsonKind.Object) throw new FormatException("a recording is a JSON object");
            long match, game;
            var m = v["matchId"];
            var g = v["game"];
            return new Recording
            {
                Id = v.GetInt64("id"),
                MatchId = m != null && m.TryGetInt64(out match) ? match : (long?)null,
                Game = g != null && g.TryGetInt64(out game) ? (int)game : (int?)null,
                Scope = v.GetString("scope") ?? "",
                Visibility = v.GetString("visibility") ?? "",
                GameBuild = v.GetString("gameBuild") ?? "",
                DurationMs = v.GetInt64("durationMs"),
                ByteSize = v.GetInt64("byteSize"),
                State = v.GetString("state") ?? "",
                UploaderPlatformId = v.GetString("uploaderPlatformId") ?? "",
                CreatedAt = v.GetString("createdAt") ?? "",
                Raw = v,
            };
        }
    }

    /// <summary>A recording's share link.</summary>
    public sealed class RecordingShare
    {
        /// <summary>The link token (pass it to fetch calls).</summary>
        public string Token { get; private set; }
        /// <summary>The tokenized fetch path.</summary>
        public string Path { get; private set; }

        internal static RecordingShare FromJson(JsonValue v)
        {
            if (v == null || v.Kind != JsonKind.Object) throw new FormatException("a share answer is a JSON object");
            return new RecordingShare { Token = v.GetString("token") ?? "", Path = v.GetString("path") ?? "" };
        }
    }

    /// <summary>One released segment.</summary>
    public sealed class SegmentLink
    {
        /// <summary>The segment's number.</summary>
        public long Seq { get; internal set; }
        /// <summary>Its download URL.</summary>
        public string Url { get; internal set; }
    }

    /// <summary>The near-live segment list of a recording.</summary>
    public sealed class SegmentFeed
    {
        /// <summary>live or ended.</summary>
        public string State { get; private set; }
        /// <summary>Whether the recording is still appended to.</summary>
        public bool IsLive { get { return State == "live"; } }
        /// <summary>Released segments after the asked seq.</summary>
        public IReadOnlyList<SegmentLink> Segments { get; private set; }

        internal static SegmentFeed FromJson(JsonValue v)
        {
            if (v == null || v.Kind != JsonKind.Object) throw new FormatException("a segment list is a JSON object");
            var list = new List<SegmentLink>();
            var segments = v["segments"];
            if (segments != null)
                foreach (var s in segments.Items)
                    if (s.Kind == JsonKind.Object) list.Add(new SegmentLink { Seq = s.GetInt64("seq"), Url = s.GetString("url") ?? "" });
            return new SegmentFeed { State = v.GetString("state") ?? "", Segments = list };
        }
    }

    /// <summary>What resubmitting one spooled file gave.</summary>
    public sealed class SpoolResult
    {
        /// <summary>The file's path.</summary>
        public string File { get; internal set; }
        /// <summary>The submission's outcome.</summary>
        public ArenaResult<Recording> Result { get; internal set; }
    }

    public sealed partial class ArenaClient
    {
        /// <summary>The one content type of uploads.</summary>
        public const string UploadContentType = "application/gzip";

        /// <summary>The file name suffix of a spool directory's files.</summary>
        public const string SpoolSuffix = ".replay.gz";

        /// <summary>
        /// Announces a recording: of match <paramref name="matchId"/> (POST
        /// /api/v1/matches/{id}/recording/init, idempotent per match, uploader and game: the game
        /// being played, else the last one decided), or a casual one when <paramref name="matchId"/>
        /// is 0 (POST /api/v1/me/recordings/init; scope forced public).
        /// </summary>
        public Task<ArenaResult<UploadTarget>> InitRecordingAsync(long matchId, string scope, string gameBuild, long durationMs, CancellationToken cancellationToken = default(CancellationToken))
        {
            return InitGameRecordingAsync(matchId, "", scope, gameBuild, durationMs, cancellationToken);
        }

        /// <summary>
        /// Announces a recording of the game of match <paramref name="matchId"/> whose live session
        /// is <paramref name="sessionNonce"/> (a replay header's; empty as <see cref="InitRecordingAsync"/>).
        /// Each game of a series has its own recording.
        /// </summary>
        public Task<ArenaResult<UploadTarget>> InitGameRecordingAsync(long matchId, string sessionNonce, string scope, string gameBuild, long durationMs, CancellationToken cancellationToken = default(CancellationToken))
        {
            if (!settings.Enabled) return Task.FromResult(DisabledResult<UploadTarget>());
            string path = matchId != 0 ? "/api/v1/matches/" + Invariant(matchId) + "/recording/init" : "/api/v1/me/recordings/init";
            var body = JsonValue.NewObject().Set("scope", scope ?? "").Set("gameBuild", gameBuild ?? "").Set("durationMs", durationMs);
            if (matchId != 0 && !string.IsNullOrEmpty(sessionNonce)) body.Set("sessionNonce", sessionNonce);
            return RequireValue(CallAsync("POST", path, body, true, UploadTarget.FromJson, cancellationToken), "POST " + path);
        }

        /// <summary>
        /// PUTs a gzip file to an upload URL with <c>Content-Type: application/gzip</c> and no
        /// ticket (the URL is the authorization). Any 2xx is success; the value is the answer's body.
        /// </summary>
        public async Task<ArenaResult<byte[]>> UploadAsync(string uploadUrl, byte[] file, CancellationToken cancellationToken = default(CancellationToken))
        {
            if (uploadUrl == null) throw new ArgumentNullException(nameof(uploadUrl));
            if (file == null) throw new ArgumentNullException(nameof(file));
            if (!settings.Enabled) return DisabledResult<byte[]>();
            Reply reply = await SendAsync("PUT", uploadUrl, null, false, cancellationToken, UploadContentType, file);
            if (reply.Status >= 200 && reply.Status < 300) return ArenaResult<byte[]>.Success(reply.Body, reply.Status);
            return Interpret<byte[]>(reply, "PUT", UrlPath(uploadUrl), v => null);
        }

        static string UrlPath(string url)
        {
            Uri uri;
            return Uri.TryCreate(url, UriKind.Absolute, out uri) ? uri.AbsolutePath : "upload";
        }

        /// <summary>
        /// Asks the arena to read the uploaded object and mark the recording ready (POST
        /// /api/v1/recordings/{id}/finalize). Refusals: upload_missing, invalid_recording,
        /// header_mismatch, 413 over the ceiling.
        /// </summary>
        public Task<ArenaResult<Recording>> FinalizeRecordingAsync(long recordingId, CancellationToken cancellationToken = default(CancellationToken))
        {
            if (!settings.Enabled) return Task.FromResult(DisabledResult<Recording>());
            string path = "/api/v1/recordings/" + Invariant(recordingId) + "/finalize";
            return RequireValue(CallAsync("POST", path, null, true, Recording.FromJson, cancellationToken), "POST " + path);
        }

        /// <summary>
        /// Submits a <c>game.replay.v1</c> file: init (scope, build, duration, the match and its
        /// game's session read from the file's header; a header without a match is a casual
        /// recording), PUT, finalize. Each
        /// step is retried like a result on a network failure or 5xx; a 4xx is final. A file that
        /// is not a replay is <c>not_replay</c> and nothing is sent.
        /// </summary>
        public async Task<ArenaResult<Recording>> SubmitRecordingAsync(byte[] file, CancellationToken cancellationToken = default(CancellationToken))
        {
            if (file == null) throw new ArgumentNullException(nameof(file));
            if (!settings.Enabled) return DisabledResult<Recording>();
            ReplayHeader header = ReplayHeader.Read(file);
            if (header == null) return ArenaResult<Recording>.Failure(ArenaError.NotReplay, 0);
            var init = await RetryAsync("recording init", () => InitGameRecordingAsync(header.MatchId, header.SessionNonce, header.Scope, header.GameBuild, header.DurationMs, cancellationToken), cancellationToken);
            if (!init.IsSuccess) return init.As<Recording>();
            var put = await RetryAsync("recording upload", () => UploadAsync(init.Value.UploadUrl, file, cancellationToken), cancellationToken);
            if (!put.IsSuccess) return put.As<Recording>();
            return await RetryAsync("recording finalize", () => FinalizeRecordingAsync(init.Value.RecordingId, cancellationToken), cancellationToken);
        }

        /// <summary>
        /// The caller's recordings (GET /api/v1/me/recordings): their uploads plus tournament
        /// recordings of matches they played.
        /// </summary>
        public Task<ArenaResult<IReadOnlyList<Recording>>> GetMyRecordingsAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            if (!settings.Enabled) return Task.FromResult(DisabledResult<IReadOnlyList<Recording>>());
            const string path = "/api/v1/me/recordings";
            return RequireValue(CallAsync<IReadOnlyList<Recording>>("GET", path, null, true, v =>
            {
                var list = new List<Recording>();
                var items = v["recordings"];
                if (items == null || items.Kind != JsonKind.Array) throw new FormatException("no recordings array");
                foreach (var r in items.Items) list.Add(Recording.FromJson(r));
                return list;
            }, cancellationToken), "GET " + path);
        }

        /// <summary>
        /// A short-lived download URL of a recording (GET /api/v1/recordings/{id}); pass a share
        /// link's <paramref name="token"/> for someone else's (null or empty: none).
        /// </summary>
        public Task<ArenaResult<string>> FetchRecordingAsync(long recordingId, string token = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            if (!settings.Enabled) return Task.FromResult(DisabledResult<string>());
            string path = "/api/v1/recordings/" + Invariant(recordingId);
            if (!string.IsNullOrEmpty(token)) path += "?token=" + Uri.EscapeDataString(token);
            return RequireValue(CallAsync("GET", path, null, true, v =>
            {
                string url = v.GetString("url");
                if (string.IsNullOrEmpty(url)) throw new FormatException("no url");
                return url;
            }, cancellationToken), "GET " + path);
        }

        /// <summary>Makes an owned recording shareable by link (POST /api/v1/recordings/{id}/share).</summary>
        public Task<ArenaResult<RecordingShare>> ShareRecordingAsync(long recordingId, CancellationToken cancellationToken = default(CancellationToken))
        {
            if (!settings.Enabled) return Task.FromResult(DisabledResult<RecordingShare>());
            string path = "/api/v1/recordings/" + Invariant(recordingId) + "/share";
            return RequireValue(CallAsync("POST", path, null, true, RecordingShare.FromJson, cancellationToken), "POST " + path);
        }

        /// <summary>Downloads an object from a fetch URL (no ticket); any status but 200 is a failure.</summary>
        public async Task<ArenaResult<byte[]>> DownloadAsync(string url, CancellationToken cancellationToken = default(CancellationToken))
        {
            if (url == null) throw new ArgumentNullException(nameof(url));
            if (!settings.Enabled) return DisabledResult<byte[]>();
            Reply reply = await SendAsync("GET", url, null, false, cancellationToken);
            if (reply.Status == 200) return ArenaResult<byte[]>.Success(reply.Body, 200);
            return Interpret<byte[]>(reply, "GET", UrlPath(url), v => null);
        }

        /// <summary>
        /// Sends segment <paramref name="seq"/> of the caller's pending recording: init (POST
        /// .../segments/init, idempotent per seq), PUT, finalize (POST .../segments/{seq}/finalize),
        /// each retried like a result. The file's header must carry segmentSeq and baseTMs.
        /// After the recording was finalized, init answers 409 recording_ended.
        /// </summary>
        public async Task<ArenaResult<JsonValue>> SubmitSegmentAsync(long recordingId, long seq, byte[] file, CancellationToken cancellationToken = default(CancellationToken))
        {
            if (file == null) throw new ArgumentNullException(nameof(file));
            if (!settings.Enabled) return DisabledResult<JsonValue>();
            string basePath = "/api/v1/recordings/" + Invariant(recordingId) + "/segments";
            var body = JsonValue.NewObject().Set("seq", seq);
            var init = await RetryAsync("segment init", () => RequireValue(CallAsync("POST", basePath + "/init", body, true, UploadTarget.FromJson, cancellationToken), "POST " + basePath + "/init"), cancellationToken);
            if (!init.IsSuccess) return init.As<JsonValue>();
            var put = await RetryAsync("segment upload", () => UploadAsync(init.Value.UploadUrl, file, cancellationToken), cancellationToken);
            if (!put.IsSuccess) return put.As<JsonValue>();
            string finalize = basePath + "/" + Invariant(seq) + "/finalize";
            return await RetryAsync("segment finalize", () => CallAsync("POST", finalize, null, true, v => v, cancellationToken), cancellationToken);
        }

        /// <summary>
        /// The released segments of a recording with seq above <paramref name="after"/> (-1: all)
        /// and whether the recording is still live (GET .../segments?after=k[&amp;token=t]).
        /// </summary>
        public Task<ArenaResult<SegmentFeed>> GetSegmentsAsync(long recordingId, long after = -1, string token = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            if (!settings.Enabled) return Task.FromResult(DisabledResult<SegmentFeed>());
            string path = "/api/v1/recordings/" + Invariant(recordingId) + "/segments?after=" + Invariant(after);
            if (!string.IsNullOrEmpty(token)) path += "&token=" + Uri.EscapeDataString(token);
            return RequireValue(CallAsync("GET", path, null, true, SegmentFeed.FromJson, cancellationToken), "GET " + path);
        }

        /// <summary>
        /// Submits every <c>*.replay.gz</c> file of <paramref name="directory"/> (where a game keeps
        /// recordings it could not submit), oldest name first. A submitted file is deleted; one the
        /// arena refused for good (a 4xx, or not a replay) is renamed to <c>&lt;name&gt;.refused</c>;
        /// any other failure leaves it for the next run.
        /// </summary>
        public async Task<IReadOnlyList<SpoolResult>> ResubmitSpoolAsync(string directory, CancellationToken cancellationToken = default(CancellationToken))
        {
            if (directory == null) throw new ArgumentNullException(nameof(directory));
            var names = new List<string>(Directory.GetFiles(directory, "*" + SpoolSuffix));
            names.RemoveAll(n => !n.EndsWith(SpoolSuffix, StringComparison.Ordinal));
            names.Sort(StringComparer.Ordinal);
            var results = new List<SpoolResult>();
            foreach (string path in names)
            {
                cancellationToken.ThrowIfCancellationRequested();
                var r = await SubmitRecordingAsync(File.ReadAllBytes(path), cancellationToken);
                if (r.IsSuccess) File.Delete(path);
                else if (r.Error == ArenaError.NotReplay || (r.HttpStatus >= 400 && r.HttpStatus < 500)) File.Move(path, path + ".refused");
                results.Add(new SpoolResult { File = path, Result = r });
            }
            return results;
        }

        static async Task<ArenaResult<T>> RequireValue<T>(Task<ArenaResult<T>> call, string what) where T : class
        {
            var r = await call;
            if (r.IsSuccess && r.Value == null) return ArenaResult<T>.Failure(ArenaError.BadResponse, r.HttpStatus, what + ": no body");
            return r;
        }
    }
}
