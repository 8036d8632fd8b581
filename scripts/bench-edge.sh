#!/usr/bin/env bash
# Edge benchmark (not a test; not part of make test): the fresh-instance
# build (a Go instance per request) against the kept-instance build (one Go
# instance per isolate), in one run under wrangler dev --local, both on the
# same arena whose database is a local libSQL server (tursodb). Scenarios:
# GET /healthz, a cached public read, an uncached public read, a result
# submission; p50, p99 and requests/s at 1 and 16 clients, errors and wrong
# answers (scripts/edgebench checks every answer). Reference lines: a plain
# JS worker under the same wrangler (/healthz and a Cache API read), the
# native binary and the kept build's Go side under Node (scripts/
# edge-node.mjs: no workerd, no front; "go ms" is the time running Go) on
# the same databases, and the libSQL server's own round trip. Then a mixed run of 32 clients for 60 s
# on the kept build, which must end with zero errors and zero wrong answers.
#
# First, the cold line (scripts/edge-cold.sh): a new isolate's first
# request on fresh wrangler dev processes, beside the plain JS worker's.
#
# Usage: scripts/bench-edge.sh  (make bench-edge)
#   BENCH_EDGE_DURATION=5s  length of each table cell
#   BENCH_EDGE_SOAK=60s     length of the mixed run (0 skips it)
#   BENCH_EDGE_COLD_RUNS=5  fresh wrangler dev runs per cold route (0 skips)
#   BENCH_EDGE_ONLY=cold    the cold line alone (no fresh build, no tables)
#   BENCH_EDGE_COLD_EXTRA="label=DIR ..."  also the cold line of bundles
#                           built elsewhere (scripts/build-worker.sh -o DIR)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
source scripts/edge-env.sh
source scripts/edge-cold.sh

duration=${BENCH_EDGE_DURATION:-5s}
soak=${BENCH_EDGE_SOAK:-60s}
cold_runs=${BENCH_EDGE_COLD_RUNS:-5}
only=${BENCH_EDGE_ONLY:-}

scripts/build-worker.sh -o "$tmp/kept"
[ "$only" = cold ] || scripts/build-worker.sh --fresh -o "$tmp/fresh"
mkdir -p "$tmp/js"
cp scripts/edge-baseline.mjs "$tmp/js/worker.mjs"
go build -o "$tmp/edgebench" ./scripts/edgebench

start_libsql libsql-directory dir_url
start_libsql libsql-arena arena_db
operator=$(random_hex 24)
read -r kept_port fresh_port js_port node_port native_port <<<"$(free_ports 5)"
start_wrangler kept "$tmp/kept/worker.mjs" "$kept_port" "$dir_url" "$operator" --var ARENA_EDGE_TRACE:1
kept="http://127.0.0.1:$kept_port"
curl -fsS -o "$tmp/arena.json" -H "Authorization: Bearer $operator" -H 'Content-Type: application/json' \
  --data "{\"slug\":\"bench\",\"name\":\"Bench Arena\",\"hosts\":[\"bench.test\"],\"plan\":\"studio\",\"appIds\":[\"480\"],\"databaseUrl\":\"$arena_db\"}" \
  "$kept/api/v1/operator/arenas"
admin=$(sed -n 's/.*"adminToken"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' "$tmp/arena.json")

if [ "$cold_runs" != 0 ]; then
  echo "bench-edge: cold line, $cold_runs fresh wrangler dev per route; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); app.wasm $(wc -c <"$tmp/kept/app.wasm") bytes"
  cold_line kept "$tmp/kept/worker.mjs" "$dir_url" "$operator" bench.test 76561198000000002 "$cold_runs"
  cold_floor "$cold_runs"
  for extra in ${BENCH_EDGE_COLD_EXTRA:-}; do
    echo "bench-edge: cold line of ${extra%%=*}: app.wasm $(wc -c <"${extra#*=}/app.wasm") bytes"
    cold_line "${extra%%=*}" "${extra#*=}/worker.mjs" "$dir_url" "$operator" bench.test 76561198000000002 "$cold_runs"
  done
fi
[ "$only" = cold ] && exit 0

start_wrangler fresh "$tmp/fresh/worker.mjs" "$fresh_port" "$dir_url" "$operator"
start_wrangler js "$tmp/js/worker.mjs" "$js_port" "$dir_url" "$operator"
fresh="http://127.0.0.1:$fresh_port"
js="http://127.0.0.1:$js_port"
# The kept build's Go side under Node, without workerd: what the Workers
# runtime adds, and how long Go itself runs per request.
start node "$NODE22" scripts/edge-node.mjs "$tmp/kept" "$node_port" \
  "ARENA_DIRECTORY_URL=$dir_url" "ARENA_OPERATOR_TOKEN=$operator" "ARENA_SESSION_KEY=$(random_hex 32)"
node="http://127.0.0.1:$node_port"
wait_http node "$node/healthz" 60
# The native binary on the same databases: Go without WebAssembly.
go build -o "$tmp/arena" ./worker
start native env ARENA_OPERATOR_TOKEN="$operator" ARENA_TICK_INTERVAL=0 "$tmp/arena" \
  --addr "127.0.0.1:$native_port" --data "$tmp/native" --directory-url "$dir_url" --log json
native="http://127.0.0.1:$native_port"
wait_http native "$native/healthz" 60

echo "bench-edge: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); each cell runs $duration; io = round trips Go made per request (kept build), io ms = their time"
common=(-host bench.test -admin "$admin" -d "$duration")
"$tmp/edgebench" "${common[@]}" -base "$js" -setup-base "$kept" -label js -tournaments 0 -scenarios healthz,cached,db3 -header -db "$arena_db"
"$tmp/edgebench" "${common[@]}" -base "$kept" -label kept -tournaments 4 -players 256
"$tmp/edgebench" "${common[@]}" -base "$fresh" -setup-base "$kept" -label fresh -tournaments 1 -players 256
"$tmp/edgebench" "${common[@]}" -base "$node" -setup-base "$kept" -label node -tournaments 1 -players 256 -scenarios healthz,uncached,submit
"$tmp/edgebench" "${common[@]}" -base "$native" -setup-base "$kept" -label native -tournaments 1 -players 256 -scenarios healthz,uncached,submit
if [ "$soak" != 0 ]; then
  "$tmp/edgebench" "${common[@]}" -base "$kept" -label kept -scenarios '' -tournaments 3 -players 512 -soak "$soak" -soak-c 32
fi
instances=$(grep -c '"msg":"go instance started"' "$tmp/kept.log" || true)
echo "bench-edge: the kept build started Go $instances time(s) for $(grep -c '^\[wrangler:info\] ' "$tmp/kept.log" || true) requests"
