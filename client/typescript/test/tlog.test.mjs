// verifyReceipt and verifyTiles against client/testdata/tlog.json: a log
// built, signed and proved with golang.org/x/mod/sumdb/tlog and sumdb/note
// (client/tlog_vectors_test.go checks every case with x/mod), so the
// client is held to the third-party library, not to itself.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ArenaError, LogInvalidError, leafHash, nodeHash, tilePath, verifyCheckpoint, verifyInclusion, verifyReceipt, verifyTiles } from "../dist/index.js";
import { startArena } from "../testkit/fakearena.mjs";
import { loadTlog, tlogRoutes } from "../testkit/tlog.mjs";

const doc = loadTlog();

test("the vectors hold valid and tampered receipts and log cases", () => {
  assert.ok(doc.receipts.filter((r) => r.valid).length >= 10);
  assert.ok(doc.receipts.filter((r) => !r.valid).length >= 15);
  assert.ok(doc.logCases.filter((c) => !c.valid).length >= 10);
});

test("tile paths are x/mod's, in C2SP's form", () => {
  for (const p of doc.tilePaths) assert.equal(tilePath(p.level, p.n, p.width), p.path, JSON.stringify(p));
});

test("RFC 6962 hashing: the empty tree, a leaf, a node", async () => {
  const hex = (b) => Buffer.from(b).toString("hex");
  // RFC 6962 test vectors (certificate-transparency-go merkletree tests).
  assert.equal(hex(await leafHash(new Uint8Array())), "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d");
  const l = await leafHash(new Uint8Array([0]));
  assert.equal(hex(l), "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7");
  assert.equal(hex(await nodeHash(await leafHash(new Uint8Array()), l)), "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125");
});

test("an inclusion proof fails for an index or size out of range", async () => {
  const leaf = await leafHash(new Uint8Array([1]));
  assert.equal(await verifyInclusion(0, 1, leaf, [], leaf), true);
  assert.equal(await verifyInclusion(1, 1, leaf, [], leaf), false);
  assert.equal(await verifyInclusion(0, 0, leaf, [], leaf), false);
  assert.equal(await verifyInclusion(0, 1, leaf, [leaf], leaf), false);
});

for (const r of doc.receipts) {
  test(`receipt: ${r.name}`, async () => {
    const arena = r.needsTiles ? await startArena(tlogRoutes(doc)) : undefined;
    try {
      // The verifier key names the origin, as x/mod's note verifier does.
      const options = { receipt: r.proof, publicKey: doc.verifierKey, ...(arena ? { base: arena.base } : {}) };
      if (!r.valid) {
        await assert.rejects(verifyReceipt(options), (e) => e instanceof ArenaError && e.code === "receipt_invalid", r.name);
        return;
      }
      const v = await verifyReceipt(options);
      assert.deepEqual([v.index, v.treeSize, v.rootHash, v.origin], [r.index, r.treeSize, r.rootHash, doc.origin]);
      const entry = JSON.parse(new TextDecoder().decode(v.entry));
      assert.equal(entry.seq, r.index + 1, "the entry proved");
      // The bundle of the checkpoint's size; when it is a partial one the arena dropped, the full one.
      if (arena) {
        const want = r.treeSize === 300 ? ["/log/tile/entries/001.p/44", "/log/tile/entries/001"] : ["/log/tile/entries/001"];
        assert.deepEqual(arena.requests.map((q) => q.path), want);
      }
    } finally {
      await arena?.close();
    }
  });
}

test("the origin: a raw key accepts the one it signed, a given origin or verifier key only theirs", async () => {
  const other = doc.receipts.find((r) => r.name.includes("under another name"));
  const v = await verifyReceipt({ receipt: other.proof, publicKey: doc.publicKey });
  assert.equal(v.origin, "other.example/log", "signed by the log's key, no origin expected");
  for (const options of [{ publicKey: doc.publicKey, origin: doc.origin }, { publicKey: doc.verifierKey }]) {
    await assert.rejects(verifyReceipt({ receipt: other.proof, ...options }), (e) => e.code === "receipt_invalid" && /not "arena.example\/log"/.test(e.message));
  }
  await assert.rejects(verifyReceipt({ receipt: other.proof, publicKey: doc.verifierKey, origin: "x/log" }), (e) => e.code === "invalid_settings");
  const badHash = doc.verifierKey.replace(/\+[0-9a-f]{8}\+/, "+00000000+");
  await assert.rejects(verifyReceipt({ receipt: other.proof, publicKey: badHash }), (e) => e.code === "invalid_settings");
});

test("a receipt without --key takes the arena's log.publicKey; another key refuses it", async () => {
  const good = doc.receipts.find((r) => r.valid);
  const arena = await startArena(tlogRoutes(doc));
  try {
    const v = await verifyReceipt({ receipt: good.proof, base: arena.base });
    assert.equal(v.index, good.index);
    assert.deepEqual(arena.requests.map((q) => q.path), ["/api/v1"]);
  } finally {
    await arena.close();
  }
  // log.origin, when the arena gives it, is the origin expected.
  const other = doc.receipts.find((r) => r.name.includes("under another name"));
  const routes = tlogRoutes(doc);
  routes["GET /api/v1"].json.log.origin = doc.origin;
  const arena2 = await startArena(routes);
  try {
    await assert.rejects(verifyReceipt({ receipt: other.proof, base: arena2.base }), (e) => e.code === "receipt_invalid");
  } finally {
    await arena2.close();
  }
  // Another log's key (a valid Ed25519 key: the witness's in the vectors' cosignature).
  const witnessKey = "gTl3Dqh9F19Wo1Rmw0x+zMuNipG07jeiXfYPW4/Js5Q="; // Ed25519 public key of seed 32 bytes 0x02
  await assert.rejects(verifyReceipt({ receipt: good.proof, publicKey: witnessKey }), (e) => e instanceof ArenaError && e.code === "receipt_invalid");
  await assert.rejects(verifyReceipt({ receipt: good.proof, publicKey: "not base64" }), (e) => e instanceof ArenaError && e.code === "invalid_settings");
});

