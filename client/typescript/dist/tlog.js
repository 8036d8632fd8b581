import { DEFAULT_TIMEOUT_MS } from "./client.js";
import { ArenaError, LogInvalidError } from "./errors.js";
import { DEFAULT_READ_RETRIES, retryAfterMs } from "./eventlog.js";
import { normalizeSettings, validateSettings } from "./settings.js";
import { Transport, answerError, sleep as realSleep } from "./transport.js";
/**
 * The arena's event log as a transparency log (docs/events.md "Receipts"):
 * RFC 6962 hashing served as C2SP tlog-tiles under /log/, C2SP
 * tlog-checkpoint signed notes (Ed25519, the arena's log key) and C2SP
 * tlog-proof receipts. Web platform APIs only: fetch and crypto.subtle.
 */
/** The first line of a receipt (C2SP tlog-proof). */
export const TLOG_PROOF_HEADER = "c2sp.org/tlog-proof@v1";
/** C2SP tlog-tiles' tile height: 256 hashes or entries a tile. */
export const TILE_HEIGHT = 8;
const TILE_WIDTH = 1 << TILE_HEIGHT;
/** Why a checkpoint, note or receipt does not verify (mapped to the caller's code). */
class Refusal extends Error {
}
function b64(bytes) {
    let s = "";
    for (const b of bytes)
        s += String.fromCharCode(b);
    return btoa(s);
}
/** The raw bytes of standard padded base64, or undefined. */
function unb64(s) {
    if (s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(s))
        return undefined;
    try {
        return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
    }
    catch {
        return undefined;
    }
}
const utf8 = (s) => new TextEncoder().encode(s);
async function sha256(...parts) {
    let n = 0;
    for (const p of parts)
        n += p.length;
    const buf = new Uint8Array(n);
    let at = 0;
    for (const p of parts) {
        buf.set(p, at);
        at += p.length;
    }
    return new Uint8Array(await crypto.subtle.digest("SHA-256", buf));
}
const LEAF = new Uint8Array([0]);
const NODE = new Uint8Array([1]);
/** RFC 6962 leaf hash: SHA-256(0x00 || entry). */
export function leafHash(entry) {
    return sha256(LEAF, entry);
}
/** RFC 6962 interior node hash: SHA-256(0x01 || left || right). */
export function nodeHash(left, right) {
    return sha256(NODE, left, right);
}
function equal(a, b) {
    if (a.length !== b.length)
        return false;
    let d = 0;
    for (let i = 0; i < a.length; i++)
        d |= a[i] ^ b[i];
    return d === 0;
}
/** A count in decimal without leading zeros (as C2SP writes sizes and indexes), or undefined. */
function count(s) {
    if (!/^(0|[1-9][0-9]*)$/.test(s))
        return undefined;
    const n = Number(s);
    return Number.isSafeInteger(n) ? n : undefined;
}
/**
 * The C2SP tlog-tiles path of a tile: `tile/<L>/<N>[.p/<W>]`, entry
 * bundles (level -1) `tile/entries/<N>[.p/<W>]`; N in groups of three
 * digits, `x` before all but the last; `.p/<W>` for a partial tile.
 */
export function tilePath(level, n, width) {
    let s = String(n % 1000).padStart(3, "0");
    for (let m = Math.floor(n / 1000); m > 0; m = Math.floor(m / 1000))
        s = `x${String(m % 1000).padStart(3, "0")}/${s}`;
    return `tile/${level < 0 ? "entries" : level}/${s}${width === TILE_WIDTH ? "" : `.p/${width}`}`;
}
/**
 * An Ed25519 verification key from its raw bytes, their base64, or a
 * signed-note verifier key (name+hash+base64(0x01 || key), whose name is
 * the origin and whose hash must be the key's); undefined when it is none.
 */
