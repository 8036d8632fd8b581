//go:build !js

// Command worker runs Arena. Natively (this file) it serves every arena
// from one process with local libSQL files; built for js/wasm
// (main_js.go) it is the Cloudflare Workers entry.
//
//	worker [--addr 127.0.0.1:8787] [--data ./data] [--dev]   serve
//	worker migrate [--data ./data]                            migrate every arena
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"arena/core"
	store "arena/sql"
	_ "arena/sql/sqlitedriver"
	"arena/worker/platform"
	"arena/worker/server"
	"arena/worker/web"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "arena:", err)
		os.Exit(1)
	}
}

// options are the native entry's settings: flags, defaulted from the
// environment.
type options struct {
	addr           string
	dataDir        string
	dev            bool
	devSet         bool
	directoryURL   string
	directoryToken string
	operatorToken  string
	logFormat      string
	tick           time.Duration
	pprof          string
}

func parseOptions(args []string) (options, []string, error) {
	var o options
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.StringVar(&o.addr, "addr", env("ARENA_ADDR", "127.0.0.1:8787"), "listen address (ARENA_ADDR)")
	fs.StringVar(&o.dataDir, "data", env("ARENA_DATA_DIR", "./data"), "data directory (ARENA_DATA_DIR)")
	fs.BoolVar(&o.dev, "dev", os.Getenv("ARENA_DEV") == "1", "enable the /__dev routes (ARENA_DEV=1)")
	fs.StringVar(&o.directoryURL, "directory-url", os.Getenv("ARENA_DIRECTORY_URL"), "directory database URL; default a file in the data directory (ARENA_DIRECTORY_URL)")
	fs.StringVar(&o.logFormat, "log", env("ARENA_LOG_FORMAT", "text"), "log format: text or json (ARENA_LOG_FORMAT)")
	fs.StringVar(&o.pprof, "pprof", os.Getenv("ARENA_PPROF"), "serve net/http/pprof on this address, e.g. 127.0.0.1:6060; empty disables (ARENA_PPROF)")
	fs.DurationVar(&o.tick, "tick", envDuration("ARENA_TICK_INTERVAL", time.Minute), "scheduled jobs interval; 0 disables (ARENA_TICK_INTERVAL)")
	if err := fs.Parse(args); err != nil {
		return o, nil, err
	}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "dev" {
			o.devSet = true
		}
	})
	if os.Getenv("ARENA_DEV") != "" {
		o.devSet = true
	}
	o.directoryToken = os.Getenv("ARENA_DIRECTORY_TOKEN")
	o.operatorToken = os.Getenv("ARENA_OPERATOR_TOKEN")
	return o, fs.Args(), nil
}

func run(args []string) error {
	command := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		command, args = args[0], args[1:]
	}
	o, rest, err := parseOptions(args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("unexpected arguments %q", rest)
	}
	log := newLogger(o.logFormat)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	switch command {
	case "serve":
		return serve(ctx, o, log)
	case "migrate":
		srv, dir, err := open(o, log, nil)
		if err != nil {
			return err
		}
		defer dir.Close()
		defer srv.Close()
		return srv.MigrateAll(ctx, os.Stdout)
	default:
		return fmt.Errorf("unknown command %q (want serve or migrate)", command)
	}
}

// open builds the server over the directory database.
func open(o options, log *slog.Logger, dev *server.DevControls) (*server.Server, *store.DB, error) {
	if err := os.MkdirAll(o.dataDir, 0o755); err != nil {
		return nil, nil, err
	}
	dirURL := o.directoryURL
	if dirURL == "" {
		dirURL = "file:directory.db"
	}
	openDB := store.OpenIn(o.dataDir)
	dir, err := openDB(dirURL, o.directoryToken)
	if err != nil {
		return nil, nil, err
	}
	sessionKey, err := secretFile(o.dataDir, "session-key", "ARENA_SESSION_KEY")
	if err != nil {
		return nil, nil, err
	}
	objs, err := objectStore(o.dataDir)
	if err != nil {
		return nil, nil, err
	}
	srv := server.New(server.Config{
		Directory:     dir,
		OperatorToken: o.operatorToken,
		Provisioner:   store.LocalProvisioner{Dir: o.dataDir},
		OpenDB:        openDB,
		Clock:         time.Now,
		Random:        rand.Reader,
		Logger:        log,
		Dev:           dev,
		Tickets:       &platform.Verifier{},
		RateLimiter:   server.NewMemoryRateLimiter(),
		SoleWriter:    true,
		Objects:       objs,
		// The object route's signing key is derived from the session key.
		ObjectRouteKey: []byte(sessionKey),
	})
	web.Register(srv, web.Config{SessionKey: []byte(sessionKey), Logger: log})
	return srv, dir, nil
}

