// The transparency-log vectors (client/testdata/tlog.json, made and
// checked with golang.org/x/mod by client/tlog_vectors_test.go) and a
// fake arena serving them: GET /api/v1 (log.publicKey), /log/checkpoint
// and the tiles under /log/.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const tlogFile = fileURLToPath(new URL("../../testdata/tlog.json", import.meta.url));

/** The vectors document. */
export function loadTlog() {
  return JSON.parse(readFileSync(tlogFile, "utf8"));
}

/**
 * Routes of an arena serving doc's log: over.checkpoint replaces the
 * checkpoint, over.tiles (path -> base64) replace tiles, over.publicKey the key.
 */
export function tlogRoutes(doc, over = {}) {
  const routes = {
    "GET /api/v1": { status: 200, json: { tenant: { slug: "alpha" }, log: { publicKey: over.publicKey ?? doc.publicKey } } },
    "GET /log/checkpoint": { status: 200, text: over.checkpoint ?? doc.checkpoint, headers: { "content-type": "text/plain; charset=utf-8" } },
  };
  const tiles = { ...doc.tiles, ...(over.tiles ?? {}) };
  for (const [path, body] of Object.entries(tiles)) {
    routes[`GET /log/${path}`] = { status: 200, text: Buffer.from(body, "base64"), headers: { "content-type": "application/octet-stream" } };
  }
  return routes;
}
