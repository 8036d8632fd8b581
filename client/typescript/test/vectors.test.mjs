// Every entry of the shared vectors file through canonicalResult + sha256Hex.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ArenaError, canonicalResult, sha256Hex } from "../dist/index.js";
import { loadVectors, utf8Hex } from "../testkit/vectors.mjs";

const vectors = loadVectors();

test("the vectors file has at least 80 entries, each with canonical or refuse", () => {
  assert.ok(vectors.length >= 80, `only ${vectors.length} vectors`);
  const names = new Set();
  for (const v of vectors) {
    assert.ok(!names.has(v.name), `duplicate vector name ${v.name}`);
    names.add(v.name);
    assert.equal(typeof v.input, "string", v.name);
    assert.ok((v.canonical !== undefined) !== (v.refuse !== undefined), `${v.name}: exactly one of canonical or refuse`);
  }
});

for (const v of vectors) {
  test(`vector ${v.name}`, async () => {
    const keys = { matchId: v.matchId, sessionNonce: v.sessionNonce, winner: v.winner };
    if (v.refuse !== undefined) {
      assert.throws(() => canonicalResult(v.input, keys), (e) => e instanceof ArenaError && e.code === v.refuse, `${v.name}: expected refusal ${v.refuse}`);
      // The same from the UTF-8 bytes a game would hand over (text that
      // UTF-8 can carry: a raw lone surrogate cannot be encoded).
      if (v.input.isWellFormed()) assert.throws(() => canonicalResult(new TextEncoder().encode(v.input), keys), (e) => e instanceof ArenaError && e.code === v.refuse);
      return;
    }
    const canonical = canonicalResult(v.input, keys);
    assert.equal(canonical, v.canonical);
    assert.equal(utf8Hex(canonical), v.canonicalHex);
    assert.equal(await sha256Hex(canonical), v.sha256);
    assert.equal(canonicalResult(new TextEncoder().encode(v.input), keys), v.canonical);
  });
}
