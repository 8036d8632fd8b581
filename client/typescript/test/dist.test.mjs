// dist/ is committed so the package runs on a fresh clone with nothing but
// Node; this fails when it is stale relative to src/ (when typescript, a
// devDependency, is installed: it recompiles into a temporary directory
// and compares every file).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
const skip = existsSync(tsc) ? false : "devDependency typescript not installed (run npm ci in client/typescript): dist/ freshness not checked";

test("dist/ is what tsc makes of src/", { skip }, () => {
  const out = mkdtempSync(join(tmpdir(), "arena-client-dist-"));
  try {
    execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.json"), "--outDir", out], { cwd: root, stdio: "pipe" });
    const fresh = readdirSync(out).sort();
    const committed = readdirSync(join(root, "dist")).sort();
    assert.deepEqual(committed, fresh, "dist/ holds other files than tsc makes: run npm run build");
    for (const f of fresh) {
      assert.equal(readFileSync(join(root, "dist", f), "utf8"), readFileSync(join(out, f), "utf8"), `dist/${f} is stale: run npm run build and commit dist/`);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("the library uses web platform APIs only (no Node built-ins, no runtime dependencies)", () => {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  assert.equal(pkg.dependencies, undefined, "no runtime dependencies");
  for (const f of readdirSync(join(root, "dist")).filter((f) => f.endsWith(".js"))) {
    const code = readFileSync(join(root, "dist", f), "utf8");
    for (const m of code.matchAll(/\bfrom\s+"([^"]+)"|\bimport\(\s*"([^"]+)"/g)) {
      const spec = m[1] ?? m[2];
      assert.ok(spec.startsWith("./") && spec.endsWith(".js"), `dist/${f} imports ${spec}`);
    }
    assert.doesNotMatch(code, /\b(process\.|Buffer\.|require\(|__dirname)/, `dist/${f} uses a Node-only global`);
  }
});
