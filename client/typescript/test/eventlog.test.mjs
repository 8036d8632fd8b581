// verifyLog against a fake arena serving a log built independently
// (testkit/eventlog.mjs): a good log verifies; each kind of tampering
// fails with log_invalid naming the seq where it starts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ArenaError, GENESIS_HASH, LogInvalidError, eventHash, verifyLog } from "../dist/index.js";
import { hashOf, makeLog, logRoutes } from "../testkit/eventlog.mjs";
import { startArena } from "../testkit/fakearena.mjs";

const log = makeLog(2345); // three pages of 1000

/** Runs verifyLog against an arena serving routes. */
async function verifyAgainst(routes, head) {
  const arena = await startArena(routes);
  try {
    return { head: await verifyLog({ base: arena.base, ...(head === undefined ? {} : { head }) }), arena };
  } finally {
    await arena.close();
  }
}

/** Asserts verifyLog fails with log_invalid at seq, the message matching re. */
async function refused(routes, seq, re, head) {
  await assert.rejects(verifyAgainst(routes, head), (e) => {
    assert.ok(e instanceof LogInvalidError, `LogInvalidError expected: ${e}`);
    assert.ok(e instanceof ArenaError);
    assert.equal(e.code, "log_invalid");
    assert.equal(e.seq, seq, e.message);
    assert.match(e.message, re);
    return true;
  });
}

/** The log's events, copied, with change applied to the event at seq. */
function tampered(seq, change) {
  return log.events.map((e) => (e.seq === seq ? change(structuredClone(e)) : e));
}

test("eventHash agrees with an independent implementation", async () => {
  for (const e of log.events.slice(0, 8)) assert.equal(await eventHash(e), e.hash);
  assert.equal(log.events[0].prevHash, GENESIS_HASH);
});

test("a good log verifies, page by page, up to its head", async () => {
  const { head, arena } = await verifyAgainst(logRoutes(log));
  assert.deepEqual(head, log.headAt(2345));
  const pages = arena.to("GET /api/v1/events").map((r) => r.query);
  assert.deepEqual(pages, ["?after=0&limit=1000", "?after=1000&limit=1000", "?after=2000&limit=1000"]);
  assert.ok(arena.requests.every((r) => r.headers.authorization === undefined), "no ticket is sent");
});

test("events after the head are not covered yet: the log verifies to the head", async () => {
  const { head } = await verifyAgainst(logRoutes(log, { head: log.headAt(1500) }));
  assert.equal(head.seq, 1500);
});