async function importKey(key) {
    let raw;
    let origin;
    if (typeof key !== "string")
        raw = new Uint8Array(key);
    else if (unb64(key)?.length === 32)
        raw = unb64(key);
    else {
        const parts = key.split("+");
        const b = parts.length === 3 && /^[0-9a-f]{8}$/.test(parts[1]) ? unb64(parts[2]) : undefined;
        if (b === undefined || b.length !== 33 || b[0] !== 1 || parts[0] === "")
            return undefined;
        raw = b.slice(1);
        const want = Array.from(await keyHash(parts[0], raw), (x) => x.toString(16).padStart(2, "0")).join("");
        if (want !== parts[1])
            return undefined;
        origin = parts[0];
    }
    if (raw === undefined || raw.length !== 32)
        return undefined;
    try {
        const out = { raw, key: await crypto.subtle.importKey("raw", raw, { name: "Ed25519" }, false, ["verify"]) };
        if (origin !== undefined)
            out.origin = origin;
        return out;
    }
    catch {
        return undefined;
    }
}
/**
 * The signed-note key hash of an Ed25519 key named name: the first four
 * bytes of SHA-256(name || "\n" || 0x01 || key).
 */
async function keyHash(name, raw) {
    return (await sha256(utf8(name + "\n"), NODE, raw)).subarray(0, 4);
}
/**
 * Verifies a C2SP checkpoint: a signed note (text, a blank line, lines
 * `— <name> <base64(key hash || signature)>`) whose text is the origin,
 * the tree size and the base64 root hash (then optional extension lines),
 * with a signature by name = origin whose key hash and Ed25519 signature
 * are the key's. Other signatures (witness cosignatures) are ignored.
 */
async function openCheckpoint(note, key) {
    const split = note.lastIndexOf("\n\n");
    if (split < 0)
        throw new Refusal("the checkpoint is not a signed note (no blank line)");
    const text = note.slice(0, split + 1);
    const sigs = note.slice(split + 2);
    if (sigs === "" || !sigs.endsWith("\n"))
        throw new Refusal("the checkpoint has no signature lines");
    const lines = text.slice(0, -1).split("\n");
    if (lines.length < 3 || lines.some((l) => l === ""))
        throw new Refusal("the checkpoint's text is not origin, size and root hash");
    const [origin, sizeText, rootText] = lines;
    if (key.origin !== undefined && origin !== key.origin)
        throw new Refusal(`the checkpoint is of log ${JSON.stringify(origin)}, not ${JSON.stringify(key.origin)}`);
    const treeSize = count(sizeText);
    if (treeSize === undefined)
        throw new Refusal(`the checkpoint's size ${JSON.stringify(sizeText)} is not a count`);
    const rootHash = unb64(rootText);
    if (rootHash === undefined || rootHash.length !== 32)
        throw new Refusal("the checkpoint's root hash is not 32 bytes of base64");
    const want = await keyHash(origin, key.raw);
    const message = utf8(text);
    for (const line of sigs.slice(0, -1).split("\n")) {
        const m = /^\u2014 (\S+) (\S+)$/.exec(line);
        if (m === null)
            throw new Refusal(`the checkpoint has a malformed signature line ${JSON.stringify(line)}`);
        if (m[1] !== origin)
            continue; // a witness's cosignature, or another key's
        const sig = unb64(m[2]);
        if (sig === undefined || sig.length < 4 || !equal(sig.subarray(0, 4), want))
            continue;
        if (sig.length === 68 && (await crypto.subtle.verify({ name: "Ed25519" }, key.key, sig.subarray(4), message))) {
            return { origin, treeSize, rootHash, note };
        }
        throw new Refusal(`the checkpoint's signature by ${origin} does not verify`);
    }
    throw new Refusal(`the checkpoint has no signature of the log's key named ${origin}`);
}
/**
 * Verifies a C2SP checkpoint with the log's key (its 32 raw bytes or their
 * base64). Throws ArenaError `receipt_invalid` when it does not verify,
 * `invalid_settings` for a key that is not an Ed25519 key.
 */
export async function verifyCheckpoint(note, publicKey, origin) {
    const key = await givenKey(publicKey, origin);
    try {
        return await openCheckpoint(note, key);
    }
    catch (e) {
        if (e instanceof Refusal)
            throw new ArenaError("receipt_invalid", `checkpoint: ${e.message}`);
        throw e;
    }
}
/**
 * Whether proof proves that leaf is the entry at index of the tree of
 * treeSize entries whose root is root (RFC 9162 section 2.1.3.2).
 */
