#!/usr/bin/env bash
# Builds the Cloudflare Workers bundle: the Go handler as app.wasm
# (GOOS=js GOARCH=wasm) and its JS entry. Prints the wasm's raw and gzip
# size and fails when it exceeds the size budget.
#
#   scripts/build-worker.sh [--fresh] [-o DIR]
#
# Default: the kept-instance build, two Workers (docs/edge.md "Two
# Workers"): the front (worker.mjs, wrangler.toml) and the Go worker
# (go-worker.mjs, wrangler.go.toml), which keeps one Go instance per
# isolate and performs every call's I/O on that call's side; Go's own
# wasm_exec.js is copied from GOROOT.
#
# --fresh: the fallback, fresh-instance build (Go tag edgefresh): the JS
# glue of syumai/workers starts a new Go instance for every request. Its
# wasm_exec.js gets the fetch fix (outgoing fetch otherwise fails under
# workerd with "Illegal invocation").
#
# -o DIR: output directory (default build/; wrangler.toml's main is
# build/worker.mjs and wrangler.go.toml's build/go-worker.mjs; other
# directories are run as scripts/edge-env.sh's start_wrangler runs them).
# The fresh-instance build is one Worker (Go in it), run with
# wrangler.go.toml's bindings.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

fresh=no
out=build
while [ $# -gt 0 ]; do
  case $1 in
    --fresh) fresh=yes ;;
    -o) out=$2; shift ;;
    *) echo "usage: scripts/build-worker.sh [--fresh] [-o DIR]" >&2; exit 2 ;;
  esac
  shift
done

# Raw size budget of app.wasm (Workers allow 64 MiB; start-up time grows
# with size).
max_raw=40000000
# validator_novalidatefn: validator's MethodByName would otherwise keep
# every exported method of the program alive (the project uses no
# validateFn).
tags=validator_novalidatefn

if [ "$fresh" = yes ]; then
  tags=$tags,edgefresh
  # The generator empties the output directory first.
  go run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -o "$out"
else
  rm -rf "$out"
  mkdir -p "$out"
  cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" "$out/wasm_exec.js"
  cp worker/edge/js/worker.mjs worker/edge/js/go-worker.mjs worker/edge/js/go.mjs worker/edge/js/front.mjs \
    worker/edge/js/live.mjs worker/edge/js/perform.mjs worker/edge/js/wire.mjs "$out/"
fi

start=$(date +%s)
GOOS=js GOARCH=wasm go build -tags "$tags" -trimpath -ldflags='-s -w' -o "$out/app.wasm" ./worker
echo "build-worker: go build ($([ "$fresh" = yes ] && echo fresh-instance || echo kept-instance) build, tags $tags) took $(($(date +%s) - start)) s"

if [ "$fresh" = yes ]; then
  # Fetch fix: the generated Go runtime hands Go a Proxy of globalThis, so Go
  # calls fetch with the Proxy as `this`, which workerd rejects. Return fetch
  # bound to the real globalThis from the Proxy's get trap. Fail loudly when
  # the upstream file no longer has the expected shape.
  wasm_exec="$out/wasm_exec.js"
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
fi

raw=$(wc -c <"$out/app.wasm")
gz=$(gzip -c "$out/app.wasm" | wc -c)
awk -v raw="$raw" -v gz="$gz" -v out="$out" 'BEGIN {
  printf "build-worker: %s/app.wasm %d bytes (%.2f MB), gzip %d bytes (%.2f MB)\n", out, raw, raw / 1e6, gz, gz / 1e6
}'
if [ "$raw" -gt "$max_raw" ]; then
  echo "build-worker: $out/app.wasm is $raw bytes, over the budget of $max_raw" >&2
  exit 1
fi
