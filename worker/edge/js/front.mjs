// The edge front: answers public reads from the Workers Cache API before
// Go is touched, with what earlier answers taught it (worker/edge/hints.go):
// which arena a host reaches, its rate-limit modes and settings version,
// and the caller class of API keys.
//
// Cache keys: https://cache.arena.invalid/<slug>/<settings>/<version>/<class>/<host><path>?<query>
//   - the host is in every key: one host never sees another host's entries;
//   - <version> is the arena's data version, itself a cache entry, replaced
//     after every write to the arena (and every cron run that changed it),
//     so no entry written before a write is read after it;
//   - <class> is "anon" or "key:<id>" (public API answers differ for them).
// Entries live as long as Go's Cache-Control allows (10 s), and never
// longer than Go's knowledge of the arena they were rendered with
// (hints.fresh: its host cache's rest of life); what the front learns of
// a host expires with that knowledge too. So another isolate's write is
// seen here within one bound (10 s), never two stacked (docs/edge.md
// "Two isolates").

const CACHE_HOST = "https://cache.arena.invalid";
const HOST_TTL_MS = 10000; // how long a learned host stays trusted, at most
const KEY_TTL_MS = 60000; // how long a learned API key class stays trusted
const VERSION_MAX_AGE = 86400;
const API_KEY = /^Bearer (apikey_[0-9a-f]{8}_[A-Za-z0-9_-]+)$/; // spec 5.2
const META_KIND = "x-arena-edge-kind"; // "read" (public API, rate limited) or "page"

// Headers that describe one answer, not the resource: never stored.
const PER_ANSWER = ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after", "x-request-id", "x-arena-cache", "x-arena-edge-io"];

const hosts = new Map(); // host -> { slug, settings, limits: { anon, key }, expires }
const keys = new Map(); // host + " " + sha256(authorization) -> { cls, expires }
const MAX_LEARNED = 10000; // per map; past it the map starts over (made-up keys must not fill memory)

function remember(map, key, value) {
  if (map.size >= MAX_LEARNED && !map.has(key)) map.clear();
  map.set(key, value);
}

export function hostOf(url) {
  return url.hostname.toLowerCase().replace(/\.$/, "");
}

async function sha256(s) {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s));
  return btoa(String.fromCharCode(...new Uint8Array(d)));
}

function versionKey(slug) {
  return `${CACHE_HOST}/_version/${encodeURIComponent(slug)}`;
}

async function dataVersion(slug) {
  const hit = await caches.default.match(versionKey(slug));
  return hit ? await hit.text() : "0";
}

// wrote forgets what the front knows of an arena after a write through
// host: its cached reads (in this data center) and the host's settings.
export async function wrote(url, slug) {
  hosts.delete(hostOf(url));
  await bumpVersion(slug);
}

// changed forgets what the front knows of the arenas Go named as changed
// (hints.changed: a cron run, an operator's change): the hosts learned for
// them, and their cached reads (in this data center).
export async function changed(hints) {
  const slugs = (hints.changed ?? "").split(",").filter(Boolean);
  if (!slugs.length) return;
  for (const [host, info] of hosts) if (slugs.includes(info.slug)) hosts.delete(host);
  await Promise.all(slugs.map(bumpVersion));
}

// bumpVersion forgets every cached read of the arena (in this data center).
export async function bumpVersion(slug) {
  await caches.default.put(
    versionKey(slug),
    new Response(crypto.randomUUID(), { headers: { "Cache-Control": `public, max-age=${VERSION_MAX_AGE}` } }),
  );
}

function entryKey(plan, cls) {
  const { info, version, host, url } = plan;
  return `${CACHE_HOST}/${encodeURIComponent(info.slug)}/${info.settings}/${version}/${encodeURIComponent(cls)}/${host}${url.pathname}${url.search}`;
}

