// The Workers entry of the kept-instance build. Public reads are answered
// from the edge cache when a fresh copy exists (front.mjs); everything else
// goes to the Go instance kept for this isolate (go.mjs), whose I/O this
// request performs on its own side (perform.mjs).
import wasm from "./app.wasm"; // compiled once per isolate by the runtime
import { GoExited, goBridge } from "./go.mjs";
import { answered, changed, hostOf, lookup, readHints } from "./front.mjs";
import { holdLive } from "./live.mjs";
import { perform, sendDeferred } from "./perform.mjs";

const serve = goBridge(wasm);

// Bodies above this are refused before they are read into memory (the
// service's largest request bodies are far smaller; recordings go straight
// to R2).
const MAX_BODY = 17 << 20;

const json = (status, code) =>
  new Response(JSON.stringify({ error: code }) + "\n", {
    status,
    headers: { "Content-Type": "application/json", "X-Content-Type-Options": "nosniff" },
  });

async function handle(request, env, ctx) {
  const url = new URL(request.url);
  const plan = await lookup(request, url, env);
  if (plan?.response) return plan.response;
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > MAX_BODY) return json(413, "body_too_large");
  const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
  if (body && body.byteLength > MAX_BODY) return json(413, "body_too_large");
  let ioMs = 0;
  const message = { op: "request", method: request.method, url: request.url, headers: [...request.headers], body };
  const performTimed = async (cmd) => {
    const t = Date.now(); // advances across I/O only: what the I/O took
    try {
      return await perform(cmd, env);
    } finally {
      ioMs += Date.now() - t;
    }
  };
  let answer;
  try {
    answer = await serve(message, env, performTimed);
  } catch (e) {
    // Go exited under this request (another request crashed it): a read
    // is safely asked again, of a new instance; a write is not.
    if (!(e instanceof GoExited) || (request.method !== "GET" && request.method !== "HEAD")) throw e;
    answer = await serve(message, env, performTimed);
  }
  if (answer.deferred?.length) ctx.waitUntil(Promise.allSettled(answer.deferred.map(sendDeferred)));
  let { response, hints } = await answered(request, url, plan, answer, ctx);
  if (hints.live && request.method === "GET") response = await hold(request, url, response, hints.live, env, ctx);
  if (env.ARENA_EDGE_TRACE === "1") {
    // For benchmarks: the round trips Go asked for, and their time.
    response.headers.set("X-Arena-Edge-IO", `${hints.io ?? 0} ${ioMs}`);
  }
  return response;
}

// hold answers a live stream's request by holding it open (live.mjs):
// each next page is this isolate's own request to Go, made on the side of
// the watcher that asks first in a tick.
async function hold(request, url, first, live, env, ctx) {
  const trace = env.ARENA_EDGE_TRACE === "1";
  const ask = async (pageURL) => {
    const answer = await serve({ op: "request", method: "GET", url: pageURL, headers: [], body: undefined, livePage: true }, env, (cmd) => perform(cmd, env));
    if (answer.deferred?.length) ctx.waitUntil(Promise.allSettled(answer.deferred.map(sendDeferred)));
    // For benchmarks: one line per call into Go for a page.
    if (trace) console.log(JSON.stringify({ level: "INFO", msg: "live page", url: pageURL, status: answer.status, io: Number(answer.hints?.io ?? 0) }));
    return answer;
  };
  const onError = (e) => console.error(JSON.stringify({ level: "WARN", msg: "live page failed", host: hostOf(url), error: String(e?.message ?? e) }));
  const { response } = await holdLive(first, live, url, {
    ask, key: hostOf(url) + url.pathname, headers: request.headers, signal: request.signal, waitUntil: (p) => ctx.waitUntil(p), onError,
  });
  return response;
}

export default {
  async fetch(request, env, ctx) {
    try {
      return await handle(request, env, ctx);
    } catch (e) {
      console.error(JSON.stringify({ level: "ERROR", msg: "edge request failed", host: hostOf(new URL(request.url)), error: String(e?.stack ?? e) }));
      return json(500, "internal");
    }
  },

  async scheduled(controller, env, ctx) {
    const answer = await serve({ op: "scheduled", cron: controller.cron }, env, (cmd) => perform(cmd, env));
    if (answer.deferred?.length) ctx.waitUntil(Promise.allSettled(answer.deferred.map(sendDeferred)));
    await changed(readHints(answer.hints));
    if (answer.status !== 200) throw new Error(`scheduled jobs failed: ${new TextDecoder().decode(answer.body)}`);
  },
};
