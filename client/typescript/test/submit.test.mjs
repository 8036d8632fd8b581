// The submit flow of spec 4.4 against a fake arena: what goes on the wire,
// retries and their backoff, final refusals, the guards that send nothing,
// draws, and lost answers resolved by the public match.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ArenaClient, ArenaError, canonicalResult, sha256Hex, submitBackoffSeconds } from "../dist/index.js";
import { P1, P2, P3, P4, liveMatch, recordingSleep, startArena } from "../testkit/fakearena.mjs";

const LIVE = "GET /api/v1/me/live-match";
const RESULT = "POST /api/v1/matches/12/result";
const PUBLIC = "GET /api/v1/matches/12";
const NOW = new Date("2026-11-27T16:05:09.123Z");
const code = (c) => (e) => e instanceof ArenaError && e.code === c;
const ok = (status, matchStatus) => ({ status: 200, json: { status, matchStatus } });
const publicMatch = (status, winner) => ({
  status: 200,
  json: {
    id: 12, stage: "playoff", round: 1, bracketSlot: 1, status, opensAt: null, closesAt: null,
    player1: { platformId: P1, personaName: "one", avatarUrl: "" }, player2: { platformId: P2, personaName: "two", avatarUrl: "" },
    winner: winner === null ? null : { platformId: winner, personaName: "w", avatarUrl: "" }, score: null, resultSource: "game_client", tournament: { slug: "cup", name: "Cup" },
  },
});

async function withArena(routes, options, fn) {
  const arena = await startArena(routes);
  const { waits, sleep } = recordingSleep();
  try {
    const client = new ArenaClient({ baseUrl: arena.base, mockSteamId: P1, now: () => NOW, sleep, ...options });
    await fn({ arena, client, waits });
  } finally {
    await arena.close();
  }
}

const INPUT = { result: '{"rounds":[3,1],"mode":"blitz","winner":"ignored"}', winner: P1, opponentId: P2 };

test("the submission on the wire", async () => {
  await withArena({ [LIVE]: { status: 200, json: liveMatch() }, [RESULT]: ok("pending", "awaiting_result") }, { clientRole: "host" }, async ({ arena, client, waits }) => {
    const out = await client.submit({ ...INPUT, score: { p1: 3, p2: 1 }, startedAt: new Date("2026-11-27T16:00:00Z") });
    const canonical = canonicalResult(INPUT.result, { matchId: 12, sessionNonce: "nonce-abc", winner: P1 });
    assert.equal(canonical, '{"matchId":12,"mode":"blitz","rounds":[3,1],"sessionNonce":"nonce-abc","winner":"76561198000000001"}');
    const hash = await sha256Hex(canonical);
    assert.deepEqual(out, { matchId: 12, result: canonical, resultHash: hash, status: "pending", matchStatus: "awaiting_result", attempts: 1 });
    const [post] = arena.to(RESULT);
    assert.equal(post.headers["content-type"], "application/json");
    assert.equal(post.headers.authorization, `Platform MOCK:${P1}`);
    assert.deepEqual(JSON.parse(post.body), {
      protocol: "svc.result.v3", result: canonical, resultHash: hash, clientRole: "host",
      startedAt: "2026-11-27T16:00:00Z", endedAt: "2026-11-27T16:05:09Z", score: { p1: 3, p2: 1 },
    });
    assert.equal(arena.to(LIVE).length, 1, "a fresh discovery before the submit");
    assert.deepEqual(waits, []);
  });
});

test("clientRole, startedAt and score are omitted when absent", async () => {
  await withArena({ [LIVE]: { status: 200, json: liveMatch() }, [RESULT]: ok("confirmed", "confirmed") }, {}, async ({ arena, client }) => {
    const out = await client.submit(INPUT);
    assert.equal(out.status, "confirmed");
    assert.deepEqual(Object.keys(JSON.parse(arena.to(RESULT)[0].body)), ["protocol", "result", "resultHash", "endedAt"]);
  });
});

