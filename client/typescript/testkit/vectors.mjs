// The shared canonical-form vectors: client/testdata/vectors.json from the
// repository root. ARENA_VECTORS_FILE overrides the path (development only,
// before the file is on this branch).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const vectorsFile = process.env.ARENA_VECTORS_FILE || fileURLToPath(new URL("../../testdata/vectors.json", import.meta.url));

/** The vectors, or throws with the path it looked at. */
export function loadVectors() {
  let text;
  try {
    text = readFileSync(vectorsFile, "utf8");
  } catch (e) {
    throw new Error(`cannot read the shared vectors at ${vectorsFile} (client/testdata/vectors.json from the repository root): ${e.message}`);
  }
  return JSON.parse(text).vectors;
}

/** Lowercase hex of the UTF-8 bytes of s. */
export function utf8Hex(s) {
  return Buffer.from(s, "utf8").toString("hex");
}
