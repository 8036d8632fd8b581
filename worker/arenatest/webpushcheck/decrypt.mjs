// Reads captured Arena pushes as a browser and a push service would,
// with third-party code only: node decrypt.mjs pushes.json, where the file
// holds [{ privateKey, authSecret, body, authorization, audience }] (the
// device's P-256 private key and auth secret in base64url, the push's
// body in base64, its Authorization header, the push service's origin).
// Each body is decrypted with http_ece (RFC 8188 aes128gcm, RFC 8291 key
// derivation); each VAPID JWT (RFC 8292) is verified with Node's
// WebCrypto against its k, and its aud checked. Prints the plaintexts as
// a JSON array; exits 1 on the first failure.
import { readFileSync } from "node:fs";
import { createECDH, webcrypto } from "node:crypto";
import { createRequire } from "node:module";

const ece = createRequire(import.meta.url)("http_ece");
const pushes = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = [];
for (const [i, p] of pushes.entries()) {
  const device = createECDH("prime256v1");
  device.setPrivateKey(Buffer.from(p.privateKey, "base64url"));
  const plain = ece.decrypt(Buffer.from(p.body, "base64"), {
    version: "aes128gcm",
    privateKey: device,
    authSecret: p.authSecret,
  });
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(p.authorization);
  if (!m) {
    console.error(`push ${i}: not a vapid Authorization: ${p.authorization}`);
    process.exit(1);
  }
  const [head, claims, sig] = m[1].split(".");
  const key = await webcrypto.subtle.importKey("raw", Buffer.from(m[2], "base64url"), { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
  const ok = await webcrypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, Buffer.from(sig, "base64url"), Buffer.from(head + "." + claims));
  const c = JSON.parse(Buffer.from(claims, "base64url").toString("utf8"));
  if (!ok || c.aud !== p.audience || !(c.exp * 1000 > Date.now())) {
    console.error(`push ${i}: the VAPID JWT does not verify (${JSON.stringify(c)})`);
    process.exit(1);
  }
  out.push(plain.toString("utf8"));
}
console.log(JSON.stringify(out));
