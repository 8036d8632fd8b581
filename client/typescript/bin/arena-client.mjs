#!/usr/bin/env node
// arena-client: the shared command line of the Arena reference clients,
// for debugging a game's own implementation against an arena in mock mode.
//
//   arena-client canonical --match 42 --nonce n-1 --winner 76561198000000001 < result.json
//   arena-client --base http://localhost:8787 --as 76561198000000001 live
//   arena-client --as 76561198000000001 upcoming
//   arena-client --as 76561198000000001 ready --match 12
//   arena-client --as 76561198000000001 submit --match 12 --opponent 76561198000000002 \
//       --winner 76561198000000001 --score 3,1 --result '{"rounds":[3,1]}'
//   arena-client verify-log --base https://arena.example [--head head.json] [--api-key K] > head.json
//   arena-client verify-receipt match-12.tlog-proof [--key BASE64 | --base https://arena.example]
//
// Every command prints one JSON line on stdout. Exit status: 0 success,
// 1 failure ({"error":"<code>"}; for verify-log and verify-receipt: the
// log or receipt does not verify), 2 usage error ({"error":"usage"}; for
// canonical also a refusal), 3 verify-log or verify-receipt could not
// fetch what it needs. --match is a decimal
// match id, [1-9][0-9]* (042 is a usage error).
// ARENA_CLIENT_BACKOFF_SCALE multiplies submit retry waits (0: no wait).
import { readFile } from "node:fs/promises";
import process from "node:process";
import { ArenaClient, ArenaError, hashResult, verifyReceipt, verifyTiles } from "../dist/index.js";

const USAGE = `usage: arena-client [--base URL] [--as ID] [--appid N] <command> [flags]

commands:
  canonical --match N --nonce S --winner W   canonical form and SHA-256 of the result JSON on stdin
  upcoming                                   the upcoming match, or {"none":true}
  live                                       the live match (discovery), or {"none":true}
  ready --match N                            mark yourself ready
  submit --match N [--game G] [--held LIVE] --opponent ID --winner W [--score P1,P2] [--result JSON]
         [--role host|guest] [--attempts 1..5]
                                             submit a result (without --result: JSON on stdin;
                                             an empty --winner is a draw: nothing is sent);
                                             --game: the game of the series played (a series'
                                             lost answer after a restart); in a series the
                                             answer carries game, bestOf and seriesScore, and
                                             matchStatus scheduled means: ready again;
                                             --held: the live match the game holds (live's
                                             line), posted on without a fresh discovery
  verify-log [--base URL] [--head FILE] [--key K] [--origin O] [--api-key KEY] [--retries N]
                                             verify the arena's transparency log (no --as needed):
                                             its signed checkpoint (/log/checkpoint) and every tile
                                             of its tree; print {treeSize, rootHash, origin,
                                             checkpoint}; --head: that output (or a checkpoint)
                                             saved earlier, which the tree must extend; --api-key
                                             (default $ARENA_API_KEY): read under the key's limit;
                                             a 429 is retried after its Retry-After up to N times
                                             (default 5); exit 1: the log does not verify, 3: it
                                             could not be fetched; --key: the log key (base64, or
                                             a note verifier key name+hash+key naming the origin),
                                             default log.publicKey of GET /api/v1; --origin: the
                                             checkpoint's origin expected (<arena host>/log)
  verify-receipt FILE [--key K] [--origin O] [--base URL] [--api-key KEY] [--retries N]
                                             verify a receipt (a .tlog-proof file): its checkpoint
                                             signed by the arena's log key (--key, else log.publicKey
                                             of GET /api/v1 at --base), its inclusion proof of the
                                             entry; print {index, treeSize, rootHash, origin,
                                             verified, entry}; offline with --key when the receipt
                                             holds its entry; exit 1 {"error":"receipt_invalid"}:
                                             it does not verify, 3: the key or entry could not be
                                             fetched

N (--match) is a match id in decimal: [1-9][0-9]*, no sign, no leading zero (042 is refused).

global flags:
  --base URL   arena origin (default http://localhost:8787)
  --as ID      play as this 17-digit account (mock ticket MOCK:<ID>)
  --appid N    X-Platform-AppId ordering hint
`;

