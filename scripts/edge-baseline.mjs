// The reference line of make bench-edge: a plain JS worker under the same
// wrangler dev, answering /healthz as the arena does, /db3 after three
// libSQL round trips, and any other path from the Cache API (the cost a
// cached read cannot go below).
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/healthz") return Response.json({ status: "ok" });
    if (url.pathname === "/db3") {
      // Three sequential libSQL round trips (SELECT 1), as a submission
      // makes three (?n= another count): what fetch itself costs in workerd.
      const n = Number(url.searchParams.get("n") ?? 3);
      for (let i = 0; i < n; i++) {
        const res = await fetch(env.ARENA_DIRECTORY_URL + "/v2/pipeline", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: '{"requests":[{"type":"execute","stmt":{"sql":"SELECT 1"}},{"type":"close"}]}',
        });
        await res.arrayBuffer();
      }
      return Response.json({ status: "ok" });
    }
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
