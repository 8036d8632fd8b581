#!/usr/bin/env bash
# audit.sh: Lighthouse (12.2.3, mobile), axe-core and page weight on the
# pages of issue 25's "Done when": the home page, a tournament, a match,
# a player and the admin dashboard, and the admin's webhooks page, plus
# issue 33's bracket of sixteen and its admin tournament page (pages
# named admin… are opened signed in as the demo's admin), and issue 36's
# home page in Arabic and Japanese (home-ar, home-ja), against a fresh
# demo arena.
# A developer's tool, not part of make test (a few minutes on two cores).
# Installs its tools into the git-ignored tools/audit; needs Chromium
# (scripts/chromium.sh) and Node 20.
#
#   scripts/audit.sh            # the table
#   AUDIT_KEEP=1 scripts/audit.sh   # keep the reports (path printed)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
addr=127.0.0.1:${AUDIT_PORT:-18789}
base=http://$addr
tools=$root/tools/audit
chrome=${CHROME_PATH:-$(command -v chromium || echo /usr/bin/chromium)}

if [ ! -x "$tools/node_modules/.bin/lighthouse" ] || [ ! -d "$tools/node_modules/axe-core" ] || [ ! -d "$tools/node_modules/playwright-core" ]; then
  echo "audit.sh: installing lighthouse 12.2.3, axe-core and playwright-core into tools/audit ..." >&2
  mkdir -p "$tools"
  npm i -E --prefix "$tools" --no-audit --no-fund lighthouse@12.2.3 axe-core playwright-core >/dev/null
fi

work=$(mktemp -d)
cleanup() {
  if [ -n "${server:-}" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  if [ -z "${AUDIT_KEEP:-}" ]; then rm -rf "$work"; else echo "audit.sh: reports kept in $work" >&2; fi
}
trap cleanup EXIT

if curl -fsS "$base/healthz" >/dev/null 2>&1; then
  echo "audit.sh: something already serves $addr; stop it or set AUDIT_PORT" >&2
  exit 1
fi
echo "audit.sh: building and starting the demo arena on $addr ..." >&2
go build -o "$work/arena" ./worker
"$work/arena" --dev --addr "$addr" --data "$work/data" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 150); do
  curl -fsS "$base/healthz" >/dev/null 2>&1 && break
  sleep 0.2
done
curl -fsS "$base/healthz" >/dev/null

# The pages: a match of the running Winter Cup, the demo's admin player
# (whose session cookie opens the admin dashboard).
admin=76561198000000001
match=$(curl -fsS "$base/api/v1/tournaments/winter-cup" | node -e '
  let s = ""; process.stdin.on("data", d => s += d).on("end", () => {
    const t = JSON.parse(s);
    const ms = (t.groups || []).flatMap(g => g.matches || []);
    process.stdout.write(String((ms.find(m => m.status === "live") || ms[0]).id));
  });')
cookie=$(curl -sS -o /dev/null -D - -X POST "$base/auth/mock" -H "Origin: $base" -H "Sec-Fetch-Site: same-origin" \
  --data-urlencode "platformId=$admin" --data-urlencode "next=/admin" | awk 'tolower($1) == "set-cookie:" { sub(/;.*/, "", $2); print $2; exit }' | tr -d '\r')
[ -n "$cookie" ] || { echo "audit.sh: could not sign in as the demo's admin" >&2; exit 1; }

# A bracket of sixteen, drawn through the admin API with the demo's saved
# admin token: the Friday night an organizer runs (issue 33).
token=$(cat "$work/data/demo-admin-token")
api() { curl -fsS -X "$1" "$base$2" -H "Authorization: Bearer $token" -H "Content-Type: application/json" --data "$3" >/dev/null; }
iso() { date -u -d "$1" +%Y-%m-%dT%H:%M:%SZ; }
api POST /api/v1/admin/tournaments "{\"slug\":\"friday-brawl\",\"name\":\"Friday Night Brawl\",\"format\":\"playoffs_only\",\"maxPlayers\":16,\"smallFinal\":false,\"registrationOpensAt\":\"$(iso '-1 hour')\",\"registrationClosesAt\":\"$(iso '+1 hour')\",\"startsAt\":\"$(iso '+2 hours')\"}"
api POST /api/v1/admin/tournaments/friday-brawl/status '{"status":"registration_open"}'
entrants=$(for i in $(seq 1 16); do printf '%s{"platformId":"765611980000000%02d","seed":%d}' "$([ "$i" = 1 ] || echo ,)" "$i" "$i"; done)
api POST /api/v1/admin/tournaments/friday-brawl/registrations "{\"registrations\":[$entrants]}"
api POST /api/v1/admin/tournaments/friday-brawl/status '{"status":"registration_closed"}'
api POST /api/v1/admin/tournaments/friday-brawl/status '{"status":"playoffs"}'

pages=("home /" "tournament /tournaments/winter-cup" "match /matches/$match" "player /players/$admin" "admin /admin" "admin-hooks /admin/webhooks"
  "bracket16 /tournaments/friday-brawl" "admin-tour /admin/tournaments/friday-brawl"
  "home-ar /" "home-ja /")

node "$root/scripts/audit-axe.mjs" "$chrome" "$base" "$cookie" "${pages[@]}" >"$work/axe.tsv"

printf '%-11s %5s %5s %5s %5s %9s %9s  %s\n' page perf a11y bp seo "weight" "axe s/c" "axe serious or critical rules"
for entry in "${pages[@]}"; do
  name=${entry%% *}; path=${entry#* }
  headers='{}'
  [[ $name == admin* ]] && headers="{\"Cookie\":\"$cookie\"}"
  [[ $name == *-ar || $name == *-ja ]] && headers="{\"Cookie\":\"lang=${name##*-}\"}"
  CHROME_PATH=$chrome "$tools/node_modules/.bin/lighthouse" "$base$path" --quiet \
    --only-categories=performance,accessibility,best-practices,seo \
    --extra-headers="$headers" --output=json --output-path="$work/$name.json" \
    --chrome-flags="--headless --no-sandbox --disable-gpu" >/dev/null 2>"$work/$name.lighthouse.log" || {
      echo "audit.sh: lighthouse failed on $path (see $work/$name.lighthouse.log)" >&2; AUDIT_KEEP=1; continue; }
  node -e '
    const r = require(process.argv[1]);
    const c = r.categories, score = k => Math.round(c[k].score * 100);
    const kb = (r.audits["total-byte-weight"].numericValue / 1024).toFixed(1) + " KB";
    const axe = require("fs").readFileSync(process.argv[3], "utf8").split("\n").find(l => l.startsWith(process.argv[2] + "\t")) || "";
    const [, count = "?", rules = ""] = axe.split("\t");
    const failed = Object.values(r.audits).filter(a => a.score !== null && a.score < 1 && ["accessibility", "best-practices", "seo"].some(k => c[k].auditRefs.some(x => x.id === a.id && x.weight > 0))).map(a => a.id);
    console.log([process.argv[2].padEnd(11), String(score("performance")).padStart(5), String(score("accessibility")).padStart(5),
      String(score("best-practices")).padStart(5), String(score("seo")).padStart(5), kb.padStart(9), count.padStart(9), " " + (rules || "-") +
      (failed.length ? "   lighthouse: " + failed.join(", ") : "")].join(" "));
  ' "$work/$name.json" "$name" "$work/axe.tsv"
done
