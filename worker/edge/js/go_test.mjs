// The bridge's test under Node (make test-edge runs it): go.mjs with a
// small Go program behind it (worker/edge/testdata/bridgetest). Checks that
// concurrent requests each get their own answers and I/O, that a panic
// answers 500 and the instance serves on, that when Go exits the waiting
// requests fail at once and the next request starts a new instance, and
// that a request past its deadline is cancelled in Go, that a fetch
// ends at the deadline Go gave it, and that the front (front.mjs) does
// what Go's hints say: keeps, answers and counts reads, answers 304 and
// Go's 429 without Go, and leaves other credentials and writes to Go.
// Usage: node go_test.mjs bridgetest.wasm  (go.mjs, perform.mjs, front.mjs
// and wasm_exec.js beside it)
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { GoExited, goBridge } from "./go.mjs";
import { perform as performForReal } from "./perform.mjs";
import { answered, lookup } from "./front.mjs";

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
const leaves = await get("/later?n=7").catch(failed);
const before = decode((await get("/later-result").catch(failed)).body);
const afterCall = await serve({ op: "after" }, {}, perform).catch(failed);
const later = decode((await get("/later-result").catch(failed)).body);
check("work left for after an answer waits for the \"after\" call the answer hints, and does its I/O there",
  leaves.status === 204 && leaves.hints?.after === "1" && before === "" && afterCall.status === 204 && later === "echo:http://later.test/7",
  `${leaves.status} ${JSON.stringify(leaves.hints)} before=${before} after=${afterCall.status} ${later}`);

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

// 6. The front, with the hints Go's edge.Hints gave (bridgetest's GET
// /read is a public read of arena alpha), over a Cache API in memory
// that keeps an entry as long as its Cache-Control says, keyed as the
// real one keys: by URL without its fragment.
const entries = new Map();
globalThis.caches = {
  default: {
    async match(key) {
      const e = entries.get(String(key).split("#")[0]);
      return e && e.expires > Date.now() ? new Response(e.body, { headers: e.headers }) : undefined;
    },
    async put(key, res) {
      const age = Number(/max-age=(\d+)/.exec(res.headers.get("cache-control"))?.[1] ?? 0);
      entries.set(String(key).split("#")[0], { body: await res.text(), headers: [...res.headers], expires: Date.now() + age * 1000 });
    },
  },
};
let within = true;
const counted = [];
const binding = { limit: async ({ key }) => (counted.push(key), { success: within }) };
const env = { RATE_ANON: binding, RATE_KEY: binding };
// front asks as worker.mjs does: the front first, then Go.
async function front(path, headers = {}, method = "GET") {
  const request = new Request("http://bridge.test" + path, { method, headers });
  const url = new URL(request.url);
  const plan = await lookup(request, url, env);
  if (plan?.response) return plan.response;
  const answer = await serve({ op: "request", method, url: request.url, headers: [...request.headers], body: undefined }, {}, perform);
  const kept = [];
  const { response } = await answered(request, url, plan, answer, { waitUntil: (p) => kept.push(p) });
  await Promise.all(kept);
  return response;
}
const read = async (headers) => {
  const r = await front("/read", headers);
  return { status: r.status, cache: r.headers.get("x-arena-cache"), etag: r.headers.get("etag"), headers: r.headers, body: await r.text() };
};
const ip = { "CF-Connecting-IP": "10.0.0.1" };
// The first read teaches the front the host, the second is kept.
const reads = [await read(ip), await read(ip), await read(ip)];
const [, first, second] = reads;
check("a public read is answered by Go, then from the edge cache without Go",
  reads[0].cache === "miss" && first.cache === "miss" && second.cache === "shared" && second.body === first.body && second.etag === first.etag &&
  second.headers.get("ratelimit-limit") === "60" && second.headers.get("ratelimit-reset") !== null && !second.headers.has("x-arena-edge-store") &&
  counted.length === 1 && counted[0] === "alpha/ip:10.0.0.1",
  `${reads.map((r) => r.cache)}, ${second.body}, counted ${counted}`);
const notModified = await read({ ...ip, "If-None-Match": `"x", W/${first.etag}` });
check("If-None-Match with the entry's tag is 304 from the edge cache, without its body's headers",
  notModified.status === 304 && notModified.cache === "shared" && notModified.body === "" && !notModified.headers.has("content-type"),
  `${notModified.status} ${notModified.cache} ${[...notModified.headers]}`);
const otherTag = await read({ ...ip, "If-None-Match": `"x"` });
check("another tag is 200 from the edge cache", otherTag.status === 200 && otherTag.cache === "shared", `${otherTag.status} ${otherTag.cache}`);
within = false;
const limited = await read(ip);
within = true;
check("over the binding's limit the front answers Go's 429",
  limited.status === 429 && limited.body === '{"error":"rate_limited"}\n' && limited.headers.get("ratelimit-limit") === "60" &&
  Number(limited.headers.get("retry-after")) >= 1 && limited.headers.get("retry-after") === limited.headers.get("ratelimit-reset"),
  `${limited.status} ${limited.body} ${[...limited.headers]}`);
const key = { ...ip, Authorization: "Bearer apikey_0123abcd_valid" };
const keyed = [await read(key), await read(key)];
check("an API key's class is Go's to tell; then its reads are kept apart from anonymous ones",
  keyed[0].cache === "miss" && keyed[1].cache === "shared" && keyed[1].body === keyed[0].body && keyed[1].body.includes('"class":"key:0123abcd"') && counted.at(-1) === "alpha/key:0123abcd",
  `${keyed.map((r) => r.cache + " " + r.body)}; counted ${counted.at(-1)}`);
const admin = { ...ip, Authorization: "Bearer admkey_x" };
const admins = [await read(admin), await read(admin)];
check("an Authorization that is no API key is always answered by Go", admins.every((r) => r.cache === "miss" && r.body.includes('"class":""')),
  admins.map((r) => r.cache + " " + r.body).join("; "));
await front("/write", {}, "POST");
const afterWrite = await read(ip);
check("after a write the arena's reads are Go's again", afterWrite.cache === "miss" && afterWrite.body !== first.body, `${afterWrite.cache} ${afterWrite.body}`);
const de = { ...ip, "Accept-Language": "de-AT, de;q=0.9" };
await read(ip); // kept without the header
const langs = [await read(ip), await read(de), await read(de), await read(ip)];
check("reads are kept apart by the headers Go says they vary by (Accept-Language): one entry per language",
  langs[0].cache === "shared" && langs[1].cache === "miss" && langs[2].cache === "shared" && langs[3].cache === "shared",
  langs.map((r) => r.cache).join(", "));

log(`bridge: ${failures === 0 ? "all passed" : failures + " failed"}`);
process.exit(failures === 0 ? 0 : 1);