test("retries on network failure and >= 500 with backoff 2^(max-left+1) s", async () => {
  assert.deepEqual([1, 2, 3, 4].map((k) => submitBackoffSeconds(5, 5 - k)), [4, 8, 16, 32]);
  await withArena({ [LIVE]: { status: 200, json: liveMatch() }, [RESULT]: [{ status: 503, json: { error: "internal" } }, "drop", ok("pending", "awaiting_result")] }, {}, async ({ arena, client, waits }) => {
    const out = await client.submit(INPUT);
    assert.equal(out.status, "pending");
    assert.equal(out.attempts, 3);
    assert.deepEqual(waits, [4000, 8000]);
    const bodies = arena.to(RESULT).map((r) => r.body.toString());
    assert.equal(new Set(bodies).size, 1, "every attempt posts the same bytes");
  });
});

test("retries exhausted: the last failure with the attempts made", async () => {
  await withArena({ [LIVE]: { status: 200, json: liveMatch() }, [RESULT]: { status: 502, text: "<html>bad gateway</html>" } }, { maxSubmitAttempts: 5, backoffScale: 0.5 }, async ({ arena, client, waits }) => {
    await assert.rejects(client.submit(INPUT), (e) => e instanceof ArenaError && e.code === "retries_exhausted" && e.status === 502 && e.attempts === 5 && e.cause.code === "http_502");
    assert.equal(arena.to(RESULT).length, 5);
    assert.deepEqual(waits, [2000, 4000, 8000, 16000]);
  });
  await withArena({ [LIVE]: { status: 200, json: liveMatch() }, [RESULT]: "drop" }, { maxSubmitAttempts: 1 }, async ({ arena, client, waits }) => {
    await assert.rejects(client.submit(INPUT), (e) => e.code === "retries_exhausted" && e.status === 0 && e.attempts === 1 && e.cause.code === "network_error");
    assert.equal(arena.to(RESULT).length, 1);
    assert.deepEqual(waits, []);
  });
});

test("backoffScale scales the real wait", async () => {
  const arena = await startArena({ [LIVE]: { status: 200, json: liveMatch() }, [RESULT]: [{ status: 500, json: { error: "internal" } }, ok("pending", "awaiting_result")] });
  try {
    const client = new ArenaClient({ baseUrl: arena.base, mockSteamId: P1, backoffScale: 0.02 });
    await client.submit(INPUT);
    const [a, b] = arena.to(RESULT);
    assert.ok(b.at - a.at >= 75, `waited ${b.at - a.at} ms, want about 80`);
  } finally {
    await arena.close();
  }
});

test("a 4xx is final", async () => {
  for (const [status, error] of [[409, "already_submitted"], [422, "hash_mismatch"], [409, "not_live"], [403, "not_participant"], [401, "missing_ticket"], [409, "already_resolved"]]) {
    await withArena({ [LIVE]: { status: 200, json: liveMatch() }, [RESULT]: { status, json: { error } } }, {}, async ({ arena, client, waits }) => {
      await assert.rejects(client.submit(INPUT), (e) => e instanceof ArenaError && e.code === error && e.status === status);
      assert.equal(arena.to(RESULT).length, 1, error);
      assert.equal(arena.to(PUBLIC).length, 0, "no look-up without an earlier failure");
      assert.deepEqual(waits, []);
    });
  }
});

test("an answer without a verdict is bad_response, not retried", async () => {
  for (const answer of [{ status: 204 }, { status: 200, text: "<html>ok</html>" }, { status: 200, json: { matchStatus: "live" } }]) {
    await withArena({ [LIVE]: { status: 200, json: liveMatch() }, [RESULT]: answer }, {}, async ({ arena, client }) => {
      await assert.rejects(client.submit(INPUT), code("bad_response"));
      assert.equal(arena.to(RESULT).length, 1);
    });
  }
});

