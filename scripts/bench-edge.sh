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
# the same databases, and the libSQL server's own round trip. Then live
# streams: 100 watchers of one tournament held by the kept build's front
# (calls into Go a second, a decided match's p50/p99 to them against the
# 2 s budget). Then a mixed run of 32 clients for 60 s
# on the kept build, which must end with zero errors and zero wrong answers.
#
# First, the cold line (scripts/edge-cold.sh): a new isolate's first
# request on fresh wrangler dev processes, beside the plain JS worker's.
#
# Usage: scripts/bench-edge.sh  (make bench-edge)
#   BENCH_EDGE_DURATION=5s  length of each table cell
#   BENCH_EDGE_SOAK=60s     length of the mixed run (0 skips it)
#   BENCH_EDGE_LIVE_HOLD=10s how long the 100 live watchers stay quiet
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
live_hold=${BENCH_EDGE_LIVE_HOLD:-10s}
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
# Live streams held by the front: 100 watchers of one tournament, quiet
# for a while (calls into Go for pages, and their database round trips,
# from the kept build's trace lines), then a decided match's latency to
# each watcher from the deciding answer, against the budget.
live_from=$(($(wc -l <"$tmp/kept.log") + 1))
live_ok=met
"$tmp/edgebench" "${common[@]}" -base "$kept" -live 100 -live-hold "$live_hold" -live-caps=false | tee "$tmp/live.out" || live_ok=missed
held_ms=$(sed -n 's/.*; held \([0-9]*\) ms.*/\1/p' "$tmp/live.out")
tail -n +"$live_from" "$tmp/kept.log" | sed -n 's/.*"msg":"live page".*"io":\([0-9]*\).*/\1/p' |
  awk -v ms="${held_ms:-0}" '{ n++; io += $1 } END { if (n && ms) printf "bench-edge: live: %d calls into Go for pages in %.1f s held (%.2f a second, for 100 watchers), %.1f database round trips a page\n", n, ms / 1000, n * 1000 / ms, io / n }'
# What one page costs Go, measured under Node (edge-node.mjs: workerd's
# clock stands still while code runs): a quiet page of the same stream.
live_path=$(sed -n 's/.*(\(\/api\/v1\/tournaments\/[^;]*\/live\);.*/\1/p' "$tmp/live.out")
if [ -n "$live_path" ]; then
  for i in $(seq 20); do
    curl -s -o /dev/null -D - -H 'Host: bench.test' "$node$live_path?after=1000000000" | tr -d '\r' | sed -n 's/^x-arena-edge-io: //Ip'
  done | awk '{ n++; io += $1; ioms += $2; go += $3 } END { if (n) printf "bench-edge: live: one quiet page under Node (edge-node.mjs): %.2f ms running Go, %.1f round trips (%.1f ms)\n", go / n, io / n, ioms / n }'
fi
echo "bench-edge: budget: a decided match reaches 100 watchers of its tournament on the edge within 2 s (every watcher, so the p99 too): $live_ok"

if [ "$soak" != 0 ]; then
  "$tmp/edgebench" "${common[@]}" -base "$kept" -label kept -scenarios '' -tournaments 3 -players 512 -soak "$soak" -soak-c 32
fi
instances=$(grep -c '"msg":"go instance started"' "$tmp/kept-go.log" || true)
echo "bench-edge: the kept build started Go $instances time(s) for $(grep -c '^\[wrangler:info\] ' "$tmp/kept.log" || true) requests"
