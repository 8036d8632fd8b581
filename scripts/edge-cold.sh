# The cold line of make bench-edge (source it after edge-env.sh): a new
# isolate's first request, measured as a game client meets it. For each
# route, RUNS fresh `wrangler dev` processes (fresh --persist-to state, so
# an empty cache too), each awaited until wrangler's ready line, then the
# timed first request (no request before it) and the second; the plain JS
# worker (scripts/edge-baseline.mjs) measured the same way in the same run.
#
# cold_line LABEL SCRIPT DIR_URL OPERATOR HOST TICKET RUNS: prints one row
# per route: p50, min and max of the first request, p50 of the second,
# the round trips Go made on the first (X-Arena-Edge-IO), and the ratio of
# the first request's p50 to the plain JS worker's for the same kind of
# route (/healthz to /healthz; public and ticketed reads to as many libSQL
# round trips from JS). Needs $tmp/js/worker.mjs (the plain worker).

# cold_sample NAME SCRIPT DIR_URL OPERATOR PATH [CURL ARGS...]: one fresh
# wrangler dev on a fresh port, its first and second request to PATH;
# prints "first second io" (seconds), or fails when a request got no
# answer or a 5xx.
cold_sample() {
  local name=$1 script=$2 dir_url=$3 operator=$4 path=$5 port
  shift 5
  port=$(free_ports 1)
  : >"$tmp/$name.log" # the last run's ready line must not count for this one
  start_wrangler "$name" "$script" "$port" "$dir_url" "$operator" --var ARENA_EDGE_TRACE:1 >/dev/null
  local first second io
  first=$(curl -s -o /dev/null -D "$tmp/$name.h" -w '%{http_code} %{time_total}' "$@" "http://127.0.0.1:$port$path" || echo "000 0")
  second=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' "$@" "http://127.0.0.1:$port$path" || echo "000 0")
  io=$(tr -d '\r' <"$tmp/$name.h" | sed -n 's/^[Xx]-[Aa]rena-[Ee]dge-[Ii][Oo]: \([0-9]*\).*/\1/p')
  stop "$name"
  rm -rf "$tmp/$name-state"
  case "${first%% *} ${second%% *}" in
    000* | *" 000" | 5* | *" 5"*)
      echo "cold: $script $path answered '$first' then '$second'; log tail:" >&2
      tail -n 20 "$tmp/$name.log" >&2
      return 1
      ;;
  esac
  echo "${first#* } ${second#* } ${io:-0}"
}

# cold_stats FILE: "p50 min max p50(second) io" in ms from cold_sample lines.
cold_stats() {
  awk '{ f[NR] = $1 * 1000; s[NR] = $2 * 1000; io = $3 }
    function p50(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    END { n = NR; min = f[1]; max = f[1]; for (i = 1; i <= n; i++) { if (f[i] < min) min = f[i]; if (f[i] > max) max = f[i] }
      printf "%.1f %.1f %.1f %.1f %d\n", p50(f, n), min, max, p50(s, n), io }' "$1"
}

cold_line() {
  local label=$1 script=$2 dir_url=$3 operator=$4 host=$5 ticket=$6 runs=$7 route i n=""
  # Each arena sample is followed by the plain worker's, so both meet the
  # same load on a shared machine. The plain worker's public and ticketed
  # stand-ins make as many libSQL round trips as the arena's first
  # request made (known after its first sample).
  for route in healthz public ticketed; do
    : >"$tmp/cold-$route"
    : >"$tmp/cold-js-$route"
    for ((i = 0; i < runs; i++)); do
      case $route in
        healthz) cold_sample cold "$script" "$dir_url" "$operator" /healthz >>"$tmp/cold-$route" ;;
        public) cold_sample cold "$script" "$dir_url" "$operator" /api/v1/tournaments -H "Host: $host" >>"$tmp/cold-$route" ;;
        ticketed) cold_sample cold "$script" "$dir_url" "$operator" /api/v1/me/upcoming-match -H "Host: $host" -H "Authorization: Platform MOCK:$ticket" >>"$tmp/cold-$route" ;;
      esac
      if [ "$route" = healthz ]; then
        cold_sample cold "$tmp/js/worker.mjs" "$dir_url" "$operator" /healthz >>"$tmp/cold-js-$route"
      else
        n=$(cold_stats "$tmp/cold-$route" | cut -d' ' -f5)
        cold_sample cold "$tmp/js/worker.mjs" "$dir_url" "$operator" "/db3?n=$n" >>"$tmp/cold-js-$route"
      fi
    done
  done
  printf '| cold start | route | first p50 ms | first min-max ms | second p50 ms | round trips | plain JS worker first p50 (min-max), second | ratio |\n|---|---|---|---|---|---|---|---|\n'
  for route in healthz public ticketed; do
    read -r p50 min max second io < <(cold_stats "$tmp/cold-$route")
    read -r jp50 jmin jmax jsecond _ < <(cold_stats "$tmp/cold-js-$route")
    printf '| %s | %s | %s | %s-%s | %s | %s | %s (%s-%s), %s | %.1fx |\n' "$label" "$route" "$p50" "$min" "$max" "$second" "$io" "$jp50" "$jmin" "$jmax" "$jsecond" \
      "$(awk -v a="$p50" -v b="$jp50" 'BEGIN { print (b > 0 ? a / b : 0) }')"
  done
}

# cold_floor RUNS: the floor under the cold line, measured the same way
# beside the plain JS worker: Go programs that do nothing but answer
# (scripts/edgefloor: the Go runtime alone, then with net/http, which
# every handler of the service is written against). Prints one row each
# in cold_line's table form.
cold_floor() {
  local runs=$1 probe i
  for probe in runtime nethttp; do
    mkdir -p "$tmp/floor-$probe"
    cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" scripts/edgefloor/worker.mjs "$tmp/floor-$probe/"
    GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o "$tmp/floor-$probe/app.wasm" "./scripts/edgefloor/$probe"
    : >"$tmp/cold-floor-$probe"
    : >"$tmp/cold-floor-js-$probe"
    for ((i = 0; i < runs; i++)); do
      cold_sample cold "$tmp/floor-$probe/worker.mjs" "$dir_url" "$operator" /healthz >>"$tmp/cold-floor-$probe"
      cold_sample cold "$tmp/js/worker.mjs" "$dir_url" "$operator" /healthz >>"$tmp/cold-floor-js-$probe"
    done
  done
  for probe in runtime nethttp; do
    read -r p50 min max second io < <(cold_stats "$tmp/cold-floor-$probe")
    read -r jp50 jmin jmax jsecond _ < <(cold_stats "$tmp/cold-floor-js-$probe")
    printf '| floor: Go %s (app.wasm %s bytes) | healthz | %s | %s-%s | %s | 0 | %s (%s-%s), %s | %.1fx |\n' \
      "$([ $probe = runtime ] && echo "runtime only" || echo "+ net/http")" "$(wc -c <"$tmp/floor-$probe/app.wasm")" \
      "$p50" "$min" "$max" "$second" "$jp50" "$jmin" "$jmax" "$jsecond" \
      "$(awk -v a="$p50" -v b="$jp50" 'BEGIN { print (b > 0 ? a / b : 0) }')"
  done
}
