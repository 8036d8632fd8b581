// Verifies captured Arena webhook deliveries with the standardwebhooks
// library (npm), as an integrator's receiver would: node verify.mjs
// deliveries.json, where the file holds [{ secret, body, headers }].
// Each delivery must verify, and the same delivery with its body changed
// must not. Prints how many verified; exits 1 on the first failure.
import { readFileSync } from "node:fs";
import { Webhook } from "standardwebhooks";

const deliveries = JSON.parse(readFileSync(process.argv[2], "utf8"));
let verified = 0;
for (const d of deliveries) {
  const wh = new Webhook(d.secret);
  const payload = wh.verify(d.body, d.headers);
  if (payload === undefined || typeof payload !== "object") {
    console.error(`delivery ${d.headers["webhook-id"]}: no JSON payload`);
    process.exit(1);
  }
  let tampered = false;
  try {
    wh.verify(d.body + " ", d.headers);
  } catch {
    tampered = true;
  }
  if (!tampered) {
    console.error(`delivery ${d.headers["webhook-id"]}: a changed body verified`);
    process.exit(1);
  }
  verified++;
}
console.log(JSON.stringify({ verified }));
