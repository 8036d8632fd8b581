// Recordings and segments: the file the writer makes, init / PUT / finalize
// on the wire, retries, listing, fetching.
import assert from "node:assert/strict";
import { test } from "node:test";
import { gunzipSync, gzipSync } from "node:zlib";
import { ArenaClient, ArenaError, ReplayWriter, matchHeader, readReplayHeader } from "../dist/index.js";
import { P1, liveMatch, recordingSleep, startArena } from "../testkit/fakearena.mjs";

const code = (c) => (e) => e instanceof ArenaError && e.code === c;

async function sampleFile(header) {
  const w = new ReplayWriter();
  w.append(0, "match_started");
  w.append(1000, "public_action", { actor: 1, action: "play", target: "board" });
  w.append(1200, "hand", { cards: ["Ah", "Kd"] });
  assert.equal(w.events, 3);
  return w.finish(header);
}

test("ReplayWriter: one gzip file, the header line first, canonical lines", async () => {
  const file = await sampleFile(matchHeader(liveMatch(), "full", "1.2.3", 3300));
  assert.deepEqual([...file.subarray(0, 2)], [0x1f, 0x8b]);
  const lines = gunzipSync(file).toString("utf8").split("\n");
  assert.deepEqual(lines, [
    '{"durationMs":3300,"format":"game.replay.v1","gameBuild":"1.2.3","matchId":12,"scope":"full","sessionNonce":"nonce-abc"}',
    '{"tMs":0,"type":"match_started"}',
    '{"action":"play","actor":1,"tMs":1000,"target":"board","type":"public_action"}',
    '{"cards":["Ah","Kd"],"tMs":1200,"type":"hand"}',
    "",
  ]);
  const w = new ReplayWriter();
  assert.throws(() => w.append(-1, "x"), RangeError);
  assert.throws(() => w.append(1.5, "x"), RangeError);
  assert.throws(() => w.append(0, ""), RangeError);
  assert.throws(() => w.append(0, "x", { bad: NaN }), code("non_finite"));
  await w.finish({ scope: "public", gameBuild: "b", durationMs: 0 });
  assert.throws(() => w.append(0, "late"), /after finish/);
});

test("readReplayHeader: match, casual, segment, a two-member file, and refusals", async () => {
  assert.deepEqual(await readReplayHeader(await sampleFile(matchHeader(liveMatch(), "public", "b", 10))),
    { scope: "public", gameBuild: "b", durationMs: 10, matchId: 12, sessionNonce: "nonce-abc" });
  assert.deepEqual(await readReplayHeader(await sampleFile({ scope: "public", gameBuild: "c", durationMs: 5 })), { scope: "public", gameBuild: "c", durationMs: 5 });
  assert.deepEqual(await readReplayHeader(await sampleFile({ scope: "full", gameBuild: "s", durationMs: 9, matchId: 12, sessionNonce: "n", segmentSeq: 2, baseTMs: 6000 })),
    { scope: "full", gameBuild: "s", durationMs: 9, matchId: 12, sessionNonce: "n", segmentSeq: 2, baseTMs: 6000 });
  // The Go writer's layout: a header member, then an events member.
  const two = Buffer.concat([gzipSync('{"format":"game.replay.v1","scope":"public","gameBuild":"go","durationMs":7}\n'), gzipSync('{"tMs":0,"type":"match_started"}\n')]);
  assert.equal((await readReplayHeader(two)).gameBuild, "go");
  await assert.rejects(readReplayHeader(new TextEncoder().encode("not gzip at all")), code("not_replay"));
  await assert.rejects(readReplayHeader(gzipSync('{"format":"other.v1"}\n')), code("not_replay"));
  await assert.rejects(readReplayHeader(gzipSync("garbage\n")), code("not_replay"));
});

