// The bridge's test under Node (make test-edge runs it): go.mjs with a
// small Go program behind it (worker/edge/testdata/bridgetest). Checks that
// concurrent requests each get their own answers and I/O, that a panic
// answers 500 and the instance serves on, that when Go exits the waiting
// requests fail at once and the next request starts a new instance, and
// that a request past its deadline is cancelled in Go, and that a fetch
// ends at the deadline Go gave it.
// Usage: node go_test.mjs bridgetest.wasm  (go.mjs and wasm_exec.js beside it)
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { GoExited, goBridge } from "./go.mjs";
import { perform as performForReal } from "./perform.mjs";

const wasm = await WebAssembly.compile(readFileSync(process.argv[2]));
let started = 0;
const log = console.log;
console.log = (line, ...rest) => {
  if (String(line).includes('"go instance started"')) started++;
  else log(line, ...rest);
};
const serve = goBridge(wasm, { deadlineMs: 3000 });
const decode = (b) => new TextDecoder().decode(b);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// bucket is an R2 bucket binding in memory, answering as R2 does (a get
// takes a range); gets counts the gets and their largest range.
const objects = new Map();
const gets = { count: 0, largest: 0 };
const bucket = {
  async put(key, body, { httpMetadata }) {
    const bytes = new Uint8Array(body);
    const o = { key, size: bytes.byteLength, httpEtag: `"${key.length}-${bytes.byteLength}"`, httpMetadata, bytes };
    objects.set(key, o);
    return o;
  },
  async head(key) {
    return objects.get(key) ?? null;
  },
  async get(key, { range } = {}) {
    const o = objects.get(key);
    if (!o) return null;
    const part = range ? o.bytes.slice(range.offset, range.offset + range.length) : o.bytes;
    gets.count++;
    gets.largest = Math.max(gets.largest, part.byteLength);
    return { ...o, arrayBuffer: async () => part.buffer };
  },
  async delete(key) {
    objects.delete(key);
  },
};

// perform answers a fetch after a random delay, so calls interleave; R2
// goes through the real perform.mjs with the bucket above.
async function perform(cmd) {
  await sleep(Math.random() * 5);
  if (cmd.kind === "r2") return performForReal(cmd, { RECORDINGS: bucket });
  if (cmd.kind !== "fetch") return { error: "unexpected " + cmd.kind };
  return { status: 200, headers: [], body: new TextEncoder().encode("echo:" + cmd.fetch.url) };
}
const get = (path) => serve({ op: "request", method: "GET", url: "http://bridge.test" + path, headers: [], body: undefined }, {}, perform);

let failures = 0;
function check(name, ok, detail = "") {
  if (ok) log("PASS bridge: " + name);
  else {
    failures++;
    log("FAIL bridge: " + name + (detail ? ": " + detail : ""));
  }
}

// 1. Concurrent requests never see each other's answers or I/O.
const n = 64;
const failed = (e) => ({ status: 0, body: new TextEncoder().encode(String(e)) });
const answers = await Promise.all(Array.from({ length: n }, (_, i) => get(`/echo?n=${i}`).catch(failed)));
const wrong = answers.filter((a, i) => a.status !== 200 || decode(a.body) !== `n=${i} got=echo:http://echo.test/${i}`);
check(`${n} concurrent requests, each with a fetch of its own: every answer right`, wrong.length === 0, wrong.map((a) => decode(a.body)).join("; "));

// R2 through the bridge: the recordings store writes, stats, reads back
// in ranges of at most 1 MiB, deletes.
const r2 = await get("/r2?key=recordings/1.gz").catch(failed);
check("the recordings store on an R2 bucket through the request's side (put, head, 1 MiB ranged gets, delete)",
  decode(r2.body) === "written=true size=true equal=true gone=true" && gets.count === 3 && gets.largest === 1 << 20,
  `${decode(r2.body)}; ${gets.count} gets, largest ${gets.largest} bytes`);

// 2. A panic in a handler is that request's 500; the instance serves on.
const p = await get("/panic").catch(failed);
check("a handler's panic answers 500 internal", p.status === 500 && decode(p.body).includes('"internal"'), `${p.status} ${decode(p.body)}`);
const after = await get("/echo?n=x").catch(failed);
check("the same instance serves the next request", after.status === 200 && started === 1, `status ${after.status}, ${started} instances`);

// 3. A request past its deadline fails and is cancelled in Go.
const t0 = Date.now();
const late = await get("/wait").then(() => "answered", (e) => e.message);
check("a request past its deadline fails at the deadline", /no answer from Go within 3000 ms/.test(late) && Date.now() - t0 < 6000, late);
const next = await get("/echo?n=y").catch(failed);
check("and the bridge serves on", next.status === 200, String(next.status));

// 4. Go exits: waiting requests fail at once, the next request starts Go anew.
const waiting = [get("/wait"), get("/wait")].map((p) => p.then(() => "answered", (e) => e));
const crash = await get("/crash").then(() => "answered", (e) => e);
const results = await Promise.all(waiting);
check("the request that crashed Go fails", crash instanceof Error, String(crash));
check("requests waiting on the dead instance fail at once, not at their deadline", results.every((e) => e instanceof GoExited), results.map(String).join("; "));
const revived = await get("/echo?n=z").catch(failed);
check("the next request starts a new instance", revived.status === 200 && decode(revived.body) === "n=z got=echo:http://echo.test/z" && started === 2, `${revived.status}, ${started} instances`);
const cron = await serve({ op: "scheduled", cron: "* * * * *" }, {}, perform);
check("a cron run goes through the same bridge", decode(cron.body) === "cron ran");

// 5. A fetch carrying Go's deadline (a database call's) to a server that
// never answers (a stalled database) ends at that deadline: the request's
// side is free to take Go's answer (503) instead of awaiting the server.
const silent = createServer(() => {}); // takes connections, never answers
await new Promise((resolve) => silent.listen(0, "127.0.0.1", resolve));
const t1 = Date.now();
const stalled = await performForReal({ kind: "fetch", fetch: { method: "POST", url: `http://127.0.0.1:${silent.address().port}/v2/pipeline`,
  headers: [], body: new Uint8Array([123, 125]), timeoutMs: 200 } }, {});
const waited = Date.now() - t1;
check("a fetch to a server that never answers ends at Go's deadline", stalled.error !== undefined && waited >= 150 && waited < 1500,
  `${JSON.stringify(stalled)} after ${waited} ms`);
silent.close();

log(`bridge: ${failures === 0 ? "all passed" : failures + " failed"}`);
process.exit(failures === 0 ? 0 : 1);
