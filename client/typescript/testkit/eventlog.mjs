// A signed event log for the verifier's tests, built with node:crypto and
// a canonical form of its own (independent of the client's): events
// hash-chained as docs/events.md defines, heads signed with a fresh
// Ed25519 key, and the fake arena routes that serve them.
import { createHash, generateKeyPairSync, sign } from "node:crypto";

export const GENESIS = "0".repeat(64);
export const SLUG = "test-arena";

/** RFC 8785 of a plain JS value: members sorted by UTF-16 code units, ECMAScript numbers. */
export function jcs(v) {
  if (Array.isArray(v)) return "[" + v.map(jcs).join(",") + "]";
  if (v !== null && typeof v === "object") {
    return "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + jcs(v[k])).join(",") + "}";
  }
  return JSON.stringify(v);
}

/** The hash an event must carry: SHA-256 of the canonical event without hash. */
export function hashOf(e) {
  const { hash: _, ...rest } = e;
  return createHash("sha256").update(jcs(rest), "utf8").digest("hex");
}

/** The data of the n-th event: a few shapes, unicode and numbers among them. */
function eventOf(seq) {
  const at = new Date(Date.UTC(2026, 10, 1, 12, 0, seq)).toISOString();
  switch (seq % 4) {
    case 0:
      return { seq, at, type: "registration.added", tournament: "autumn-cup", matchId: null, data: { platformId: "76561198000000001" } };
    case 1:
      return { seq, at, type: "match.confirmed", tournament: "autumn-cup", matchId: seq, data: { p1: "76561198000000001", p2: "76561198000000002", status: "confirmed", winner: "76561198000000002", source: "game_client", score: [3, 1] } };
    case 2:
      return { seq, at, type: "title.changed", tournament: "crown-é😀", matchId: null, data: { from: null, to: "76561198000000003", "\u00e9": 1.5, "😀": -0.25, z: 1e21 } };
    default:
      return { seq, at, type: "tournament.status", tournament: null, matchId: null, data: { from: null, to: "registration_open" } };
  }
}

/**
 * A log of n events and the arena's key: events (hash-chained), publicKey
 * (base64), signHead(seq, hash, at) and headAt(seq), the signed head of
 * the log's first seq events.
 */
export function makeLog(n, slug = SLUG) {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const events = [];
  let prev = GENESIS;
  for (let seq = 1; seq <= n; seq++) {
    const e = { ...eventOf(seq), prevHash: prev };
    e.hash = hashOf(e);
    events.push(e);
    prev = e.hash;
  }
  const signHead = (seq, hash, at) => ({
    seq, hash, at,
    signature: sign(null, Buffer.from(`${slug}\n${seq}\n${hash}\n${at}`, "utf8"), privateKey).toString("base64"),
  });
  const headAt = (seq) => (seq === 0 ? signHead(0, GENESIS, "") : signHead(seq, events[seq - 1].hash, events[seq - 1].at));
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(-32);
  return { events, publicKey: raw.toString("base64"), signHead, headAt, slug };
}

/**
 * The fake arena routes of a log: GET /api/v1 (slug, key), the head
 * (default: the last event's), and GET /api/v1/events paged by after and
 * limit as the arena pages it.
 */
export function logRoutes(log, { events = log.events, head = log.headAt(events.length === 0 ? 0 : events.at(-1).seq), publicKey = log.publicKey } = {}) {
  return {
    "GET /api/v1": { status: 200, json: { tenant: { slug: log.slug, name: "Test" }, log: { publicKey } } },
    "GET /api/v1/events/head": { status: 200, json: head },
    "GET /api/v1/events": (_req, _body, url) => {
      const after = Number(url.searchParams.get("after") ?? 0);
      const limit = Number(url.searchParams.get("limit") ?? 100);
      const rest = events.filter((e) => e.seq > after);
      const page = rest.slice(0, limit);
      return { status: 200, json: { events: page, next: rest.length > limit ? page.at(-1).seq : null } };
    },
  };
}
