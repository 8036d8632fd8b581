// One Go instance per isolate, made on the first request that needs it and
// kept; every request and cron run enters it through arenaEdge.serve (see
// worker/edge/js_js.go) and performs the I/O Go asks for on its own side.
import "./wasm_exec.js"; // Go's own support file (GOROOT/lib/wasm), copied by the build

// How long a request waits for Go before it answers 500 and cancels its
// call. The timer is also what keeps a waiting request's own context busy:
// without something pending of its own, workerd cancels a request as hung
// while another request holds Go.
const DEADLINE_MS = 25000;

export class GoExited extends Error {}

// goBridge returns serve(message, env, perform) over instances of the
// compiled Go module wasm. options.deadlineMs replaces DEADLINE_MS (tests);
// options.onGo(ms), when set, is told how long each call into Go ran (only
// meaningful outside workerd, whose clock stands still while code runs).
export function goBridge(wasm, options = {}) {
  const deadlineMs = options.deadlineMs ?? DEADLINE_MS;
  const onGo = options.onGo;
  let current = null; // { go, serve, waiting: Set of rejecters }
  let lastId = 0;
  let instances = 0; // made so far (logged: the tests count them)

  // instance returns the live Go instance, making one when there is none
  // or the last one exited. env is handed over once: syumai's
  // cloudflare.Getenv reads vars and secrets from globalThis.context.env.
  function instance(env) {
    if (current && !current.go.exited) return current;
    if (current) abandon(current);
    globalThis.context = { env, binding: {} };
    delete globalThis.arenaEdge;
    const go = new Go();
    const started = Date.now();
    const inst = new WebAssembly.Instance(wasm, go.importObject);
    // run() returns once main waits for requests (its promise settles only
    // when Go exits, and nobody awaits it: it belongs to this request).
    go.run(inst).catch(() => {});
    const edge = globalThis.arenaEdge;
    if (go.exited || !edge) throw new GoExited("Go exited before it registered the bridge");
    current = { go, serve: edge.serve, waiting: new Set() };
    instances++;
    // Date.now() advances only across I/O in workerd: this is a lower bound.
    console.log(JSON.stringify({ level: "INFO", msg: "go instance started", instance: instances, ms: Date.now() - started }));
    return current;
  }

  // abandon drops a dead instance: every request still waiting on it fails
  // (each rejection is handed back to its own request by the runtime).
  function abandon(inst) {
    if (current === inst) current = null;
    for (const reject of inst.waiting) reject(new GoExited("Go exited"));
    inst.waiting.clear();
  }

  // enter calls into Go and waits for the answer promise. A trap or exit
  // during the call kills the instance.
  function enter(inst, message, deadline) {
    return new Promise((resolve, reject) => {
      inst.waiting.add(reject);
      const done = (f) => (v) => {
        inst.waiting.delete(reject);
        f(v);
      };
      let answer;
      try {
        const t = onGo && performance.now();
        answer = inst.serve(message);
        if (onGo) onGo(performance.now() - t);
      } catch (e) {
        inst.waiting.delete(reject);
        abandon(inst);
        reject(e);
        return;
      }
      if (inst.go.exited) {
        abandon(inst);
        return;
      }
      answer.then(done(resolve), done(reject));
      deadline.catch(done(reject));
    });
  }

  // serve runs one call (message.op "request" or "scheduled") to its
  // answer, performing each command Go hands out with perform(command),
  // and returns the answer: { status, headers, body, hints, deferred }.
  return async function serve(message, env, perform) {
    const inst = instance(env);
    const id = ++lastId;
    let timer;
    const deadline = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from Go within ${deadlineMs} ms`)), deadlineMs);
    });
    deadline.catch(() => {});
    try {
      let cmd = await enter(inst, { ...message, id }, deadline);
      while (cmd.kind !== "respond") {
        const result = await Promise.race([perform(cmd), deadline]);
        cmd = await enter(inst, { op: "result", id, seq: cmd.seq, result }, deadline);
      }
      return cmd.response;
    } catch (e) {
      if (!(e instanceof GoExited) && !inst.go.exited) {
        try {
          inst.serve({ op: "cancel", id }).catch(() => {});
        } catch {
          abandon(inst);
        }
      }
      throw e;
    } finally {
      clearTimeout(timer);
    }
  };
}
