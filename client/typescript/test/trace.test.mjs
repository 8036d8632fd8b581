// The referee trace recorder: inert unless active, stamps seq and tMs,
// canonical trace hashed like a result, posted with retries.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ArenaClient, ArenaError, sha256Hex } from "../dist/index.js";
import { P1, liveMatch, recordingSleep, startArena } from "../testkit/fakearena.mjs";

const TRACE = "POST /api/v1/matches/12/gameplay-trace";
const refMatch = (consentComplete = true) => liveMatch({ slot: 2, refereeM0: { enabled: true, consentComplete, traceProtocol: "svc.gameplay.v1", captureProtocol: "svc.capture.v1" } });

test("an inactive recorder records and sends nothing", async () => {
  const arena = await startArena({ [TRACE]: { status: 200, json: { status: "pending", training: "pending" } } });
  try {
    for (const [settings, match] of [[{ enableReferee: false }, refMatch()], [{ enableReferee: true }, refMatch(false)], [{ enableReferee: true }, liveMatch()]]) {
      const c = new ArenaClient({ baseUrl: arena.base, mockSteamId: P1, ...settings });
      const r = c.traceRecorder(match, () => 0);
      assert.equal(r.active, false);
      r.begin();
      r.turnStarted(1);
      await assert.rejects(r.endAndSubmit(1, "normal"), (e) => e instanceof ArenaError && e.code === "trace_inactive");
    }
    assert.equal(arena.requests.length, 0);
  } finally {
    await arena.close();
  }
});

test("events stamped with seq and the game clock, canonical trace posted with retries", async () => {
  const arena = await startArena({ [TRACE]: [{ status: 503, json: { error: "internal" } }, { status: 200, json: { status: "agreed", training: "usable" } }] });
  const { waits, sleep } = recordingSleep();
  try {
    const c = new ArenaClient({ baseUrl: arena.base, mockSteamId: P1, enableReferee: true, refereeRuleset: "bo3", refereeTraceSchema: "cards.trace.v2", sleep });
    let t = 0;
    const r = c.traceRecorder(refMatch(), () => t);
    assert.equal(r.active, true);
    r.turnStarted(1); // before begin: ignored
    r.begin();
    t = 1000.7; r.roundStarted(1);
    t = 1500; r.turnStarted(2);
    t = 1400; r.publicAction(2, "draw", "board"); // the clock went back: tMs does not
    t = 2000; r.scoreChanged(0, 1, 0);
    t = 2500; r.roundEnded(1, 1, 1, 0);
    t = 3000;
    const out = await r.endAndSubmit(1, "normal");
    assert.deepEqual(out, { status: "agreed", training: "usable" });
    r.turnStarted(1); // after the end: ignored
    const { trace, traceHash } = await r.trace();
    assert.equal(trace, '{"events":[' + [
      '{"seq":1,"tMs":0,"type":"match_started"}',
      '{"round":1,"seq":2,"tMs":1000,"type":"round_started"}',
      '{"actor":2,"seq":3,"tMs":1500,"type":"turn_started"}',
      '{"action":"draw","actor":2,"seq":4,"tMs":1500,"target":"board","type":"public_action"}',
      '{"actor":0,"p1Score":1,"p2Score":0,"seq":5,"tMs":2000,"type":"score_changed"}',
      '{"p1Score":1,"p2Score":0,"round":1,"seq":6,"tMs":2500,"type":"round_ended","winnerSlot":1}',
      '{"reason":"normal","seq":7,"tMs":3000,"type":"match_ended","winnerSlot":1}',
    ].join(",") + '],"matchId":12,"ruleset":"bo3","schema":"cards.trace.v2","sessionNonce":"nonce-abc"}');
    assert.equal(traceHash, await sha256Hex(trace));
    const posts = arena.to(TRACE);
    assert.equal(posts.length, 2);
    assert.deepEqual(JSON.parse(posts[1].body), { protocol: "svc.gameplay.v1", slot: 2, trace, traceHash });
    assert.deepEqual(waits, [4000]);
  } finally {
    await arena.close();
  }
});

test("end refuses an unknown reason and a trace that never began", async () => {
  const c = new ArenaClient({ baseUrl: "http://127.0.0.1:1", mockSteamId: P1, enableReferee: true });
  const r = c.traceRecorder(refMatch(), () => 0);
  r.begin();
  await assert.rejects(r.end(1, "rage_quit"), (e) => e.code === "invalid_trace");
  await assert.rejects(c.traceRecorder(refMatch(), () => 0).end(0, "timeout"), (e) => e.code === "invalid_trace");
});

test("setRefereeConsent posts the player's choice", async () => {
  const arena = await startArena({ "POST /api/v1/me/referee-consent": { status: 200, json: { granted: true } } });
  try {
    const c = new ArenaClient({ baseUrl: arena.base, mockSteamId: P1 });
    await c.setRefereeConsent(true);
    const [post] = arena.to("POST /api/v1/me/referee-consent");
    assert.deepEqual(JSON.parse(post.body), { granted: true });
    assert.equal(post.headers.authorization, `Platform MOCK:${P1}`);
  } finally {
    await arena.close();
  }
});
