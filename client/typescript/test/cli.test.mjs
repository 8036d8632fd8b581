// The shared command line: one JSON line on stdout, exit 0 / 1 / 2.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { canonicalResult, sha256Hex } from "../dist/index.js";
import { P1, P2, liveMatch, startArena } from "../testkit/fakearena.mjs";
import { loadTlog, tlogRoutes } from "../testkit/tlog.mjs";

const BIN = fileURLToPath(new URL("../bin/arena-client.mjs", import.meta.url));

/** Runs the CLI without blocking the fake arena living in this process. */
function cli(args, { stdin = "", env = {} } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ARENA_CLIENT_BACKOFF_SCALE: "0", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

const oneLine = (stdout) => {
  assert.match(stdout, /^[^\n]+\n$/, `one line expected: ${JSON.stringify(stdout)}`);
  return JSON.parse(stdout);
};

test("canonical: the line and exit 0", async () => {
  const input = '{"b":[1.0,"é\\u2028"],"a":{"y":1e21,"x":-0}}';
  const r = await cli(["canonical", "--match", "42", "-nonce", "nonce-abc", "--winner=76561198000000001"], { stdin: input });
  assert.equal(r.code, 0, r.stderr);
  const canonical = canonicalResult(input, { matchId: 42, sessionNonce: "nonce-abc", winner: P1 });
  assert.deepEqual(oneLine(r.stdout), { canonical, sha256: await sha256Hex(canonical) });
  assert.equal(canonical, '{"a":{"x":0,"y":1e+21},"b":[1,"é\u2028"],"matchId":42,"sessionNonce":"nonce-abc","winner":"76561198000000001"}');
});

test("canonical: refusals are one line and exit 2", async () => {
  const cases = [
    ['{"a":1,"a":2}', ["--match", "42", "--nonce", "n", "--winner", P1], "duplicate_key"],
    ['{"a":"\\ud800"}', ["--match", "42", "--nonce", "n", "--winner", P1], "lone_surrogate"],
    ['{"id":9007199254740993}', ["--match", "42", "--nonce", "n", "--winner", P1], "unsafe_integer"],
    ['{"x":1e400}', ["--match", "42", "--nonce", "n", "--winner", P1], "non_finite"],
    ["[1]", ["--match", "42", "--nonce", "n", "--winner", P1], "not_object"],
    ['{"a":', ["--match", "42", "--nonce", "n", "--winner", P1], "invalid_json"],
    [Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x22, 0x7d]), ["--match", "42", "--nonce", "n", "--winner", P1], "invalid_json"],
    ["{}", ["--match", "42", "--nonce", "n", "--winner", "123"], "invalid_winner"],
    ["{}", ["--match", "42", "--nonce", "", "--winner", P1], "invalid_nonce"],
    ["{}", ["--nonce", "n", "--winner", P1], "invalid_match"],
  ];
  for (const [stdin, flags, want] of cases) {
    const r = await cli(["canonical", ...flags], { stdin });
    assert.equal(r.code, 2, want);
    assert.deepEqual(oneLine(r.stdout), { error: want });
  }
});

test("usage errors: {\"error\":\"usage\"} and exit 2", async () => {
  const cases = [[], ["frobnicate"], ["canonical", "--bogus", "1"], ["canonical", "--match", "x"], ["live"], ["--as", "123", "live"],
    ["--as", P1, "ready"], ["--as", P1, "submit", "--score", "3-1"], ["--as", P1, "submit", "--role", "server"], ["--base"],
    ["canonical", "--match", "0"], ["canonical", "--match", "042"], ["canonical", "--match", "0x2a"], ["canonical", "--match", "+42"],
    ["canonical", "--match", "1e3"], ["canonical", "--match", " 42"], ["canonical", "--match", "9007199254740993"],
    ["--as", P1, "ready", "--match", "012"], ["--as", P1, "submit", "--match", "-12"],
    ["verify-log", "--retries", "-1"]];
  for (const args of cases) {
    const r = await cli(args);
    assert.equal(r.code, 2, args.join(" "));
    assert.deepEqual(oneLine(r.stdout), { error: "usage" });
    assert.match(r.stderr, /usage: arena-client/);
  }
  const badScale = await cli(["--as", P1, "live"], { env: { ARENA_CLIENT_BACKOFF_SCALE: "fast" } });
  assert.deepEqual([badScale.code, oneLine(badScale.stdout)], [2, { error: "usage" }]);
});

