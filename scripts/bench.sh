#!/usr/bin/env bash
# Benchmarks (not tests), each a ratio against a reference measured in the
# same run:
#   read:       GET /api/v1/tournaments/{slug} of a 64-player groups_playoffs
#               tournament on the native server under wrk -t2 -c64 -d10s,
#               anonymous and with an API key, against nginx serving the
#               identical bytes from a file, configured as nginx is
#               deployed (a worker per core, sendfile, long keep-alive)
#               (req/s and p99 ratios).
#   protocol:   the game-client protocol under load (scripts/loadgen): full
#               matches, then result submissions in a 1024-player, 32-group
#               tournament with 32 clients (every match read back), and
#               GET /healthz alongside.
#   go:         the Go benchmarks (standings and bracket of a 1024-player
#               tournament, the website's pages for a 64-player tournament).
#   recordings: scripts/bench-recordings.sh.
#   memory:     a fresh native server given BENCH_ARENAS (1000) arenas, each
#               with a started 16-player cup, every arena's API and pages
#               read twice (scripts/arenamem); its resident memory and peak
#               against the 512 MiB budget.
# Usage: scripts/bench.sh [read] [protocol] [go] [recordings] [memory]
# (make bench: all of them). BENCH_DURATION (10s), BENCH_CLIENTS (32), BENCH_PLAYERS
# (1024), BENCH_GROUPS (32), BENCH_ROUNDS (0: all) change the runs.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

duration=${BENCH_DURATION:-10s}
parts=" ${*:-read protocol go recordings memory} "
want() { [[ "$parts" == *" $1 "* ]]; }
need=()
command -v wrk >/dev/null || need+=(wrk)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || need+=(nginx-light)
if [ ${#need[@]} -gt 0 ]; then
  echo "bench: installing ${need[*]} from Debian's packages" >&2
  apt-get update -qq >/dev/null && apt-get install -y -qq "${need[@]}" >/dev/null
fi
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-bench.XXXXXX")
chmod 755 "$tmp" # nginx workers may run as another user
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -f "$tmp/nginx.pid" ] && kill "$(cat "$tmp/nginx.pid")" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# BENCH_ARENA_BIN: a prebuilt server to measure instead (another commit's).
if [ -n "${BENCH_ARENA_BIN:-}" ]; then cp "$BENCH_ARENA_BIN" "$tmp/arena"; else go build -o "$tmp/arena" ./worker; fi
port=$(free_port)
ARENA_TICK_INTERVAL=0 "$tmp/arena" --dev --addr "127.0.0.1:$port" --data "$tmp/data" --log json 2>"$tmp/arena.log" &
pids+=($!)
base="http://127.0.0.1:$port"
for _ in $(seq 100); do curl -fs "$base/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
admin=$(cat "$tmp/data/demo-admin-token")

api() { # METHOD PATH [BODY]
  curl -fsS -X "$1" -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' \
    ${3:+-d "$3"} "$base$2" >/dev/null
}
now=$(date -u +%s)
iso() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ; }

