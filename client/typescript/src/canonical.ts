import { ArenaError, type RefusalCode } from "./errors.js";

/**
 * RFC 8785 (JCS) restricted to I-JSON (RFC 7493), read from the game's JSON
 * text with a tokenizer of its own: JSON.parse would hide a duplicate key,
 * round a big integer and let a lone surrogate through, and each of those
 * makes two clients disagree.
 */

/** The three keys of a result the service reads; the client sets them. */
export const RESERVED_KEYS = ["matchId", "sessionNonce", "winner"] as const;

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

/** Nesting bound, encoding/json's (and so the Go client's) decoding limit. */
const MAX_DEPTH = 10000;
const MAX_SAFE = "9007199254740991";
const PLATFORM_ID = /^[0-9]{17}$/;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

type Member = [key: string, canonical: string];
type Frame = { members: Member[]; keys: Set<string>; key: string } | { items: string[] };

class SyntaxFault extends Error {}

/** Parses JSON text and writes each value canonically as it closes. */
class Canonicalizer {
  private pos = 0;
  /** The first I-JSON refusal in text order; a syntax error still wins. */
  private refusal: RefusalCode | undefined;

  constructor(private readonly text: string) {}

  /** Returns the root object's members, or throws the refusal. */
  rootMembers(): Member[] {
    let root: Member[] | string | undefined;
    try {
      root = this.parse();
    } catch (e) {
      if (e instanceof SyntaxFault) throw refuse("invalid_json", e.message);
      throw e;
    }
    if (typeof root === "string") throw refuse("not_object", "the result is not a JSON object");
    if (this.refusal !== undefined) throw refuse(this.refusal);
    return root;
  }

  private parse(): Member[] | string {
    const stack: Frame[] = [];
    this.ws();
    for (;;) {
      // A value starts here.
      let value: string;
      let members: Member[] | undefined;
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        if (stack.length >= MAX_DEPTH) this.fail("nesting deeper than 10000");
        this.pos++;
        this.ws();
        const closer = c === 0x7b ? 0x7d : 0x5d;
        if (this.text.charCodeAt(this.pos) === closer) {
          this.pos++;
          value = c === 0x7b ? "{}" : "[]";
          if (c === 0x7b) members = [];
        } else if (c === 0x7b) {
          const frame = { members: [] as Member[], keys: new Set<string>(), key: "" };
          stack.push(frame);
          this.key(frame);
          continue;
        } else {
          stack.push({ items: [] });
          continue;
        }
      } else if (c === 0x22 /* " */) {
        value = JSON.stringify(this.string());
      } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
        value = this.number();
      } else {
        value = this.literal();
      }
      // The value is complete: hand it to the enclosing containers, closing
      // every one that ends right after it.
      for (;;) {
        this.ws();
        const frame = stack[stack.length - 1];
        if (frame === undefined) {
          if (this.pos !== this.text.length) this.fail("trailing data");
          return members ?? value;
        }
        const next = this.text.charCodeAt(this.pos++);
        if ("items" in frame) {
          frame.items.push(value);
          if (next === 0x2c /* , */) break;
          if (next !== 0x5d /* ] */) this.fail("expected , or ]");
          value = "[" + frame.items.join(",") + "]";
          members = undefined;
        } else {
          frame.members.push([frame.key, value]);
          if (next === 0x2c) {
            this.ws();
            this.key(frame);
            break;
          }
          if (next !== 0x7d /* } */) this.fail("expected , or }");
          members = frame.members;
          value = writeObject(members);
        }
        stack.pop();
      }
      this.ws();
    }
  }

  /** Reads `"name" :` into frame.key, refusing a repeated name. */
  private key(frame: { keys: Set<string>; key: string }): void {
    if (this.text.charCodeAt(this.pos) !== 0x22) this.fail("expected a member name");
    const key = this.string();
    if (frame.keys.has(key)) this.refuse("duplicate_key");
    frame.keys.add(key);
    frame.key = key;
    this.ws();
    if (this.text.charCodeAt(this.pos++) !== 0x3a /* : */) this.fail("expected :");
    this.ws();
  }

  private string(): string {
    const s = this.text;
    let i = this.pos + 1;
    let out = "";
    let start = i;
    for (;;) {
      const c = s.charCodeAt(i);
      if (Number.isNaN(c)) this.fail("unterminated string");
      if (c === 0x22) break;
      if (c < 0x20) this.fail("control character in a string");
      if (c !== 0x5c /* \ */) {
        i++;
        continue;
      }
      out += s.slice(start, i);
      const e = s.charAt(i + 1);
      switch (e) {
        case '"': case "\\": case "/": out += e; break;
        case "b": out += "\b"; break;
        case "f": out += "\f"; break;
        case "n": out += "\n"; break;
        case "r": out += "\r"; break;
        case "t": out += "\t"; break;
        case "u": {
          const hex = s.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("bad \\u escape");
          out += String.fromCharCode(parseInt(hex, 16));
          i += 4;
          break;
        }
        default: this.fail("bad escape");
      }
      i += 2;
      start = i;
    }
    out += s.slice(start, i);
    this.pos = i + 1;
    if (!isWellFormed(out)) this.refuse("lone_surrogate");
    return out;
  }

  private number(): string {
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text);
    if (m === null) this.fail("bad number");
    const token = m[0];
    this.pos += token.length;
    const canonical = canonicalNumber(token);
    if (canonical !== undefined) return canonical;
    this.refuse(/[.eE]/.test(token) ? "non_finite" : "unsafe_integer");
    return "0"; // never written: the refusal stands

  }

  private literal(): string {
    for (const word of ["true", "false", "null"]) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return word;
      }
    }
    return this.fail(this.pos >= this.text.length ? "unexpected end" : "unexpected character");
  }

  private ws(): void {
    const s = this.text;
    let c = s.charCodeAt(this.pos);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = s.charCodeAt(++this.pos);
  }

  private refuse(code: RefusalCode): void {
    this.refusal ??= code;
  }

  private fail(why: string): never {
    throw new SyntaxFault(`${why} at offset ${this.pos}`);
  }
}

