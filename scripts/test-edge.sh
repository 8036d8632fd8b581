#!/usr/bin/env bash
# Edge proof: builds the Workers bundle and runs it in the local Workers
# runtime (wrangler dev / workerd) against two real libSQL servers (tursodb):
# one for the directory, one for an arena. Then drives it over HTTP: health,
# operator API, host routing, admin settings, the cron trigger, website
# sessions, and latency.
# Prints PASS/FAIL per check and "edge: N passed, M failed"; exits non-zero on
# any failure. Everything it starts is stopped, and its temp dir removed, on
# success, failure or Ctrl-C. Usage: scripts/test-edge.sh
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

eval "$(scripts/tools.sh)" # TURSODB, NODE22, WRANGLER
scripts/build-worker.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-edge.XXXXXX")
groups=()    # process group ids of everything started (each via setsid)
declare -A pid_of # start NAME -> pid (== its process group id)

stop_all() {
  local pg i
  for pg in "${groups[@]}"; do kill -TERM -- "-$pg" 2>/dev/null || true; done
  for pg in "${groups[@]}"; do
    for ((i = 0; i < 50; i++)); do kill -0 -- "-$pg" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$pg" 2>/dev/null || true
    wait "$pg" 2>/dev/null || true
  done
  groups=()
}

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  stop_all
  rm -rf "$tmp"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# start NAME CMD...: runs CMD in its own session (so its whole process tree can
# be killed as one group), output in $tmp/NAME.log.
start() {
  local name=$1
  shift
  setsid "$@" </dev/null >"$tmp/$name.log" 2>&1 &
  # The child is not a group leader, so setsid does not fork: pid == new pgid.
  groups+=("$!")
  pid_of[$name]=$!
}

# free_ports N: prints N distinct free loopback ports.
free_ports() {
  "$NODE22" -e '
    const net = require("net");
    const servers = Array.from({ length: +process.argv[1] }, () => net.createServer());
    Promise.all(servers.map((s) => new Promise((ok) => s.listen(0, "127.0.0.1", () => ok(s.address().port)))))
      .then((ports) => { console.log(ports.join(" ")); servers.forEach((s) => s.close()); });
  ' "$1"
}

# wait_http NAME URL SECONDS: waits until URL answers with any HTTP status.
wait_http() {
  local name=$1 url=$2 deadline=$((SECONDS + $3))
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "$url" || true)" != 000 ]; do
    if ((SECONDS >= deadline)) || ! kill -0 "${pid_of[$name]}" 2>/dev/null; then
      echo "test-edge: $name did not answer at $url (exited, or not within $3 s); log tail:" >&2
      tail -n 40 "$tmp/$name.log" >&2
      exit 1
    fi
    sleep 0.1
  done
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }
random_hex() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }

read -r dir_port arena_port worker_port inspector_port <<<"$(free_ports 4)"
operator_token=$(random_hex 24)
session_key=$(random_hex 32)

start tursodb-directory "$TURSODB" --sync-server "127.0.0.1:$dir_port" "$tmp/directory.db"
start tursodb-arena "$TURSODB" --sync-server "127.0.0.1:$arena_port" "$tmp/arena-edge.db"
wait_http tursodb-directory "http://127.0.0.1:$dir_port/" 20
wait_http tursodb-arena "http://127.0.0.1:$arena_port/" 20

wrangler_start=$(now_ms)
start wrangler env WRANGLER_SEND_METRICS=false "$NODE22" "$WRANGLER" dev \
  --local --ip 127.0.0.1 --port "$worker_port" --inspector-port "$inspector_port" \
  --test-scheduled --show-interactive-dev-session=false \
  --persist-to "$tmp/wrangler-state" \
  --var "ARENA_DIRECTORY_URL:http://127.0.0.1:$dir_port" \
  --var "ARENA_OPERATOR_TOKEN:$operator_token" \
  --var "ARENA_SESSION_KEY:$session_key"
base="http://127.0.0.1:$worker_port"
wait_http wrangler "$base/healthz" 90
echo "test-edge: wrangler dev answered after $(($(now_ms) - wrangler_start)) ms (ports: worker $worker_port, directory $dir_port, arena $arena_port)"

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "PASS $1"; }
# fail NAME [DETAIL]: DETAIL defaults to the last response's status and body.
fail() {
  failed=$((failed + 1))
  echo "FAIL $1"
  echo "     ${2:-got HTTP $status: $(head -c 600 "$tmp/body")}"
}

