// perform does, on the calling request's side, the I/O Go asked for (see
// worker/edge/bridge.go): outbound fetch, the rate-limiting bindings, R2.
// Failures come back as { error }.
export async function perform(cmd, env) {
  try {
    switch (cmd.kind) {
      case "fetch": {
        const f = cmd.fetch;
        const init = { method: f.method, headers: f.headers, redirect: "manual" };
        if (f.body.byteLength > 0 && f.method !== "GET" && f.method !== "HEAD") init.body = f.body;
        // Go gave up at its deadline (a stalled database): so does the
        // fetch, or this request would await it before taking Go's answer.
        if (f.timeoutMs > 0) init.signal = AbortSignal.timeout(f.timeoutMs);
        const res = await fetch(f.url, init);
        return { status: res.status, headers: [...res.headers], body: new Uint8Array(await res.arrayBuffer()) };
      }
      case "ratelimit": {
        const binding = env[cmd.ratelimit.binding];
        if (!binding) return { error: `no rate-limiting binding ${cmd.ratelimit.binding}` };
        const { success } = await binding.limit({ key: cmd.ratelimit.key });
        return { success };
      }
      case "r2":
        return await r2(cmd.r2, env);
      default:
        return { error: `unknown command ${cmd.kind}` };
    }
  } catch (e) {
    return { error: String(e?.message ?? e) };
  }
}

// r2 runs one bucket call (objects.R2Call in Go): status 200 with the
// object's whole size, and for a get the bytes of the asked range (at most
// 1 MiB: Go reads an object in ranged calls, so no call holds it whole);
// 404 when no object has the key.
async function r2(op, env) {
  const bucket = env[op.binding];
  if (!bucket) return { error: `no R2 binding ${op.binding}` };
  switch (op.op) {
    case "head": {
      const o = await bucket.head(op.key);
      return o ? { status: 200, size: o.size } : { status: 404 };
    }
    case "get": {
      const o = await bucket.get(op.key, { range: { offset: op.offset, length: op.length } });
      if (!o) return { status: 404 };
      return { status: 200, size: o.size, body: new Uint8Array(await o.arrayBuffer()) };
    }
    case "put": {
      const o = await bucket.put(op.key, op.body, { httpMetadata: { contentType: op.contentType } });
      return { status: 200, size: o.size };
    }
    case "copy": {
      // The body streams from the get into the put (an R2 body knows its
      // length); the bytes never reach Go.
      const src = await bucket.get(op.from);
      if (!src) return { status: 404 };
      const o = await bucket.put(op.key, src.body, { httpMetadata: src.httpMetadata });
      return { status: 200, size: o.size };
    }
    case "delete":
      await bucket.delete(op.key);
      return { status: 200 };
    default:
      return { error: `unknown R2 call ${op.op}` };
  }
}

// sendDeferred sends a fetch Go made outside any request; nobody reads the
// answer.
export function sendDeferred(f) {
  const init = { method: f.method, headers: f.headers, redirect: "manual" };
  if (f.body.byteLength > 0) init.body = f.body;
  return fetch(f.url, init).then((r) => r.arrayBuffer());
}
