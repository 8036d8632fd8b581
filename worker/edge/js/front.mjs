// The edge front: answers public reads from the Workers Cache API before
// Go is touched. It holds no policy of its own: what it knows, what it
// keeps and how a hit answers, Go told it in the hints of earlier answers
// (worker/edge/hints.go): which arena a host reaches and the start of its
// cache keys, the class of an Authorization, how long an answer may be
// kept, and how a kept answer answers (its rate limit and Go's 429, the
// If-None-Match values that are 304).
//
// Cache keys: <host.key>/<data version>/<caller class>[;<vary value>...]/<host><path>?<query>
//   - host.key is Go's: the arena and its settings version;
//   - <data version> is the arena's data version, itself a cache entry
//     (host.version), replaced after every write to the arena (and every
//     cron run that changed it), so no entry written before a write is
//     read after it;
//   - <caller class> is Go's class of the caller (public API answers
//     differ between classes);
//   - the host is in every key: one host never sees another host's entries.
// Entries live as long as Go's store hint allows, and never longer than
// Go's knowledge of the arena they were rendered with (hints.fresh: its
// host cache's rest of life); what the front learns of a host expires
// with that knowledge too. So another isolate's write is seen here within
// one bound, never two stacked (docs/edge.md "Two isolates").

const META = "x-arena-edge-store"; // an entry's store hint, as Go gave it

const hosts = new Map(); // host -> hints.host + { expires }
const callers = new Map(); // host + " " + sha256(authorization) -> { caller: hints.caller, expires }
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

// readHints returns the hints of Go's answer with the structured ones
// (JSON) decoded.
export function readHints(raw = {}) {
  const hints = { ...raw };
  for (const k of ["host", "caller", "store", "changed", "live"]) if (raw[k]) hints[k] = JSON.parse(raw[k]);
  return hints;
}

async function dataVersion(arena) {
  const hit = await caches.default.match(arena.version);
  return hit ? await hit.text() : "0";
}

// wrote forgets what the front knows of an arena after a write through
// host: its cached reads (in this data center) and the host's settings.
async function wrote(url, arena) {
  hosts.delete(hostOf(url));
  await bumpVersion(arena);
}

// changed forgets what the front knows of the arenas Go named as changed
// (hints.changed: a cron run, an operator's change): the hosts learned for
// them, and their cached reads (in this data center).
export async function changed(hints) {
  const arenas = hints.changed ?? [];
  if (!arenas.length) return;
  const slugs = new Set(arenas.map((a) => a.arena));
  for (const [host, info] of hosts) if (slugs.has(info.arena)) hosts.delete(host);
  await Promise.all(arenas.map(bumpVersion));
}

// bumpVersion forgets every cached read of the arena (in this data center).
async function bumpVersion(arena) {
  await caches.default.put(arena.version, new Response(crypto.randomUUID(), { headers: { "Cache-Control": arena.versionCacheControl } }));
}

// entryKey is the key of an entry: Go's key and the data version, the
// caller's class, the host and the path, and the values of the request
// headers Go said the arena's answers vary by (info.vary: the viewer's
// language), each bounded.
function entryKey(plan, cls) {
  const { info, version, host, url, request } = plan;
  const vary = (info.vary ?? []).map((h) => encodeURIComponent((request?.headers.get(h) ?? "").replace(/\s+/g, "").toLowerCase().slice(0, 200)));
  // In the key's path, not a fragment: the Cache API keys by URL without
  // its fragment.
  return `${info.key}/${version}/${encodeURIComponent(cls)}${vary.map((v) => ";" + v).join("")}/${host}${url.pathname}${url.search}`;
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
  let caller = info.anonymous;
  let authHash = "";
  if (auth) {
    authHash = await sha256(auth);
    const known = callers.get(host + " " + authHash);
    caller = known && known.expires > Date.now() ? known.caller : null;
    if (caller && !caller.class) return null; // Go answers this caller alone (an admin, a game client)
  }
  const plan = { info, host, url, request, authHash, version: await dataVersion(info) };
  if (!caller) return plan; // an Authorization not seen yet: Go tells its class
  const hit = await caches.default.match(entryKey(plan, caller.class));
  const meta = hit?.headers.get(META);
  if (!meta) return plan;
  const entry = JSON.parse(meta);
  if (entry.unless && request.headers.has(entry.unless)) return plan;
  const headers = new Headers(hit.headers);
  headers.delete(META);
  if (entry.limited) {
    const limit = info.limits[caller.limit];
    if (limit.mode === "database") return plan; // counted by Go in the arena database
    if (limit.mode === "binding") {
      const key = caller.bucket + (caller.bucketHeader ? (request.headers.get(caller.bucketHeader) ?? "") : "");
      const { success } = await env[limit.binding].limit({ key });
      if (!success) return { response: overLimit(limit) };
      const reset = windowLeft(limit);
      for (const [h, v] of limit.within.headers) headers.set(h, v);
      for (const h of limit.within.reset) headers.set(h, reset);
    }
  }
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch && entry.notModified && new RegExp(entry.notModified.pattern).test(ifNoneMatch)) {
    for (const h of entry.notModified.omit) headers.delete(h);
    return { response: new Response(null, { status: 304, headers }) };
  }
  return { response: new Response(hit.body, { status: 200, headers }) };
}

