# Two isolates agree within the stated bound (docs/edge.md "Two
# isolates"): sourced by test-edge.sh once its first wrangler dev (A, at
# $base) serves the arena "edge" (edge.test, admin $admin_token) and the
# Cloudflare twin runs ($twin). A second wrangler dev (B) runs on the same
# directory and arena databases, with its own state (its own cache, as
# another data center has). Each write is made through A and watched
# through B in three orders:
#   after      B's first look comes after the write;
#   before     B looked just before the write (its Go host cache, its
#              front and its cached answer all hold the old state);
#   staggered  B's Go looked the arena up through another request 1 s
#              before the write, and B's first look at what is watched
#              comes while that lookup is still in its fresh half (no
#              refresh of it due yet: sql.Directory.ArenaByHostFresh),
#              answered by Go from it: the order that stacks Go's 10 s
#              onto the front's 10 s
#              (this check fails on that build: not seen within 12 s,
#              due 13.7 s; docs/edge.md has the command that shows it).
# Each must be seen within the bound (10 s, plus one poll), and nothing
# wrong after it (watched 3 s more): a settings change, a revoked API key
# (never valid again), a decided match (never undecided again) and a
# removed custom domain (never served again).

# B polls every 0.3 s: the arena's read limits are lifted for the test.
call PUT /api/v1/admin/settings edge.test "$admin_token" '{"rateLimits":{"anonymousPerMinute":0,"keyPerMinute":0}}'
[ "$status" = 200 ] || fail "two isolates: lifting the read limits" 

agree_slack_ms=2000 # one poll interval and one request on a loaded machine

# EDGE_TWO_ISOLATES_B: the bundle B runs (default: the one under test). A
# test switch only: docs/edge.md "Memory as a cache" runs the check with
# a B built with the old stacking put back, to see it fail.
read -r b_port <<<"$(free_ports 1)"
start_wrangler isolate-b "${EDGE_TWO_ISOLATES_B:-build/worker.mjs}" "$b_port" "$dir_url" "$operator_token" \
  --var "CLOUDFLARE_API_URL:$twin/client/v4" --var "CLOUDFLARE_ZONE_ID:$cf_zone" --var "CLOUDFLARE_API_TOKEN:$cf_token"
b_base="http://127.0.0.1:$b_port"

# The bound is the lifetime of what an isolate knows of an arena:
# server.CacheLifetime, the max-age of a public read (asked of A, so
# that B looks at nothing before the first write; it is also the lifetime Go
# gives its host lookups, store.Directory.CacheHostsFor). Go reads a
# lookup again after an answer once less than half of it is left: the
# staggered order's first look comes in that fresh half, a margin before
# its end (the lookup was read a moment after the request that made it
# was sent).
lifetime_s=$(curl -s -D - -o /dev/null -H 'Host: edge.test' "$base/api/v1" | tr -d '\r' | sed -n 's/^[Cc]ache-[Cc]ontrol:.*max-age=\([0-9]*\).*/\1/p')
agree_bound_ms=$((${lifetime_s:-10} * 1000))
[ -n "$lifetime_s" ] || fail "two isolates: no max-age on a public read (the bound taken as 10 s)"
stagger_look_ms=$((agree_bound_ms / 2 - 300))

# on_b PATH [CURL ARGS...]: GET PATH on B; prints "status body".
on_b() {
  local path=$1
  shift
  local out
  out=$(curl -s -w '\n%{http_code}' "$@" "$b_base$path" || true)
  echo "${out##*$'\n'} ${out%$'\n'*}"
}

