//go:build js && wasm && !edgefresh

package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"arena/worker/edge"
	"arena/worker/server"
)

// memoryLimit is Go's soft heap limit: well under the isolate's 128 MB,
// which also holds the JS heap and the compiled module.
const memoryLimit = 64 << 20

// main is the Workers entry of the kept-instance build: the JS entry
// (edge/js/worker.mjs) instantiates this program once per isolate, on the
// isolate's first request, and every request and cron run of the isolate
// then goes through the bridge (package edge). Process memory is only a
// cache here: the isolate may be evicted at any moment.
func main() {
	debug.SetMemoryLimit(memoryLimit)
	log := newLogger()
	bridge := edge.New(time.Now, func(msg string, args ...any) { log.Error(msg, args...) })
	// Every outbound call (libSQL, the platform's and the Turso APIs) is
	// made by its request's JS side.
	http.DefaultTransport = edge.Transport{Bridge: bridge}
	// Recordings' bucket calls are made by their request's JS side too.
	recordings := edge.R2Binding{Bridge: bridge, Binding: recordingsBinding}
	handler, scheduled := build(log, recordings, func(cfg *server.Config) {
		cfg.RateLimiter = edge.RateLimiter{Bridge: bridge, Fallback: server.DatabaseRateLimiter{}}
		cfg.FrontHints = edge.NewHints(cfg.ClientIPHeader)
		// This isolate trusts a host lookup as long as any cache may keep
		// what it learned of an arena: another isolate's change to an
		// arena (settings, a removed domain) is seen here within it.
		cfg.HostCacheTTL = server.CacheLifetime
		// Work after an answer (a host lookup's refresh) runs in a call of
		// its own, which the Go worker sends after the answer.
		cfg.AfterAnswer = bridge.After
	})
	bridge.Register(handler, func(ctx context.Context) edge.Response {
		return cronRun(ctx, log, scheduled)
	})
	select {} // serve until the isolate goes away
}

// cronRun runs the scheduled jobs for the cron trigger; the answer's body
// is the report, and it names the arenas whose cached reads are stale.
func cronRun(ctx context.Context, log *slog.Logger, scheduled func(context.Context) (server.ScheduledReport, error)) edge.Response {
	res := edge.Response{Status: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}}}
	if scheduled == nil {
		res.Body = []byte(`{"error":"not_configured"}`)
		return res
	}
	report, err := scheduled(ctx)
	if err != nil {
		log.ErrorContext(ctx, "scheduled jobs failed", slog.String("error", err.Error()))
		res.Status = http.StatusInternalServerError
	}
	res.Body, _ = json.Marshal(report)
	res.Hints = map[string]string{edge.HintChanged: edge.ChangedHint(report.Changed)}
	return res
}
