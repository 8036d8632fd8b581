import { ArenaError } from "./errors.js";
import { readReplayHeader, type RecordingScope } from "./replay.js";
import { ensureEnabled, retry, type Runtime } from "./runtime.js";
import { answerError, type CallOptions } from "./transport.js";

/** The one content type of uploads. */
export const UPLOAD_CONTENT_TYPE = "application/gzip";

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
export class Recordings {
  /** @internal */
  constructor(private readonly rt: Runtime) {}

  /**
   * Announces a recording of match matchId, or a casual one when matchId is
   * null (POST /me/recordings/init: scope forced public, visibility private).
   */
  async init(matchId: number | null, body: RecordingInitBody, options: CallOptions = {}): Promise<RecordingInit> {
    ensureEnabled(this.rt);
    const path = matchId === null ? "/api/v1/me/recordings/init" : `/api/v1/matches/${matchId}/recording/init`;
    return this.rt.transport.jsonBody<RecordingInit>("POST", path, body, options);
  }

  /**
   * PUTs an object to an upload URL with Content-Type application/gzip and
   * no ticket (the URL is the authorization). Any answer but 2xx rejects.
   */
  async upload(url: string, file: Uint8Array, options: CallOptions = {}): Promise<void> {
    ensureEnabled(this.rt);
    const answer = await this.rt.transport.send("PUT", url, {
      body: file as Uint8Array<ArrayBuffer>,
      contentType: UPLOAD_CONTENT_TYPE,
      auth: "none",
      signal: options.signal,
    });
    if (answer.status < 200 || answer.status > 299) throw answerError("PUT", new URL(url, this.rt.settings.baseUrl).pathname, answer);
  }

  /** Asks the arena to check the uploaded object and mark the recording ready. */
  async finalize(recordingId: number, options: CallOptions = {}): Promise<Recording> {
    ensureEnabled(this.rt);
    return this.rt.transport.jsonBody<Recording>("POST", `/api/v1/recordings/${recordingId}/finalize`, undefined, options);
  }

  /**
   * Submits a game.replay.v1 file: init (scope, build, duration, the match
   * and its game's session read from its header), PUT, finalize. Each step is retried like a
   * result on a network failure or >= 500; a 4xx is final.
   *
   * @throws ArenaError `not_replay` (nothing sent) or the failing step's error.
   */
  async submit(file: Uint8Array, options: CallOptions = {}): Promise<Recording> {
    ensureEnabled(this.rt);
    const h = await readReplayHeader(file);
    const { signal } = options;
    const body: RecordingInitBody = { scope: h.scope, gameBuild: h.gameBuild, durationMs: h.durationMs };
    if (h.matchId !== undefined && h.sessionNonce) body.sessionNonce = h.sessionNonce;
    const init = await retry(this.rt, "recording init", () => this.init(h.matchId ?? null, body, options), signal);
    await retry(this.rt, "recording upload", () => this.upload(init.upload.url, file, options), signal);
    return retry(this.rt, "recording finalize", () => this.finalize(init.recordingId, options), signal);
  }

  /**
   * Resubmits the recordings a game spooled (wherever it keeps them: files,
   * IndexedDB, ...), oldest name first, each with submit(). The game acts
   * on each disposition; this method stores nothing. Stops early, with the
   * signal's reason, when aborted.
   */
  async resubmitSpool(files: Iterable<SpooledFile>, options: CallOptions = {}): Promise<SpoolResult[]> {
    ensureEnabled(this.rt);
    const sorted = [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const out: SpoolResult[] = [];
    for (const { name, file } of sorted) {
      try {
        out.push({ name, disposition: "submitted", recording: await this.submit(file, options) });
      } catch (e) {
        if (options.signal?.aborted) throw options.signal.reason;
        const refused = e instanceof ArenaError && (e.code === "not_replay" || (e.status >= 400 && e.status < 500));
        out.push({ name, disposition: refused ? "refused" : "kept", error: e });
      }
    }
    return out;
  }

  /** The caller's recordings plus tournament recordings of their matches. */
  async mine(options: CallOptions = {}): Promise<Recording[]> {
    ensureEnabled(this.rt);
    const out = await this.rt.transport.jsonBody<{ recordings?: Recording[] }>("GET", "/api/v1/me/recordings", undefined, options);
    return out.recordings ?? [];
  }

  /** A short-lived download URL of a recording; token is a share link's token. */
  async fetchUrl(recordingId: number, token?: string, options: CallOptions = {}): Promise<string> {
    ensureEnabled(this.rt);
    let path = `/api/v1/recordings/${recordingId}`;
    if (token !== undefined && token !== "") path += `?token=${encodeURIComponent(token)}`;
    const out = await this.rt.transport.jsonBody<{ url?: string }>("GET", path, undefined, options);
    if (typeof out.url !== "string" || out.url === "") throw new ArenaError("bad_response", `GET ${path}: no url`, { status: 200, method: "GET", path });
    return out.url;
  }

  /** Reads an object from a download URL (fetchUrl or a segment's url). */
  async download(url: string, options: CallOptions = {}): Promise<Uint8Array> {
    ensureEnabled(this.rt);
    const answer = await this.rt.transport.sendBytes("GET", url, options.signal);
    if (answer.status !== 200) throw answerError("GET", new URL(url, this.rt.settings.baseUrl).pathname, { status: answer.status, text: new TextDecoder().decode(answer.bytes) });
    return answer.bytes;
  }

  /** Makes an owned recording shareable by link. */
  async share(recordingId: number, options: CallOptions = {}): Promise<Share> {
    ensureEnabled(this.rt);
    return this.rt.transport.jsonBody<Share>("POST", `/api/v1/recordings/${recordingId}/share`, undefined, options);
  }

  /**
   * Sends segment seq of the caller's pending recording: init (idempotent
   * per seq), PUT, finalize, each retried like submit. The file's header
   * must carry segmentSeq = seq and baseTMs. The game decides when to flush.
   */
  async submitSegment(recordingId: number, seq: number, file: Uint8Array, options: CallOptions = {}): Promise<void> {
    ensureEnabled(this.rt);
    const { signal } = options;
    const init = await retry(
      this.rt,
      "segment init",
      () => this.rt.transport.jsonBody<SegmentInit>("POST", `/api/v1/recordings/${recordingId}/segments/init`, { seq }, options),
      signal,
    );
    await retry(this.rt, "segment upload", () => this.upload(init.upload.url, file, options), signal);
    await retry(
      this.rt,
      "segment finalize",
      () => this.rt.transport.json("POST", `/api/v1/recordings/${recordingId}/segments/${seq}/finalize`, undefined, options),
      signal,
    );
  }

  /**
   * The released segments with seq > after (-1: all) of a recording; token
   * is a share link's token.
   */
  async segments(recordingId: number, after = -1, token?: string, options: CallOptions = {}): Promise<SegmentFeed> {
    ensureEnabled(this.rt);
    const q = new URLSearchParams({ after: String(after) });
    if (token !== undefined && token !== "") q.set("token", token);
    const out = await this.rt.transport.jsonBody<SegmentFeed>("GET", `/api/v1/recordings/${recordingId}/segments?${q}`, undefined, options);
    return { ...out, segments: out.segments ?? [] };
  }
}