test("guards that send nothing", async () => {
  const cases = [
    ["no_live_match", { status: 204 }, INPUT],
    ["invalid_live_match", { status: 200, json: liveMatch({ resultProtocol: "svc.result.v2" }) }, INPUT],
    ["invalid_live_match", { status: 200, json: liveMatch({ sessionNonce: "" }) }, INPUT],
    ["match_mismatch", { status: 200, json: liveMatch() }, { ...INPUT, matchId: 13 }],
    ["not_participant", { status: 200, json: liveMatch() }, { ...INPUT, localAccountId: P3 }],
    ["opponent_mismatch", { status: 200, json: liveMatch() }, { ...INPUT, opponentId: P3 }],
    ["winner_not_on_side", { status: 200, json: liveMatch() }, { ...INPUT, winner: P3 }],
    ["duplicate_key", { status: 200, json: liveMatch() }, { ...INPUT, result: '{"a":1,"a":1}' }],
    ["unsafe_integer", { status: 200, json: liveMatch() }, { ...INPUT, result: '{"replayId":9007199254740993}' }],
    ["invalid_score", { status: 200, json: liveMatch() }, { ...INPUT, score: { p1: -1, p2: 0 } }],
  ];
  for (const [want, live, input] of cases) {
    await withArena({ [LIVE]: live, [RESULT]: ok("pending", "awaiting_result") }, {}, async ({ arena, client }) => {
      await assert.rejects(client.submit(input), code(want), want);
      assert.equal(arena.to(RESULT).length, 0, want);
    });
  }
});

test("team mode: rosters decide sides, the opponent guard is off", async () => {
  const team = liveMatch({ teamMinPlayers: 2, teamMaxPlayers: 2, p1Roster: [P1, P3], p2Roster: [P2, P4] });
  await withArena({ [LIVE]: { status: 200, json: team }, [RESULT]: ok("pending", "awaiting_result") }, { mockSteamId: P3 }, async ({ arena, client }) => {
    const out = await client.submit({ ...INPUT, opponentId: P4, winner: P1 });
    assert.equal(out.status, "pending");
    assert.equal(JSON.parse(JSON.parse(arena.to(RESULT)[0].body).result).winner, P1);
  });
});

test("an empty winner is a draw: nothing is sent, not even discovery", async () => {
  await withArena({ [LIVE]: { status: 200, json: liveMatch() } }, {}, async ({ arena, client }) => {
    assert.deepEqual(await client.submit({ ...INPUT, winner: "" }), { status: "draw" });
    assert.equal(arena.requests.length, 0);
  });
});

test("lost answer: already_resolved after a failure, decided for our winner", async () => {
  await withArena({ [LIVE]: { status: 200, json: liveMatch() }, [RESULT]: ["drop", { status: 409, json: { error: "already_resolved" } }], [PUBLIC]: publicMatch("confirmed", P1) }, {}, async ({ arena, client, waits }) => {
    const out = await client.submit(INPUT);
    assert.equal(out.status, "decided");
    assert.equal(out.matchStatus, "confirmed");
    assert.equal(out.winner, P1);
    assert.equal(out.attempts, 2);
    assert.deepEqual(waits, [4000]);
    const [lookup] = arena.to(PUBLIC);
    assert.equal(lookup.headers.authorization, undefined, "the public match needs no ticket");
  });
});

test("lost answer: decided the other way keeps the server's code", async () => {
  await withArena({ [LIVE]: { status: 200, json: liveMatch() }, [RESULT]: [{ status: 500, json: { error: "internal" } }, { status: 409, json: { error: "already_resolved" } }], [PUBLIC]: publicMatch("forfeited", P2) }, {}, async ({ arena, client }) => {
    await assert.rejects(client.submit(INPUT), (e) => e.code === "already_resolved" && e.status === 409);
    assert.equal(arena.to(PUBLIC).length, 1);
  });
  await withArena({ [LIVE]: { status: 200, json: liveMatch() }, [RESULT]: ["drop", { status: 409, json: { error: "already_resolved" } }], [PUBLIC]: { status: 404, json: { error: "match_not_found" } } }, {}, async ({ client }) => {
    await assert.rejects(client.submit(INPUT), code("already_resolved"));
  });
});

test("lost answer: forfeited to a teammate counts as our side", async () => {
  const team = liveMatch({ teamMinPlayers: 2, teamMaxPlayers: 2, p1Roster: [P1, P3], p2Roster: [P2, P4] });
  await withArena({ [LIVE]: { status: 200, json: team }, [RESULT]: ["drop", { status: 409, json: { error: "already_resolved" } }], [PUBLIC]: publicMatch("forfeited", P3) }, {}, async ({ client }) => {
    const out = await client.submit(INPUT);
    assert.deepEqual([out.status, out.matchStatus, out.winner], ["decided", "forfeited", P3]);
  });
});

