// The reference line of make bench-edge: a plain JS worker under the same
// wrangler dev, answering /healthz as the arena does, and any other path
// from the Cache API (the cost a cached read cannot go below).
export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/healthz") return Response.json({ status: "ok" });
    const key = new Request("https://baseline.invalid" + url.pathname);
    const hit = await caches.default.match(key);
    if (hit) return hit;
    const slug = url.pathname.split("/").pop();
    const res = new Response(JSON.stringify({ slug }), {
      headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=600" },
    });
    await caches.default.put(key, res.clone());
    return res;
  },
};
