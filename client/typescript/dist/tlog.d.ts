import { type FetchLike, type Sleep } from "./transport.js";
/**
 * The arena's event log as a transparency log (docs/events.md "Receipts"):
 * RFC 6962 hashing served as C2SP tlog-tiles under /log/, C2SP
 * tlog-checkpoint signed notes (Ed25519, the arena's log key) and C2SP
 * tlog-proof receipts. Web platform APIs only: fetch and crypto.subtle.
 */
/** The first line of a receipt (C2SP tlog-proof). */
export declare const TLOG_PROOF_HEADER = "c2sp.org/tlog-proof@v1";
/** C2SP tlog-tiles' tile height: 256 hashes or entries a tile. */
export declare const TILE_HEIGHT = 8;
/** A checkpoint whose signature verified. */
export interface Checkpoint {
    /** The log's identity, the first line (`<arena host>/log`). */
    origin: string;
    /** How many entries the tree has. */
    treeSize: number;
    /** The tree's RFC 6962 root hash. */
    rootHash: Uint8Array;
    /** The whole signed note, as read. */
    note: string;
}
/** A receipt whose proof and checkpoint verified. */
export interface VerifiedReceipt {
    index: number;
    treeSize: number;
    /** Base64 of the checkpoint's root hash. */
    rootHash: string;
    origin: string;
    /** The entry proved: the event's RFC 8785 bytes. */
    entry: Uint8Array;
    /** The checkpoint, as in the receipt. */
    checkpoint: string;
}
/** A verify-log of the tiles: the checkpoint verified, worth saving as the next run's head. */
export interface VerifiedTree {
    treeSize: number;
    /** Base64 of the root hash. */
    rootHash: string;
    origin: string;
    /** The signed checkpoint (a later verifyTiles' head). */
    checkpoint: string;
}
/** How verifyReceipt and verifyTiles reach the arena. */
export interface TlogReadOptions {
    /** The arena's origin, e.g. https://arena.example (for the key, or tiles). */
    base?: string;
    /**
     * The arena's log key: its 32 raw bytes, their base64, or a signed-note
     * verifier key `<origin>+<key hash>+<base64(0x01 || key)>` (which names
     * the origin too); default: GET /api/v1's log.publicKey at base.
     */
    publicKey?: Uint8Array | string;
    /**
     * The log's origin the checkpoint must have (`<arena host>/log`); default:
     * the verifier key's name, else any origin signed by the key (the
     * signature's key hash binds the key to the origin it signed).
     */
    origin?: string;
    /** A public-API key, sent as `Authorization: Bearer <key>`. */
    apiKey?: string;
    /** How many times a read answered 429 is repeated after its Retry-After; default DEFAULT_READ_RETRIES. */
    retries?: number;
    sleep?: Sleep;
    fetch?: FetchLike;
    signal?: AbortSignal;
    timeoutMs?: number;
}
/** What verifyReceipt checks. */
export interface VerifyReceiptOptions extends TlogReadOptions {
    /** The receipt's text (a .tlog-proof file). */
    receipt: string;
}
/** What verifyTiles checks. */
export interface VerifyTilesOptions extends TlogReadOptions {
    base: string;
    /** A checkpoint saved earlier (its signed note): the tree must extend it. */
    head?: string;
}
/** RFC 6962 leaf hash: SHA-256(0x00 || entry). */
export declare function leafHash(entry: Uint8Array): Promise<Uint8Array>;
/** RFC 6962 interior node hash: SHA-256(0x01 || left || right). */
export declare function nodeHash(left: Uint8Array, right: Uint8Array): Promise<Uint8Array>;
/**
 * The C2SP tlog-tiles path of a tile: `tile/<L>/<N>[.p/<W>]`, entry
 * bundles (level -1) `tile/entries/<N>[.p/<W>]`; N in groups of three
 * digits, `x` before all but the last; `.p/<W>` for a partial tile.
 */
export declare function tilePath(level: number, n: number, width: number): string;
/**
 * Verifies a C2SP checkpoint with the log's key (its 32 raw bytes or their
 * base64). Throws ArenaError `receipt_invalid` when it does not verify,
 * `invalid_settings` for a key that is not an Ed25519 key.
 */
export declare function verifyCheckpoint(note: string, publicKey: Uint8Array | string, origin?: string): Promise<Checkpoint>;
/**
 * Whether proof proves that leaf is the entry at index of the tree of
 * treeSize entries whose root is root (RFC 9162 section 2.1.3.2).
 */
export declare function verifyInclusion(index: number, treeSize: number, leaf: Uint8Array, proof: Uint8Array[], root: Uint8Array): Promise<boolean>;
/** A receipt's parts (C2SP tlog-proof), before any check. */
export interface Receipt {
    /** The extra line's bytes (the entry, in the arena's receipts), or undefined. */
    extra?: Uint8Array;
    index: number;
    proof: Uint8Array[];
    /** The signed checkpoint, from the line after the blank one to the end. */
    checkpoint: string;
}
/** Parses a C2SP tlog-proof. Throws ArenaError `receipt_invalid` when it is not one. */
export declare function parseReceipt(text: string): Receipt;
/**
 * Verifies a receipt (C2SP tlog-proof, a .tlog-proof file of the arena):
 * its checkpoint is signed by the arena's log key (options.publicKey, or
 * log.publicKey of GET /api/v1 at options.base), and its inclusion proof
 * proves the entry at its index in the checkpoint's tree. The entry is the
 * extra line's bytes; a receipt without one reads it from the entry bundle
 * at options.base.
 *
 * @throws ArenaError `receipt_invalid` when the receipt does not verify (a
 *   tampered entry, proof or checkpoint); `invalid_settings` for a key that
 *   is not an Ed25519 key or a base that is not a URL; fetch failures as
 *   every read of the client (`network_error`, the server's code).
 */
export declare function verifyReceipt(options: VerifyReceiptOptions): Promise<VerifiedReceipt>;
/**
 * Verifies the arena's log as a transparency log (docs/events.md
 * "Receipts"): reads the arena's log key (GET /api/v1, unless
 * options.publicKey) and the checkpoint (GET /log/checkpoint) and checks
 * its signature; reads every entry bundle of the checkpoint's tree
 * (GET /log/tile/entries/...), rebuilds the RFC 6962 tree, checks every
 * hash tile (GET /log/tile/<L>/...) against it and its root against the
 * checkpoint's. A partial tile that is gone (404) is read from the full
 * tile, its first entries or hashes. Given a saved head (a checkpoint saved earlier), it checks
 * that one's signature and origin too and that the tree extends it: the
 * root of its first entries is the saved root (the log only grew). A 429
 * is repeated after its Retry-After.
 *
 * @returns the checkpoint verified (worth saving for the next check).
 * @throws LogInvalidError (`log_invalid`; seq: the first entry, counted
 *   from 1, of a bundle that fails, else 0) when the checkpoint, a tile or
 *   the saved head does not verify; ArenaError `bad_response`,
 *   `invalid_settings`, the server's code or `network_error` as verifyLog.
 */
export declare function verifyTiles(options: VerifyTilesOptions): Promise<VerifiedTree>;
