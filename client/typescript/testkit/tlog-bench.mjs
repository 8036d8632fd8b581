// node testkit/tlog-bench.mjs [N]: the time verifyTiles takes over a log of N
// entries (default 65536) served by the in-process fake arena: tiles built
// and a checkpoint signed here with node:crypto.
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { startArena } from "./fakearena.mjs";
import { tilePath, verifyTiles } from "../dist/index.js";
const N = Number(process.argv[2] ?? 65536);
const h = (...p) => createHash("sha256").update(Buffer.concat(p)).digest();
const entries = Array.from({ length: N }, (_, i) => Buffer.from(JSON.stringify({ seq: i + 1, type: "match.decided", data: { p1: "76561198000000001", n: i } })));
const levels = [entries.map((e) => h(Buffer.from([0]), e))];
while (levels.at(-1).length > 1) { const b = levels.at(-1), l = []; for (let i = 0; i + 1 < b.length; i += 2) l.push(h(Buffer.from([1]), b[i], b[i + 1])); levels.push(l); }
const parts = []; let off = 0;
for (let k = levels.length - 1; k >= 0; k--) { const s = 2 ** k; if (N - off >= s) { parts.push(levels[k][off / s]); off += s; } }
let root = parts.pop(); while (parts.length) root = h(Buffer.from([1]), parts.pop(), root);
const routes = {};
for (let t = 0; t * 256 < N; t++) { const w = Math.min(256, N - t * 256); routes[`GET /log/${tilePath(-1, t, w)}`] = { status: 200, text: Buffer.concat(entries.slice(t * 256, t * 256 + w).flatMap((e) => [Buffer.from([e.length >> 8, e.length & 255]), e])) }; }
for (let L = 0; 8 * L < levels.length; L++) { const hs = levels[8 * L]; for (let t = 0; t * 256 < hs.length; t++) { const w = Math.min(256, hs.length - t * 256); routes[`GET /log/${tilePath(L, t, w)}`] = { status: 200, text: Buffer.concat(hs.slice(t * 256, t * 256 + w)) }; } }
const { publicKey, privateKey } = generateKeyPairSync("ed25519");
const raw = publicKey.export({ format: "der", type: "spki" }).subarray(12);
const origin = "bench.example/log";
const text = `${origin}\n${N}\n${root.toString("base64")}\n`;
const kh = h(Buffer.from(origin + "\n"), Buffer.from([1]), raw).subarray(0, 4);
routes["GET /log/checkpoint"] = { status: 200, text: `${text}\n\u2014 ${origin} ${Buffer.concat([kh, sign(null, Buffer.from(text), privateKey)]).toString("base64")}\n` };
routes["GET /api/v1"] = { status: 200, json: { log: { publicKey: raw.toString("base64") } } };
const arena = await startArena(routes);
const t0 = performance.now();
const r = await verifyTiles({ base: arena.base });
console.log(JSON.stringify({ entries: N, requests: arena.requests.length, ms: Math.round(performance.now() - t0), treeSize: r.treeSize }));
await arena.close();
