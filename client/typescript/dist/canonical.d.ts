/**
 * RFC 8785 (JCS) restricted to I-JSON (RFC 7493), read from the game's JSON
 * text with a tokenizer of its own: JSON.parse would hide a duplicate key,
 * round a big integer and let a lone surrogate through, and each of those
 * makes two clients disagree.
 */
/** The three keys of a result the service reads; the client sets them. */
export declare const RESERVED_KEYS: readonly ["matchId", "sessionNonce", "winner"];
/** The reserved values merged into a result (spec 2.3). */
export interface ResultKeys {
    /** A positive safe integer. */
    matchId: number;
    /** The live match's nonce, verbatim; non-empty. */
    sessionNonce: string;
    /** The winner's platform account id, 17 decimal digits. */
    winner: string;
}
/** A result as the game holds it: JSON text, its UTF-8 bytes, or a value. */
export type GameResult = string | Uint8Array | Record<string, unknown>;
/**
 * Canonicalizes a JSON object per RFC 8785 restricted to I-JSON: members
 * sorted by the UTF-16 code units of their names at every depth, compact,
 * numbers as ECMAScript writes them (1.0 -> 1, 1e21 -> 1e+21), strings with
 * only `"`, `\` and controls below U+0020 escaped.
 *
 * The input is JSON text (a string, or UTF-8 bytes) or a JS value (run
 * through JSON.stringify first, so its numbers are already doubles). The
 * top level must be an object.
 *
 * @throws ArenaError with a RefusalCode: invalid_json, not_object,
 *   duplicate_key, lone_surrogate, unsafe_integer, non_finite.
 */
export declare function canonicalize(json: GameResult): string;
/**
 * The canonical result string of svc.result.v3: the game's object with
 * matchId, sessionNonce and winner set by the client (values the game put
 * under those names are dropped), canonicalized as by canonicalize. When
 * several problems exist the first reported is, as in every client: the
 * reserved values (invalid_match, invalid_nonce, invalid_winner), then
 * invalid_json, not_object, then the first I-JSON refusal in the text.
 *
 * @throws ArenaError with a RefusalCode.
 */
export declare function canonicalResult(result: GameResult, keys: ResultKeys): string;
/** Lowercase hex SHA-256 of the UTF-8 bytes of text (crypto.subtle). */
export declare function sha256Hex(text: string | Uint8Array): Promise<string>;
/** A canonical result and its resultHash, as sent in a submission. */
export interface CanonicalResult {
    canonical: string;
    sha256: string;
}
/** canonicalResult and sha256Hex together. */
export declare function hashResult(result: GameResult, keys: ResultKeys): Promise<CanonicalResult>;
