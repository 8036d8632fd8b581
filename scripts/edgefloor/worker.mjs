// The Workers entry of bench-edge's floor probes (scripts/edgefloor): Go
// started on the first request, as the service's kept build starts it.
import "./wasm_exec.js";
import wasm from "./app.wasm";

let answer;

function start() {
  const go = new Go();
  go.run(new WebAssembly.Instance(wasm, go.importObject));
  return globalThis.arenaFloor;
}

export default {
  async fetch() {
    answer ??= start();
    return new Response(answer());
  },
};
