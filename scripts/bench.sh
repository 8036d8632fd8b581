#!/usr/bin/env bash
# Benchmarks (not tests). Public read throughput: GET /api/v1/tournaments/{slug}
# of a 64-player groups_playoffs tournament on the native server under
# wrk -t2 -c64 -d10s, against nginx serving the identical bytes from a file,
# in the same run. Then the game-client protocol under load (scripts/loadgen:
# full matches and submissions per second, p50/p99, GET /healthz alongside),
# then the Go benchmarks (standings and bracket of a 1024-player tournament,
# the website's pages for a 64-player tournament).
# Usage: scripts/bench.sh  (make bench)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

duration=${BENCH_DURATION:-10s}
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

go build -o "$tmp/arena" ./worker
port=$(free_port)
ARENA_TICK_INTERVAL=0 "$tmp/arena" --addr "127.0.0.1:$port" --data "$tmp/data" --log json 2>"$tmp/arena.log" &
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

path=/api/v1/tournaments/bench-64
mkdir -p "$tmp/www/api/v1/tournaments"
curl -fsS "$base$path" >"$tmp/www$path"
bytes=$(wc -c <"$tmp/www$path")
nport=$(free_port)
cat >"$tmp/nginx.conf" <<NGINX
worker_processes 1;
pid $tmp/nginx.pid;
error_log $tmp/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  server {
    listen 127.0.0.1:$nport;
    root $tmp/www;
    default_type application/json;
    location / { try_files \$uri =404; }
  }
}
NGINX
"$nginx_bin" -c "$tmp/nginx.conf" -p "$tmp"
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$nport$path" >/dev/null 2>&1 && break; sleep 0.1; done
cmp -s <(curl -fsS "http://127.0.0.1:$nport$path") "$tmp/www$path" || { echo "bench: nginx does not serve the same bytes" >&2; exit 1; }

run_wrk() { # URL -> "rps p50 p99"
  wrk -t2 -c64 -d"$duration" --latency "$1" >"$tmp/wrk.out" 2>&1
  awk '/Requests\/sec/ {rps=$2} /^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /Non-2xx/ {bad=$NF} END {print rps, p50, p99, (bad ? bad : 0)}' "$tmp/wrk.out"
}
echo "bench: GET $path ($bytes bytes), wrk -t2 -c64 -d$duration, load generator on the same machine"
read -r a_rps a_p50 a_p99 a_bad < <(run_wrk "$base$path")
read -r n_rps n_p50 n_p99 n_bad < <(run_wrk "http://127.0.0.1:$nport$path")
printf '%-8s %12s %10s %10s %8s\n' server req/s p50 p99 non-2xx
printf '%-8s %12s %10s %10s %8s\n' arena "$a_rps" "$a_p50" "$a_p99" "$a_bad"
printf '%-8s %12s %10s %10s %8s\n' nginx "$n_rps" "$n_p50" "$n_p99" "$n_bad"
python3 -c "print('ratio arena/nginx: %.2f (target >= 0.50)' % ($a_rps / $n_rps))"

echo
echo "bench: game-client protocol (full matches, then submissions), GET /healthz as the reference line"
go build -o "$tmp/loadgen" ./scripts/loadgen
"$tmp/loadgen" -base "$base" -admin "$admin" -matches "${BENCH_MATCHES:-2000}" -c "${BENCH_CLIENTS:-16}"

echo
echo "bench: Go benchmarks"
go test ./core -run '^$' -bench . -benchmem -count 1
go test ./worker/web -run '^$' -bench 'TournamentPage64|PublicPages' -benchmem -count 1

echo
echo "bench: recordings"
scripts/bench-recordings.sh
