//go:build js && wasm

package main

import (
	"context"
	"crypto/rand"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"
	"github.com/syumai/workers/cloudflare/cron"

	"arena/core"
	store "arena/sql"
	"arena/worker/platform"
	"arena/worker/server"
	"arena/worker/turso"
	"arena/worker/web"
)

// main is the Workers entry. Each request and each cron run starts a
// fresh instance, so everything here is rebuilt per invocation and
// nothing is kept in memory between requests. Settings come from
// wrangler.toml vars and secrets through cloudflare.Getenv.
func main() {
	// Outgoing HTTP (libSQL, the Turso and platform APIs) uses Go's own js
	// transport, which sends Content-Length. syumai's fetch transport
	// streams every body chunked, which libSQL servers may not accept.
	log := slog.New(slog.NewJSONHandler(os.Stdout, nil))
	handler, scheduled := build(log)
	cron.ScheduleTaskNonBlock(func(ctx context.Context) error {
		if scheduled == nil {
			return nil
		}
		_, err := scheduled(ctx)
		return err
	})
	workers.Serve(handler)
}

// build assembles the server from the Workers environment. Without a
// directory database configured, every request but /healthz answers 503.
func build(log *slog.Logger) (http.Handler, func(context.Context) (server.ScheduledReport, error)) {
	dirURL := cloudflare.Getenv("ARENA_DIRECTORY_URL")
	if dirURL == "" {
		log.Error("ARENA_DIRECTORY_URL is not set")
		return notConfigured{}, nil
	}
	dir, err := store.Open(dirURL, cloudflare.Getenv("ARENA_DIRECTORY_TOKEN"))
	if err != nil {
		log.Error("directory database", slog.String("error", err.Error()))
		return notConfigured{}, nil
	}
	cfg := server.Config{
		Directory:     dir,
		OperatorToken: cloudflare.Getenv("ARENA_OPERATOR_TOKEN"),
		Clock:         core.Clock(time.Now),
		Random:        rand.Reader,
		Logger:        log,
		// No memory survives a request here: count in the arena database.
		Tickets:        &platform.Verifier{},
		RateLimiter:    server.DatabaseRateLimiter{},
		SharedCache:    edgeCache{},
		ClientIPHeader: "Cf-Connecting-Ip",
	}
	if org, token := cloudflare.Getenv("TURSO_ORG"), cloudflare.Getenv("TURSO_API_TOKEN"); org != "" && token != "" {
		cfg.Provisioner = &turso.Provisioner{
			BaseURL:        cloudflare.Getenv("TURSO_API_URL"),
			Organization:   org,
			Group:          cloudflare.Getenv("TURSO_GROUP"),
			APIToken:       token,
			DatabasePrefix: cloudflare.Getenv("TURSO_DATABASE_PREFIX"),
		}
	}
	srv := server.New(cfg)
	web.Register(srv, web.Config{SessionKey: []byte(cloudflare.Getenv("ARENA_SESSION_KEY")), Logger: log})
	return srv, srv.RunScheduled
}

// notConfigured answers a deployment that lacks its directory database.
type notConfigured struct{}

func (notConfigured) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if r.URL.Path == "/healthz" {
		_, _ = w.Write([]byte(`{"status":"ok"}` + "\n"))
		return
	}
	w.WriteHeader(http.StatusServiceUnavailable)
	_, _ = w.Write([]byte(`{"error":"not_configured"}` + "\n"))
}
