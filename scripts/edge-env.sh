# Shared by test-edge.sh and bench-edge.sh (source it): a temp dir, process
# groups stopped on exit, free ports, libSQL servers and wrangler dev.
# Expects $root (the repository) and sets TURSODB, NODE22, WRANGLER, $tmp.

eval "$(scripts/tools.sh)" # TURSODB, NODE22, WRANGLER

tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-edge.XXXXXX")
groups=()         # process group ids of everything started (each via setsid)
declare -A pid_of # start NAME -> pid (== its process group id)

# stop NAME: stops one started process group.
stop() {
  local pg=${pid_of[$1]} i
  kill -TERM -- "-$pg" 2>/dev/null || true
  for ((i = 0; i < 50; i++)); do kill -0 -- "-$pg" 2>/dev/null || break; sleep 0.1; done
  kill -KILL -- "-$pg" 2>/dev/null || true
  wait "$pg" 2>/dev/null || true
}

stop_all() {
  local name
  for name in "${!pid_of[@]}"; do stop "$name"; done
  pid_of=()
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
      echo "$name did not answer at $url (exited, or not within $3 s); log tail:" >&2
      tail -n 40 "$tmp/$name.log" >&2
      exit 1
    fi
    sleep 0.1
  done
}

# wait_log NAME TEXT SECONDS: waits until NAME's log contains TEXT.
wait_log() {
  local name=$1 text=$2 deadline=$((SECONDS + $3))
  until grep -qF -- "$text" "$tmp/$name.log" 2>/dev/null; do # the log appears once the process starts
    if ((SECONDS >= deadline)) || ! kill -0 "${pid_of[$name]}" 2>/dev/null; then
      echo "$name did not log '$text' (exited, or not within $3 s); log tail:" >&2
      tail -n 40 "$tmp/$name.log" >&2
      exit 1
    fi
    sleep 0.1
  done
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }
random_hex() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }

# start_libsql NAME VAR: starts a libSQL server (tursodb) on a fresh
# database file and sets VAR to its URL.
start_libsql() {
  local port
  port=$(free_ports 1)
  start "$1" "$TURSODB" --sync-server "127.0.0.1:$port" "$tmp/$1.db"
  wait_http "$1" "http://127.0.0.1:$port/" 20
  printf -v "$2" 'http://127.0.0.1:%s' "$port"
}

# start_wrangler NAME SCRIPT PORT DIRECTORY_URL OPERATOR_TOKEN [--var K:V...]:
# runs the bundle SCRIPT (e.g. build/worker.mjs) under wrangler dev --local
# and waits until it listens on PORT. A kept-instance bundle is two
# Workers (docs/edge.md "Two Workers"): the Go worker (go-worker.mjs beside
# SCRIPT, wrangler.go.toml's bindings and the vars; process NAME-go, log
# $tmp/NAME-go.log, R2 kept in $tmp/NAME-state) and the front (SCRIPT,
# wrangler.toml; process NAME), joined by the service binding through a
# dev registry of their own. Any other bundle (the fresh-instance build, a
# reference worker) is one Worker with wrangler.go.toml's bindings. Cron
# runs on the front's GET /__scheduled. With $hopdelay set (the path of
# scripts/hopdelay built), the front reaches Go through it and
# $hop_control is its control address.
start_wrangler() {
  local name=$1 script=$2 port=$3 dir_url=$4 operator=$5 inspector go_port
  shift 5
  local vars=(--var "ARENA_DIRECTORY_URL:$dir_url" --var "ARENA_OPERATOR_TOKEN:$operator"
    --var "ARENA_SESSION_KEY:$(random_hex 32)" "$@")
  local common=(--local --ip 127.0.0.1 --test-scheduled --show-interactive-dev-session=false)
  local go_script
  go_script="$(dirname "$script")/go-worker.mjs"
  if [ ! -f "$go_script" ]; then
    inspector=$(free_ports 1)
    start "$name" env WRANGLER_SEND_METRICS=false WRANGLER_REGISTRY_PATH="$tmp/$name-registry" "$NODE22" "$WRANGLER" dev "$script" \
      --config "$root/wrangler.go.toml" "${common[@]}" --port "$port" --inspector-port "$inspector" \
      --persist-to "$tmp/$name-state" "${vars[@]}"
    wait_log "$name" "Ready on" 120
    return
  fi
  read -r go_port inspector <<<"$(free_ports 2)"
  start "$name-go" env WRANGLER_SEND_METRICS=false WRANGLER_REGISTRY_PATH="$tmp/$name-registry" "$NODE22" "$WRANGLER" dev "$go_script" \
    --config "$root/wrangler.go.toml" "${common[@]}" --port "$go_port" --inspector-port "$inspector" \
    --persist-to "$tmp/$name-state" "${vars[@]}"
  wait_log "$name-go" "Ready on" 120
  if [ -n "${hopdelay:-}" ]; then
    # A distance between the two: the front reaches Go through the
    # registry's address, which now names scripts/hopdelay in front of
    # Go's own (before the front starts, so it never sees Go's). Its delay
    # is set through $hop_control (POST /delay?d=50ms).
    local real hop control
    real=$(sed -n 's/.*"debugPortAddress": *"\([^"]*\)".*/\1/p' "$tmp/$name-registry/arena-go")
    read -r hop control <<<"$(free_ports 2)"
    start "$name-hop" "$hopdelay" -listen "127.0.0.1:$hop" -to "$real" -control "127.0.0.1:$control"
    wait_http "$name-hop" "http://127.0.0.1:$control/delay" 10
    sed -i "s/\"$real\"/\"127.0.0.1:$hop\"/" "$tmp/$name-registry/arena-go"
    hop_control="http://127.0.0.1:$control"
  fi
  inspector=$(free_ports 1)
  start "$name" env WRANGLER_SEND_METRICS=false WRANGLER_REGISTRY_PATH="$tmp/$name-registry" "$NODE22" "$WRANGLER" dev "$script" \
    --config "$root/wrangler.toml" "${common[@]}" --port "$port" --inspector-port "$inspector" \
    --persist-to "$tmp/$name-front-state" "$@"
  wait_log "$name" "Ready on" 120
  # The front's binding is connected once the registry lists the Go worker.
  wait_log "$name" "connected" 30
}
