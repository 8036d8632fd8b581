//go:build js && wasm

package main

import (
	"context"
	"crypto/rand"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/syumai/workers/cloudflare"

	"arena/core"
	store "arena/sql"
	cfdomains "arena/worker/cloudflare"
	"arena/worker/platform"
	"arena/worker/server"
	"arena/worker/turso"
	"arena/worker/web"
)

// build assembles the server from the Workers environment (wrangler.toml
// vars and secrets, read with cloudflare.Getenv); edge sets what differs
// between the kept-instance and the fresh-instance build. Without a
// directory database configured, every request but /healthz answers 503
// and the scheduled jobs are nil.
func build(log *slog.Logger, edge func(*server.Config)) (http.Handler, func(context.Context) (server.ScheduledReport, error)) {
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
		Directory:      dir,
		OperatorToken:  cloudflare.Getenv("ARENA_OPERATOR_TOKEN"),
		Clock:          core.Clock(time.Now),
		Random:         rand.Reader,
		Logger:         log,
		Tickets:        &platform.Verifier{},
		ClientIPHeader: "Cf-Connecting-Ip",
	}
	edge(&cfg)
	if org, token := cloudflare.Getenv("TURSO_ORG"), cloudflare.Getenv("TURSO_API_TOKEN"); org != "" && token != "" {
		cfg.Provisioner = &turso.Provisioner{
			BaseURL:        cloudflare.Getenv("TURSO_API_URL"),
			Organization:   org,
			Group:          cloudflare.Getenv("TURSO_GROUP"),
			APIToken:       token,
			DatabasePrefix: cloudflare.Getenv("TURSO_DATABASE_PREFIX"),
		}
	}
	if token, zone := cloudflare.Getenv("CLOUDFLARE_API_TOKEN"), cloudflare.Getenv("CLOUDFLARE_ZONE_ID"); token != "" && zone != "" {
		cfg.CustomHostnames = &cfdomains.CustomHostnames{
			BaseURL:     cloudflare.Getenv("CLOUDFLARE_API_URL"),
			APIToken:    token,
			ZoneID:      zone,
			CNAMETarget: cloudflare.Getenv("CLOUDFLARE_CNAME_TARGET"),
		}
	}
	srv := server.New(cfg)
	web.Register(srv, web.Config{SessionKey: []byte(cloudflare.Getenv("ARENA_SESSION_KEY")), Logger: log})
	return srv, srv.RunScheduled
}

// newLogger logs JSON lines at ARENA_LOG_LEVEL (debug, info, warn or error;
// warn by default: Cloudflare records every invocation already, and each
// line is a console.log, which under wrangler dev costs about 3 ms).
func newLogger() *slog.Logger {
	level := slog.LevelWarn
	if v := cloudflare.Getenv("ARENA_LOG_LEVEL"); v != "" {
		if err := level.UnmarshalText([]byte(v)); err != nil {
			level = slog.LevelWarn
		}
	}
	return slog.New(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{Level: level}))
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