const COMMAND_FLAGS = {
  canonical: ["match", "nonce", "winner"],
  upcoming: [],
  live: [],
  discover: [],
  ready: ["match"],
  submit: ["match", "game", "held", "opponent", "winner", "score", "result", "role", "attempts"],
  "verify-log": ["base", "head", "key", "origin", "api-key", "retries"],
  "verify-receipt": ["base", "key", "origin", "api-key", "retries"],
};

class UsageError extends Error {}

/** verify-log's and verify-receipt's exit status when something could not be fetched (1: it does not verify). */
const EXIT_NO_FETCH = 3;

/** Parses `-name value`, `--name value`, `-name=value`, `--name=value` until a non-flag. */
function parseFlags(args, allowed) {
  const flags = {};
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith("-") || arg === "-" || arg === "--") break;
    const body = arg.replace(/^--?/, "");
    const eq = body.indexOf("=");
    const name = eq < 0 ? body : body.slice(0, eq);
    if (!allowed.includes(name)) throw new UsageError(`unknown flag ${arg}`);
    let value;
    if (eq >= 0) value = body.slice(eq + 1);
    else if (i + 1 < args.length) value = args[++i];
    else throw new UsageError(`flag ${arg} needs a value`);
    flags[name] = value;
  }
  return { flags, rest: args.slice(i) };
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return new Uint8Array(Buffer.concat(chunks));
}

/** Whether text (a string or bytes) holds only JSON whitespace. */
function isBlank(text) {
  if (typeof text === "string") return /^[ \t\r\n]*$/.test(text);
  return text.every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d);
}

/**
 * An integer flag: undefined when absent, a usage error when not a decimal
 * integer (as Go's flag package refuses it).
 */
function integer(flags, name) {
  const s = flags[name];
  if (s === undefined) return undefined;
  if (!/^-?[0-9]+$/.test(s.trim())) throw new UsageError(`--${name} must be an integer: ${JSON.stringify(s)}`);
  return Number(s.trim());
}

/**
 * --match: undefined when absent, else a match id in decimal, [1-9][0-9]*
 * (a safe integer); anything else, 042 included, is a usage error, the
 * same in every client.
 */
function matchFlag(flags, name = "match") {
  const s = flags[name];
  if (s === undefined) return undefined;
  if (!/^[1-9][0-9]*$/.test(s) || !Number.isSafeInteger(Number(s))) {
    throw new UsageError(`--${name}: not a ${name === "match" ? "match id" : "game number"}: ${JSON.stringify(s)} (decimal digits, no sign, no leading zero)`);
  }
  return Number(s);
}

function line(out, v) {
  out.write(JSON.stringify(v) + "\n");
}

async function canonical(flags, stdout) {
  const matchId = matchFlag(flags) ?? 0;
  const input = await readStdin();
  try {
    line(stdout, await hashResult(input, { matchId, sessionNonce: flags.nonce ?? "", winner: flags.winner ?? "" }));
    return 0;
  } catch (e) {
    if (!(e instanceof ArenaError)) throw e;
    line(stdout, { error: e.code });
    return 2;
  }
}