bench_read() {
  api PUT /api/v1/admin/settings '{"rateLimits":{"anonymousPerMinute":0,"keyPerMinute":0}}'
  api POST /api/v1/admin/tournaments "{\"slug\":\"bench-64\",\"name\":\"Bench 64\",\"description\":\"64 players\",\"format\":\"groups_playoffs\",\"maxPlayers\":64,\"registrationOpensAt\":\"$(iso $((now - 3600)))\",\"registrationClosesAt\":\"$(iso $((now + 3600)))\",\"startsAt\":\"$(iso $((now + 7200)))\",\"groupCount\":8,\"advancePerGroup\":2,\"smallFinal\":true}"
  api POST /api/v1/admin/tournaments/bench-64/status '{"status":"registration_open"}'
  for i in $(seq 1 64); do
    api POST /api/v1/admin/tournaments/bench-64/registrations "{\"platformId\":\"7656119800010$(printf %04d "$i")\",\"personaName\":\"Bench Player $i\",\"seed\":$i}"
  done
  api POST /api/v1/admin/tournaments/bench-64/status '{"status":"registration_closed"}'
  api POST /api/v1/admin/tournaments/bench-64/status '{"status":"group_stage"}'
  # Resolve every other group match so standings have something to rank.
  curl -fsS -H "Authorization: Bearer $admin" "$base/api/v1/admin/tournaments/bench-64/matches" |
    python3 -c 'import json,sys; [print(m["id"], m["p1PlatformId"]) for i,m in enumerate(json.load(sys.stdin)["matches"]) if i%2==0]' |
    while read -r id p1; do api POST "/api/v1/admin/matches/$id/resolve" "{\"winner\":\"$p1\",\"score\":{\"p1\":3,\"p2\":1}}"; done
  key=$(curl -fsS -X POST -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' -d '{"label":"bench"}' "$base/api/v1/admin/api-keys" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["key"])')

  local path=/api/v1/tournaments/bench-64
  mkdir -p "$tmp/www/anon/api/v1/tournaments" "$tmp/www/keyed/api/v1/tournaments"
  curl -fsS "$base$path" >"$tmp/www/anon$path"
  curl -fsS -H "Authorization: Bearer $key" "$base$path" >"$tmp/www/keyed$path"
  local bytes nport
  bytes=$(wc -c <"$tmp/www/anon$path")
  nport=$(free_port)
  cat >"$tmp/nginx.conf" <<NGINX
worker_processes auto;
pid $tmp/nginx.pid;
error_log $tmp/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 65s;
  keepalive_requests 100000;
  open_file_cache max=64 inactive=60s;
  server {
    listen 127.0.0.1:$nport;
    root $tmp/www;
    default_type application/json;
    location / { try_files \$uri =404; }
  }
}
NGINX
  "$nginx_bin" -c "$tmp/nginx.conf" -p "$tmp"
  for _ in $(seq 50); do curl -fs "http://127.0.0.1:$nport/anon$path" >/dev/null 2>&1 && break; sleep 0.1; done
  cmp -s <(curl -fsS "http://127.0.0.1:$nport/anon$path") "$tmp/www/anon$path" || { echo "bench: nginx does not serve the same bytes" >&2; exit 1; }

  run_wrk() { # URL [HEADER] -> "rps p50 p99 non2xx"
    wrk -t2 -c64 -d"$duration" --latency ${2:+-H "$2"} "$1" >"$tmp/wrk.out" 2>&1
    awk '/Requests\/sec/ {rps=$2} /^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /Non-2xx/ {bad=$NF} END {print rps, p50, p99, (bad ? bad : 0)}' "$tmp/wrk.out"
  }
  ms() { awk -v v="$1" 'BEGIN { if (v ~ /us$/) { sub(/us$/, "", v); print v / 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v); print v + 0 } else { sub(/s$/, "", v); print v * 1000 } }'; }
  echo "bench: GET $path ($bytes bytes), wrk -t2 -c64 -d$duration, load generator on the same machine"
  printf '%-14s %12s %10s %10s %8s\n' server req/s p50 p99 non-2xx
  local a_rps a_p50 a_p99 a_bad k_rps k_p50 k_p99 k_bad n_rps n_p50 n_p99 n_bad
  read -r a_rps a_p50 a_p99 a_bad < <(run_wrk "$base$path")
  printf '%-14s %12s %10s %10s %8s\n' arena "$a_rps" "$a_p50" "$a_p99" "$a_bad"
  read -r k_rps k_p50 k_p99 k_bad < <(run_wrk "$base$path" "Authorization: Bearer $key")
  printf '%-14s %12s %10s %10s %8s\n' "arena, keyed" "$k_rps" "$k_p50" "$k_p99" "$k_bad"
  read -r n_rps n_p50 n_p99 n_bad < <(run_wrk "http://127.0.0.1:$nport/anon$path")
  printf '%-14s %12s %10s %10s %8s\n' nginx "$n_rps" "$n_p50" "$n_p99" "$n_bad"
  python3 -c "
a, k, n = $a_rps, $k_rps, $n_rps
ap, kp, np_ = $(ms "$a_p99"), $(ms "$k_p99"), $(ms "$n_p99")
print('ratio arena/nginx req/s: anonymous %.2f, keyed %.2f (target >= 0.80)' % (a / n, k / n))
print('ratio arena/nginx p99:   anonymous %.2f, keyed %.2f (target <= 2.00)' % (ap / np_, kp / np_))"
}

bench_protocol() {
  echo "bench: game-client protocol (full matches, then submissions in groups), GET /healthz as the reference line"
  go build -o "$tmp/loadgen" ./scripts/loadgen
  "$tmp/loadgen" -base "$base" -admin "$admin" -pid "${pids[0]}" -matches "${BENCH_MATCHES:-2000}" -c "${BENCH_CLIENTS:-32}" \
    -players "${BENCH_PLAYERS:-1024}" -groups "${BENCH_GROUPS:-32}" -rounds "${BENCH_ROUNDS:-0}"
}

bench_go() {
  echo "bench: Go benchmarks"
  go test ./core -run '^$' -bench . -benchmem -count 1
  go test ./worker/web -run '^$' -bench 'TournamentPage64|PublicPages' -benchmem -count 1
  echo "bench: sealing a decided match's 3 events into the event log and its Merkle tree (SQLite file, 10,000 events before; docs/events.md)"
  go test ./sql -run '^$' -bench 'SealLog' -benchtime 2000x -count 1
  echo "bench: a decided match reaching the live stream's watchers (budget: p99 within 1 s at 1,000; the 1-watcher line is the reference)"
  go test ./worker/server -run '^$' -bench 'LiveFanout' -benchtime "${BENCH_LIVE_MATCHES:-20}x" -count 1
}

bench_memory() {
  echo "bench: memory with ${BENCH_ARENAS:-1000} arenas on a fresh server (budget 512 MiB resident)"
  go build -o "$tmp/arenamem" ./scripts/arenamem
  local mport
  mport=$(free_port)
  ARENA_TICK_INTERVAL=0 "$tmp/arena" --addr "127.0.0.1:$mport" --data "$tmp/mem" --log json 2>"$tmp/mem.log" &
  local mpid=$!
  pids+=($mpid)
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$mport/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
  "$tmp/arenamem" -base "http://127.0.0.1:$mport" -operator "$(cat "$tmp/mem/operator-token")" -pid "$mpid" \
    -arenas "${BENCH_ARENAS:-1000}" -limit-mb 512
}

want read && { bench_read; echo; }
want protocol && { bench_protocol; echo; }
want go && { bench_go; echo; }
if want recordings; then
  echo "bench: recordings"
  scripts/bench-recordings.sh
fi
want memory && bench_memory
