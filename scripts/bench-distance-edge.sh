#!/usr/bin/env bash
# Round trips and latency per route on the edge (make bench-distance, after
# the native run): the kept build's two Workers under wrangler dev --local,
# the front reaching Go through scripts/hopdelay, Go reaching the arena's
# libSQL server directly (as Smart Placement puts Go beside the database).
# worker/arenatest's TestRoundTrips plays the same arena night as natively
# against the front (ARENA_DISTANCE_BASE), counts the arena database's
# requests, holds each route to roundTripBudget, and puts the distance
# (one way) on the hop for the requests it measures: 0, then 50 ms.
#
# Usage: scripts/bench-distance-edge.sh  (BENCH_DISTANCES="0s 50ms")
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
source scripts/edge-env.sh

scripts/build-worker.sh -o "$tmp/bundle" >/dev/null
go build -o "$tmp/hopdelay" ./scripts/hopdelay
go test -c -o "$tmp/arenatest.test" ./worker/arenatest
hopdelay="$tmp/hopdelay"
start_libsql libsql-directory dir_url
operator=$(random_hex 24)
port=$(free_ports 1)
start_wrangler edge "$tmp/bundle/worker.mjs" "$port" "$dir_url" "$operator" --var ARENA_LOOPBACK_CALLOUTS:1
for d in ${BENCH_DISTANCES:-0s 50ms}; do
  echo "bench-distance-edge: front -> Go $d one way, Go -> database none ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
  # Each run creates an arena of its own (a new slug and host) on the
  # same two Workers.
  (cd worker/arenatest && ARENA_REQUIRE_LIBSQL=1 TURSODB="$TURSODB" ARENA_DISTANCE="$d" \
    ARENA_DISTANCE_BASE="http://127.0.0.1:$port" ARENA_DISTANCE_OPERATOR_TOKEN="$operator" \
    ARENA_DISTANCE_HOP="$hop_control" "$tmp/arenatest.test" -test.count=1 -test.run '^TestRoundTrips$' -test.v) |
    grep -E '\||--- (PASS|FAIL)|Error|live:'
done
