#!/usr/bin/env bash
# Builds the Cloudflare Workers bundle into build/: the JS glue from
# syumai/workers (worker.mjs, runtime.mjs, wasm_exec.js), the Go handler as
# build/app.wasm (GOOS=js GOARCH=wasm), and the fetch fix to wasm_exec.js
# (outgoing fetch otherwise fails under workerd with "Illegal invocation").
# Prints the wasm's raw and gzip size. Usage: scripts/build-worker.sh
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build=build

# 1. JS glue (the generator empties build/ first).
go run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -o "$build"

# 2. The Go handler.
start=$(date +%s)
GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o "$build/app.wasm" ./worker
echo "build-worker: go build took $(($(date +%s) - start)) s"

# 3. Fetch fix: the generated Go runtime hands Go a Proxy of globalThis, so Go
# calls fetch with the Proxy as `this`, which workerd rejects. Return fetch
# bound to the real globalThis from the Proxy's get trap. Fail loudly when the
# upstream file no longer has the expected shape.
wasm_exec="$build/wasm_exec.js"
old='return Reflect.get(target, prop, target);'
new="const v = Reflect.get(target, prop, target); if (prop === 'fetch' && typeof v === 'function') return v.bind(target); return v;"
if ! grep -q 'const globalProxy = new Proxy(globalThis' "$wasm_exec"; then
  echo "build-worker: $wasm_exec has no globalProxy; the fetch fix no longer applies (upstream changed?)" >&2
  exit 1
fi
count=$(grep -cF -- "$old" "$wasm_exec" || true)
if [ "$count" != 1 ]; then
  echo "build-worker: expected exactly 1 '$old' in $wasm_exec, found $count; fetch fix not applied (upstream changed?)" >&2
  exit 1
fi
# awk's index() matches the literal text (no regex or '&' surprises as in sed).
awk -v old="$old" -v new="$new" '
  { i = index($0, old); if (i) $0 = substr($0, 1, i - 1) new substr($0, i + length(old)); print }
' "$wasm_exec" >"$wasm_exec.tmp"
mv "$wasm_exec.tmp" "$wasm_exec"
grep -qF -- "$new" "$wasm_exec" || { echo "build-worker: fetch fix did not land in $wasm_exec" >&2; exit 1; }
echo "build-worker: applied the fetch fix to $wasm_exec"

raw=$(wc -c <"$build/app.wasm")
gz=$(gzip -c "$build/app.wasm" | wc -c)
awk -v raw="$raw" -v gz="$gz" 'BEGIN {
  printf "build-worker: build/app.wasm %d bytes (%.2f MB), gzip %d bytes (%.2f MB)\n", raw, raw / 1e6, gz, gz / 1e6
}'