test("lost answer: a duplicate after a failure", async () => {
  await withArena({ [LIVE]: { status: 200, json: liveMatch() }, [RESULT]: ["drop", ok("duplicate", "confirmed")], [PUBLIC]: publicMatch("confirmed", P1) }, {}, async ({ client }) => {
    const out = await client.submit(INPUT);
    assert.deepEqual([out.status, out.matchStatus, out.winner], ["decided", "confirmed", P1]);
  });
  await withArena({ [LIVE]: { status: 200, json: liveMatch() }, [RESULT]: [{ status: 504, text: "" }, ok("duplicate", "awaiting_result")], [PUBLIC]: publicMatch("awaiting_result", null) }, {}, async ({ client }) => {
    const out = await client.submit(INPUT);
    assert.deepEqual([out.status, out.matchStatus], ["duplicate", "awaiting_result"]);
  });
  // Decided the other way (an admin's forfeit): the duplicate answer stands.
  await withArena({ [LIVE]: { status: 200, json: liveMatch() }, [RESULT]: ["drop", ok("duplicate", "forfeited")], [PUBLIC]: publicMatch("forfeited", P2) }, {}, async ({ arena, client }) => {
    const out = await client.submit(INPUT);
    assert.deepEqual([out.status, out.matchStatus, out.winner], ["duplicate", "forfeited", undefined]);
    assert.equal(arena.to(PUBLIC).length, 1);
  });
  // A duplicate on the first attempt is the server's plain answer: no look-up.
  await withArena({ [LIVE]: { status: 200, json: liveMatch() }, [RESULT]: ok("duplicate", "awaiting_result") }, {}, async ({ arena, client }) => {
    const out = await client.submit(INPUT);
    assert.equal(out.status, "duplicate");
    assert.equal(arena.to(PUBLIC).length, 0);
  });
});

test("aborting stops the backoff at once", async () => {
  const arena = await startArena({ [LIVE]: { status: 200, json: liveMatch() }, [RESULT]: { status: 503, json: { error: "internal" } } });
  try {
    // A 40 s first backoff, so only the abort can end the wait in time.
    const client = new ArenaClient({ baseUrl: arena.base, mockSteamId: P1, backoffScale: 10 });
    const ctrl = new AbortController();
    const started = Date.now();
    const pending = client.submit(INPUT, { signal: ctrl.signal });
    setTimeout(() => ctrl.abort(new Error("game closed")), 100);
    await assert.rejects(pending, /game closed/);
    assert.ok(Date.now() - started < 20000, "did not wait the 40 s backoff");
    assert.equal(arena.to(RESULT).length, 1);
  } finally {
    await arena.close();
  }
});

test("a submission on the held match sends no discovery", async () => {
  await withArena({ [LIVE]: { status: 200, json: liveMatch() }, [RESULT]: ok("pending", "awaiting_result") }, {}, async ({ arena, client }) => {
    const held = await client.liveMatch();
    const before = arena.to(LIVE).length;
    const out = await client.submit({ ...INPUT, held });
    assert.equal(out.status, "pending");
    assert.equal(arena.to(LIVE).length, before, "the held match stands for discovery's answer");
    assert.equal(arena.to(RESULT).length, 1);
    const canonical = canonicalResult(INPUT.result, { matchId: 12, sessionNonce: "nonce-abc", winner: P1 });
    assert.equal(JSON.parse(arena.to(RESULT)[0].body).result, canonical, "the same bytes as after a fresh discovery");
    await assert.rejects(client.submit({ ...INPUT, opponentId: P3, held }), code("opponent_mismatch"), "the guards run on it");
    await assert.rejects(client.submit({ ...INPUT, held, matchId: 12, game: 2 }), code("match_mismatch"), "another game than the held one");
    assert.equal(arena.to(RESULT).length, 1, "nothing more sent");
  });
});
