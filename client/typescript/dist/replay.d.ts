import type { LiveMatch } from "./match.js";
/** The format tag of recordings and segments. */
export declare const REPLAY_FORMAT = "game.replay.v1";
/** public: public-outcome events; full: also the recorder's own hidden information. */
export type RecordingScope = "public" | "full";
/**
 * Line 1 of a game.replay.v1 file. A casual recording has no matchId and no
 * sessionNonce; only a segment has segmentSeq and baseTMs.
 */
export interface ReplayHeader {
    matchId?: number;
    sessionNonce?: string;
    scope: RecordingScope;
    gameBuild: string;
    durationMs: number;
    segmentSeq?: number;
    baseTMs?: number;
}
/** The header of a recording of live match m. */
export declare function matchHeader(m: LiveMatch, scope: RecordingScope, gameBuild: string, durationMs: number): ReplayHeader;
/** Gzips bytes with CompressionStream (browsers, Node 20+, Workers). */
export declare function gzip(data: Uint8Array): Promise<Uint8Array>;
/**
 * Builds a game.replay.v1 file: the game appends events as they happen and
 * finish() puts the header line in front, once the duration is known, and
 * gzips the whole. Event lines are canonical JSON.
 */
export declare class ReplayWriter {
    private readonly lines;
    private finished;
    /** How many events were appended. */
    get events(): number;
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
    append(tMs: number, type: string, fields?: Record<string, unknown>): void;
    /** The whole gzip file for header h; the writer takes no more events. */
    finish(h: ReplayHeader): Promise<Uint8Array>;
}
/**
 * Reads the header line of a game.replay.v1 gzip file (what
 * submitRecording sends at init). Decompresses only up to the first
 * newline.
 *
 * @throws ArenaError `not_replay` when the bytes are not gzip or line 1 is
 *   not a game.replay.v1 header.
 */
export declare function readReplayHeader(file: Uint8Array): Promise<ReplayHeader>;
