// An in-process fake arena on 127.0.0.1:0 for the client tests: each test
// scripts the answers route by route and reads back what the client sent.
import http from "node:http";

export const P1 = "76561198000000001";
export const P2 = "76561198000000002";
export const P3 = "76561198000000003";
export const P4 = "76561198000000004";

/** A valid 1v1 live match of P1 (slot 1) against P2. */
export function liveMatch(over = {}) {
  return {
    matchId: 12,
    gameSeed: 4218965659,
    slot: 1,
    sessionNonce: "nonce-abc",
    p1PlatformId: P1,
    p2PlatformId: P2,
    opponentPlatformId: P2,
    tournament: { slug: "cup", name: "Cup" },
    windowClosesAt: "2026-11-27T18:00:00Z",
    allowSpectators: true,
    cast: { handMode: "delayed", delaySeconds: 30 },
    casters: [],
    casterPlatformId: null,
    streamUrl: null,
    p1Roster: [P1],
    p2Roster: [P2],
    teamMinPlayers: 1,
    teamMaxPlayers: 1,
    resultProtocol: "svc.result.v3",
    ...over,
  };
}

/**
 * Starts a fake arena. routes maps "METHOD /path" (query excluded) to a
 * handler (req, body) => answer, where answer is { status, json }, { status,
 * text } (either with headers, an object of more headers), or "drop" (the connection is destroyed: a network failure). A
 * route given as an array answers its items in turn, the last one repeating.
 */
export async function startArena(routes = {}) {
  const requests = [];
  const calls = new Map();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url, "http://x");
      const key = `${req.method} ${url.pathname}`;
      requests.push({ method: req.method, path: url.pathname, query: url.search, headers: req.headers, body, key, at: Date.now() });
      let route = routes[key];
      if (Array.isArray(route)) {
        const n = calls.get(key) ?? 0;
        calls.set(key, n + 1);
        route = route[Math.min(n, route.length - 1)];
      }
      const answer = typeof route === "function" ? await route(req, body, url) : route;
      if (answer === undefined) {
        res.writeHead(404, { "content-type": "application/json" }).end('{"error":"no_route"}');
      } else if (answer === "drop") {
        req.socket.destroy();
      } else if (answer.status === 204) {
        res.writeHead(204).end();
      } else if (answer.text !== undefined) {
        res.writeHead(answer.status, { "content-type": "text/html", ...answer.headers }).end(answer.text);
      } else {
        res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers }).end(JSON.stringify(answer.json));
      }
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    /** The requests to one "METHOD /path". */
    to: (key) => requests.filter((r) => r.key === key),
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

/** A sleep that records its waits and returns at once. */
export function recordingSleep() {
  const waits = [];
  const sleep = async (ms, signal) => {
    signal?.throwIfAborted();
    waits.push(ms);
  };
  return { waits, sleep };
}
