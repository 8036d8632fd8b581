package web

import (
	"bytes"
	"context"
	"hash/fnv"
	"net/http"
	"strconv"
	"time"

	"github.com/a-h/templ"

	"arena/views"
	"arena/worker/server"
)

// Live regions: the parts of a page that refresh themselves (a match's
// state and the viewer's box, the player's next steps, a tournament's
// results). A live region follows an event stream of the arena's log
// (GET /api/v1/.../live, from the seq the page was rendered at): each
// event makes the page script ask the region's URL anew, with the
// version it shows and the event's seq (so no cache answers for an
// older state); the answer is 204 while the region is unchanged, else
// the region anew. A browser without EventSource asks every
// defaultLiveEvery instead; without JavaScript the page is simply
// correct on reload.

// defaultLiveEvery is how often a live region asks for news: as often as
// a write can take to be seen through a cache (asking more often would
// show nothing new).
const defaultLiveEvery = server.CacheLifetime

func (s *Site) liveEvery() time.Duration {
	if s.cfg.LiveEvery > 0 {
		return s.cfg.LiveEvery
	}
	return defaultLiveEvery
}

// liveFrom is where a page's live streams start: the log's last seq,
// read before the page's data, so an event the page may have missed is
// replayed to it.
func liveFrom(ctx context.Context, t *server.Tenant) (int64, error) {
	return t.LogSeq(ctx)
}

// liveNow is the from of a region that is answered to a page already
// following its stream: the stream's address, where it starts unsaid.
const liveNow = -1

// liveStream is the address of the event stream at path from seq after
// (liveNow: unsaid).
func liveStream(path string, after int64) string {
	if after == liveNow {
		return path
	}
	return path + "?after=" + strconv.FormatInt(after, 10)
}

// liveRegion renders content once and returns the region showing it: its
// version is the hash of the content's bytes. stream is the event stream
// it follows (liveStream); a region that is not live (stream "": a
// decided match, a finished tournament) never asks again.
func (s *Site) liveRegion(ctx context.Context, id, url, stream string, content templ.Component) (views.LiveRegion, error) {
	var buf bytes.Buffer
	if err := content.Render(ctx, &buf); err != nil {
		return views.LiveRegion{}, err
	}
	h := fnv.New64a()
	h.Write(buf.Bytes())
	region := views.LiveRegion{ID: id, URL: url, Version: strconv.FormatUint(h.Sum64(), 36), Content: templ.Raw(buf.String())}
	if stream != "" {
		region.Stream, region.Every = stream, s.liveEvery()
	}
	return region, nil
}

// answerLive answers a region's poll: 204 while the ?v= the client shows
// is the region's version, else the region. A public region (the same for
// everyone) may be kept by browsers and caches as long as a poll's
// interval; a viewer's own never.
func (s *Site) answerLive(w http.ResponseWriter, r *http.Request, t *server.Tenant, region views.LiveRegion, public bool) {
	h := w.Header()
	if public {
		h.Set("Cache-Control", "public, max-age="+strconv.Itoa(max(1, int(s.liveEvery()/time.Second))))
	} else {
		h.Set("Cache-Control", "private, no-store")
	}
	if r.URL.Query().Get("v") == region.Version {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	s.render(w, r, t, http.StatusOK, views.Live(region))
}