func serve(ctx context.Context, o options, log *slog.Logger) error {
	fresh, err := emptyDir(o.dataDir)
	if err != nil {
		return err
	}
	demoMarker := filepath.Join(o.dataDir, "demo-admin-token")
	if fresh && !o.devSet {
		o.dev = true // a brand-new demo data directory starts in dev mode
	}
	if !o.devSet && fileExists(demoMarker) {
		o.dev = true
	}
	if o.operatorToken == "" {
		if o.operatorToken, err = operatorToken(o.dataDir); err != nil {
			return err
		}
	}
	var dev *server.DevControls
	if o.dev {
		dev = server.NewDevControls()
	}
	srv, dir, err := open(o, log, dev)
	if err != nil {
		return err
	}
	defer dir.Close()
	defer srv.Close()
	if _, err := store.Migrate(ctx, dir, store.DirectoryMigrations); err != nil {
		return err
	}
	if fresh {
		adminToken, err := srv.SeedDemo(ctx)
		if err != nil {
			return err
		}
		if err := os.WriteFile(demoMarker, []byte(adminToken+"\n"), 0o600); err != nil {
			return err
		}
		log.Info("created the demo arena", slog.String("hosts", strings.Join(server.DemoHosts, ", ")),
			slog.String("admin_token_file", demoMarker))
	}

	httpServer := &http.Server{
		Addr:              o.addr,
		Handler:           srv,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	errc := make(chan error, 1)
	go func() { errc <- httpServer.ListenAndServe() }()
	if o.pprof != "" {
		go func() {
			mux := http.NewServeMux()
			mux.HandleFunc("/debug/pprof/", pprof.Index)
			mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
			mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
			log.Info("pprof", slog.String("addr", o.pprof), slog.Any("error", http.ListenAndServe(o.pprof, mux)))
		}()
	}
	if o.tick > 0 {
		go tickScheduled(ctx, srv, o.tick, log)
	}
	fmt.Fprintf(os.Stderr, "Arena is serving http://localhost%s (dev mode %v)\n", portOf(o.addr), o.dev)
	fmt.Fprintf(os.Stderr, "Operator token: %s\n", filepath.Join(o.dataDir, "operator-token"))

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := httpServer.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// tickScheduled runs the scheduled jobs every interval until ctx ends:
// the native twin of the Workers cron trigger.
func tickScheduled(ctx context.Context, srv *server.Server, every time.Duration, log *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := srv.RunScheduled(ctx); err != nil {
				log.Error("scheduled jobs", slog.String("error", err.Error()))
			}
		}
	}
}

// operatorToken reads data/operator-token, creating it with a random
// token on first start.
func operatorToken(dataDir string) (string, error) {
	return secretFile(dataDir, "operator-token", "")
}

// secretFile returns the environment variable env when set, else the
// secret in dataDir/name, creating it with 32 random bytes (hex) on first
// use.
func secretFile(dataDir, name, env string) (string, error) {
	if env != "" && os.Getenv(env) != "" {
		return os.Getenv(env), nil
	}
	path := filepath.Join(dataDir, name)
	if b, err := os.ReadFile(path); err == nil && strings.TrimSpace(string(b)) != "" {
		return strings.TrimSpace(string(b)), nil
	}
	token, err := core.RandomHex(rand.Reader, 32)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return "", err
	}
	return token, os.WriteFile(path, []byte(token+"\n"), 0o600)
}

func emptyDir(dir string) (bool, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	return len(entries) == 0, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func newLogger(format string) *slog.Logger {
	if format == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, nil))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, nil))
}

func env(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

func envDuration(name string, fallback time.Duration) time.Duration {
	if d, err := time.ParseDuration(os.Getenv(name)); err == nil {
		return d
	}
	return fallback
}

func portOf(addr string) string {
	if i := strings.LastIndexByte(addr, ':'); i >= 0 {
		return addr[i:]
	}
	return ""
}