# agree NAME ORDER WRITE SEEN WARM: makes WRITE through A and polls SEEN
# on B (a function: 0 when B shows the new state, 1 when the old one, 2
# when something wrong); WARM is another request to B about the same
# arena (the staggered order's lookup). Records the time to seen; fails
# past the bound or when B goes back to the old state after it.
agree() {
  local name=$1 order=$2 write=$3 seen=$4 warm=$5 t_write t_seen t_warm now rc until
  case $order in
    before) $seen >/dev/null || true ;;
    staggered)
      t_warm=$(now_ms)
      $warm >/dev/null || true
      sleep 1
      ;;
  esac
  t_write=$(now_ms)
  if ! $write; then
    fail "two isolates: $name ($order): the write through A failed"
    return
  fi
  if [ "$order" = staggered ]; then
    while (($(now_ms) < t_warm + stagger_look_ms)); do sleep 0.05; done
  fi
  while :; do
    rc=0
    $seen >"$tmp/agree.out" || rc=$?
    now=$(now_ms)
    [ "$rc" = 0 ] && break
    if [ "$rc" = 2 ] || ((now - t_write > agree_bound_ms + agree_slack_ms)); then
      fail "two isolates: $name ($order): not seen within $((agree_bound_ms / 1000)) s" "after $((now - t_write)) ms B answers: $(head -c 300 "$tmp/agree.out")"
      return
    fi
    sleep 0.3
  done
  t_seen=$now
  until=$((t_seen + 3000))
  while (($(now_ms) < until)); do
    if ! $seen >"$tmp/agree.out"; then
      fail "two isolates: $name ($order): seen after $((t_seen - t_write)) ms, then wrong again" "B answers: $(head -c 300 "$tmp/agree.out")"
      return
    fi
    sleep 0.3
  done
  agree_times+="$name/$order $((t_seen - t_write)) ms; "
  agree_passed=$((agree_passed + 1))
}
agree_times=""
agree_passed=0

# 1. A settings change: B's public meta object (answered from B's front
# cache once warm) shows the new name.
arena_name=""
rename() { arena_name="Agreed $(random_hex 3)"; call PUT /api/v1/admin/settings edge.test "$admin_token" "{\"name\":\"$arena_name\"}"; [ "$status" = 200 ]; }
name_seen() {
  local r
  r=$(on_b /api/v1 -H 'Host: edge.test')
  echo "$r"
  [ "${r%% *}" = 200 ] || return 2
  [[ "$r" == *"\"name\":\"$arena_name\""* ]]
}

# B's Go looks the arena up (an answer never cached by the front: a
# ticketed call), without reading what is watched.
warm_edge() { on_b /api/v1/me/upcoming-match -H 'Host: edge.test' -H 'Authorization: Platform MOCK:76561198000000001'; }

# 2. A revoked API key: B's reads with it (cached under the key's class
# once warm) are answered as anonymous ones and stay so (a public read
# with an unknown key is anonymous, "authenticated": false).
api_key="" api_key_id=""
mint_key() {
  call POST /api/v1/admin/api-keys edge.test "$admin_token" '{"label":"agree"}'
  api_key=$(sed -n 's/.*"key"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' "$tmp/body")
  api_key_id=$(sed -n 's/.*"id"[[:space:]]*:[[:space:]]*"\{0,1\}\([^",}]*\)"\{0,1\}.*/\1/p' "$tmp/body")
  [ "$status" = 201 ] && [ -n "$api_key" ]
}
revoke_key() { call DELETE "/api/v1/admin/api-keys/$api_key_id" edge.test "$admin_token"; [ "${status:0:1}" = 2 ]; }
key_refused() {
  local r
  r=$(on_b /api/v1 -H 'Host: edge.test' -H "Authorization: Bearer $api_key")
  echo "$r"
  [ "${r%% *}" = 200 ] || return 2
  [[ "$r" == *'"authenticated":false'* ]] && return 0
  [[ "$r" == *'"authenticated":true'* ]] && return 1
  return 2
}