test("an empty log verifies; its head must be the genesis", async () => {
  const { head } = await verifyAgainst(logRoutes(log, { events: [] }));
  assert.deepEqual(head, log.signHead(0, GENESIS_HASH, ""));
  await refused(logRoutes(log, { events: [], head: log.signHead(0, "ab".repeat(32), "") }), 0, /empty log's head/);
});

test("a saved head the log extends verifies", async () => {
  for (const seq of [0, 1, 999, 1000, 1001, 2345]) {
    const { head } = await verifyAgainst(logRoutes(log), log.headAt(seq));
    assert.equal(head.seq, 2345, `saved head ${seq}`);
  }
});

test("a saved head: the walk starts at its event, not at seq 1", async () => {
  const arena = await startArena(logRoutes(log));
  try {
    const head = await verifyLog({ base: arena.base, head: log.headAt(1500) });
    assert.equal(head.seq, 2345);
    assert.deepEqual(arena.to("GET /api/v1/events").map((r) => r.query), ["?after=1499&limit=1", "?after=1500&limit=1000"]);
  } finally {
    await arena.close();
  }
});

test("a read answered 429 is repeated after its Retry-After, a bounded number of times", async () => {
  const routes = logRoutes(log);
  const pages = routes["GET /api/v1/events"];
  let refusals = 2;
  routes["GET /api/v1/events"] = (req, body, url) =>
    refusals-- > 0 ? { status: 429, json: { error: "rate_limited" }, headers: { "retry-after": "7" } } : pages(req, body, url);
  const arena = await startArena(routes);
  try {
    const waits = [];
    const sleep = async (ms) => { waits.push(ms); };
    const head = await verifyLog({ base: arena.base, sleep });
    assert.equal(head.seq, 2345);
    assert.deepEqual(waits, [7000, 7000]);
    refusals = 100;
    waits.length = 0;
    await assert.rejects(verifyLog({ base: arena.base, sleep, retries: 3 }), (e) => e instanceof ArenaError && !(e instanceof LogInvalidError) && e.code === "rate_limited");
    assert.deepEqual(waits, [7000, 7000, 7000]);
  } finally {
    await arena.close();
  }
});

test("a tampered data byte fails at its event", async () => {
  const events = tampered(1233, (e) => ({ ...e, data: { ...e.data, p1: e.data.p1.replace(/1$/, "2") } }));
  await refused(logRoutes(log, { events }), 1233, /event 1233's hash is [0-9a-f]{64}, its content hashes to/);
});

test("a tampered envelope member fails at its event", async () => {
  await refused(logRoutes(log, { events: tampered(7, (e) => ({ ...e, at: e.at.replace("Z", "+00:00") })) }), 7, /event 7's hash/);
  await refused(logRoutes(log, { events: tampered(8, (e) => ({ ...e, tournament: "other" })) }), 8, /event 8's hash/);
});

test("a gap fails at the missing seq", async () => {
  await refused(logRoutes(log, { events: log.events.filter((e) => e.seq !== 1500) }), 1500, /seq 1501 follows 1499/);
  await refused(logRoutes(log, { events: log.events.filter((e) => e.seq !== 1) }), 1, /seq 2 follows 0/);
});

test("a broken prevHash fails at its event, even with a hash recomputed over it", async () => {
  const events = tampered(42, (e) => {
    e.prevHash = "f".repeat(64);
    e.hash = hashOf(e);
    return e;
  });
  await refused(logRoutes(log, { events }), 42, /event 42's prevHash "f{64}" is not the hash before it/);
});

test("an event rewritten and rechained fails at the head it no longer matches", async () => {
  // A rewrite that recomputes every hash after it: the chain holds, the signed head does not.
  let prev = log.events[99].hash;
  const events = log.events.map((e) => {
    if (e.seq < 101) return e;
    const out = { ...e, prevHash: prev };
    if (e.seq === 101) out.data = { ...e.data, winner: e.data.p1 };
    out.hash = hashOf(out);
    prev = out.hash;
    return out;
  });
  await refused(logRoutes(log, { events }), 2345, /event 2345 is not the one the head signed/);
});

test("a bad signature fails at the head", async () => {
  const head = { ...log.headAt(2345) };
  head.signature = Buffer.from(Buffer.from(head.signature, "base64").map((b, i) => (i === 10 ? b ^ 1 : b))).toString("base64");
  await refused(logRoutes(log, { head }), 2345, /head's signature \(seq 2345\) does not verify/);
  await refused(logRoutes(log, { head: { ...head, signature: "not base64!" } }), 2345, /does not verify/);
  const other = makeLog(3);
  await refused(logRoutes(log, { head: other.headAt(3) }), 3, /head's signature \(seq 3\)/);
  // A head signed by the same key for another arena.
  const elsewhere = makeLog(3, "elsewhere");
  const meta = { status: 200, json: { tenant: { slug: "test-arena" }, log: { publicKey: elsewhere.publicKey } } };
  await refused({ ...logRoutes(elsewhere), "GET /api/v1": meta }, 3, /head's signature \(seq 3\)/);
});

test("a head that does not match the last event fails at its seq", async () => {
  const last = log.events.at(-1);
  await refused(logRoutes(log, { head: log.signHead(2345, "c".repeat(64), last.at) }), 2345, /event 2345 is not the one the head signed/);
  await refused(logRoutes(log, { head: log.signHead(2345, last.hash, "2026-11-02T00:00:00.000Z") }), 2345, /not the one the head signed/);
  await refused(logRoutes(log, { events: log.events.slice(0, 2000), head: log.headAt(2345) }), 2001, /the log ends at seq 2000, before its head \(seq 2345\)/);
});

test("a saved head that is not a prefix fails at its seq", async () => {
  const e = log.events[1199];
  await refused(logRoutes(log), 1200, /event 1200 is not the one the saved head signed/, log.signHead(1200, "d".repeat(64), e.at));
  await refused(logRoutes(log), 1200, /saved head signed/, log.signHead(1200, e.hash, "2026-01-01T00:00:00.000Z"));
  await refused(logRoutes(log), 3000, /saved head \(seq 3000\) is past the arena's head \(seq 2345\)/, log.signHead(3000, "d".repeat(64), e.at));
  await refused(logRoutes(log), 0, /saved empty head's hash/, log.signHead(0, "d".repeat(64), ""));
  await refused(logRoutes(log), 1200, /saved head's signature \(seq 1200\) does not verify/, { ...log.headAt(1200), hash: "e".repeat(64) });
});

test("answers of the wrong shape are bad_response, failures keep the server's code", async () => {
  const badResponse = (e) => e instanceof ArenaError && !(e instanceof LogInvalidError) && e.code === "bad_response";
  await assert.rejects(verifyAgainst({ ...logRoutes(log), "GET /api/v1": { status: 200, json: { tenant: { slug: "x" }, log: { publicKey: "AAAA" } } } }), badResponse);
  await assert.rejects(verifyAgainst({ ...logRoutes(log), "GET /api/v1/events/head": { status: 200, json: { seq: "1" } } }), badResponse);
  await assert.rejects(verifyAgainst(logRoutes(log, { events: tampered(5, (e) => ({ ...e, seq: "5" })) })), badResponse);
  await assert.rejects(verifyAgainst({ ...logRoutes(log), "GET /api/v1/events": { status: 429, json: { error: "rate_limited" } } }), (e) => e.code === "rate_limited" && e.status === 429);
  await assert.rejects(verifyLog({ base: "not a url" }), (e) => e.code === "invalid_settings");
});
