// Settings of spec 4.4: defaults, clamps, validation, and how tickets and
// the disabled switch reach the wire.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ArenaClient, ArenaError, normalizeSettings, validateSettings } from "../dist/index.js";
import { P1, startArena } from "../testkit/fakearena.mjs";

const code = (c) => (e) => e instanceof ArenaError && e.code === c;

test("defaults", () => {
  const s = normalizeSettings({ baseUrl: "https://arena.example" });
  assert.deepEqual({ ...s }, {
    enabled: true, baseUrl: "https://arena.example", appId: "", maxSubmitAttempts: 3, autoDiscover: true,
    autoDiscoverIntervalSeconds: 60, mockSteamId: "", clientRole: "", enableReferee: false,
    refereeTraceSchema: "game.gameplay.v1", refereeRuleset: "standard",
  });
  assert.ok(Object.isFrozen(s));
});

test("clamps", () => {
  const cases = [
    [{ maxSubmitAttempts: 0 }, "maxSubmitAttempts", 1], [{ maxSubmitAttempts: -3 }, "maxSubmitAttempts", 1],
    [{ maxSubmitAttempts: 1 }, "maxSubmitAttempts", 1], [{ maxSubmitAttempts: 5 }, "maxSubmitAttempts", 5],
    [{ maxSubmitAttempts: 9 }, "maxSubmitAttempts", 5], [{ maxSubmitAttempts: 2.9 }, "maxSubmitAttempts", 2],
    [{ maxSubmitAttempts: NaN }, "maxSubmitAttempts", 3],
    [{ autoDiscoverIntervalSeconds: 1 }, "autoDiscoverIntervalSeconds", 15], [{ autoDiscoverIntervalSeconds: 15 }, "autoDiscoverIntervalSeconds", 15],
    [{ autoDiscoverIntervalSeconds: 120 }, "autoDiscoverIntervalSeconds", 120], [{ autoDiscoverIntervalSeconds: 600 }, "autoDiscoverIntervalSeconds", 600],
    [{ autoDiscoverIntervalSeconds: 601 }, "autoDiscoverIntervalSeconds", 600], [{ autoDiscoverIntervalSeconds: 0 }, "autoDiscoverIntervalSeconds", 15],
    [{ baseUrl: "https://a.example/" }, "baseUrl", "https://a.example"], [{ baseUrl: " https://a.example/x/// " }, "baseUrl", "https://a.example/x"],
  ];
  for (const [input, key, want] of cases) assert.equal(normalizeSettings(input)[key], want, JSON.stringify(input));
});

test("validation", () => {
  const ok = { baseUrl: "http://127.0.0.1:1", mockSteamId: P1 };
  validateSettings(normalizeSettings(ok));
  validateSettings(normalizeSettings({ ...ok, refereeTraceSchema: "chess.moves-2.v12", clientRole: "guest" }));
  validateSettings(normalizeSettings({ enabled: false })); // a disabled client needs no base URL
  const bad = [
    { ...ok, refereeTraceSchema: "Game.v1" }, { ...ok, refereeTraceSchema: "ab.v1" }, { ...ok, refereeTraceSchema: "game.gameplay.v0" },
    { ...ok, refereeTraceSchema: "game.gameplay" }, { ...ok, clientRole: "server" }, { ...ok, mockSteamId: "123" },
    { ...ok, baseUrl: "" }, { ...ok, baseUrl: "ftp://a.example" }, { ...ok, baseUrl: "arena.example" },
  ];
  for (const s of bad) assert.throws(() => validateSettings(normalizeSettings(s)), code("invalid_settings"), JSON.stringify(s));
  assert.throws(() => new ArenaClient({ ...ok, clientRole: "server" }), code("invalid_settings"));
  assert.throws(() => new ArenaClient({ baseUrl: "http://127.0.0.1:1" }), code("no_ticket"));
  new ArenaClient({ enabled: false });
});

test("tickets: mock header, a fresh one per request from the provider, and the AppID hint", async () => {
  const arena = await startArena({ "GET /api/v1/me/live-match": { status: 204 }, "GET /api/v1/me/upcoming-match": { status: 204 } });
  try {
    const mock = new ArenaClient({ baseUrl: arena.base + "/", mockSteamId: P1 });
    assert.equal(await mock.liveMatch(), null);
    assert.equal(arena.requests[0].headers.authorization, `Platform MOCK:${P1}`);
    assert.equal(arena.requests[0].headers["x-platform-appid"], undefined);

    let n = 0;
    const real = new ArenaClient({ baseUrl: arena.base, appId: "480", tickets: async () => `14000000${++n}abcdef` });
    assert.equal(await real.liveMatch(), null);
    assert.equal(await real.upcomingMatch(), null);
    assert.deepEqual(arena.requests.slice(1).map((r) => r.headers.authorization), ["Platform 140000001abcdef", "Platform 140000002abcdef"]);
    assert.equal(arena.requests[1].headers["x-platform-appid"], "480");

    const failing = new ArenaClient({ baseUrl: arena.base, tickets: () => { throw new Error("no steam"); } });
    await assert.rejects(failing.liveMatch(), code("no_ticket"));
    const malformed = new ArenaClient({ baseUrl: arena.base, tickets: () => "ab cd" });
    await assert.rejects(malformed.liveMatch(), code("no_ticket"));
    assert.equal(arena.requests.length, 3, "no request without a ticket");
  } finally {
    await arena.close();
  }
});

test("a disabled client sends nothing", async () => {
  const arena = await startArena({});
  try {
    const c = new ArenaClient({ enabled: false, baseUrl: arena.base, mockSteamId: P1 });
    for (const call of [() => c.liveMatch(), () => c.upcomingMatch(), () => c.ready(1), () => c.waitForLiveMatch(),
      () => c.submit({ result: "{}", winner: P1, opponentId: P1 }), () => c.recordings.mine()]) {
      await assert.rejects(call(), code("disabled"));
    }
    assert.equal(arena.requests.length, 0);
  } finally {
    await arena.close();
  }
});