test("verifyCheckpoint: the log's checkpoints verify, a witness's cosignature is ignored", async () => {
  for (const [size, note] of Object.entries(doc.checkpoints)) {
    const cp = await verifyCheckpoint(note, doc.publicKey);
    assert.deepEqual([cp.origin, cp.treeSize], [doc.origin, Number(size)]);
  }
  assert.equal((await verifyCheckpoint(doc.checkpoint, doc.publicKey)).treeSize, doc.size);
  await assert.rejects(verifyCheckpoint(doc.checkpoint.replace("\n600\n", "\n601\n"), doc.publicKey), (e) => e.code === "receipt_invalid");
});

for (const c of doc.logCases) {
  test(`verifyTiles: ${c.name}`, async () => {
    const arena = await startArena(tlogRoutes(doc, { checkpoint: c.checkpoint || undefined, tiles: c.tiles }));
    try {
      const options = { base: arena.base, origin: doc.origin, ...(c.head ? { head: c.head } : {}) };
      if (!c.valid) {
        await assert.rejects(verifyTiles(options), (e) => e instanceof LogInvalidError && e.code === "log_invalid", c.name);
        return;
      }
      const t = await verifyTiles(options);
      assert.deepEqual([t.treeSize, t.origin, t.checkpoint], [doc.size, doc.origin, doc.checkpoint]);
      assert.equal(t.rootHash, doc.receipts[0].rootHash);
      const paths = arena.requests.map((q) => q.path).sort();
      assert.deepEqual(paths, ["/api/v1", "/log/checkpoint", ...Object.keys(doc.tiles).map((p) => `/log/${p}`)].sort(), "every tile read once");
    } finally {
      await arena.close();
    }
  });
}

test("verifyTiles: a partial tile that is gone is read from the full one", async () => {
  // The checkpoint of 300 names entries/001.p/44, 0/001.p/44 and 1/000.p/1: an
  // arena at 600 that dropped its partial tiles serves the full 001 ones.
  const level1 = Buffer.from(doc.tiles["tile/1/000.p/2"], "base64").subarray(0, 32).toString("base64");
  const routes = tlogRoutes(doc, { checkpoint: doc.checkpoints["300"], tiles: { "tile/1/000.p/1": level1 } });
  const arena = await startArena(routes);
  try {
    const t = await verifyTiles({ base: arena.base });
    assert.equal(t.treeSize, 300);
    const paths = arena.requests.map((q) => `${q.path} ${q.key in routes ? 200 : 404}`);
    for (const p of ["/log/tile/entries/001.p/44 404", "/log/tile/entries/001 200", "/log/tile/0/001.p/44 404", "/log/tile/0/001 200", "/log/tile/1/000.p/1 200"]) {
      assert.ok(paths.includes(p), `${p} in ${paths}`);
    }
  } finally {
    await arena.close();
  }
  // A full tile that is not the tree is refused all the same.
  const bad = tlogRoutes(doc, { checkpoint: doc.checkpoints["300"], tiles: { "tile/1/000.p/1": level1 } });
  const raw = Buffer.from(doc.tiles["tile/0/001"], "base64");
  raw[100] ^= 1; // a hash within the first 44
  bad["GET /log/tile/0/001"] = { status: 200, text: raw };
  const arena2 = await startArena(bad);
  try {
    await assert.rejects(verifyTiles({ base: arena2.base }), (e) => e instanceof LogInvalidError && /tile\/0\/001 is not the tree/.test(e.message));
  } finally {
    await arena2.close();
  }
});

test("verifyTiles: a 429 is read again after its Retry-After; a missing tile is the server's code", async () => {
  const routes = tlogRoutes(doc);
  const tile = routes["GET /log/tile/0/001"];
  let refusals = 2;
  routes["GET /log/tile/0/001"] = () => (refusals-- > 0 ? { status: 429, json: { error: "rate_limited" }, headers: { "retry-after": "3" } } : tile);
  const arena = await startArena(routes);
  try {
    const waits = [];
    const t = await verifyTiles({ base: arena.base, sleep: async (ms) => void waits.push(ms), apiKey: "apikey_0000000a_k" });
    assert.equal(t.treeSize, doc.size);
    assert.deepEqual(waits, [3000, 3000]);
    assert.ok(arena.requests.every((q) => q.headers.authorization === "Bearer apikey_0000000a_k"));
  } finally {
    await arena.close();
  }
  const gone = tlogRoutes(doc);
  delete gone["GET /log/tile/entries/001"];
  const arena2 = await startArena(gone);
  try {
    await assert.rejects(verifyTiles({ base: arena2.base }), (e) => e instanceof ArenaError && !(e instanceof LogInvalidError) && e.code === "no_route");
  } finally {
    await arena2.close();
  }
});
