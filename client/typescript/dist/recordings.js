import { ArenaError } from "./errors.js";
import { readReplayHeader } from "./replay.js";
import { ensureEnabled, retry } from "./runtime.js";
import { answerError } from "./transport.js";
/** The one content type of uploads. */
export const UPLOAD_CONTENT_TYPE = "application/gzip";
/**
 * Recordings (game.replay.v1 gzip files) and near-live segments (spec 2.5,
 * 4.1). Reach it as ArenaClient.recordings. Files are the bytes the game
 * produced (see ReplayWriter); uploads go by PUT straight to the URL init
 * answers, never through the API.
 */
export class Recordings {
    rt;
    /** @internal */
    constructor(rt) {
        this.rt = rt;
    }
    /**
     * Announces a recording of match matchId, or a casual one when matchId is
     * null (POST /me/recordings/init: scope forced public, visibility private).
     */
    async init(matchId, body, options = {}) {
        ensureEnabled(this.rt);
        const path = matchId === null ? "/api/v1/me/recordings/init" : `/api/v1/matches/${matchId}/recording/init`;
        return this.rt.transport.jsonBody("POST", path, body, options);
    }
    /**
     * PUTs an object to an upload URL with Content-Type application/gzip and
     * no ticket (the URL is the authorization). Any answer but 2xx rejects.
     */
    async upload(url, file, options = {}) {
        ensureEnabled(this.rt);
        const answer = await this.rt.transport.send("PUT", url, {
            body: file,
            contentType: UPLOAD_CONTENT_TYPE,
            auth: "none",
            signal: options.signal,
        });
        if (answer.status < 200 || answer.status > 299)
            throw answerError("PUT", new URL(url, this.rt.settings.baseUrl).pathname, answer);
    }
    /** Asks the arena to check the uploaded object and mark the recording ready. */
    async finalize(recordingId, options = {}) {
        ensureEnabled(this.rt);
        return this.rt.transport.jsonBody("POST", `/api/v1/recordings/${recordingId}/finalize`, undefined, options);
    }
    /**
     * Submits a game.replay.v1 file: init (scope, build, duration, the match
     * and its game's session read from its header), PUT, finalize. Each step is retried like a
     * result on a network failure or >= 500; a 4xx is final.
     *
     * @throws ArenaError `not_replay` (nothing sent) or the failing step's error.
     */
    async submit(file, options = {}) {
        ensureEnabled(this.rt);
        const h = await readReplayHeader(file);
        const { signal } = options;
        const body = { scope: h.scope, gameBuild: h.gameBuild, durationMs: h.durationMs };
        if (h.matchId !== undefined && h.sessionNonce)
            body.sessionNonce = h.sessionNonce;
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
    async resubmitSpool(files, options = {}) {
        ensureEnabled(this.rt);
        const sorted = [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        const out = [];
        for (const { name, file } of sorted) {
            try {
                out.push({ name, disposition: "submitted", recording: await this.submit(file, options) });
            }
            catch (e) {
                if (options.signal?.aborted)
                    throw options.signal.reason;
                const refused = e instanceof ArenaError && (e.code === "not_replay" || (e.status >= 400 && e.status < 500));
                out.push({ name, disposition: refused ? "refused" : "kept", error: e });
            }
        }
        return out;
    }
    /** The caller's recordings plus tournament recordings of their matches. */
    async mine(options = {}) {
        ensureEnabled(this.rt);
        const out = await this.rt.transport.jsonBody("GET", "/api/v1/me/recordings", undefined, options);
        return out.recordings ?? [];
    }
    /** A short-lived download URL of a recording; token is a share link's token. */
    async fetchUrl(recordingId, token, options = {}) {
        ensureEnabled(this.rt);
        let path = `/api/v1/recordings/${recordingId}`;
        if (token !== undefined && token !== "")
            path += `?token=${encodeURIComponent(token)}`;
        const out = await this.rt.transport.jsonBody("GET", path, undefined, options);
        if (typeof out.url !== "string" || out.url === "")
            throw new ArenaError("bad_response", `GET ${path}: no url`, { status: 200, method: "GET", path });
        return out.url;
    }
    /** Reads an object from a download URL (fetchUrl or a segment's url). */
    async download(url, options = {}) {
        ensureEnabled(this.rt);
        const answer = await this.rt.transport.sendBytes("GET", url, options.signal);
        if (answer.status !== 200)
            throw answerError("GET", new URL(url, this.rt.settings.baseUrl).pathname, { status: answer.status, text: new TextDecoder().decode(answer.bytes) });
        return answer.bytes;
    }
    /** Makes an owned recording shareable by link. */
    async share(recordingId, options = {}) {
        ensureEnabled(this.rt);
        return this.rt.transport.jsonBody("POST", `/api/v1/recordings/${recordingId}/share`, undefined, options);
    }
    /**
     * Sends segment seq of the caller's pending recording: init (idempotent
     * per seq), PUT, finalize, each retried like submit. The file's header
     * must carry segmentSeq = seq and baseTMs. The game decides when to flush.
     */
    async submitSegment(recordingId, seq, file, options = {}) {
        ensureEnabled(this.rt);
        const { signal } = options;
        const init = await retry(this.rt, "segment init", () => this.rt.transport.jsonBody("POST", `/api/v1/recordings/${recordingId}/segments/init`, { seq }, options), signal);
        await retry(this.rt, "segment upload", () => this.upload(init.upload.url, file, options), signal);
        await retry(this.rt, "segment finalize", () => this.rt.transport.json("POST", `/api/v1/recordings/${recordingId}/segments/${seq}/finalize`, undefined, options), signal);
    }
    /**
     * The released segments with seq > after (-1: all) of a recording; token
     * is a share link's token.
     */
    async segments(recordingId, after = -1, token, options = {}) {
        ensureEnabled(this.rt);
        const q = new URLSearchParams({ after: String(after) });
        if (token !== undefined && token !== "")
            q.set("token", token);
        const out = await this.rt.transport.jsonBody("GET", `/api/v1/recordings/${recordingId}/segments?${q}`, undefined, options);
        return { ...out, segments: out.segments ?? [] };
    }
}
