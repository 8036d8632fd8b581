//go:build js && wasm

// Command bridgetest is a small program behind the edge bridge, for the
// bridge's test under Node (js/go_test.mjs, run by make test-edge):
//
//	GET /echo?n=N  fetches http://echo.test/N through its JS side and answers with it
//	GET /panic     panics in the handler (the bridge answers 500)
//	GET /crash     panics in a goroutine: Go exits
//	GET /wait      waits until its request is cancelled
//	GET /read      a public read of arena alpha (host bridge.test) as the
//	               server answers it, with the hints edge.Hints gives the
//	               front: "Bearer apikey_0123abcd_valid" is a valid API key;
//	               the body counts the reads Go rendered
//	POST /write    a write to arena alpha
//	GET /later?n=N leaves a fetch of http://later.test/N for after its answer
//	               (edge.Bridge.After); GET /later-result answers what it got
//	GET /r2?key=K  writes a 2.5 MiB object K into the RECORDINGS bucket through
//	               the recordings store (objects.NewR2), stats it, reads it back
//	               (in 1 MiB ranged gets), deletes it
package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"arena/core"
	"arena/worker/edge"
	"arena/worker/objects"
	"arena/worker/server"
)

func main() {
	b := edge.New(time.Now, func(msg string, args ...any) { fmt.Println(msg) })
	http.DefaultTransport = edge.Transport{Bridge: b}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /echo", func(w http.ResponseWriter, r *http.Request) {
		req, _ := http.NewRequestWithContext(r.Context(), "GET", "http://echo.test/"+r.URL.Query().Get("n"), nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		body, _ := io.ReadAll(res.Body)
		fmt.Fprintf(w, "n=%s got=%s", r.URL.Query().Get("n"), body)
	})
	mux.HandleFunc("GET /panic", func(http.ResponseWriter, *http.Request) { panic("boom") })
	mux.HandleFunc("GET /crash", func(w http.ResponseWriter, _ *http.Request) {
		go func() { panic("fatal") }()
		time.Sleep(time.Hour)
	})
	mux.HandleFunc("GET /wait", func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
		w.WriteHeader(http.StatusGatewayTimeout)
	})
	store := objects.NewR2(edge.R2Binding{Bridge: b, Binding: "RECORDINGS"}, nil)
	mux.HandleFunc("GET /r2", func(w http.ResponseWriter, r *http.Request) {
		ctx, key := r.Context(), r.URL.Query().Get("key")
		object := bytes.Repeat([]byte(key+";"), (5<<19)/(len(key)+1))
		n, err := store.(core.ObjectWriter).Write(ctx, key, core.ReplayContentType, bytes.NewReader(object), 16<<20)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		info, err := store.Stat(ctx, key)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		body, err := store.Read(ctx, key, 0, info.Size)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		read, err := io.ReadAll(body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		if err := store.Delete(ctx, key); err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		gone, err := store.Stat(ctx, key)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		fmt.Fprintf(w, "written=%t size=%t equal=%t gone=%t", n == int64(len(object)), info.Size == n, bytes.Equal(read, object), !gone.Found)
	})
	hints := edge.NewHints("Cf-Connecting-Ip")
	alpha := &core.Arena{Slug: "alpha", RateLimits: core.DefaultRateLimits, UpdatedAt: time.UnixMilli(1)}
	var rendered atomic.Int64
	mux.HandleFunc("GET /read", func(w http.ResponseWriter, r *http.Request) {
		ctx, auth := r.Context(), r.Header.Get("Authorization")
		hints.Tenant(ctx, alpha, 0)
		keyID := ""
		if auth == "Bearer apikey_0123abcd_valid" {
			keyID = "0123abcd"
		}
		class := server.CallerClass(auth, keyID)
		hints.Caller(ctx, alpha, class, keyID)
		body := fmt.Appendf(nil, `{"class":%q,"rendered":%d}`+"\n", class, rendered.Add(1))
		h := w.Header()
		h.Set("RateLimit-Limit", "60")
		h.Set(server.CacheHeader, server.CacheMiss)
		h.Set("ETag", server.ETag(body))
		h.Set("Cache-Control", server.CacheControl(server.CacheLifetime))
		h.Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
	mux.HandleFunc("POST /write", func(w http.ResponseWriter, r *http.Request) {
		hints.Tenant(r.Context(), alpha, 0)
		w.WriteHeader(http.StatusNoContent)
	})
	var later atomic.Value // what the job after /later fetched
	mux.HandleFunc("GET /later", func(w http.ResponseWriter, r *http.Request) {
		n := r.URL.Query().Get("n")
		b.After(r.Context(), func(ctx context.Context) {
			req, _ := http.NewRequestWithContext(ctx, "GET", "http://later.test/"+n, nil)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				later.Store(err.Error())
				return
			}
			body, _ := io.ReadAll(res.Body)
			later.Store(string(body))
		})
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /later-result", func(w http.ResponseWriter, r *http.Request) {
		s, _ := later.Load().(string)
		fmt.Fprint(w, s)
	})
	b.Register(mux, func(context.Context) edge.Response {
		return edge.Response{Status: 200, Body: []byte("cron ran")}
	})
	select {}
}
