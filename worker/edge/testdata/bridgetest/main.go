//go:build js && wasm

// Command bridgetest is a small program behind the edge bridge, for the
// bridge's test under Node (js/go_test.mjs, run by make test-edge):
//
//	GET /echo?n=N  fetches http://echo.test/N through its JS side and answers with it
//	GET /panic     panics in the handler (the bridge answers 500)
//	GET /crash     panics in a goroutine: Go exits
//	GET /wait      waits until its request is cancelled
//	GET /r2?key=K  puts, heads, gets and deletes K in the RECORDINGS bucket
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"arena/worker/edge"
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
	bucket := edge.R2Bucket{Bridge: b, Binding: "RECORDINGS"}
	mux.HandleFunc("GET /r2", func(w http.ResponseWriter, r *http.Request) {
		ctx, key := r.Context(), r.URL.Query().Get("key")
		if err := bucket.Put(ctx, key, []byte("replay of "+key), "application/gzip"); err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		head, err := bucket.Head(ctx, key)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		got, err := bucket.Get(ctx, key)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		if err := bucket.Delete(ctx, key); err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		_, gone := bucket.Get(ctx, key)
		fmt.Fprintf(w, "size=%d type=%s etag=%t body=%s gone=%t", head.Size, head.ContentType, got.ETag != "", got.Body, errors.Is(gone, edge.ErrObjectNotFound))
	})
	b.Register(mux, func(context.Context) edge.Response {
		return edge.Response{Status: 200, Body: []byte("cron ran")}
	})
	select {}
}
