// The front worker and the Go worker talk over a service binding
// (docs/edge.md "Two Workers"). A call is one POST whose body is a frame:
// a 4-byte big-endian length, that many bytes of JSON (the message to Go,
// or the answer's status, headers and hints), then the raw body bytes.
// Nothing of a frame is read from a client's own headers.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// frame packs meta (JSON) and body (bytes, or nothing) into one buffer.
export function frame(meta, body) {
  const head = encoder.encode(JSON.stringify(meta));
  const bytes = body ? new Uint8Array(body.buffer ?? body, body.byteOffset ?? 0, body.byteLength) : new Uint8Array(0);
  const out = new Uint8Array(4 + head.byteLength + bytes.byteLength);
  new DataView(out.buffer).setUint32(0, head.byteLength);
  out.set(head, 4);
  out.set(bytes, 4 + head.byteLength);
  return out;
}

// unframe is frame's inverse: { meta, body } (body undefined when empty).
export function unframe(buf) {
  const bytes = new Uint8Array(buf);
  if (bytes.byteLength < 4) throw new Error("wire: short frame");
  const n = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
  if (4 + n > bytes.byteLength) throw new Error("wire: frame shorter than its header says");
  const meta = JSON.parse(decoder.decode(bytes.subarray(4, 4 + n)));
  const rest = bytes.subarray(4 + n);
  return { meta, body: rest.byteLength > 0 ? rest : undefined };
}

// GO_URL is the address the front calls the Go worker at through the
// binding (any URL: a service binding ignores the host).
export const GO_URL = "https://arena-go.internal/serve";
