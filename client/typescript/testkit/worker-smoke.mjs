// A Worker that exercises the library under workerd (see
// test/workers.test.mjs): canonical form and SHA-256 (crypto.subtle), a
// replay file through CompressionStream / DecompressionStream, the
// client's fetch against the arena named by the ARENA binding, and the
// verification of that arena's event log (SHA-256 and Ed25519), and of the
// transparency log and a receipt served by the arena named by TLOG.
import { ArenaClient, ReplayWriter, canonicalResult, readReplayHeader, sha256Hex, verifyLog, verifyReceipt, verifyTiles } from "../dist/index.js";

export default {
  async fetch(request, env) {
    const input = await request.text();
    const canonical = canonicalResult(input, { matchId: 42, sessionNonce: "nonce-abc", winner: "76561198000000001" });
    const w = new ReplayWriter();
    w.append(0, "match_started");
    const header = await readReplayHeader(await w.finish({ scope: "public", gameBuild: "workerd", durationMs: 1 }));
    const client = new ArenaClient({ baseUrl: env.ARENA, mockSteamId: "76561198000000001" });
    const live = await client.liveMatch();
    const head = await verifyLog({ base: env.ARENA });
    const tree = await verifyTiles({ base: env.TLOG });
    const receipt = await verifyReceipt({ receipt: await (await fetch(`${env.TLOG}/receipt`)).text(), base: env.TLOG });
    return Response.json({ canonical, sha256: await sha256Hex(canonical), header, live, head,
      tree: { treeSize: tree.treeSize, rootHash: tree.rootHash }, receipt: { index: receipt.index, rootHash: receipt.rootHash } });
  },
};