# 3. A decided match: an admin resolves a match of a 8-player playoffs_only
# cup; B's public tournament object shows it decided.
cup_matches=()
match_id=""
iso() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ; }
make_cup() {
  local t now i
  now=$(date -u +%s)
  call POST /api/v1/admin/tournaments edge.test "$admin_token" \
    "{\"slug\":\"agree-cup\",\"name\":\"Agree Cup\",\"description\":\"two isolates\",\"format\":\"playoffs_only\",\"maxPlayers\":8,\"registrationOpensAt\":\"$(iso $((now - 3600)))\",\"registrationClosesAt\":\"$(iso $((now + 3600)))\",\"startsAt\":\"$(iso $((now + 7200)))\"}"
  [ "$status" = 201 ] || return 1
  call POST /api/v1/admin/tournaments/agree-cup/status edge.test "$admin_token" '{"status":"registration_open"}'
  for i in 1 2 3 4 5 6 7 8; do
    call POST /api/v1/admin/tournaments/agree-cup/registrations edge.test "$admin_token" "{\"platformId\":\"7656119800020000$i\",\"seed\":$i}"
    [ "$status" = 201 ] || return 1
  done
  call POST /api/v1/admin/tournaments/agree-cup/status edge.test "$admin_token" '{"status":"registration_closed"}'
  call POST /api/v1/admin/tournaments/agree-cup/status edge.test "$admin_token" '{"status":"playoffs"}'
  [ "$status" = 200 ] || return 1
  call GET /api/v1/admin/tournaments/agree-cup/matches edge.test "$admin_token"
  mapfile -t cup_matches < <(tr '{' '\n' <"$tmp/body" | sed -n 's/.*"id"[[:space:]]*:[[:space:]]*\([0-9]*\).*"p1PlatformId"[[:space:]]*:[[:space:]]*"\([0-9]*\)".*/\1 \2/p')
  [ "${#cup_matches[@]}" -ge 3 ]
}
resolve_match() {
  local pick=${cup_matches[0]}
  cup_matches=("${cup_matches[@]:1}")
  match_id=${pick%% *}
  call POST "/api/v1/admin/matches/$match_id/resolve" edge.test "$admin_token" "{\"winner\":\"${pick#* }\",\"score\":{\"p1\":2,\"p2\":0}}"
  [ "$status" = 200 ]
}
match_decided() {
  local r
  r=$(on_b /api/v1/tournaments/agree-cup -H 'Host: edge.test')
  echo "$r"
  [ "${r%% *}" = 200 ] || return 2
  # Decided when the match's object names a winner.
  python3 -c '
import json, sys
def find(v):
    if isinstance(v, dict):
        if v.get("id") == int(sys.argv[1]) and "winner" in v:
            yield v
        for x in v.values(): yield from find(x)
    elif isinstance(v, list):
        for x in v: yield from find(x)
found = list(find(json.loads(sys.stdin.read())))
sys.exit(2 if not found else 0 if found[0]["winner"] else 1)' "$match_id" <<<"${r#* }"
}

# 4. A removed custom domain: added through A, made active by the twin and
# A's cron, read through B; then removed through A: B answers 404 for it.
domain=""
add_domain() {
  domain="agree-$(random_hex 3).example.com"
  call POST /api/v1/admin/domains edge.test "$admin_token" "{\"hostname\":\"$domain\"}"
  [ "$status" = 201 ] || return 1
  curl -s -o /dev/null -X POST --data "hostname=$domain" "$twin/__twin/activate"
  call GET '/__scheduled?cron=*+*+*+*+*'
  call GET /api/v1 "$domain"
  [ "$status" = 200 ]
}
warm_domain() { on_b /api/v1/me/upcoming-match -H "Host: $domain" -H 'Authorization: Platform MOCK:76561198000000001'; }
remove_domain() { call DELETE "/api/v1/admin/domains/$domain" edge.test "$admin_token"; [ "${status:0:1}" = 2 ]; }
domain_gone() {
  local r
  r=$(on_b /api/v1 -H "Host: $domain")
  echo "$r"
  case ${r%% *} in 404) return 0 ;; 200) return 1 ;; *) return 2 ;; esac
}

if ! make_cup; then fail "two isolates: the cup's matches could not be made" ; fi
for order in after before staggered; do
  agree settings "$order" rename name_seen warm_edge
  # Each thing is checked through A, so that B's first look is agree's.
  if mint_key && [ "$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: edge.test' -H "Authorization: Bearer $api_key" "$base/api/v1")" = 200 ]; then
    agree "revoked key" "$order" revoke_key key_refused warm_edge
  else
    fail "two isolates: revoked key ($order): the key could not be minted or read through B"
  fi
  if [ "${#cup_matches[@]}" -gt 0 ]; then agree "decided match" "$order" resolve_match match_decided warm_edge; fi
  if add_domain; then
    agree "removed domain" "$order" remove_domain domain_gone warm_domain
  else
    fail "two isolates: removed domain ($order): the domain did not route through B" "HTTP $status $(head -c 200 "$tmp/body")"
  fi
done
echo "two isolates: times to seen: $agree_times"
if [ "$agree_passed" = 12 ]; then
  pass "two isolates: 4 writes through A seen through a second wrangler dev within $((agree_bound_ms / 1000)) s in 3 orders each (staggered: B's first look $stagger_look_ms ms after its Go's lookup), nothing wrong after ($agree_times)"
fi
stop isolate-b