# call METHOD PATH [HOST] [TOKEN] [BODY]: sets $status; the body is in $tmp/body.
call() {
  local args=(-s -o "$tmp/body" -w '%{http_code}' -X "$1" "$base$2")
  [ -n "${3:-}" ] && args+=(-H "Host: $3")
  [ -n "${4:-}" ] && args+=(-H "Authorization: Bearer $4")
  [ -n "${5:-}" ] && args+=(-H 'Content-Type: application/json' --data "$5")
  status=$(curl "${args[@]}" || true)
}
# body_has KEY VALUE: the JSON body has "KEY": "VALUE" (any spacing).
body_has() { grep -qE "\"$1\"[[:space:]]*:[[:space:]]*\"$2\"" "$tmp/body"; }

# 1. Health.
call GET /healthz
if [ "$status" = 200 ] && body_has status ok; then pass "healthz: 200 {\"status\":\"ok\"}"; else fail "healthz"; fi

# 2. Create an arena on the second libSQL server.
call POST /api/v1/operator/arenas "" "$operator_token" \
  "{\"slug\":\"edge\",\"name\":\"Edge Arena\",\"hosts\":[\"edge.test\"],\"plan\":\"free\",\"appIds\":[\"480\"],\"adminPlatformIds\":[\"76561198000000001\"],\"databaseUrl\":\"http://127.0.0.1:$arena_port\"}"
admin_token=$(sed -n 's/.*"adminToken"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' "$tmp/body")
if [ "$status" = 201 ] && [ -n "$admin_token" ]; then pass "operator: create arena edge: 201 with adminToken"; else fail "operator: create arena edge (want 201 with adminToken)"; fi

# 3. The operator's list shows it.
call GET /api/v1/operator/arenas "" "$operator_token"
if [ "$status" = 200 ] && body_has slug edge; then pass "operator: list arenas shows edge"; else fail "operator: list arenas (want 200 listing slug edge)"; fi

# 4. Host routing to the arena.
call GET /api/v1 edge.test
if [ "$status" = 200 ] && body_has slug edge; then pass "host edge.test: GET /api/v1 200 slug edge"; else fail "host edge.test: GET /api/v1 (want 200 with slug edge)"; fi

# 5. Unknown host.
call GET /api/v1 nosuch.test
if [ "$status" = 404 ] && grep -q arena_not_found "$tmp/body"; then pass "host nosuch.test: 404 arena_not_found"; else fail "host nosuch.test (want 404 arena_not_found)"; fi

# 6. Admin settings write, then read back through the public meta object.
call PUT /api/v1/admin/settings edge.test "$admin_token" '{"name":"Edge Arena 2"}'
if [ "$status" = 200 ]; then
  call GET /api/v1 edge.test
  if [ "$status" = 200 ] && body_has name "Edge Arena 2"; then pass "admin: PUT settings name, GET /api/v1 shows it"; else fail "admin: GET /api/v1 after rename (want name Edge Arena 2)"; fi
else
  fail "admin: PUT /api/v1/admin/settings (want 200)"
fi

# 7. Cron trigger runs the scheduled jobs.
log_lines=$(wc -l <"$tmp/wrangler.log")
call GET '/__scheduled?cron=*+*+*+*+*'
ran=no
if [ "$status" = 200 ]; then
  for ((i = 0; i < 50; i++)); do
    if tail -n +"$((log_lines + 1))" "$tmp/wrangler.log" | grep -q 'scheduled jobs ran'; then ran=yes; break; fi
    sleep 0.1
  done
fi
if [ "$ran" = yes ]; then
  pass "cron: /__scheduled 200 and the log shows 'scheduled jobs ran'"
else
  fail "cron: /__scheduled (want 200 and 'scheduled jobs ran' in the log)" \
    "got HTTP $status; log since the trigger: $(tail -n +"$((log_lines + 1))" "$tmp/wrangler.log" | tail -n 10)"
fi