// windowLeft is the seconds left in Go's window of limit, for the
// headers Go named.
function windowLeft(limit) {
  return String(Math.max(1, Math.ceil((limit.windowMs - (Date.now() % limit.windowMs)) / 1000)));
}

// overLimit is Go's answer to a read over limit (a LimitHint).
function overLimit(limit) {
  const over = new Headers(limit.over.headers);
  for (const h of limit.over.reset) over.set(h, windowLeft(limit));
  return new Response(limit.over.body, { status: limit.over.status, headers: over });
}

// countAnswered counts, with the rate-limiting bindings here, the reads
// Go's answer says count (counts: [{ binding, key }], the Go worker's
// record of what Go asked to count: go-worker.mjs), and returns Go's 429
// for the first one over its limit, or null. The front counts so that a
// caller's reads are counted where they enter (a binding counts per
// location), cached or not.
export async function countAnswered(answer, env) {
  if (!answer.counts?.length) return null;
  const limits = readHints(answer.hints).host?.limits ?? {};
  for (const c of answer.counts) {
    const { success } = await env[c.binding].limit({ key: c.key });
    const limit = Object.values(limits).find((l) => l.binding === c.binding);
    if (!success && limit?.over) return overLimit(limit);
  }
  return null;
}

// answered does what Go's answer to a request tells the front (learn,
// forget, keep), under the plan lookup made, and returns the response and
// the hints.
export async function answered(request, url, plan, answer, ctx) {
  const hints = readHints(answer.hints);
  const until = freshUntil(hints);
  await learn(request, url, hints, plan, until);
  // A write is seen by the next read: forget the arena's cached reads
  // before answering.
  if (hints.host && request.method !== "GET" && request.method !== "HEAD") await wrote(url, hints.host);
  await changed(hints);
  const response = toResponse(answer);
  if (hints.store && plan && response.status === 200) ctx.waitUntil(store(plan, hints, response.clone(), until));
  return { response, hints };
}

function toResponse(a) {
  const empty = a.status === 204 || a.status === 304 || a.status < 200;
  return new Response(empty ? null : a.body, { status: a.status, headers: a.headers });
}

// freshUntil is when what Go's answer says of its arena stops being
// trustworthy (Date.now() scale): hints.fresh ms from the answer.
function freshUntil(hints) {
  return Date.now() + Number(hints.fresh ?? 0);
}

// learn records what Go's answer taught about the host and the caller;
// until is freshUntil(hints), taken when the answer arrived.
async function learn(request, url, hints, plan, until) {
  const host = hostOf(url);
  if (hints.host) remember(hosts, host, { ...hints.host, expires: until });
  const auth = request.headers.get("authorization");
  if (hints.caller && auth) {
    const hash = plan?.authHash || (await sha256(auth));
    remember(callers, host + " " + hash, { caller: hints.caller, expires: Date.now() + hints.caller.ttlMs });
  }
}

// store keeps Go's answer as hints.store says, under the data version
// read before Go rendered it, for no longer than until (freshUntil(hints),
// taken when the answer arrived).
async function store(plan, hints, response, until) {
  const s = hints.store;
  const ttl = Math.min(s.ttl, Math.floor((until - Date.now()) / 1000));
  if (!plan || ttl <= 0 || plan.info.key !== hints.host?.key) return;
  if (s.limited && plan.info.limits[hints.caller?.limit]?.mode === "database") return; // never answered from here
  const headers = new Headers(response.headers);
  for (const h of s.drop) headers.delete(h);
  for (const [h, v] of s.set) headers.set(h, v);
  headers.set("Cache-Control", `public, max-age=${ttl}`);
  headers.set(META, JSON.stringify(s));
  await caches.default.put(entryKey(plan, s.class), new Response(response.body, { status: 200, headers }));
}