test("recordings.submit: init from the header, PUT to the upload URL, finalize", async () => {
  let arena;
  const ready = { id: 7, matchId: 12, game: 1, scope: "full", visibility: "private", gameBuild: "1.2.3", durationMs: 3300, byteSize: 0, state: "ready", uploaderPlatformId: P1, createdAt: "2026-11-27T16:00:00Z" };
  arena = await startArena({
    "POST /api/v1/matches/12/recording/init": () => ({ status: 200, json: { recordingId: 7, upload: { url: `${arena.base}/api/v1/objects/rec/7?sig=abc`, local: true }, maxBytes: 2 << 20 } }),
    "PUT /api/v1/objects/rec/7": [{ status: 503, text: "busy" }, { status: 200, json: {} }],
    "POST /api/v1/recordings/7/finalize": { status: 200, json: ready },
  });
  const { waits, sleep } = recordingSleep();
  try {
    const c = new ArenaClient({ baseUrl: arena.base, mockSteamId: P1, sleep });
    const file = await sampleFile(matchHeader(liveMatch(), "full", "1.2.3", 3300));
    assert.deepEqual(await c.recordings.submit(file), ready);
    const [init] = arena.to("POST /api/v1/matches/12/recording/init");
    assert.deepEqual(JSON.parse(init.body), { scope: "full", gameBuild: "1.2.3", durationMs: 3300, sessionNonce: "nonce-abc" }, "the game is the header's session");
    const puts = arena.to("PUT /api/v1/objects/rec/7");
    assert.equal(puts.length, 2);
    assert.equal(puts[1].headers["content-type"], "application/gzip");
    assert.equal(puts[1].headers.authorization, undefined, "the upload URL is the authorization");
    assert.equal(puts[1].query, "?sig=abc");
    assert.deepEqual(new Uint8Array(puts[1].body), file);
    assert.deepEqual(waits, [4000]);
    assert.equal(arena.to("POST /api/v1/recordings/7/finalize").length, 1);
  } finally {
    await arena.close();
  }
});

test("recordings.submit: casual init, a 4xx final, nothing sent for a non-replay", async () => {
  let arena;
  arena = await startArena({
    "POST /api/v1/me/recordings/init": () => ({ status: 200, json: { recordingId: 8, upload: { url: `${arena.base}/up/8`, local: true }, maxBytes: 2 << 20 } }),
    "PUT /up/8": { status: 200, json: {} },
    "POST /api/v1/recordings/8/finalize": { status: 422, json: { error: "header_mismatch" } },
  });
  try {
    const c = new ArenaClient({ baseUrl: arena.base, mockSteamId: P1 });
    await assert.rejects(c.recordings.submit(await sampleFile({ scope: "public", gameBuild: "c", durationMs: 5 })), (e) => e.code === "header_mismatch" && e.status === 422);
    assert.equal(arena.to("POST /api/v1/me/recordings/init").length, 1);
    assert.deepEqual(JSON.parse(arena.to("POST /api/v1/me/recordings/init")[0].body), { scope: "public", gameBuild: "c", durationMs: 5 }, "a casual init names no game");
    assert.equal(arena.to("POST /api/v1/recordings/8/finalize").length, 1, "a 4xx is not retried");
    const before = arena.requests.length;
    await assert.rejects(c.recordings.submit(new Uint8Array([1, 2, 3])), code("not_replay"));
    assert.equal(arena.requests.length, before);
  } finally {
    await arena.close();
  }
});

test("recordings: list, fetch with a token, share, download", async () => {
  let arena;
  const rec = { id: 3, matchId: null, scope: "public", visibility: "link", gameBuild: "b", durationMs: 1, byteSize: 20, state: "ready", uploaderPlatformId: P1, createdAt: "2026-11-27T16:00:00Z" };
  arena = await startArena({
    "GET /api/v1/me/recordings": { status: 200, json: { recordings: [rec] } },
    "GET /api/v1/recordings/3": (req, body, url) => ({ status: 200, json: { url: `${arena.base}/dl/3?token=${url.searchParams.get("token") ?? ""}` } }),
    "POST /api/v1/recordings/3/share": { status: 200, json: { token: "tok/+", path: "/api/v1/recordings/3?token=tok%2F%2B" } },
    "GET /dl/3": { status: 200, text: "gzipbytes" },
    "GET /api/v1/recordings/4": { status: 402, json: { error: "plan_size_exceeded" } },
  });
  try {
    const c = new ArenaClient({ baseUrl: arena.base, mockSteamId: P1 });
    assert.deepEqual(await c.recordings.mine(), [rec]);
    assert.deepEqual(await c.recordings.share(3), { token: "tok/+", path: "/api/v1/recordings/3?token=tok%2F%2B" });
    const url = await c.recordings.fetchUrl(3, "tok/+");
    assert.equal(arena.to("GET /api/v1/recordings/3")[0].query, "?token=tok%2F%2B");
    assert.equal(new TextDecoder().decode(await c.recordings.download(url)), "gzipbytes");
    await assert.rejects(c.recordings.fetchUrl(4), (e) => e.code === "plan_size_exceeded" && e.status === 402);
  } finally {
    await arena.close();
  }
});

