//go:build js && wasm && edgefresh

package main

import (
	"context"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"
	"github.com/syumai/workers/cloudflare/cron"

	"arena/worker/objects"
	"arena/worker/server"
)

// main is the Workers entry of the fresh-instance build (the fallback,
// built with -tags edgefresh by scripts/build-worker.sh --fresh):
// syumai/workers starts a new Go instance for every request and every cron
// run, so Go may call fetch and the Cache API itself, and nothing is kept
// between requests. Outgoing HTTP uses Go's own js transport, which sends
// Content-Length (syumai's fetch transport streams bodies chunked, which
// libSQL servers may not accept).
func main() {
	log := newLogger()
	// Each request has its own Go instance: Go may call the binding itself.
	recordings := objects.NewR2BindingJS(cloudflare.GetBinding(recordingsBinding))
	handler, scheduled := build(log, recordings, func(cfg *server.Config) {
		// No memory survives a request here: count in the arena database.
		cfg.RateLimiter = server.DatabaseRateLimiter{}
		cfg.SharedCache = edgeCache{}
	})
	cron.ScheduleTaskNonBlock(func(ctx context.Context) error {
		if scheduled == nil {
			return nil
		}
		_, err := scheduled(ctx)
		return err
	})
	workers.Serve(handler)
}
