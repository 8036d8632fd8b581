import { canonicalize } from "./canonical.js";
import { ArenaError } from "./errors.js";
/** The format tag of recordings and segments. */
export const REPLAY_FORMAT = "game.replay.v1";
/** The header of a recording of live match m. */
export function matchHeader(m, scope, gameBuild, durationMs) {
    return { matchId: m.matchId, sessionNonce: m.sessionNonce, scope, gameBuild, durationMs };
}
/** Gzips bytes with CompressionStream (browsers, Node 20+, Workers). */
export async function gzip(data) {
    const stream = new Blob([data]).stream().pipeThrough(new CompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
}
/**
 * Builds a game.replay.v1 file: the game appends events as they happen and
 * finish() puts the header line in front, once the duration is known, and
 * gzips the whole. Event lines are canonical JSON.
 */
export class ReplayWriter {
    lines = [];
    finished = false;
    /** How many events were appended. */
    get events() {
        return this.lines.length;
    }
    /**
     * Adds one event line `{ "tMs": tMs, "type": type, ...fields }`; fields
     * must not set tMs or type. Public events use the trace vocabulary
     * (match_started, turn_started, ...), the recorder's hidden information
     * other types (hand, pointer).
     *
     * @throws Error after finish, RangeError without a type or with tMs not
     *   an integer >= 0 (programming errors); ArenaError with a RefusalCode
     *   when fields cannot be canonicalized.
     */
    append(tMs, type, fields = {}) {
        if (this.finished)
            throw new Error("replay: append after finish");
        if (type === "" || !Number.isSafeInteger(tMs) || tMs < 0)
            throw new RangeError("replay: an event needs a type and an integer tMs >= 0");
        this.lines.push(canonicalize({ ...fields, tMs, type }));
    }
    /** The whole gzip file for header h; the writer takes no more events. */
    async finish(h) {
        this.finished = true;
        const header = { format: REPLAY_FORMAT, scope: h.scope, gameBuild: h.gameBuild, durationMs: h.durationMs };
        if (h.matchId !== undefined && h.matchId !== 0) {
            header["matchId"] = h.matchId;
            header["sessionNonce"] = h.sessionNonce ?? "";
        }
        if (h.segmentSeq !== undefined)
            header["segmentSeq"] = h.segmentSeq;
        if (h.baseTMs !== undefined)
            header["baseTMs"] = h.baseTMs;
        const text = [canonicalize(header), ...this.lines].join("\n") + "\n";
        return gzip(new TextEncoder().encode(text));
    }
}
/** How much of a file readReplayHeader decompresses at most. */
const MAX_HEADER_LINE = 64 << 10;
/**
 * Reads the header line of a game.replay.v1 gzip file (what
 * submitRecording sends at init). Decompresses only up to the first
 * newline.
 *
 * @throws ArenaError `not_replay` when the bytes are not gzip or line 1 is
 *   not a game.replay.v1 header.
 */
export async function readReplayHeader(file) {
    const notReplay = (why, cause) => new ArenaError("not_replay", `replay: ${why}`, cause === undefined ? {} : { cause });
    const reader = new Blob([file]).stream().pipeThrough(new DecompressionStream("gzip")).getReader();
    const decoder = new TextDecoder();
    let text = "";
    try {
        for (;;) {
            const { done, value } = await reader.read();
            if (value !== undefined)
                text += decoder.decode(value, { stream: true });
            if (done || text.includes("\n") || text.length > MAX_HEADER_LINE)
                break;
        }
    }
    catch (e) {
        if (text === "")
            throw notReplay("not gzip", e);
        // a damaged tail does not matter once the header is read
    }
    finally {
        reader.cancel().catch(() => { });
    }
    const line = text.split("\n", 1)[0] ?? "";
    let h;
    try {
        h = JSON.parse(line);
    }
    catch (e) {
        throw notReplay("the header line is not JSON", e);
    }
    if (h === null || typeof h !== "object" || h["format"] !== REPLAY_FORMAT)
        throw notReplay(`the header is not a ${REPLAY_FORMAT} object`);
    const num = (k) => (typeof h[k] === "number" ? h[k] : undefined);
    const out = {
        scope: h["scope"] === "full" ? "full" : "public",
        gameBuild: typeof h["gameBuild"] === "string" ? h["gameBuild"] : "",
        durationMs: num("durationMs") ?? 0,
    };
    const matchId = num("matchId");
    if (matchId !== undefined && matchId !== 0) {
        out.matchId = matchId;
        out.sessionNonce = typeof h["sessionNonce"] === "string" ? h["sessionNonce"] : "";
    }
    const seq = num("segmentSeq");
    if (seq !== undefined)
        out.segmentSeq = seq;
    const base = num("baseTMs");
    if (base !== undefined)
        out.baseTMs = base;
    return out;
}
