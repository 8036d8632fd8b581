// Discovery, polling, upcoming and ready; the live match's helpers.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ArenaClient, ArenaError, castPolicy, isCasual, isTeam, isValidLiveMatch, sideOf } from "../dist/index.js";
import { P1, P2, P3, liveMatch, recordingSleep, startArena } from "../testkit/fakearena.mjs";

const LIVE = "GET /api/v1/me/live-match";

test("liveMatch: 204 is null, 200 the match as sent, other statuses the server's code", async () => {
  const arena = await startArena({ [LIVE]: [{ status: 204 }, { status: 200, json: liveMatch({ extra: "kept" }) }, { status: 401, json: { error: "missing_ticket" } }] });
  try {
    const c = new ArenaClient({ baseUrl: arena.base, mockSteamId: P1 });
    assert.equal(await c.liveMatch(), null);
    const m = await c.liveMatch();
    assert.equal(m.gameSeed, 4218965659, "an unsigned 32-bit seed above 2^31 arrives exact");
    assert.equal(m.extra, "kept");
    await assert.rejects(c.liveMatch(), (e) => e instanceof ArenaError && e.code === "missing_ticket" && e.status === 401 && e.path === "/api/v1/me/live-match");
  } finally {
    await arena.close();
  }
});

test("waitForLiveMatch polls past none, failures and invalid matches", async () => {
  const arena = await startArena({
    [LIVE]: [{ status: 204 }, { status: 503, json: { error: "internal" } }, "drop", { status: 200, text: "not json" },
      { status: 200, json: liveMatch({ slot: 3 }) }, { status: 200, json: liveMatch() }],
  });
  const { waits, sleep } = recordingSleep();
  const logs = [];
  try {
    const c = new ArenaClient({ baseUrl: arena.base, mockSteamId: P1, sleep, autoDiscoverIntervalSeconds: 20, log: (m) => logs.push(m) });
    const m = await c.waitForLiveMatch();
    assert.equal(m.matchId, 12);
    assert.equal(arena.to(LIVE).length, 6);
    assert.deepEqual(waits, [20000, 20000, 20000, 20000, 20000], "first poll at once, then every interval");
    assert.equal(logs.length, 4);
  } finally {
    await arena.close();
  }
});

test("waitForLiveMatch stops on a 4xx, and when auto-discovery is off", async () => {
  const arena = await startArena({ [LIVE]: [{ status: 204 }, { status: 401, json: { error: "missing_ticket" } }] });
  const { sleep } = recordingSleep();
  try {
    const c = new ArenaClient({ baseUrl: arena.base, mockSteamId: P1, sleep });
    await assert.rejects(c.waitForLiveMatch(), (e) => e.code === "missing_ticket");
    assert.equal(arena.to(LIVE).length, 2);

    const off = new ArenaClient({ baseUrl: arena.base, mockSteamId: P1, autoDiscover: false });
    const before = arena.requests.length;
    await assert.rejects(off.waitForLiveMatch(), (e) => e.code === "auto_discover_off");
    assert.equal(arena.requests.length, before);
  } finally {
    await arena.close();
  }
});

test("waitForLiveMatch: aborting during the interval wait", async () => {
  const arena = await startArena({ [LIVE]: { status: 204 } });
  try {
    const c = new ArenaClient({ baseUrl: arena.base, mockSteamId: P1, autoDiscoverIntervalSeconds: 600 });
    const ctrl = new AbortController();
    const started = Date.now();
    const waiting = c.waitForLiveMatch({ signal: ctrl.signal });
    setTimeout(() => ctrl.abort(new Error("left the lobby")), 100);
    await assert.rejects(waiting, /left the lobby/);
    assert.ok(Date.now() - started < 60000, "did not wait the 600 s interval");
    assert.equal(arena.to(LIVE).length, 1);
  } finally {
    await arena.close();
  }
});

test("upcoming and ready", async () => {
  const upcoming = { matchId: 12, slot: 2, opponentPlatformId: P1, opponentName: "one", tournament: { slug: "cup", name: "Cup" },
    windowOpensAt: "2026-11-27T16:00:00Z", windowClosesAt: "2026-11-27T18:00:00Z", windowOpen: true, selfReady: false, opponentReady: true };
  const arena = await startArena({
    "GET /api/v1/me/upcoming-match": [{ status: 200, json: upcoming }, { status: 204 }],
    "POST /api/v1/matches/12/ready": [{ status: 200, json: { status: "ready", live: true, opponentReady: true } }, { status: 409, json: { error: "window_not_open" } }],
  });
  try {
    const c = new ArenaClient({ baseUrl: arena.base, mockSteamId: P2 });
    assert.deepEqual(await c.upcomingMatch(), upcoming);
    assert.equal(await c.upcomingMatch(), null);
    assert.deepEqual(await c.ready(12), { status: "ready", live: true, opponentReady: true });
    await assert.rejects(c.ready(12), (e) => e.code === "window_not_open" && e.status === 409);
    const [post] = arena.to("POST /api/v1/matches/12/ready");
    assert.equal(post.body.length, 0);
  } finally {
    await arena.close();
  }
});

test("live match helpers: casual sessions, cast policy, sides", () => {
  assert.equal(isCasual(liveMatch()), false);
  assert.equal(isCasual(liveMatch({ gameSeed: 0 })), true);
  const noSeed = liveMatch();
  delete noSeed.gameSeed;
  assert.equal(isCasual(noSeed), true);
  assert.equal(castPolicy(liveMatch()), "delayed");
  assert.equal(castPolicy(liveMatch({ cast: { handMode: "", delaySeconds: 0 } })), "hidden");
  assert.equal(castPolicy(liveMatch({ cast: undefined })), "hidden");
  assert.equal(castPolicy(liveMatch({ cast: { handMode: "shown" } })), "shown");
  assert.equal(isValidLiveMatch(liveMatch()), true);
  for (const bad of [{ matchId: 0 }, { sessionNonce: "" }, { slot: 0 }, { resultProtocol: "svc.result.v2" }]) assert.equal(isValidLiveMatch(liveMatch(bad)), false);
  assert.equal(isValidLiveMatch(null), false);
  const m = liveMatch();
  assert.deepEqual([sideOf(m, P1), sideOf(m, P2), sideOf(m, P3), sideOf(m, "")], [1, 2, 0, 0]);
  const team = liveMatch({ teamMaxPlayers: 3, p1Roster: [P1, P3], p2Roster: [P2] });
  assert.equal(isTeam(team), true);
  assert.deepEqual([sideOf(team, P3), sideOf(team, P2), sideOf(team, "76561198000000009")], [1, 2, 0]);
});

test("refereeActive needs the setting, the arena's referee and complete consent", () => {
  const on = new ArenaClient({ baseUrl: "http://127.0.0.1:1", mockSteamId: P1, enableReferee: true });
  const off = new ArenaClient({ baseUrl: "http://127.0.0.1:1", mockSteamId: P1 });
  const ref = (consentComplete) => liveMatch({ refereeM0: { enabled: true, consentComplete, traceProtocol: "svc.gameplay.v1", captureProtocol: "svc.capture.v1" } });
  assert.equal(on.refereeActive(ref(true)), true);
  assert.equal(on.refereeActive(ref(false)), false);
  assert.equal(on.refereeActive(liveMatch()), false);
  assert.equal(off.refereeActive(ref(true)), false);
});
