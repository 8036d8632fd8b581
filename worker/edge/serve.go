package edge

import (
	"bytes"
	"context"
	"net/http"

	"arena/worker/server"
)

// ServeHTTP runs h for req inside call id: the request's context is the
// call's, so every outbound call it makes goes through its JS side. The
// answer carries what the front needs to keep it (frontHints).
func (b *Bridge) ServeHTTP(id int64, h http.Handler, req *http.Request) error {
	return b.Start(id, func(ctx context.Context) Response {
		res := b.run(ctx, func(ctx context.Context) Response {
			w := &recorder{header: http.Header{}, status: http.StatusOK}
			h.ServeHTTP(w, req.WithContext(ctx))
			return Response{Status: w.status, Header: w.header, Body: w.body.Bytes()}
		})
		// Every answer Go gave says so, as the front's hits say "shared".
		if res.Header.Get(server.CacheHeader) == "" {
			res.Header.Set(server.CacheHeader, server.CacheMiss)
		}
		if c := callFrom(ctx); c != nil {
			c.mu.Lock()
			frontHints(req, &res, c.hints)
			c.mu.Unlock()
		}
		return res
	})
}

// LivePage is h serving the front's request for the next page of a live
// stream it holds (server.LiveFollowUp): the front marks it in the
// bridge's message (js/live.mjs), which no client request can.
func LivePage(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(server.LiveFollowUp(r.Context())))
	})
}

// recorder buffers a handler's answer (the arena's answers are small:
// JSON and HTML pages).
type recorder struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	r.wrote = true
	return r.body.Write(p)
}
