import { type RecordingScope } from "./replay.js";
import { type Runtime } from "./runtime.js";
import { type CallOptions } from "./transport.js";
/** The one content type of uploads. */
export declare const UPLOAD_CONTENT_TYPE = "application/gzip";
/** Where an object goes: a presigned URL, or (local) the arena's own signed route in dev mode. */
export interface UploadTarget {
    url: string;
    local: boolean;
}
/** The arena's answer to a recording init. */
export interface RecordingInit {
    recordingId: number;
    upload: UploadTarget;
    maxBytes: number;
}
/** What a recording init announces (read from the file's header by submit). */
export interface RecordingInitBody {
    scope: RecordingScope;
    gameBuild: string;
    durationMs: number;
    /**
     * Match recordings only: the live session of the game recorded (the
     * replay header's). Each game of a series has its own recording; without
     * it, the game being played, else the last one decided.
     */
    sessionNonce?: string;
}
/** A recording as the arena lists it (DESIGN "Recordings"). */
export interface Recording {
    id: number;
    /** null for a casual recording. */
    matchId: number | null;
    /** The game of the match's series it records, from 1; null for a casual recording. */
    game: number | null;
    scope: RecordingScope;
    visibility: "private" | "arena" | "link";
    gameBuild: string;
    durationMs: number;
    byteSize: number;
    state: "pending" | "ready";
    uploaderPlatformId: string;
    createdAt: string;
}
/** A recording's share link: the token and the tokenized fetch path. */
export interface Share {
    token: string;
    path: string;
}
/** The upload target of one segment. */
export interface SegmentInit {
    recordingId: number;
    seq: number;
    upload: UploadTarget;
    maxBytes: number;
}
/** One released segment and its download URL. */
export interface SegmentLink {
    seq: number;
    url: string;
}
/** The near-live segment list of a recording. */
export interface SegmentFeed {
    /** live while the recording is still appended to. */
    state: "live" | "ended";
    segments: SegmentLink[];
}
/** A recording the game kept because it could not be submitted. */
export interface SpooledFile {
    /** The game's name for it; files are tried in ascending name order. */
    name: string;
    file: Uint8Array;
}
/**
 * What to do with a spooled file: `submitted` (remove it), `refused` (the
 * arena refused it for good, or it is not a replay: set it aside so it is
 * not tried forever), `kept` (a transient failure: try again later).
 */
export type SpoolDisposition = "submitted" | "refused" | "kept";
/** The outcome of resubmitting one spooled file. */
export interface SpoolResult {
    name: string;
    disposition: SpoolDisposition;
    recording?: Recording;
    error?: unknown;
}
/**
 * Recordings (game.replay.v1 gzip files) and near-live segments (spec 2.5,
 * 4.1). Reach it as ArenaClient.recordings. Files are the bytes the game
 * produced (see ReplayWriter); uploads go by PUT straight to the URL init
 * answers, never through the API.
 */
export declare class Recordings {
    private readonly rt;
    /** @internal */
    constructor(rt: Runtime);
    /**
     * Announces a recording of match matchId, or a casual one when matchId is
     * null (POST /me/recordings/init: scope forced public, visibility private).
     */
    init(matchId: number | null, body: RecordingInitBody, options?: CallOptions): Promise<RecordingInit>;
    /**
     * PUTs an object to an upload URL with Content-Type application/gzip and
     * no ticket (the URL is the authorization). Any answer but 2xx rejects.
     */
    upload(url: string, file: Uint8Array, options?: CallOptions): Promise<void>;
    /** Asks the arena to check the uploaded object and mark the recording ready. */
    finalize(recordingId: number, options?: CallOptions): Promise<Recording>;
    /**
     * Submits a game.replay.v1 file: init (scope, build, duration, the match
     * and its game's session read from its header), PUT, finalize. Each step is retried like a
     * result on a network failure or >= 500; a 4xx is final.
     *
     * @throws ArenaError `not_replay` (nothing sent) or the failing step's error.
     */
    submit(file: Uint8Array, options?: CallOptions): Promise<Recording>;
    /**
     * Resubmits the recordings a game spooled (wherever it keeps them: files,
     * IndexedDB, ...), oldest name first, each with submit(). The game acts
     * on each disposition; this method stores nothing. Stops early, with the
     * signal's reason, when aborted.
     */
    resubmitSpool(files: Iterable<SpooledFile>, options?: CallOptions): Promise<SpoolResult[]>;
    /** The caller's recordings plus tournament recordings of their matches. */
    mine(options?: CallOptions): Promise<Recording[]>;
    /** A short-lived download URL of a recording; token is a share link's token. */
    fetchUrl(recordingId: number, token?: string, options?: CallOptions): Promise<string>;
    /** Reads an object from a download URL (fetchUrl or a segment's url). */
    download(url: string, options?: CallOptions): Promise<Uint8Array>;
    /** Makes an owned recording shareable by link. */
    share(recordingId: number, options?: CallOptions): Promise<Share>;
    /**
     * Sends segment seq of the caller's pending recording: init (idempotent
     * per seq), PUT, finalize, each retried like submit. The file's header
     * must carry segmentSeq = seq and baseTMs. The game decides when to flush.
     */
    submitSegment(recordingId: number, seq: number, file: Uint8Array, options?: CallOptions): Promise<void>;
    /**
     * The released segments with seq > after (-1: all) of a recording; token
     * is a share link's token.
     */
    segments(recordingId: number, after?: number, token?: string, options?: CallOptions): Promise<SegmentFeed>;
}