test("live, upcoming, ready against an arena", async () => {
  const arena = await startArena({
    "GET /api/v1/me/live-match": [{ status: 200, json: liveMatch() }, { status: 204 }],
    "GET /api/v1/me/upcoming-match": { status: 204 },
    "POST /api/v1/matches/12/ready": [{ status: 200, json: { status: "ready", live: false, opponentReady: false } }, { status: 409, json: { error: "window_closed" } }],
  });
  try {
    const live = await cli(["-base", arena.base, "-as", P1, "live"]);
    assert.equal(live.code, 0, live.stderr);
    assert.deepEqual(oneLine(live.stdout), liveMatch());
    assert.equal(arena.requests[0].headers.authorization, `Platform MOCK:${P1}`);
    assert.deepEqual(oneLine((await cli(["--base", arena.base, "--as", P1, "live"])).stdout), { none: true });
    assert.deepEqual(oneLine((await cli(["--base", arena.base, "--as", P1, "upcoming"])).stdout), { none: true });
    assert.deepEqual(oneLine((await cli(["--base", arena.base, "--as", P1, "ready", "--match", "12"])).stdout), { status: "ready", live: false, opponentReady: false });
    const refused = await cli(["--base", arena.base, "--as", P1, "ready", "--match", "12"]);
    assert.equal(refused.code, 1);
    assert.deepEqual(oneLine(refused.stdout), { error: "window_closed" });
  } finally {
    await arena.close();
  }
});

test("submit: the flow through the command line", async () => {
  const arena = await startArena({
    "GET /api/v1/me/live-match": { status: 200, json: liveMatch() },
    "POST /api/v1/matches/12/result": [{ status: 200, json: { status: "pending", matchStatus: "awaiting_result" } }, "drop", { status: 409, json: { error: "already_resolved" } }],
    "GET /api/v1/matches/12": { status: 200, json: { id: 12, status: "confirmed", winner: { platformId: P1, personaName: "one", avatarUrl: "" } } },
  });
  try {
    const base = ["--base", arena.base, "--as", P1, "submit", "--match", "12", "--opponent", P2];
    const first = await cli([...base, "--winner", P1, "--score", "3,1"], { stdin: '{"rounds":[3,1]}' });
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(oneLine(first.stdout), { status: "pending", matchStatus: "awaiting_result" });
    const body = JSON.parse(arena.to("POST /api/v1/matches/12/result")[0].body);
    assert.deepEqual(body.score, { p1: 3, p2: 1 });
    assert.equal(body.result, canonicalResult('{"rounds":[3,1]}', { matchId: 12, sessionNonce: "nonce-abc", winner: P1 }));

    // The next two answers: a dropped connection, then already_resolved.
    const lost = await cli([...base, "--winner", P1, "--result", '{"rounds":[3,1]}']);
    assert.equal(lost.code, 0, lost.stderr);
    assert.deepEqual(oneLine(lost.stdout), { status: "decided", matchStatus: "confirmed", winner: P1 });

    // No result at all is an empty object.
    arena.requests.length = 0;
    const empty = await cli([...base, "--winner", P1], { stdin: " \n" });
    assert.equal(empty.code, 1); // the scripted already_resolved, without an earlier failure
    assert.deepEqual(oneLine(empty.stdout), { error: "already_resolved" });
    assert.equal(JSON.parse(arena.to("POST /api/v1/matches/12/result")[0].body).result, canonicalResult("{}", { matchId: 12, sessionNonce: "nonce-abc", winner: P1 }));

    for (const winner of [["--winner", ""], []]) {
      const draw = await cli([...base, ...winner, "--result", "{}"]);
      assert.equal(draw.code, 0);
      assert.deepEqual(oneLine(draw.stdout), { status: "draw" });
    }

    const before = arena.to("POST /api/v1/matches/12/result").length;
    for (const [args, want] of [[["--winner", P1, "--result", "{}", "--opponent", "76561198000000009"], "opponent_mismatch"],
      [["--winner", P1, "--result", '{"a":1,"a":2}'], "duplicate_key"]]) {
      const r = await cli([...base, ...args]);
      assert.equal(r.code, 1, want);
      assert.deepEqual(oneLine(r.stdout), { error: want });
    }
    const other = await cli(["--base", arena.base, "--as", P1, "submit", "--match", "13", "--opponent", P2, "--winner", P1, "--result", "{}"]);
    assert.deepEqual([other.code, oneLine(other.stdout)], [1, { error: "match_mismatch" }]);
    assert.equal(arena.to("POST /api/v1/matches/12/result").length, before, "refusals post nothing");
  } finally {
    await arena.close();
  }
});

