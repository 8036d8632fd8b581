// Measures how long the kept-instance build takes to start, outside
// workerd (whose clock stands still during computation): compiling
// app.wasm (once per isolate; workerd does it when it loads the script),
// then instantiating it and running Go's main until the bridge is
// registered (on an isolate's first request). The first instance of a
// process is the cold one: V8 compiles each function on its first call,
// so it pays for compiling what start-up runs; later instances show the
// start-up alone. Prints one line of JSON: wall ms, and the process's CPU
// ms (all threads) of the cold instance, less moved by other load.
// Usage: node scripts/wasm-start.mjs build [runs]
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const dir = resolve(process.argv[2] ?? "build");
const runs = Number(process.argv[3] ?? 5);
await import(join(dir, "wasm_exec.js"));
const bytes = readFileSync(join(dir, "app.wasm"));

const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
let t = performance.now();
let c = cpu();
const mod = await WebAssembly.compile(bytes);
const compileMs = performance.now() - t;
const compileCpuMs = cpu() - c;

const starts = [];
for (let i = 0; i < runs; i++) {
  // The directory is never contacted; the bucket binding is never called.
  const env = { ARENA_DIRECTORY_URL: "http://127.0.0.1:9", ARENA_SESSION_KEY: "k".repeat(64), RECORDINGS: {} };
  globalThis.context = { env, binding: {} };
  delete globalThis.arenaEdge;
  const go = new Go();
  t = performance.now();
  c = cpu();
  const inst = new WebAssembly.Instance(mod, go.importObject);
  const instantiated = performance.now();
  const instantiatedCpu = cpu();
  go.run(inst);
  if (!globalThis.arenaEdge) throw new Error("Go did not register the bridge");
  starts.push({ instantiate: instantiated - t, total: performance.now() - t, instantiateCpu: instantiatedCpu - c, totalCpu: cpu() - c });
}
const r = (x) => Math.round(x * 10) / 10;
const later = starts.slice(1);
console.log(
  JSON.stringify({
    compileMs: r(compileMs),
    compileCpuMs: r(compileCpuMs),
    coldInstantiateMs: r(starts[0].instantiate),
    coldGoMainMs: r(starts[0].total - starts[0].instantiate),
    coldStartMs: r(starts[0].total),
    coldStartCpuMs: r(starts[0].totalCpu),
    ...(later.length && {
      instantiateMs: r(median(later.map((s) => s.instantiate))),
      goMainMs: r(median(later.map((s) => s.total - s.instantiate))),
      startMs: r(median(later.map((s) => s.total))),
    }),
  }),
);
process.exit(0);