/**
 * The RFC 8785 form of a number token, or undefined when I-JSON refuses it:
 * an integer token (no fraction, no exponent) beyond ±(2^53-1), or a value
 * that overflows a double.
 */
function canonicalNumber(token: string): string | undefined {
  if (!/[.eE]/.test(token)) {
    const digits = token.charCodeAt(0) === 0x2d ? token.slice(1) : token;
    if (digits.length > MAX_SAFE.length || (digits.length === MAX_SAFE.length && digits > MAX_SAFE)) return undefined;
  }
  const n = Number(token);
  if (!Number.isFinite(n)) return undefined;
  return String(n); // ECMAScript Number.prototype.toString; -0 gives "0"
}

function writeObject(members: Member[]): string {
  // Default sort compares UTF-16 code units, the order RFC 8785 requires.
  members.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  let out = "{";
  for (let i = 0; i < members.length; i++) {
    const [k, v] = members[i]!;
    out += (i > 0 ? "," : "") + JSON.stringify(k) + ":" + v;
  }
  return out + "}";
}

/** Whether s holds no unpaired UTF-16 surrogate. */
function isWellFormed(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c > 0xdbff) return false;
    const d = s.charCodeAt(i + 1);
    if (!(d >= 0xdc00 && d <= 0xdfff)) return false;
    i++;
  }
  return true;
}

function refuse(code: RefusalCode, detail?: string): ArenaError {
  return new ArenaError(code, detail === undefined ? `canonicalize: ${code}` : `canonicalize: ${code}: ${detail}`);
}

/** Turns a GameResult into JSON text, refusing what JSON cannot carry. */
function resultText(result: GameResult): string {
  if (typeof result === "string") return result;
  if (result instanceof Uint8Array) {
    try {
      return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(result);
    } catch (e) {
      throw new ArenaError("invalid_json", "canonicalize: invalid_json: not valid UTF-8", { cause: e });
    }
  }
  let refusal: RefusalCode | undefined;
  let text: string | undefined;
  try {
    text = JSON.stringify(result, (_key, v: unknown) => {
      if (typeof v === "number" && !Number.isFinite(v)) refusal ??= "non_finite";
      if (typeof v === "bigint") {
        if (v > 9007199254740991n || v < -9007199254740991n) refusal ??= "unsafe_integer";
        return Number(v);
      }
      return v;
    });
  } catch (e) {
    throw new ArenaError("invalid_json", "canonicalize: invalid_json: the value has no JSON form", { cause: e });
  }
  if (refusal !== undefined) throw refuse(refusal);
  if (text === undefined) throw refuse("not_object", "the result is not a JSON object");
  return text;
}

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
export function canonicalize(json: GameResult): string {
  return writeObject(new Canonicalizer(resultText(json)).rootMembers());
}

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
export function canonicalResult(result: GameResult, keys: ResultKeys): string {
  const { matchId, sessionNonce, winner } = keys;
  if (typeof matchId !== "number" || !Number.isSafeInteger(matchId) || matchId <= 0) throw refuse("invalid_match");
  if (typeof sessionNonce !== "string" || sessionNonce === "") throw refuse("invalid_nonce");
  if (!isWellFormed(sessionNonce)) throw refuse("lone_surrogate", "in the session nonce");
  if (typeof winner !== "string" || !PLATFORM_ID.test(winner)) throw refuse("invalid_winner");
  const members = new Canonicalizer(resultText(result)).rootMembers();
  const merged = members.filter(([k]) => !(RESERVED_KEYS as readonly string[]).includes(k));
  merged.push(["matchId", String(matchId)], ["sessionNonce", JSON.stringify(sessionNonce)], ["winner", JSON.stringify(winner)]);
  return writeObject(merged);
}

/** Lowercase hex SHA-256 of the UTF-8 bytes of text (crypto.subtle). */
export async function sha256Hex(text: string | Uint8Array): Promise<string> {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  let hex = "";
  for (const b of digest) hex += b.toString(16).padStart(2, "0");
  return hex;
}

/** A canonical result and its resultHash, as sent in a submission. */
export interface CanonicalResult {
  canonical: string;
  sha256: string;
}

/** canonicalResult and sha256Hex together. */
export async function hashResult(result: GameResult, keys: ResultKeys): Promise<CanonicalResult> {
  const canonical = canonicalResult(result, keys);
  return { canonical, sha256: await sha256Hex(canonical) };
}
