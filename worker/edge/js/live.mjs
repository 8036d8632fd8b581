// Live streams on the edge (docs/edge.md "Live streams"). An isolate
// answers each call into Go whole, so Go answers a live stream with one
// finite page and the live hint (worker/edge/hints.go LiveHint): where
// the page read the log up to, how often to ask for the next one, how
// long the stream may stay silent. The front then holds the stream: it
// writes Go's page, and at every tick asks Go for the page after the
// cursor (the front's own request, marked livePage: not counted against
// the read limits again) and writes its events, until the client goes.
//
// Watchers in this isolate that stand at the same cursor of the same
// stream share one call into Go per tick: ticks fall on multiples of the
// interval (Date.now() scale), and the page asked for a (host, path,
// cursor) in a tick is the page of every watcher asking for it in that
// tick. A hundred watchers of one tournament cost one call, one read of
// the log, per tick.

import { readHints } from "./front.mjs";

// A comment, in two writes (the probe): workerd sees a client that went
// only at the second write after it went.
const PROBE = [new TextEncoder().encode(":\n"), new TextEncoder().encode("\n")];

// pages: "<host><path> <after>" -> { tick, page: Promise of Go's answer }
// for the current tick; older ticks' entries go at the first ask of a
// new tick.
const pages = new Map();
let sweptTick = 0;

// stats counts calls into Go for pages and the asks that shared one
// (tests and the trace read them).
export const liveStats = { calls: 0, shared: 0 };

// sharedPage returns the page of key for tick: the promise another
// watcher's ask made in this tick, else ask()'s (a failed ask is
// forgotten, so the next tick asks again).
export function sharedPage(key, tick, ask) {
  if (tick !== sweptTick) {
    for (const [k, e] of pages) if (e.tick !== tick) pages.delete(k);
    sweptTick = tick;
  }
  const e = pages.get(key);
  if (e && e.tick === tick) {
    liveStats.shared++;
    return e.page;
  }
  liveStats.calls++;
  const page = Promise.resolve().then(ask);
  pages.set(key, { tick, page });
  page.catch(() => {
    if (pages.get(key)?.page === page) pages.delete(key);
  });
  return page;
}

// within settles as p does, or rejects after ms. The timer is also what
// keeps a watcher's own request busy while it awaits a page another
// request's call makes (workerd cancels a request with nothing pending).
function within(p, ms) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no live page within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

// held counts the open streams of each caller in this isolate (by Go's
// hint: live.streams and the value of the header it names).
const held = new Map();
export const liveHeld = (caller) => held.get(caller) ?? 0;

// holdLive answers a live stream's request: response is Go's first page
// (readHints' live hint is live), held open as a text/event-stream body,
// or, when the caller already holds live.maxStreams streams in this
// isolate, Go's answer live.tooMany (429 too_many_streams).
// options:
//   ask(url): Go's answer ({ status, body, hints }) to the front's own
//     request for url, a page of the stream;
//   key: what makes two watchers' streams the same (host and path);
//   headers: the request's headers (the caller's IP, when Go counts by it);
//   signal: aborts when the client goes (request.signal), if there is one;
//   waitUntil(p): keeps the request's side alive while the stream runs (a
//     call it started for other watchers too ends even when its client
//     went first);
//   onError(e): told of a page that failed (asked again next tick).
// The stream ends when the client goes, or when Go answers a page without
// the live hint (the stream is gone: the client reconnects and hears why);
// a page that failed (5xx, or no answer) is asked again next tick.
//
// workerd tells a held response nothing of a client that went (no
// cancel, no abort) until the second write after it went: so before
// each ask the stream gets a comment (3 bytes) in two writes, half and a
// quarter of a tick before it, and a client that went is dropped before
// the tick asks Go for it.
export async function holdLive(response, live, url, options) {
  const { ask, key, headers: requestHeaders, signal, waitUntil = () => {}, onError = () => {} } = options;
  const caller = live.streams + (live.streamsHeader ? (requestHeaders?.get(live.streamsHeader) ?? "") : "");
  if (live.maxStreams !== undefined && liveHeld(caller) >= live.maxStreams) {
    await response.body?.cancel();
    const over = live.tooMany;
    return { response: new Response(over.body, { status: over.status, headers: over.headers }), done: Promise.resolve() };
  }
  held.set(caller, liveHeld(caller) + 1);
  const release = () => {
    const n = liveHeld(caller) - 1;
    if (n > 0) held.set(caller, n);
    else held.delete(caller);
  };
  let first;
  try {
    first = new Uint8Array(await response.arrayBuffer());
  } catch (e) {
    release();
    throw e;
  }
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  const { readable, writable } = new TransformStream();
  const writer = writable.getWriter();
  let open = true;
  let wake = () => {};
  const stop = () => {
    open = false;
    wake();
  };
  writer.closed.catch(stop); // the client cancelled the body
  signal?.addEventListener("abort", stop);
  // pause waits ms (or until the stream stops).
  const pause = (ms) =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, ms));
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function run() {
    let cursor = live;
    try {
      await writer.write(first);
      while (open) {
        // The tick waited for names the page (a timer may fire a moment
        // early by Date.now()).
        const tick = Math.floor(Date.now() / cursor.everyMs) + 1;
        // The probe: the writes that let workerd see a client that went
        // (it is also the stream's keep-alive: never silent a tick).
        for (const [part, before] of [[PROBE[0], 2], [PROBE[1], 4]]) {
          await pause(tick * cursor.everyMs - cursor.everyMs / before - Date.now());
          if (!open) break;
          await writer.write(part.slice());
        }
        if (!open) break;
        await pause(tick * cursor.everyMs - Date.now());
        if (!open) break;
        const after = cursor.after;
        const pageURL = new URL(url);
        pageURL.search = "?after=" + after;
        let answer;
        try {
          answer = await within(sharedPage(key + " " + after, tick, () => ask(pageURL.href)), cursor.keepAliveMs);
        } catch (e) {
          onError(e);
          continue;
        }
        if (answer.status >= 500) {
          // Go or the database failing for a moment: asked again next
          // tick, rather than every client reconnecting at once.
          onError(new Error(`live page: ${answer.status}`));
          continue;
        }
        const next = answer.status === 200 ? readHints(answer.hints).live : null;
        if (!next || !open) break;
        if (answer.body?.byteLength) await writer.write(new Uint8Array(answer.body)); // a copy: the page is every watcher's
        cursor = next;
      }
    } catch {
      // a write failed: the client went
    } finally {
      open = false;
      release();
      signal?.removeEventListener("abort", stop);
      writer.close().catch(() => {});
    }
  }
  const running = run();
  waitUntil(running);
  return { response: new Response(readable, { status: 200, headers }), done: running };
}
