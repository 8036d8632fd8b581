// Cross-check against the npm package canonicalize (RFC 8785's reference
// implementation in JS, a devDependency): every valid vector, and random
// objects, must come out byte for byte the same.
import assert from "node:assert/strict";
import { test } from "node:test";
import { canonicalResult, canonicalize } from "../dist/index.js";
import { loadVectors } from "../testkit/vectors.mjs";

let reference;
try {
  reference = (await import("canonicalize")).default;
} catch {
  reference = undefined;
}
const skip = reference === undefined ? "devDependency canonicalize not installed (run npm ci in client/typescript)" : false;

test("every valid vector agrees with canonicalize", { skip }, () => {
  const valid = loadVectors().filter((v) => v.canonical !== undefined);
  assert.ok(valid.length > 0);
  for (const v of valid) {
    // JSON.parse is exact for these: they hold no big integer, no duplicate
    // and no lone surrogate (such inputs are refusals).
    const obj = { ...JSON.parse(v.input), matchId: v.matchId, sessionNonce: v.sessionNonce, winner: v.winner };
    const mine = canonicalResult(v.input, v);
    assert.equal(mine, reference(obj), v.name);
    assert.equal(mine, v.canonical, v.name);
  }
});

/** A small deterministic PRNG (mulberry32), so a failure can be replayed. */
function prng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ["a", "b", "Z", "1", "10", "é", "ö", "€", "😀", "\ue000", "\ufb33", "\u0080", "\r", "\n", "\t", "\u0000", "\u001f", '"', "\\", "/", "\u2028", "\u2029", "a\u0301", "👩‍👩‍👧", "__proto__", " ", "<>&", "\u007f", "\ud7ff", "\uffff"];

function randomString(r) {
  let s = "";
  const n = Math.floor(r() * 4);
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(r() * PIECES.length)];
  return s;
}

function randomNumber(r) {
  switch (Math.floor(r() * 6)) {
    case 0: return Math.floor((r() - 0.5) * 2000);
    case 1: return Math.floor((r() - 0.5) * 2 * Number.MAX_SAFE_INTEGER);
    case 2: return (r() - 0.5) * 10 ** Math.floor(r() * 40 - 20);
    case 3: return (r() - 0.5) * 10 ** Math.floor(r() * 600 - 300);
    case 4: return [0, -0, 0.1 + 0.2, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, -Number.MIN_VALUE, 1e20, 123.456][Math.floor(r() * 10)];
    default: return Buffer.from(Array.from({ length: 8 }, () => Math.floor(r() * 256))).readDoubleBE(0);
  }
}

function randomValue(r, depth) {
  const k = Math.floor(r() * (depth > 3 ? 5 : 7));
  switch (k) {
    case 0: return null;
    case 1: return r() < 0.5;
    case 2: case 3: {
      const n = randomNumber(r);
      if (!Number.isFinite(n)) return 0;
      // JSON.stringify writes an integral double below 1e21 as an integer
      // token, which I-JSON refuses beyond 2^53-1 (tested elsewhere).
      let m = n;
      while (Number.isInteger(m) && Math.abs(m) > Number.MAX_SAFE_INTEGER && Math.abs(m) < 1e21) m /= 1e6;
      return m;
    }
    case 4: return randomString(r);
    case 5: return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
    default: return randomObject(r, depth + 1);
  }
}

function randomObject(r, depth) {
  const o = {};
  const n = Math.floor(r() * 6);
  for (let i = 0; i < n; i++) Object.defineProperty(o, randomString(r), { value: randomValue(r, depth), enumerable: true, writable: true, configurable: true });
  return o;
}

test("500 random objects agree with canonicalize, from text and from the value", { skip }, () => {
  const seed = 20261127;
  const r = prng(seed);
  for (let i = 0; i < 500; i++) {
    const obj = randomObject(r, 0);
    const want = reference(obj);
    // Pretty-printed text exercises the tokenizer's whitespace too.
    assert.equal(canonicalize(JSON.stringify(obj, null, i % 3)), want, `seed ${seed}, object ${i}: ${JSON.stringify(obj)}`);
    assert.equal(canonicalize(obj), want, `seed ${seed}, object ${i}`);
  }
});