test("segments: init, PUT, finalize, and the released list", async () => {
  let arena;
  arena = await startArena({
    "POST /api/v1/recordings/9/segments/init": () => ({ status: 200, json: { recordingId: 9, seq: 2, upload: { url: `${arena.base}/seg/9/2?sig=s`, local: true }, maxBytes: 1 << 20 } }),
    "PUT /seg/9/2": ["drop", { status: 200, json: {} }],
    "POST /api/v1/recordings/9/segments/2/finalize": { status: 200, json: { seq: 2 } },
    "GET /api/v1/recordings/9/segments": { status: 200, json: { state: "live", segments: [{ seq: 2, url: "https://objects.example/s2" }] } },
    "POST /api/v1/recordings/10/segments/init": { status: 409, json: { error: "recording_ended" } },
  });
  const { sleep } = recordingSleep();
  try {
    const c = new ArenaClient({ baseUrl: arena.base, mockSteamId: P1, sleep });
    const file = await sampleFile({ scope: "full", gameBuild: "s", durationMs: 9, matchId: 12, sessionNonce: "nonce-abc", segmentSeq: 2, baseTMs: 6000 });
    await c.recordings.submitSegment(9, 2, file);
    assert.deepEqual(JSON.parse(arena.to("POST /api/v1/recordings/9/segments/init")[0].body), { seq: 2 });
    assert.equal(arena.to("PUT /seg/9/2").length, 2);
    assert.equal(arena.to("POST /api/v1/recordings/9/segments/2/finalize").length, 1);
    const feed = await c.recordings.segments(9, 1, "t");
    assert.deepEqual(feed, { state: "live", segments: [{ seq: 2, url: "https://objects.example/s2" }] });
    assert.equal(arena.to("GET /api/v1/recordings/9/segments")[0].query, "?after=1&token=t");
    await assert.rejects(c.recordings.submitSegment(10, 0, file), (e) => e.code === "recording_ended");
  } finally {
    await arena.close();
  }
});

test("resubmitSpool: oldest name first, each file's disposition", async () => {
  let arena;
  let next = 20;
  arena = await startArena({
    "POST /api/v1/matches/12/recording/init": () => ({ status: 200, json: { recordingId: next, upload: { url: `${arena.base}/up/${next++}`, local: true }, maxBytes: 2 << 20 } }),
    "PUT /up/20": { status: 200, json: {} },
    "PUT /up/21": { status: 503, json: { error: "internal" } },
    "POST /api/v1/recordings/20/finalize": { status: 200, json: { id: 20, state: "ready" } },
    "POST /api/v1/me/recordings/init": { status: 429, json: { error: "quota_exceeded" } },
  });
  const { sleep } = recordingSleep();
  try {
    const c = new ArenaClient({ baseUrl: arena.base, mockSteamId: P1, sleep, maxSubmitAttempts: 2 });
    const match = await sampleFile(matchHeader(liveMatch(), "public", "b", 1));
    const casual = await sampleFile({ scope: "public", gameBuild: "c", durationMs: 1 });
    const out = await c.recordings.resubmitSpool([
      { name: "c.replay.gz", file: casual },
      { name: "b.replay.gz", file: match },
      { name: "a.replay.gz", file: match },
      { name: "0.replay.gz", file: new Uint8Array([1, 2]) },
    ]);
    assert.deepEqual(out.map((r) => [r.name, r.disposition]), [
      ["0.replay.gz", "refused"], ["a.replay.gz", "submitted"], ["b.replay.gz", "kept"], ["c.replay.gz", "refused"],
    ]);
    assert.equal(out[1].recording.id, 20);
    assert.equal(out[2].error.code, "retries_exhausted");
    assert.equal(out[2].error.cause.code, "internal");
    assert.equal(arena.to("PUT /up/21").length, 2);
  } finally {
    await arena.close();
  }
});
