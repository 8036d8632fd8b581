// The front's holding of live streams (live.mjs) under Node, with a fake
// Go answering pages of a log in memory as worker/server/live.go does on
// the edge: two watchers at one cursor share one call per tick, the
// cursor advances by Go's hint (past events the stream does not show),
// a client that goes stops its watcher (also one that goes silently, as
// under workerd: seen only at the second write after it went, the probe
// before each ask), a failing page is asked again, a page without the
// live hint ends the stream, a caller's streams are capped by Go's
// hint. Then what a tick costs the
// isolate's JS at 1, 100 and 1,000 watchers (printed, not asserted).
// Usage: node live_test.mjs  (live.mjs and front.mjs beside it)
import { holdLive, liveHeld, liveStats } from "./live.mjs";

const EVERY = 40; // ms between pages (Go says 1000 on the edge)
const KEEPALIVE = 200;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let failures = 0;
function check(name, ok, detail = "") {
  console.log((ok ? "PASS" : "FAIL") + " live: " + name + (ok || !detail ? "" : ": " + detail));
  if (!ok) failures++;
}

// The fake Go: the arena's log, and its answers to the front's pages.
const log = []; // { seq, tournament }
const asked = []; // the cursors Go was asked for
let gone = false; // the tournament is gone: pages answer 404
let failing = false; // the database fails: pages answer 503
const MAX = 3; // Go's cap for the test's callers (8 per IP on the edge)
const TOO_MANY = { status: 429, headers: [["Content-Type", "application/json"]], body: '{"error":"too_many_streams"}\n', reset: [] };
const liveHint = (after) => ({ after, everyMs: EVERY, keepAliveMs: KEEPALIVE, streams: "ip:", streamsHeader: "Cf-Connecting-Ip", maxStreams: MAX, tooMany: TOO_MANY });
const hint = (after) => ({ live: JSON.stringify(liveHint(after)) });
function page(after, tournament) {
  const events = log.filter((e) => e.seq > after);
  const shown = events.filter((e) => e.tournament === tournament);
  const text = shown.map((e) => `id: ${e.seq}\nevent: test\ndata: {"seq":${e.seq}}\n\n`).join("");
  return { status: 200, headers: [], body: new TextEncoder().encode(text), hints: hint(events.at(-1)?.seq ?? after) };
}
async function ask(url) {
  const u = new URL(url);
  asked.push(Number(u.searchParams.get("after")));
  await sleep(2); // a database read
  if (failing) return { status: 503, headers: [], body: new TextEncoder().encode('{"error":"database_unavailable"}\n'), hints: {} };
  if (gone) return { status: 404, headers: [], body: new TextEncoder().encode('{"error":"not_found"}\n'), hints: {} };
  return page(Number(u.searchParams.get("after")), u.pathname.split("/")[4]);
}

// watch opens a stream as the front does after Go's first page (from
// now: no events, the cursor at the log's end); it returns what the
// client reads, and a way to go.
let ips = 0; // each watcher its own client IP, unless told
async function watch(tournament, after = log.length, ip = "10.0.0." + ++ips, silently = false) {
  const url = new URL(`http://live.test/api/v1/tournaments/${tournament}/live`);
  const first = new Response("retry: " + EVERY + "\n\n", { headers: { "Content-Type": "text/event-stream" } });
  const ctrl = new AbortController();
  const { response, done } = await holdLive(first, liveHint(after), url, {
    ask, key: url.host + url.pathname, headers: new Headers({ "Cf-Connecting-Ip": ip }), signal: ctrl.signal,
  });
  const w = { text: "", ids: [], comments: 0, ended: false, done, response, left: false, writesAfter: 0, chunks: [] };
  if (response.status !== 200) return w;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  w.reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      // Under workerd a client that went silently is seen at the second
      // write after it went: request.signal aborts then.
      if (w.left) {
        if (++w.writesAfter >= 2) ctrl.abort();
        continue;
      }
      w.chunks.push(Date.now());
      w.text += decoder.decode(value, { stream: true });
    }
    w.ended = true;
  })().catch(() => {});
  w.parse = () => {
    w.ids = [...w.text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    w.comments = (w.text.match(/^:$/gm) ?? []).length;
  };
  w.cancel = () => reader.cancel(); // the client goes
  w.abort = () => ctrl.abort(); // its request signal aborts
  w.leave = () => (w.left = true); // the client goes, and nothing tells the front until a write
  return w;
}