// lookup answers a GET from the edge cache when it can. It returns
// { response } (a hit, or 429), a plan to store Go's answer under (the
// data version read before Go renders), or null (Go decides alone).
export async function lookup(request, url, env) {
  if (request.method !== "GET") return null;
  const host = hostOf(url);
  const info = hosts.get(host);
  if (!info || info.expires <= Date.now()) return null;
  const auth = request.headers.get("authorization");
  let cls = "anon";
  let authHash = "";
  if (auth) {
    if (!API_KEY.test(auth)) return null; // admin and game-client calls are always Go's
    authHash = await sha256(auth);
    const known = keys.get(host + " " + authHash);
    cls = known && known.expires > Date.now() ? known.cls : null;
  }
  const plan = { info, host, url, authHash, version: await dataVersion(info.slug) };
  if (!cls) return plan; // an API key not seen yet: Go tells its class
  const hit = await caches.default.match(entryKey(plan, cls));
  if (!hit) return plan;
  const kind = hit.headers.get(META_KIND);
  if (kind === "page" && request.headers.has("cookie")) return plan; // maybe signed in: a personal page
  const headers = new Headers(hit.headers);
  headers.delete(META_KIND);
  headers.set("X-Arena-Cache", "shared");
  if (kind === "read") {
    const mode = cls === "anon" ? info.limits.anon : info.limits.key;
    if (mode === "database") return plan; // counted by Go in the arena database
    if (mode === "binding") {
      const bucket = cls === "anon" ? "ip:" + (request.headers.get("cf-connecting-ip") ?? "") : cls;
      const binding = env[cls === "anon" ? "RATE_ANON" : "RATE_KEY"];
      const limit = cls === "anon" ? info.limits.anonLimit : info.limits.keyLimit;
      const { success } = await binding.limit({ key: `${info.slug}/${bucket}` });
      const reset = String(Math.max(1, Math.ceil((60000 - (Date.now() % 60000)) / 1000)));
      if (!success) {
        return {
          response: new Response('{"error":"rate_limited"}\n', {
            status: 429,
            headers: {
              "Content-Type": "application/json",
              "X-Content-Type-Options": "nosniff",
              "RateLimit-Limit": String(limit),
              "RateLimit-Reset": reset,
              "Retry-After": reset,
            },
          }),
        };
      }
      headers.set("RateLimit-Limit", String(limit));
      headers.set("RateLimit-Reset", reset);
    }
  }
  if (etagMatches(request.headers.get("if-none-match"), headers.get("etag"))) {
    for (const h of ["content-type", "content-length", "x-content-type-options"]) headers.delete(h);
    return { response: new Response(null, { status: 304, headers }) };
  }
  return { response: new Response(hit.body, { status: 200, headers }) };
}

// etagMatches is If-None-Match's weak comparison (as Go's public reads do).
function etagMatches(header, etag) {
  if (!header || !etag) return false;
  return header.split(",").some((t) => {
    t = t.trim().replace(/^W\//, "");
    return t === etag || t === "*";
  });
}

// freshUntil is when what Go's answer says of its arena stops being
// trustworthy (Date.now() scale): hints.fresh ms from the answer, and at
// most HOST_TTL_MS.
export function freshUntil(hints) {
  const fresh = hints.fresh === undefined ? HOST_TTL_MS : Math.min(HOST_TTL_MS, Number(hints.fresh) || 0);
  return Date.now() + fresh;
}

// learn records what Go's answer taught about the host and the caller;
// until is freshUntil(hints), taken when the answer arrived.
export async function learn(request, url, hints, plan, until) {
  const host = hostOf(url);
  if (hints.arena) {
    const limits = Object.fromEntries((hints.limits ?? "").split(",").map((kv) => kv.split("=")));
    remember(hosts, host, {
      slug: hints.arena,
      settings: hints.settings ?? "",
      limits: {
        anon: limits.anon,
        key: limits.key,
        anonLimit: Number(limits.anonLimit ?? 0),
        keyLimit: Number(limits.keyLimit ?? 0),
      },
      expires: until,
    });
  }
  const auth = request.headers.get("authorization");
  if (hints.class && auth && API_KEY.test(auth)) {
    const hash = plan?.authHash || (await sha256(auth));
    remember(keys, host + " " + hash, { cls: hints.class, expires: Date.now() + KEY_TTL_MS });
  }
}

// store keeps Go's answer when the hints say it may be shared, under the
// data version read before Go rendered it, for no longer than until
// (freshUntil(hints), taken when the answer arrived).
export async function store(plan, hints, response, until) {
  const ttl = Math.min(Number(hints.cache ?? 0), Math.floor((until - Date.now()) / 1000));
  if (!plan || ttl <= 0 || plan.info.slug !== hints.arena || plan.info.settings !== hints.settings) return;
  const kind = hints.class ? "read" : "page";
  const cls = hints.class ?? "anon";
  const mode = cls === "anon" ? plan.info.limits.anon : plan.info.limits.key;
  if (kind === "read" && mode === "database") return; // never answered from here
  const headers = new Headers(response.headers);
  for (const h of PER_ANSWER) headers.delete(h);
  headers.set("Cache-Control", `public, max-age=${ttl}`);
  headers.set(META_KIND, kind);
  await caches.default.put(entryKey(plan, cls), new Response(response.body, { status: 200, headers }));
}