export async function verifyInclusion(index, treeSize, leaf, proof, root) {
    if (index < 0 || index >= treeSize)
        return false;
    let fn = index;
    let sn = treeSize - 1;
    let r = leaf;
    for (const p of proof) {
        if (sn === 0)
            return false;
        if (fn % 2 === 1 || fn === sn) {
            r = await nodeHash(p, r);
            if (fn % 2 === 0) {
                while (fn % 2 === 0 && fn !== 0) {
                    fn = Math.floor(fn / 2);
                    sn = Math.floor(sn / 2);
                }
            }
        }
        else {
            r = await nodeHash(r, p);
        }
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
    }
    return sn === 0 && equal(r, root);
}
/** Parses a C2SP tlog-proof. Throws ArenaError `receipt_invalid` when it is not one. */
export function parseReceipt(text) {
    const refuse = (why) => new ArenaError("receipt_invalid", `receipt: ${why}`);
    const split = text.indexOf("\n\n");
    if (split < 0)
        throw refuse("no blank line before the checkpoint");
    const lines = text.slice(0, split).split("\n");
    if (lines[0] !== TLOG_PROOF_HEADER)
        throw refuse(`the first line is not ${TLOG_PROOF_HEADER}`);
    let i = 1;
    let extra;
    if (lines[i]?.startsWith("extra ")) {
        extra = unb64(lines[i].slice(6));
        if (extra === undefined)
            throw refuse("the extra line is not base64");
        i++;
    }
    const indexLine = lines[i] ?? "";
    const index = indexLine.startsWith("index ") ? count(indexLine.slice(6)) : undefined;
    if (index === undefined)
        throw refuse("no index line of a count");
    const proof = [];
    for (const l of lines.slice(i + 1)) {
        const h = unb64(l);
        if (h === undefined || h.length !== 32)
            throw refuse(`the proof line ${JSON.stringify(l)} is not a base64 hash`);
        proof.push(h);
    }
    const out = { index, proof, checkpoint: text.slice(split + 2) };
    if (extra !== undefined)
        out.extra = extra;
    return out;
}
/** GETs of the arena's public reads: the API key when given, 429 retried after its Retry-After. */
function reader(options, base) {
    const settings = normalizeSettings({ baseUrl: base });
    validateSettings(settings);
    const fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    const transport = new Transport(settings, fetchFn, undefined, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const auth = options.apiKey ? { apiKey: options.apiKey } : "none";
    const retries = options.retries ?? DEFAULT_READ_RETRIES;
    const wait = options.sleep ?? realSleep;
    /** The body of a 200 (undefined for a 404 when missingOk), else the error of the answer. */
    return async (path, missingOk = false) => {
        for (let attempt = 0;; attempt++) {
            const answer = await transport.getBytes(path, { auth, signal: options.signal });
            if (answer.status === 429 && attempt < retries) {
                await wait(retryAfterMs(answer.retryAfter), options.signal);
                continue;
            }
            if (answer.status === 200)
                return answer.bytes;
            if (answer.status === 404 && missingOk)
                return undefined;
            throw answerError("GET", path, { status: answer.status, text: new TextDecoder().decode(answer.bytes) });
        }
    };
}
/** The arena's log key from GET /api/v1 (log.publicKey; log.origin when the arena gives it), or the caller's. */
async function logKey(options, get) {
    if (options.publicKey !== undefined)
        return givenKey(options.publicKey, options.origin);
    let meta = null;
    const getter = get();
    try {
        meta = JSON.parse(new TextDecoder().decode(await getter("/api/v1")));
    }
    catch (e) {
        if (e instanceof ArenaError)
            throw e;
    }
    const raw = meta?.log?.publicKey;
    const key = typeof raw === "string" ? await importKey(raw) : undefined;
    if (key === undefined)
        throw new ArenaError("bad_response", "GET /api/v1: the arena's log.publicKey is not a base64 Ed25519 key", { status: 200, method: "GET", path: "/api/v1" });
    const origin = options.origin ?? meta?.log?.origin;
    if (typeof origin === "string")
        key.origin = origin;
    return key;
}
async function givenKey(publicKey, origin) {
    const key = await importKey(publicKey);
    if (key === undefined)
        throw new ArenaError("invalid_settings", "the log key is not a base64 Ed25519 public key nor a verifier key");
    if (origin !== undefined) {
        if (key.origin !== undefined && key.origin !== origin)
            throw new ArenaError("invalid_settings", `the verifier key is named ${JSON.stringify(key.origin)}, not the origin ${JSON.stringify(origin)}`);
        key.origin = origin;
    }
    return key;
}
/** The entries of an entry bundle of width entries (uint16 big-endian length-prefixed), or undefined when it is not one. */
function bundleEntries(bundle, width) {
    const out = [];
    let at = 0;
    for (let k = 0; k < width; k++) {
        if (at + 2 > bundle.length)
            return undefined;
        const n = (bundle[at] << 8) | bundle[at + 1];
        if (at + 2 + n > bundle.length)
            return undefined;
        out.push(bundle.subarray(at + 2, at + 2 + n));
        at += 2 + n;
    }
    return at === bundle.length ? out : undefined;
}
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
export async function verifyReceipt(options) {
    const receipt = parseReceipt(options.receipt);
    let get;
    const getter = () => (get ??= reader(options, options.base ?? ""));
    const key = await logKey(options, getter);
    let cp;
    try {
        cp = await openCheckpoint(receipt.checkpoint, key);
    }
    catch (e) {
        if (e instanceof Refusal)
            throw new ArenaError("receipt_invalid", `receipt: ${e.message}`);
        throw e;
    }
    if (receipt.index >= cp.treeSize)
        throw new ArenaError("receipt_invalid", `receipt: index ${receipt.index} is not in a tree of ${cp.treeSize}`);
    let entry = receipt.extra;
    if (entry === undefined) {
        const n = Math.floor(receipt.index / TILE_WIDTH);
        const width = Math.min(TILE_WIDTH, cp.treeSize - n * TILE_WIDTH);
        let bundle = await getter()(`/log/${tilePath(-1, n, width)}`, width < TILE_WIDTH);
        let w = width;
        if (bundle === undefined) {
            // The partial bundle is gone once the log filled it: the full one holds the same entries first.
            w = TILE_WIDTH;
            bundle = await getter()(`/log/${tilePath(-1, n, w)}`);
        }
        entry = bundleEntries(bundle, w)?.[receipt.index % TILE_WIDTH];
        if (entry === undefined)
            throw new ArenaError("receipt_invalid", `receipt: the entry bundle ${tilePath(-1, n, w)} is not ${w} entries`);
    }
    if (!(await verifyInclusion(receipt.index, cp.treeSize, await leafHash(entry), receipt.proof, cp.rootHash))) {
        throw new ArenaError("receipt_invalid", `receipt: the proof does not prove the entry at index ${receipt.index} in the checkpoint's tree of ${cp.treeSize}`);
    }
    return { index: receipt.index, treeSize: cp.treeSize, rootHash: b64(cp.rootHash), origin: cp.origin, entry, checkpoint: receipt.checkpoint };
}
/** The root hash of the first n leaves, from levels[k] (the hashes of the complete subtrees of 2^k leaves). */
async function rootOf(levels, n) {
    if (n === 0)
        return sha256();
    // The complete subtrees of n, left to right (largest first), folded from the right.
    const parts = [];
    let offset = 0;
    for (let k = Math.floor(Math.log2(n)) + 1; k >= 0; k--) {
        const size = 2 ** k;
        if (n - offset >= size) {
            parts.push(levels[k][offset / size]);
            offset += size;
        }
    }
    let h = parts.pop();
    while (parts.length > 0)
        h = await nodeHash(parts.pop(), h);
    return h;
}
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
export async function verifyTiles(options) {
    const get = reader(options, options.base);
    const key = await logKey(options, () => get);
    const invalid = (seq, why) => new LogInvalidError(seq, `transparency log: ${why}`);
    const open = async (note, what) => {
        try {
            return await openCheckpoint(note, key);
        }
        catch (e) {
            if (e instanceof Refusal)
                throw invalid(0, `${what}: ${e.message}`);
            throw e;
        }
    };
    const cp = await open(new TextDecoder().decode(await get("/log/checkpoint")), "the arena's checkpoint");
    const head = options.head === undefined ? undefined : await open(options.head, "the saved head");
    if (head !== undefined) {
        if (head.origin !== cp.origin)
            throw invalid(0, `the saved head is of log ${JSON.stringify(head.origin)}, the arena's is ${JSON.stringify(cp.origin)}`);
        if (head.treeSize > cp.treeSize)
            throw invalid(head.treeSize, `the saved head (size ${head.treeSize}) is past the arena's checkpoint (size ${cp.treeSize})`);
    }
    const n = cp.treeSize;
    // A tile of width entries or hashes: the partial one, or, when it is gone
    // (a log may drop partial tiles once full), the first width of the full one.
    const readTile = async (level, t, width) => {
        const path = tilePath(level, t, width);
        const body = await get(`/log/${path}`, width < TILE_WIDTH);
        if (body !== undefined)
            return { path, body, full: width === TILE_WIDTH };
        const fullPath = tilePath(level, t, TILE_WIDTH);
        return { path: fullPath, body: (await get(`/log/${fullPath}`)), full: true };
    };
    const levels = [[]];
    for (let t = 0; t * TILE_WIDTH < n; t++) {
        const width = Math.min(TILE_WIDTH, n - t * TILE_WIDTH);
        const { path, body, full } = await readTile(-1, t, width);
        const entries = bundleEntries(body, full ? TILE_WIDTH : width)?.slice(0, width);
        if (entries === undefined)
            throw invalid(t * TILE_WIDTH + 1, `${path} is not ${width} length-prefixed entries`);
        levels[0].push(...(await Promise.all(entries.map(leafHash))));
    }
    for (let k = 1; levels[k - 1].length > 1; k++) {
        const below = levels[k - 1];
        const level = [];
        // A tile's worth of digests at a time, in parallel: crypto.subtle is asynchronous.
        for (let i = 0; i + 1 < below.length; i += 2 * TILE_WIDTH) {
            const pairs = [];
            for (let j = i; j + 1 < below.length && j < i + 2 * TILE_WIDTH; j += 2)
                pairs.push(nodeHash(below[j], below[j + 1]));
            level.push(...(await Promise.all(pairs)));
        }
        levels.push(level);
    }
    for (let l = 0; TILE_HEIGHT * l < levels.length; l++) {
        const hashes = levels[TILE_HEIGHT * l];
        for (let t = 0; t * TILE_WIDTH < hashes.length; t++) {
            const width = Math.min(TILE_WIDTH, hashes.length - t * TILE_WIDTH);
            const { path, body, full } = await readTile(l, t, width);
            const tile = body.subarray(0, 32 * width);
            const first = t * TILE_WIDTH;
            const ok = body.length === 32 * (full ? TILE_WIDTH : width) && hashes.slice(first, first + width).every((h, i) => equal(h, tile.subarray(32 * i, 32 * i + 32)));
            if (!ok)
                throw invalid(l === 0 ? first + 1 : 0, `${path} is not the tree of the entry bundles`);
        }
    }
    if (!equal(await rootOf(levels, n), cp.rootHash))
        throw invalid(0, `the entries' tree of ${n} is not the checkpoint's root`);
    if (head !== undefined && !equal(await rootOf(levels, head.treeSize), head.rootHash)) {
        throw invalid(head.treeSize, `the tree does not extend the saved head (size ${head.treeSize}): its first ${head.treeSize} entries have another root`);
    }
    return { treeSize: n, rootHash: b64(cp.rootHash), origin: cp.origin, checkpoint: cp.note };
}
