// Serves the kept-instance bundle's Go side from Node 22 over HTTP, without
// workerd or the edge front: go.mjs and perform.mjs as the Workers entry
// uses them, fetch from Node. For make bench-edge: it shows what the bridge
// and Go cost apart from the Workers runtime, and reports in
// X-Arena-Edge-IO "<round trips> <their ms> <ms running Go>" (Node's clock
// runs during computation; workerd's does not).
// Usage: node scripts/edge-node.mjs BUILD_DIR PORT KEY=VALUE...  (the vars)
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const [dir, port, ...vars] = process.argv.slice(2);
const build = resolve(dir);
const { goBridge } = await import(join(build, "go.mjs"));
const { perform } = await import(join(build, "perform.mjs"));
const wasm = await WebAssembly.compile(readFileSync(join(build, "app.wasm")));
const env = Object.fromEntries(vars.map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]));
let goMs = 0;
const serve = goBridge(wasm, { onGo: (ms) => (goMs += ms) });
console.log = () => {}; // Go's request log lines

createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const body = chunks.length ? new Uint8Array(Buffer.concat(chunks)) : undefined;
  const headers = Object.entries(req.headers).map(([k, v]) => [k, String(v)]);
  headers.push(["cf-connecting-ip", "127.0.0.1"]);
  let io = 0;
  let ioMs = 0;
  const before = goMs;
  try {
    const a = await serve(
      { op: "request", method: req.method, url: `http://${req.headers.host}${req.url}`, headers, body },
      env,
      async (cmd) => {
        const t = performance.now();
        try {
          return await perform(cmd, env);
        } finally {
          io++;
          ioMs += performance.now() - t;
        }
      },
    );
    res.writeHead(a.status, [...a.headers.flat(), "X-Arena-Edge-IO", `${io} ${Math.round(ioMs)} ${(goMs - before).toFixed(2)}`]);
    res.end(a.status === 204 || a.status === 304 ? undefined : Buffer.from(a.body));
  } catch (e) {
    res.writeHead(500, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: "internal", detail: String(e) }));
  }
}).listen(Number(port), "127.0.0.1", () => process.stderr.write(`edge-node: listening on ${port}\n`));
