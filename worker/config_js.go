//go:build js && wasm

package main

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/syumai/workers/cloudflare"

	"arena/core"
	store "arena/sql"
	cfdomains "arena/worker/cloudflare"
	"arena/worker/objects"
	"arena/worker/platform"
	"arena/worker/server"
	"arena/worker/streams"
	"arena/worker/turso"
	"arena/worker/web"
)

// build assembles the server from the Workers environment (the Go
// worker's wrangler.go.toml vars and secrets, read with cloudflare.Getenv); edge sets what differs
// between the kept-instance and the fresh-instance build, and recordings
// is the RECORDINGS bucket binding as the build reaches it. Without a
// directory database configured, every request but /healthz answers 503
// and the scheduled jobs are nil.
func build(log *slog.Logger, recordings objects.R2Binding, edge func(*server.Config)) (http.Handler, func(context.Context) (server.ScheduledReport, error)) {
	dirURL := cloudflare.Getenv("ARENA_DIRECTORY_URL")
	if dirURL == "" {
		log.Error("ARENA_DIRECTORY_URL is not set")
		return notConfigured{}, nil
	}
	opener := store.Opener{Timeout: store.DefaultTimeout}
	if v := cloudflare.Getenv("ARENA_DB_TIMEOUT"); v != "" {
		if d, err := time.ParseDuration(v); err == nil && d > 0 {
			opener.Timeout = d
		} else {
			log.Error("ARENA_DB_TIMEOUT is not a positive duration: using the default", slog.String("value", v), slog.Duration("default", store.DefaultTimeout))
		}
	}
	dir, err := opener.Open(dirURL, cloudflare.Getenv("ARENA_DIRECTORY_TOKEN"))
	if err != nil {
		log.Error("directory database", slog.String("error", err.Error()))
		return notConfigured{}, nil
	}
	cfg := server.Config{
		Directory:      dir,
		OpenDB:         opener.Open,
		OperatorToken:  cloudflare.Getenv("ARENA_OPERATOR_TOKEN"),
		Clock:          core.Clock(time.Now),
		Random:         rand.Reader,
		Logger:         log,
		Tickets:        &platform.Verifier{},
		ClientIPHeader: "Cf-Connecting-Ip",
		// An isolate answers each request whole: the front holds live
		// streams (worker/edge/js/front.mjs).
		LivePolled: true,
		// A test deployment's receivers listen on loopback (make
		// test-edge); never set in production.
		LoopbackCallouts: cloudflare.Getenv("ARENA_LOOPBACK_CALLOUTS") == "1",
	}
	edge(&cfg)
	// The real stream provider when STREAM_CLIENT_ID and
	// STREAM_CLIENT_SECRET are set; the mock twin otherwise, as natively.
	// A provider set up half (no STREAM_REDIRECT_URL), where the native
	// binary refuses to start, is logged and the mock twin runs.
	if provider, err := streams.FromEnv(cloudflare.Getenv, http.DefaultClient, time.Now); err != nil {
		log.Error("stream provider: running the mock twin", slog.String("error", err.Error()))
	} else if provider != nil {
		cfg.Streams = provider
	}
	sessionKey := []byte(cloudflare.Getenv("ARENA_SESSION_KEY"))
	if objs, err := recordingsStore(recordings, sessionKey); err != nil {
		log.Error("recordings: no object storage (the recording routes answer 503 storage_unavailable)", slog.String("error", err.Error()))
	} else {
		// The object route's signing key is derived from the session key.
		cfg.Objects, cfg.ObjectRouteKey = objs, sessionKey
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
	if token, zone := cloudflare.Getenv("CLOUDFLARE_API_TOKEN"), cloudflare.Getenv("CLOUDFLARE_ZONE_ID"); token != "" && zone != "" {
		cfg.CustomHostnames = &cfdomains.CustomHostnames{
			BaseURL:     cloudflare.Getenv("CLOUDFLARE_API_URL"),
			APIToken:    token,
			ZoneID:      zone,
			CNAMETarget: cloudflare.Getenv("CLOUDFLARE_CNAME_TARGET"),
		}
	}
	srv := server.New(cfg)
	web.Register(srv, web.Config{SessionKey: sessionKey, Logger: log})
	return srv, srv.RunScheduled
}

// recordingsBinding names the R2 bucket binding of recordings
// (wrangler.go.toml).
const recordingsBinding = "RECORDINGS"

// recordingsStore is where recordings live on the edge (docs/recordings.md
// "Wiring the edge"): the RECORDINGS bucket, reached through binding for
// the service's own reads, stats and deletes. With R2's S3 API configured
// (R2_S3_ENDPOINT, the account's https://<account>.r2.cloudflarestorage.com,
// with the R2_ACCESS_KEY_ID and R2_SECRET_ACCESS_KEY secrets and
// R2_BUCKET, default arena-recordings) clients upload and download through
// presigned URLs; without it (wrangler dev, which has no S3 API) through
// the service's own route, signed with a key derived from sessionKey.
func recordingsStore(binding objects.R2Binding, sessionKey []byte) (core.ObjectStore, error) {
	if v := cloudflare.GetBinding(recordingsBinding); v.IsUndefined() || v.IsNull() {
		return nil, errors.New("no R2 bucket binding " + recordingsBinding)
	}
	endpoint := cloudflare.Getenv("R2_S3_ENDPOINT")
	if endpoint == "" {
		if len(sessionKey) == 0 {
			return nil, errors.New("ARENA_SESSION_KEY is not set: the upload route could sign nothing")
		}
		return objects.NewR2(binding, nil), nil
	}
	s3 := &objects.S3{Endpoint: endpoint, Bucket: cloudflare.Getenv("R2_BUCKET"), Region: "auto",
		AccessKeyID: cloudflare.Getenv("R2_ACCESS_KEY_ID"), SecretAccessKey: cloudflare.Getenv("R2_SECRET_ACCESS_KEY")}
	if s3.Bucket == "" {
		s3.Bucket = "arena-recordings"
	}
	if s3.AccessKeyID == "" || s3.SecretAccessKey == "" {
		return nil, errors.New("R2_S3_ENDPOINT is set: R2_ACCESS_KEY_ID and R2_SECRET_ACCESS_KEY are required too")
	}
	return objects.NewR2(binding, s3), nil
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