// 1. Two watchers of one tournament at one cursor: one call per tick.
const a = await watch("cup");
const b = await watch("cup");
await sleep(EVERY * 2); // both have asked once
const start = { ...liveStats };
for (let i = 0; i < 50 && liveStats.calls - start.calls < 4; i++) await sleep(EVERY);
const quiet = { calls: liveStats.calls - start.calls, shared: liveStats.shared - start.shared };
check("two watchers at one cursor share one call into Go per tick", quiet.calls >= 4 && Math.abs(quiet.shared - quiet.calls) <= 1,
  JSON.stringify(quiet));

// 2. Events reach both; the cursor moves by Go's hint, past the events
// the stream does not show.
log.push({ seq: 1, tournament: "cup" }, { seq: 2, tournament: "other" }, { seq: 3, tournament: "other" });
await sleep(EVERY * 3);
log.push({ seq: 4, tournament: "cup" });
await sleep(EVERY * 3);
a.parse();
b.parse();
check("both watchers get the tournament's events once, in order", JSON.stringify(a.ids) === "[1,4]" && JSON.stringify(b.ids) === "[1,4]", `${a.ids} / ${b.ids}`);
const cursors = [...new Set(asked)];
check("the cursor advances by Go's live hint (3: past the events not shown)", JSON.stringify(cursors) === "[0,3,4]", String(cursors));
check("the first page is written as Go gave it", a.text.startsWith("retry: " + EVERY + "\n\n"), JSON.stringify(a.text.slice(0, 40)));

// 3. A watcher resuming from an older cursor catches up by itself, then
// shares the others' calls.
const c = await watch("cup", 0);
await sleep(EVERY * 3);
c.parse();
const before = liveStats.calls;
await sleep(EVERY * 4);
const perTick = (liveStats.calls - before) / 4;
check("a resumed watcher catches up (events 1 and 4), then shares the call", JSON.stringify(c.ids) === "[1,4]" && perTick <= 1.5, `${c.ids}; ${perTick} calls a tick`);

// 4. A quiet stream gets a comment every tick before the ask, in two
// writes (the probe that lets workerd see a client that went).
const probed = a.chunks.length;
await sleep(EVERY * 4);
a.parse();
check("a quiet stream gets a comment every tick, in two writes (the probe)", a.comments >= 3 && a.chunks.length - probed >= 6, `${a.comments} comments, ${a.chunks.length - probed} writes in 4 ticks`);

// 5. Clients go: their watchers stop, and Go is not asked for them.
a.cancel();
b.abort();
c.cancel();
await Promise.all([a.done, b.done, c.done]);
const after = liveStats.calls;
await sleep(EVERY * 3);
check("clients that went (body cancelled, request aborted) stop their watchers: no more calls", liveStats.calls === after && b.ended, `${liveStats.calls - after} calls; b ended ${b.ended}`);

// 5b. A client that goes silently (as under workerd: nothing tells the
// front until the second write after it went) is dropped by the probe
// before the next tick asks Go for it.
const e = await watch("quiet-cup");
await sleep(EVERY * 2);
// It goes just after a tick's ask (one going in the half tick between a
// probe and the ask costs that one call more).
while (Date.now() % EVERY > EVERY / 8) await sleep(1);
await sleep(4); // the fake Go's read (2 ms) was asked
const before5 = asked.length;
e.leave();
const askedFor = () => asked.slice(before5).length;
await Promise.race([e.done, sleep(EVERY * 6)]);
const asksAfter = askedFor();
await sleep(EVERY * 3);
check("a client that went silently is dropped before its next tick asks Go (under workerd only the second write after it shows it)", asksAfter === 0 && askedFor() === 0,
  `${askedFor()} calls for its stream after it went`);

