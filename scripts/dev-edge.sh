#!/usr/bin/env bash
# make dev-edge: the demo arena (the same one make dev serves) under the
# local Workers runtime, as developers running wrangler dev meet it:
# the kept-instance Workers build under `wrangler dev --local`, libSQL
# servers (tursodb) for the directory and the demo arena's database, the
# RECORDINGS bucket simulated by wrangler (the demo's recording put in it),
# and the cron trigger fired every minute as Cloudflare would. Prints where
# it listens and the operator and admin tokens; Ctrl-C stops everything
# and removes its temp dir (a fresh demo on every start).
#
#   scripts/dev-edge.sh            (make dev-edge)
#   DEV_EDGE_PORT=8788             the port wrangler dev listens on
#
# The demo is seeded by the native binary (the same code as make dev)
# into the libSQL servers (ARENA_DEMO_DATABASE_URL), then the native
# binary stops: the edge alone serves it.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
source scripts/edge-env.sh

port=${DEV_EDGE_PORT:-8788}
echo "dev-edge: building the Workers bundle and the native seeder"
scripts/build-worker.sh -o "$tmp/bundle" >"$tmp/build.log" || { cat "$tmp/build.log"; exit 1; }
go build -o "$tmp/arena" ./worker

start_libsql libsql-directory dir_url
start_libsql libsql-demo demo_db
operator=$(random_hex 24)

# Seed the demo through the native binary, into the libSQL servers.
seed_port=$(free_ports 1)
start seed env ARENA_OPERATOR_TOKEN="$operator" ARENA_DEMO_DATABASE_URL="$demo_db" ARENA_TICK_INTERVAL=0 \
  "$tmp/arena" --addr "127.0.0.1:$seed_port" --data "$tmp/seed" --directory-url "$dir_url"
wait_log seed "Arena is serving" 180
stop seed
admin=$(cat "$tmp/seed/demo-admin-token")

# The demo's recording, from the native object directory into the
# bucket wrangler dev simulates (keyed by its path there).
state="$tmp/wrangler-state"
if [ -d "$tmp/seed/objects" ]; then
  (cd "$tmp/seed/objects" && find . -type f | sed 's|^\./||') | while read -r key; do
    WRANGLER_SEND_METRICS=false "$NODE22" "$WRANGLER" r2 object put "arena-recordings/$key" --file "$tmp/seed/objects/$key" \
      --config "$root/wrangler.go.toml" --local --persist-to "$state" >"$tmp/r2-put.log" 2>&1 ||
      { echo "dev-edge: could not put $key in the local bucket:" >&2; cat "$tmp/r2-put.log" >&2; exit 1; }
  done
fi

# wrangler dev keeps its state (the bucket, the cache) in $state: the
# name "wrangler" makes start_wrangler use it.
start_wrangler wrangler "$tmp/bundle/worker.mjs" "$port" "$dir_url" "$operator" --var ARENA_LOG_LEVEL:info
base="http://127.0.0.1:$port"

# The cron trigger (wrangler.toml's crons run every minute on Cloudflare;
# wrangler dev fires them on GET /__scheduled).
start cron bash -c "while sleep 60; do curl -s -o /dev/null '$base/__scheduled?cron=*+*+*+*+*' || true; done"

cat <<EOF

Arena (Workers build) is serving $base under wrangler dev --local
  demo arena:      $base  (also http://localhost:$port, http://demo.localhost:$port)
  operator token:  $operator
  admin token:     $admin
  directory:       $dir_url (tursodb), demo arena database: $demo_db
  cron:            every 60 s through $base/__scheduled
  logs:            $tmp/wrangler.log (the front), $tmp/wrangler-go.log (the Go worker)
Ctrl-C stops everything.
EOF
wait "${pid_of[wrangler]}"
