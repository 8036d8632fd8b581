// The front worker of the kept-instance build, near the player: public
// reads are answered from the edge cache when a fresh copy exists
// (front.mjs), live streams are held here (live.mjs), and everything else
// goes to the Go worker (go-worker.mjs, near the database) through the
// service binding GO, one framed call per request (wire.mjs).
import { answered, changed, countAnswered, hostOf, lookup, readHints } from "./front.mjs";
import { holdLive } from "./live.mjs";
import { GO_URL, frame, unframe } from "./wire.mjs";

// callGo sends one message to the Go worker and returns its answer:
// { status, headers, body, hints, ioMs }.
async function callGo(message, env) {
  const { body, ...meta } = message;
  const res = await env.GO.fetch(GO_URL, { method: "POST", body: frame(meta, body) });
  if (res.status !== 200) throw new Error(`go worker: HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
  const { meta: answer, body: answerBody } = unframe(await res.arrayBuffer());
  return { ...answer, body: answerBody };
}

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
  const message = { op: "request", method: request.method, url: request.url, headers: [...request.headers], body };
  const answer = await callGo(message, env);
  const over = await countAnswered(answer, env);
  let { response, hints } = await answered(request, url, plan, answer, ctx);
  if (over) response = over;
  else if (hints.live && request.method === "GET") response = await hold(request, url, response, hints.live, env, ctx);
  if (env.ARENA_EDGE_TRACE === "1") {
    // For benchmarks: the round trips Go asked for, and their time.
    response.headers.set("X-Arena-Edge-IO", `${hints.io ?? 0} ${answer.ioMs ?? 0}`);
  }
  return response;
}

// hold answers a live stream's request by holding it open (live.mjs):
// each next page is this isolate's own request to Go, made on the side of
// the watcher that asks first in a tick.
async function hold(request, url, first, live, env, ctx) {
  const trace = env.ARENA_EDGE_TRACE === "1";
  const ask = async (pageURL) => {
    const answer = await callGo({ op: "request", method: "GET", url: pageURL, headers: [], livePage: true }, env);
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
    const answer = await callGo({ op: "scheduled", cron: controller.cron }, env);
    await changed(readHints(answer.hints));
    if (answer.status !== 200) throw new Error(`scheduled jobs failed: ${new TextDecoder().decode(answer.body)}`);
  },
};