// 5c. A caller holds at most Go's maxStreams streams in the isolate,
// counted by the value of the header Go names (its IP); one more is Go's
// 429; another IP is not counted; a stream that ends frees its place.
const mine = [];
for (let i = 0; i < MAX; i++) mine.push(await watch("cup", log.length, "192.0.2.1"));
const over = await watch("cup", log.length, "192.0.2.1");
const overBody = over.response.status === 429 ? await over.response.text() : "";
const other = await watch("cup", log.length, "192.0.2.2");
check(`a caller's streams are capped at Go's maxStreams (${MAX}): one more is Go's 429 too_many_streams`,
  mine.every((w) => w.response.status === 200) && over.response.status === 429 && overBody === TOO_MANY.body && other.response.status === 200,
  `${mine.map((w) => w.response.status)} then ${over.response.status} ${overBody}; another IP ${other.response.status}`);
mine[0].cancel();
await mine[0].done;
const again = await watch("cup", log.length, "192.0.2.1");
check("a stream that ends frees its place", again.response.status === 200 && liveHeld("ip:192.0.2.1") === MAX, `${again.response.status}, ${liveHeld("ip:192.0.2.1")} held`);
for (const w of [...mine.slice(1), other, again]) w.cancel();
await Promise.all([...mine, other, again].map((w) => w.done));
check("no stream is counted once all ended", liveHeld("ip:192.0.2.1") === 0 && liveHeld("ip:192.0.2.2") === 0);

// 6. A failing page (503) is asked again next tick; a page without the
// live hint (the tournament is gone) ends the stream.
const d = await watch("cup");
failing = true;
await sleep(EVERY * 3);
failing = false;
log.push({ seq: log.length + 1, tournament: "cup" });
await sleep(EVERY * 3);
d.parse();
check("a failing page (503) is asked again next tick, the stream goes on", !d.ended && d.ids.at(-1) === log.length, `ended ${d.ended}, ids ${d.ids}`);
gone = true;
await Promise.race([d.done, sleep(EVERY * 5)]);
await d.reading;
check("a page without the live hint ends the stream", d.ended, d.text);
gone = false;

// 7. What a tick costs the isolate's JS (the fake Go's 2 ms aside, the
// test's own readers included): n watchers, one event a tick, 10 ticks.
// (Ticks this short smear at 1,000 watchers: some watchers' timers fire
// in the next tick, which then asks again.)
for (const n of [1, 100, 1000]) {
  const ws = await Promise.all(Array.from({ length: n }, () => watch("cost")));
  await sleep(EVERY * 2);
  const cpu0 = process.cpuUsage();
  const calls0 = liveStats.calls;
  for (let i = 0; i < 10; i++) {
    log.push({ seq: log.length + 1, tournament: "cost" });
    await sleep(EVERY);
  }
  const cpu = process.cpuUsage(cpu0);
  const calls = liveStats.calls - calls0;
  await sleep(EVERY * 2);
  ws.forEach((w) => w.parse());
  const got = ws.filter((w) => w.ids.length >= 10).length;
  console.log(`live: ${n} watchers: ${((cpu.user + cpu.system) / 1000 / 10).toFixed(2)} ms of JS CPU a tick (readers included), ${calls / 10} calls into Go a tick, ${got} of ${n} got every event`);
  if (got !== n) check(`${n} watchers get every event`, false, `${got} of ${n}`);
  ws.forEach((w) => w.cancel());
  await Promise.all(ws.map((w) => w.done));
}

console.log(`live: ${failures === 0 ? "all passed" : failures + " failed"}`);
process.exit(failures === 0 ? 0 : 1);
