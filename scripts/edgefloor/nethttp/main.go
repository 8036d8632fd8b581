//go:build js

// Command nethttp is the runtime floor plus net/http, which every handler
// of the service is written against: a ServeMux answering /healthz
// (bench-edge's cold line; docs/edge.md "Cold start").
package main

import (
	"io"
	"net/http"
	"strings"
	"syscall/js"
)

// answer is the smallest http.ResponseWriter: the body only.
type answer struct {
	h    http.Header
	body strings.Builder
}

func (a *answer) Header() http.Header         { return a.h }
func (a *answer) Write(b []byte) (int, error) { return a.body.Write(b) }
func (a *answer) WriteHeader(int)             {}

func main() {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	})
	js.Global().Set("arenaFloor", js.FuncOf(func(js.Value, []js.Value) any {
		req, _ := http.NewRequest("GET", "http://floor/healthz", nil)
		a := &answer{h: http.Header{}}
		mux.ServeHTTP(a, req)
		return a.body.String()
	}))
	select {}
}
