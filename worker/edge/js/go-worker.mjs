// The Go worker of the kept-instance build: the Go instance kept for this
// isolate (go.mjs), placed near the database (Smart Placement,
// wrangler.go.toml) and called only by the front worker (worker.mjs)
// through its service binding. Each call is one framed message (wire.mjs)
// whose I/O this call performs on its own side (perform.mjs): the database
// round trips are short here, and the front pays the long hop once.
import wasm from "./app.wasm"; // compiled once per isolate by the runtime
import { GoExited, goBridge } from "./go.mjs";
import { perform, sendDeferred } from "./perform.mjs";
import { frame, unframe } from "./wire.mjs";

const serve = goBridge(wasm);

async function call(request, env, ctx) {
  const { meta, body } = unframe(await request.arrayBuffer());
  const message = { ...meta, body };
  let ioMs = 0;
  // A read Go counts against a rate-limiting binding is counted by the
  // front, where the caller enters (a binding counts per location): here
  // it is within, and the answer says what to count (front.mjs
  // countAnswered).
  const counts = [];
  const performTimed = async (cmd) => {
    if (cmd.kind === "ratelimit") {
      counts.push({ binding: cmd.ratelimit.binding, key: cmd.ratelimit.key });
      return { success: true };
    }
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
    // Go exited under this call (another call crashed it): a read is
    // safely asked again, of a new instance; a write is not.
    const read = message.op === "request" && (message.method === "GET" || message.method === "HEAD");
    if (!(e instanceof GoExited) || !read) throw e;
    counts.length = 0; // the read is asked again, and counted once
    answer = await serve(message, env, performTimed);
  }
  if (answer.deferred?.length) ctx.waitUntil(Promise.allSettled(answer.deferred.map(sendDeferred)));
  // Work Go left for after the answer (a host lookup's refresh) runs in a
  // call of its own once the answer is on its way.
  if (answer.hints?.after) ctx.waitUntil(serve({ op: "after" }, env, (cmd) => perform(cmd, env)).catch(afterFailed));
  return frame({ status: answer.status, headers: answer.headers, hints: answer.hints, ioMs, counts }, answer.body);
}

function afterFailed(e) {
  console.error(JSON.stringify({ level: "WARN", msg: "work after an answer failed", error: String(e?.stack ?? e) }));
}

export default {
  async fetch(request, env, ctx) {
    try {
      return new Response(await call(request, env, ctx));
    } catch (e) {
      console.error(JSON.stringify({ level: "ERROR", msg: "go worker call failed", error: String(e?.stack ?? e) }));
      return new Response("go worker call failed", { status: 500 });
    }
  },
};
