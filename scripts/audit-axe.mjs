// audit-axe.mjs: runs axe-core on each page in Chromium (playwright-core)
// and prints, per page, the count and the rules of its serious and
// critical violations, tab-separated. Used by scripts/audit.sh:
//   node audit-axe.mjs <chromium> <base URL> <admin session cookie> "<name> <path>"...
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const tools = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "tools", "audit", "node_modules");
const require = createRequire(path.join(tools, "noop.js"));
const { chromium } = require("playwright-core");
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

const [executablePath, base, cookie, ...pages] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu"] });
try {
  for (const entry of pages) {
    const [name, p] = entry.split(" ");
    // A phone, as Lighthouse's mobile run sees the page; the page policy
    // would refuse axe's injected script.
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, bypassCSP: true });
    if (name.startsWith("admin")) {
      const [k, v] = cookie.split("=");
      await context.addCookies([{ name: k, value: v, url: base }]);
    }
    // home-ar, home-ja: the page in that language (the picker's cookie).
    const lang = /-(ar|ja)$/.exec(name);
    if (lang) await context.addCookies([{ name: "lang", value: lang[1], url: base }]);
    const page = await context.newPage();
    await page.goto(base + p, { waitUntil: "load" });
    await page.addScriptTag({ content: axeSource });
    const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
    const bad = result.violations.filter(v => v.impact === "serious" || v.impact === "critical");
    const nodes = bad.reduce((n, v) => n + v.nodes.length, 0);
    console.log([name, String(nodes), bad.map(v => `${v.id}(${v.nodes.length})`).join(" ")].join("\t"));
    await context.close();
  }
} finally {
  await browser.close();
}