async function run(argv, stdout, stderr, signal) {
  const { flags: global, rest } = parseFlags(argv, ["base", "as", "appid"]);
  const [command, ...tail] = rest;
  if (command === undefined || !(command in COMMAND_FLAGS)) throw new UsageError(command === undefined ? "no command" : `unknown command ${command}`);
  let { flags, rest: extra } = parseFlags(tail, COMMAND_FLAGS[command]);
  let file;
  if (command === "verify-receipt" && extra.length > 0) {
    // verify-receipt FILE: the one argument, with flags before or after it
    file = extra[0];
    const after = parseFlags(extra.slice(1), COMMAND_FLAGS[command]);
    flags = { ...flags, ...after.flags };
    extra = after.rest;
  }
  if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`);
  if (command === "canonical") return canonical(flags, stdout);
  if (command === "verify-log") return verifyLogCommand(flags.base ?? global.base, flags, stdout, stderr, signal);
  if (command === "verify-receipt") return verifyReceiptCommand(file, flags.base ?? global.base, flags, stdout, stderr, signal);

  if (global.as === undefined || global.as === "") throw new UsageError("--as is required");
  const rawScale = process.env.ARENA_CLIENT_BACKOFF_SCALE ?? "";
  const scale = rawScale === "" ? 1 : Number(rawScale);
  if (!Number.isFinite(scale) || scale < 0) throw new UsageError(`ARENA_CLIENT_BACKOFF_SCALE must be a non-negative number: ${JSON.stringify(rawScale)}`);
  let client;
  try {
    const options = {
      baseUrl: global.base ?? "http://localhost:8787",
      mockSteamId: global.as,
      backoffScale: scale,
      log: (m) => stderr.write(m + "\n"),
    };
    if (global.appid !== undefined) options.appId = global.appid;
    if (flags.role !== undefined && flags.role !== "") options.clientRole = flags.role;
    const attempts = integer(flags, "attempts");
    if (attempts !== undefined) options.maxSubmitAttempts = attempts;
    client = new ArenaClient(options);
  } catch (e) {
    if (e instanceof ArenaError) throw new UsageError(e.message);
    throw e;
  }
  const opts = { signal };
  switch (command) {
    case "upcoming":
    case "live":
    case "discover": {
      const m = command === "upcoming" ? await client.upcomingMatch(opts) : await client.liveMatch(opts);
      line(stdout, m ?? { none: true });
      return 0;
    }
    case "ready": {
      const matchId = matchFlag(flags);
      if (matchId === undefined) throw new UsageError("ready: --match N is required");
      line(stdout, await client.ready(matchId, opts));
      return 0;
    }
    case "submit":
      return submit(client, global.as, flags, stdout, opts);
  }
  return 2;
}

async function submit(client, as, flags, stdout, opts) {
  // As in the Go client: an absent --winner is a draw, an absent --opponent
  // is "" (refused by the 1v1 guard), an absent --match checks no match id.
  const matchId = matchFlag(flags);
  const game = matchFlag(flags, "game");
  if (game !== undefined && (matchId === undefined || game > 2147483647)) throw new UsageError("submit: --game needs --match (and is a game number)");
  let score;
  if (flags.score !== undefined && flags.score !== "") {
    const m = /^\s*([0-9]+)\s*,\s*([0-9]+)\s*$/.exec(flags.score);
    if (m === null) throw new UsageError("submit: --score must be P1,P2 (non-negative integers)");
    score = { p1: Number(m[1]), p2: Number(m[2]) };
  }
  let result = flags.result ?? (await readStdin());
  if (isBlank(result)) result = "{}"; // no result at all: an empty object, as in the Go client
  const input = { result, winner: flags.winner ?? "", opponentId: flags.opponent ?? "", localAccountId: as };
  if (matchId !== undefined) input.matchId = matchId;
  if (game !== undefined) input.game = game;
  if (score !== undefined) input.score = score;
  if (flags.held !== undefined) {
    try {
      input.held = JSON.parse(flags.held);
    } catch (e) {
      throw new UsageError(`submit: --held must be the live match as live printed it: ${e.message}`);
    }
  }
  const out = await client.submit(input, opts);
  if (out.status === "draw") {
    line(stdout, { status: "draw" });
    return 0;
  }
  // The series fields only for a series: a best of 1 prints as before.
  const v = { status: out.status, matchStatus: out.matchStatus };
  if (out.status === "decided" && out.winner !== undefined) v.winner = out.winner;
  if (out.status === "decided" && out.won !== undefined) v.won = out.won;
  if (out.game !== undefined) v.game = out.game;
  if (out.bestOf !== undefined) v.bestOf = out.bestOf;
  if (out.seriesScore !== undefined) v.seriesScore = out.seriesScore;
  line(stdout, v);
  return 0;
}

/** --key, --origin, --api-key (default $ARENA_API_KEY) and --retries of verify-log and verify-receipt into options. */
function readOptions(flags, options, command) {
  if (flags.key !== undefined) options.publicKey = flags.key;
  if (flags.origin !== undefined) options.origin = flags.origin;
  const apiKey = flags["api-key"] ?? process.env.ARENA_API_KEY ?? "";
  if (apiKey !== "") options.apiKey = apiKey;
  const retries = integer(flags, "retries");
  if (retries !== undefined) {
    if (retries < 0) throw new UsageError(`${command}: --retries must be 0 or more`);
    options.retries = retries;
  }
  return options;
}

/**
 * Runs a verification: its result's line and 0; `invalid` (the code of a
 * log or receipt that does not verify) is exit 1 with the reason on
 * stderr; a failure to fetch is exit 3; invalid settings are usage.
 */
async function verifying(run, invalid, stdout, stderr) {
  let out;
  try {
    out = await run();
  } catch (e) {
    if (e instanceof ArenaError && e.code === "invalid_settings") throw new UsageError(e.message);
    if (e instanceof ArenaError && e.code !== invalid) {
      // Could not fetch what it needs: that says nothing of integrity.
      stderr.write(`arena-client: ${e.message}\n`);
      line(stdout, { error: e.code });
      return EXIT_NO_FETCH;
    }
    throw e;
  }
  line(stdout, out);
  return 0;
}

/**
 * verify-log: checks the arena's transparency log (verifyTiles) and prints
 * the checkpoint verified as one JSON line, the file a later run's --head
 * reads.
 */
async function verifyLogCommand(base, flags, stdout, stderr, signal) {
  const options = readOptions(flags, { base: base ?? "http://localhost:8787", signal }, "verify-log");
  const headFile = flags.head;
  if (headFile !== undefined && headFile !== "") options.head = await readSavedHead(headFile);
  return verifying(async () => {
    const t = await verifyTiles(options);
    return { treeSize: t.treeSize, rootHash: t.rootHash, origin: t.origin, checkpoint: t.checkpoint };
  }, "log_invalid", stdout, stderr);
}

/**
 * A head saved earlier: verify-log's output (an object whose checkpoint is
 * the signed note) or the checkpoint itself (GET /log/checkpoint's body);
 * anything else is a usage error.
 */
async function readSavedHead(file) {
  const text = await readText(file);
  if (!text.trimStart().startsWith("{")) return text;
  let head;
  try {
    head = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`verify-log: ${file} is not a saved checkpoint: ${e.message}`);
  }
  if (head === null || typeof head !== "object" || Array.isArray(head) || typeof head.checkpoint !== "string") {
    throw new UsageError(`verify-log: ${file} is not a saved checkpoint (verify-log's output, or a checkpoint)`);
  }
  return head.checkpoint;
}