test("network failures: network_error, and retries_exhausted after every attempt", async () => {
  const arena = await startArena({
    "GET /api/v1/me/live-match": { status: 200, json: liveMatch() },
    "POST /api/v1/matches/12/result": { status: 503, json: { error: "internal" } },
    "GET /api/v1/me/upcoming-match": "drop",
  });
  try {
    const r = await cli(["--base", arena.base, "--as", P1, "submit", "--match", "12", "--opponent", P2, "--winner", P1, "--result", "{}"]);
    assert.deepEqual([r.code, oneLine(r.stdout)], [1, { error: "retries_exhausted" }]);
    assert.equal(arena.to("POST /api/v1/matches/12/result").length, 3);
    const down = await cli(["--base", arena.base, "--as", P1, "upcoming"]);
    assert.deepEqual([down.code, oneLine(down.stdout)], [1, { error: "network_error" }]);
  } finally {
    await arena.close();
  }
});

test("verify-log: the checkpoint as one line, a saved head extended, log_invalid, usage", async () => {
  const doc = loadTlog();
  const arena = await startArena(tlogRoutes(doc));
  const dir = mkdtempSync(join(tmpdir(), "arena-verify-log-"));
  try {
    const first = await cli(["verify-log", "--base", arena.base]);
    assert.equal(first.code, 0, first.stderr);
    const out = oneLine(first.stdout);
    assert.deepEqual(out, { treeSize: doc.size, rootHash: doc.receipts[0].rootHash, origin: doc.origin, checkpoint: doc.checkpoint });
    const saved = join(dir, "head.json");
    writeFileSync(saved, first.stdout);
    const again = await cli(["--base", arena.base, "verify-log", "--head", saved, "--origin", doc.origin]);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(oneLine(again.stdout), out);
    writeFileSync(saved, doc.checkpoints["300"]); // a checkpoint as GET /log/checkpoint serves it
    const older = await cli(["verify-log", "--base", arena.base, "--head", saved, "--key", doc.verifierKey]);
    assert.deepEqual([older.code, oneLine(older.stdout)], [0, out]);

    for (const c of doc.logCases.filter((c) => c.head !== undefined && !c.valid)) {
      writeFileSync(saved, JSON.stringify({ checkpoint: c.head }));
      const r = await cli(["verify-log", "--base", arena.base, "--head", saved, "--origin", doc.origin]);
      assert.deepEqual([r.code, oneLine(r.stdout)], [1, { error: "log_invalid" }], c.name);
      assert.match(r.stderr, /saved head/, c.name);
    }

    for (const [args, content] of [[["--head", join(dir, "none.json")]], [["--head", saved], "{not json"], [["--head", saved], '{"seq":1,"hash":"","at":"","signature":""}'],
      [["--head", saved], "{}"], [["extra"]], [["--as"]], [["--key", "not-a-key"]]]) {
      if (content !== undefined) writeFileSync(saved, content);
      const r = await cli(["verify-log", "--base", arena.base, ...args]);
      assert.deepEqual([r.code, oneLine(r.stdout)], [2, { error: "usage" }], args.join(" "));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await arena.close();
  }
  for (const c of doc.logCases.filter((c) => c.head === undefined && !c.valid)) {
    const bad = await startArena(tlogRoutes(doc, { checkpoint: c.checkpoint, tiles: c.tiles }));
    try {
      const r = await cli(["verify-log", "--base", bad.base]);
      assert.deepEqual([r.code, oneLine(r.stdout)], [1, { error: "log_invalid" }], c.name);
      assert.match(r.stderr, /transparency log: /);
    } finally {
      await bad.close();
    }
  }
});

test("verify-receipt: offline with --key, from the arena without; a tampered receipt is exit 1", async () => {
  const doc = loadTlog();
  const dir = mkdtempSync(join(tmpdir(), "arena-verify-receipt-"));
  const file = join(dir, "match.tlog-proof");
  try {
    const good = doc.receipts.find((r) => r.valid && r.index === 299);
    writeFileSync(file, good.proof);
    const offline = await cli(["verify-receipt", file, "--key", doc.publicKey, "--base", "http://127.0.0.1:1"]);
    assert.equal(offline.code, 0, offline.stderr);
    const out = oneLine(offline.stdout);
    assert.deepEqual({ ...out, entry: undefined }, { index: 299, treeSize: doc.size, rootHash: good.rootHash, origin: doc.origin, verified: true, entry: undefined });
    assert.equal(out.entry.seq, 300, "the event proved");
    const vkey = await cli(["verify-receipt", "--key", doc.verifierKey, file]);
    assert.deepEqual([vkey.code, oneLine(vkey.stdout)], [0, out]);

    const arena = await startArena(tlogRoutes(doc));
    try {
      const fetched = await cli(["--base", arena.base, "verify-receipt", file]);
      assert.deepEqual([fetched.code, oneLine(fetched.stdout)], [0, out]);
      const noExtra = doc.receipts.find((r) => r.needsTiles);
      writeFileSync(file, noExtra.proof);
      const tiles = await cli(["verify-receipt", file, "--base", arena.base, "--key", doc.publicKey]);
      assert.equal(tiles.code, 0, tiles.stderr);
      assert.equal(oneLine(tiles.stdout).entry.seq, 301);
    } finally {
      await arena.close();
    }

    for (const r of doc.receipts.filter((r) => !r.valid)) {
      writeFileSync(file, r.proof);
      const x = await cli(["verify-receipt", file, "--key", doc.verifierKey]);
      assert.deepEqual([x.code, oneLine(x.stdout)], [1, { error: "receipt_invalid" }], r.name);
    }

    writeFileSync(file, good.proof);
    const down = await cli(["verify-receipt", file, "--base", "http://127.0.0.1:1"]);
    assert.deepEqual([down.code, oneLine(down.stdout)], [3, { error: "network_error" }], "no key and no arena");
    for (const args of [[], [join(dir, "none")], [file, "--key", "AAAA"], [file, "other"], [file, "--head", file]]) {
      const u = await cli(["verify-receipt", ...args]);
      assert.deepEqual([u.code, oneLine(u.stdout)], [2, { error: "usage" }], args.join(" "));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("--match 042 is refused, never read as 42 or octal 34", async () => {
  const arena = await startArena({ "POST /api/v1/matches/42/ready": { status: 200, json: { status: "ready", live: false, opponentReady: false } } });
  try {
    const r = await cli(["--base", arena.base, "--as", P1, "ready", "--match", "042"]);
    assert.deepEqual([r.code, oneLine(r.stdout)], [2, { error: "usage" }]);
    assert.match(r.stderr, /not a match id: "042"/);
    assert.equal(arena.requests.length, 0, "nothing sent");
  } finally {
    await arena.close();
  }
});

test("submit after a restart: the match played is looked up, decided or undecided", async () => {
  let status = "confirmed";
  const arena = await startArena({
    "GET /api/v1/me/live-match": { status: 204 },
    "GET /api/v1/matches/13": { status: 404, json: { error: "match_not_found" } },
    "GET /api/v1/matches/12": () => ({ status: 200, json: { id: 12, stage: "final", round: "Final", bracketSlot: null, status,
      opensAt: "2026-03-14T14:00:00Z", closesAt: "2026-03-14T16:00:00Z",
      player1: { platformId: P1, personaName: "one", avatarUrl: "" }, player2: { platformId: P2, personaName: "two", avatarUrl: "" },
      winner: status === "confirmed" ? { platformId: P2, personaName: "two", avatarUrl: "" } : null,
      score: null, resultSource: status === "confirmed" ? "game_client" : null, tournament: { slug: "cup", name: "Cup" } } }),
  });
  try {
    for (const [as, opponent, won] of [[P1, P2, false], [P2, P1, true]]) {
      const r = await cli(["--base", arena.base, "--as", as, "submit", "--match", "12", "--opponent", opponent, "--winner", P2, "--result", "{}"]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(oneLine(r.stdout), { status: "decided", matchStatus: "confirmed", winner: P2, won });
    }
    assert.equal(arena.to("GET /api/v1/matches/12")[0].headers.authorization, undefined, "the look-up is public");
    status = "disputed";
    const r = await cli(["--base", arena.base, "--as", P1, "submit", "--match", "12", "--opponent", P2, "--winner", P2, "--result", "{}"]);
    assert.deepEqual([r.code, oneLine(r.stdout)], [0, { status: "undecided", matchStatus: "disputed" }]);
    const unknown = await cli(["--base", arena.base, "--as", P1, "submit", "--match", "13", "--opponent", P2, "--winner", P2, "--result", "{}"]);
    assert.deepEqual([unknown.code, oneLine(unknown.stdout)], [1, { error: "no_live_match" }]);
    const noMatch = await cli(["--base", arena.base, "--as", P1, "submit", "--opponent", P2, "--winner", P2, "--result", "{}"]);
    assert.deepEqual([noMatch.code, oneLine(noMatch.stdout)], [1, { error: "no_live_match" }]);
    assert.equal(arena.to("POST /api/v1/matches/12/result").length, 0, "nothing posted");
  } finally {
    await arena.close();
  }
});

test("verify-log: exit 3 when the log cannot be fetched, 429 retried with the API key", async () => {
  const doc = loadTlog();
  const routes = tlogRoutes(doc);
  const checkpoint = routes["GET /log/checkpoint"];
  let refusals = 1;
  routes["GET /log/checkpoint"] = () => (refusals-- > 0 ? { status: 429, json: { error: "rate_limited" }, headers: { "retry-after": "1" } } : checkpoint);
  const arena = await startArena(routes);
  try {
    const ok = await cli(["verify-log", "--base", arena.base, "--api-key", "apikey_0000000a_k"]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(oneLine(ok.stdout).treeSize, doc.size);
    assert.ok(arena.requests.every((r) => r.headers.authorization === "Bearer apikey_0000000a_k"));
    assert.equal(arena.to("GET /log/checkpoint").length, 2, "the refused read was made again");

    refusals = 100;
    arena.requests.length = 0;
    const limited = await cli(["verify-log", "--base", arena.base, "--retries", "0"], { env: { ARENA_API_KEY: "apikey_0000000b_k" } });
    assert.deepEqual([limited.code, oneLine(limited.stdout)], [3, { error: "rate_limited" }]);
    assert.equal(arena.requests[0].headers.authorization, "Bearer apikey_0000000b_k");
  } finally {
    await arena.close();
  }
  const down = await cli(["verify-log", "--base", arena.base]);
  assert.deepEqual([down.code, oneLine(down.stdout)], [3, { error: "network_error" }]);
});