# 8. Public reads: rate-limit headers counted in the arena database, and the
# second read of the same URL comes from the edge cache.
curl -s -o /dev/null -D "$tmp/h1" -H 'Host: edge.test' "$base/api/v1/tournaments" || true
curl -s -o "$tmp/body" -D "$tmp/h2" -H 'Host: edge.test' "$base/api/v1/tournaments" || true
if grep -qi '^ratelimit-limit: 60' "$tmp/h1" && grep -qi '^ratelimit-remaining: ' "$tmp/h2" &&
  grep -qi '^x-arena-cache: shared' "$tmp/h2" && grep -q '"tournaments"' "$tmp/body"; then
  pass "public read: rate-limit headers and a shared-cache hit on the second read"
else
  fail "public read (want RateLimit-Limit: 60, then X-Arena-Cache: shared)" "$(tr -d '\r' <"$tmp/h2" | head -n 20 | tr '\n' ' ')"
fi

# 9. The website renders on the edge too: the arena's front page and an
# embedded static asset.
page_status=$(curl -s -o "$tmp/page" -w '%{http_code}' -H 'Host: edge.test' "$base/" || true)
css_status=$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: edge.test' "$base/static/app.css" || true)
if [ "$page_status" = 200 ] && grep -qi '<!DOCTYPE html>' "$tmp/page" && grep -q 'Edge Arena 2' "$tmp/page" && [ "$css_status" = 200 ]; then
  pass "website: GET / renders the arena's front page, /static/app.css is served"
else
  fail "website (want 200 HTML naming Edge Arena 2, and the stylesheet)" "page $page_status, css $css_status: $(head -c 300 "$tmp/page")"
fi

# 10. Website sessions live in the arena database (the edge keeps no memory
# between requests): a mock sign-in opens the admin pages on later requests;
# after sign-out the same cookie opens nothing.
page() { # page METHOD PATH [COOKIE] [FORM]: sets $status and $tmp/headers
  local args=(-s -o "$tmp/body" -D "$tmp/headers" -w '%{http_code}' -X "$1" -H 'Host: edge.test' "$base$2")
  [ -n "${3:-}" ] && args+=(-H "Cookie: arena_session=$3")
  [ -n "${4:-}" ] && args+=(--data "$4")
  status=$(curl "${args[@]}" || true)
}
page POST /auth/mock "" "platformId=76561198000000001"
cookie=$(tr -d '\r' <"$tmp/headers" | sed -n 's/^[Ss]et-[Cc]ookie: arena_session=\([^;]*\).*/\1/p')
if [ "$status" = 303 ] && [ -n "$cookie" ]; then
  page GET /admin "$cookie"
  admin_status=$status
  page POST /signout "$cookie"
  signout_status=$status
  page GET /admin "$cookie"
  if [ "$admin_status" = 200 ] && [ "$signout_status" = 303 ] && [ "$status" = 303 ]; then
    pass "website: mock sign-in opens /admin, sign-out ends the session for good"
  else
    fail "website sessions (want /admin 200, sign-out 303, the replayed cookie 303)" "got $admin_status, $signout_status, $status"
  fi
else
  fail "website: POST /auth/mock (want 303 with a session cookie)"
fi

# 11. Latency of sequential requests through the local Workers runtime.
: >"$tmp/times"
bad=0
for ((i = 0; i < 50; i++)); do
  out=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -H 'Host: edge.test' "$base/api/v1" || true)
  [ "${out%% *}" = 200 ] || bad=$((bad + 1))
  echo "${out#* }" >>"$tmp/times"
done
latency=$(sort -n "$tmp/times" | awk '{ t[NR] = $1 * 1000 } END {
  printf "p50 %.1f ms, p90 %.1f ms, max %.1f ms", t[int(NR * 0.5 + 0.5)], t[int(NR * 0.9 + 0.5)], t[NR] }')
if [ "$bad" = 0 ]; then pass "latency: 50 sequential GET /api/v1 on edge.test: $latency"; else fail "latency: 50 sequential GET /api/v1 on edge.test" "$bad of 50 were not 200 ($latency)"; fi

echo "edge: $passed passed, $failed failed"
if [ "$failed" -gt 0 ]; then
  echo "--- wrangler log (last 80 lines, without the latency run's 200s) ---"
  grep -v '^\[wrangler:info\] GET /api/v1 200 OK' "$tmp/wrangler.log" | tail -n 80
  exit 1
fi
