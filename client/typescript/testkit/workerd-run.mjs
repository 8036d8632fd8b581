// Runs testkit/worker-smoke.mjs under workerd through the project's
// miniflare (tools/, installed by make tools; needs Node 22): posts stdin's
// JSON to the Worker and prints its answer. argv[2] is the arena's origin,
// argv[3] that of an arena serving the transparency log and GET /receipt.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const pkg = fileURLToPath(new URL("..", import.meta.url));
const { Miniflare } = await import(new URL("../../../tools/node_modules/miniflare/dist/src/index.js", import.meta.url).href);
const mf = new Miniflare({
  modules: true,
  modulesRoot: pkg,
  modulesRules: [{ type: "ESModule", include: ["**/*.js", "**/*.mjs"] }],
  scriptPath: fileURLToPath(new URL("worker-smoke.mjs", import.meta.url)),
  compatibilityDate: "2024-11-01",
  bindings: { ARENA: process.argv[2], TLOG: process.argv[3] },
});
try {
  const res = await mf.dispatchFetch("http://localhost/", { method: "POST", body: readFileSync(0, "utf8") });
  process.stdout.write(await res.text());
} finally {
  await mf.dispose();
}
