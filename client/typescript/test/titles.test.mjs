// Title endpoints: list, challenge, respond, volunteer.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ArenaClient } from "../dist/index.js";
import { P1, P3, startArena } from "../testkit/fakearena.mjs";

test("titles: the calls and their answers", async () => {
  const player = (id) => ({ platformId: id, personaName: "p", avatarUrl: "" });
  const challenge = { id: 4, titleId: 1, challenger: player(P3), holder: player(P1), status: "pending", at: "2026-11-27T16:00:00Z", respondedAt: null, matchId: null };
  const arena = await startArena({
    "GET /api/v1/titles": { status: 200, json: { titles: [{ id: 1, slug: "crown", name: "Crown", holder: player(P1), lineage: [] }] } },
    "POST /api/v1/titles/1/challenge": [{ status: 200, json: challenge }, { status: 409, json: { error: "title_vacant_use_coronation" } }],
    "POST /api/v1/title-challenges/4/respond": { status: 200, json: { ...challenge, status: "accepted", matchId: 77 } },
    "POST /api/v1/titles/2/volunteer": { status: 200, json: { titleId: 2, volunteer: player(P3), position: 1, matchId: null } },
  });
  try {
    const c = new ArenaClient({ baseUrl: arena.base, mockSteamId: P3 });
    assert.deepEqual((await c.titles.list()).map((t) => [t.slug, t.holder.platformId]), [["crown", P1]]);
    assert.deepEqual(await c.titles.challenge(1), challenge);
    await assert.rejects(c.titles.challenge(1), (e) => e.code === "title_vacant_use_coronation" && e.status === 409);
    assert.equal((await c.titles.respond(4, true)).matchId, 77);
    assert.deepEqual(JSON.parse(arena.to("POST /api/v1/title-challenges/4/respond")[0].body), { accept: true });
    assert.equal((await c.titles.volunteer(2)).position, 1);
  } finally {
    await arena.close();
  }
});