async function readText(file) {
  try {
    return await readFile(file, "utf8");
  } catch (e) {
    throw new UsageError(e.message);
  }
}

/** verify-receipt FILE: checks a receipt (verifyReceipt) and prints what it proves. */
async function verifyReceiptCommand(file, base, flags, stdout, stderr, signal) {
  if (file === undefined || file === "") throw new UsageError("verify-receipt: FILE (a .tlog-proof receipt) is required");
  const options = readOptions(flags, { receipt: await readText(file), base: base ?? "http://localhost:8787", signal }, "verify-receipt");
  return verifying(async () => {
    const r = await verifyReceipt(options);
    const out = { index: r.index, treeSize: r.treeSize, rootHash: r.rootHash, origin: r.origin, verified: true };
    try {
      out.entry = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(r.entry));
    } catch {
      out.entry = btoa(String.fromCharCode(...r.entry)); // not JSON: its base64
    }
    return out;
  }, "receipt_invalid", stdout, stderr);
}

async function main() {
  const ctrl = new AbortController();
  process.once("SIGINT", () => ctrl.abort(new Error("interrupted")));
  let code;
  try {
    code = await run(process.argv.slice(2), process.stdout, process.stderr, ctrl.signal);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`arena-client: ${e.message}\n\n${USAGE}`);
      line(process.stdout, { error: "usage" });
      code = 2;
    } else if (e instanceof ArenaError) {
      process.stderr.write(`arena-client: ${e.message}\n`);
      line(process.stdout, { error: e.code });
      code = 1;
    } else {
      process.stderr.write(`arena-client: ${e instanceof Error ? e.stack : String(e)}\n`);
      code = 1;
    }
  }
  process.exitCode = code;
}

await main();
