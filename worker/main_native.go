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
	"io"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"arena/core"
	store "arena/sql"
	_ "arena/sql/sqlitedriver"
	"arena/worker/discord"
	"arena/worker/discord/discordtest"
	"arena/worker/platform"
	"arena/worker/server"
	"arena/worker/streams"
	"arena/worker/web"
	"arena/worker/webpush/webpushtest"
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
	addr    string
	dataDir string
	dev     bool
	devSet  bool
	// devDiscord and devPush are dev mode's twins of Discord (the mock
	// guild) and of a Web Push service (the demo phones), started with
	// the server; nil otherwise.
	devDiscord     *discordtest.Twin
	devPush        *webpushtest.Service
	directoryURL   string
	directoryToken string
	operatorToken  string
	logFormat      string
	tick           time.Duration
	pprof          string
	maxOpenArenas  int
	dbTimeout      time.Duration
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
	fs.IntVar(&o.maxOpenArenas, "max-open-arenas", envInt("ARENA_MAX_OPEN_ARENAS", server.DefaultMaxOpenArenas), "arena databases kept open at most; the least recently used idle one is closed first (ARENA_MAX_OPEN_ARENAS)")
	fs.DurationVar(&o.dbTimeout, "db-timeout", envDuration("ARENA_DB_TIMEOUT", store.DefaultTimeout), "deadline of every database call; an arena whose database does not answer in time gets 503 database_unavailable (ARENA_DB_TIMEOUT)")
	fs.DurationVar(&o.tick, "tick", envDuration("ARENA_TICK_INTERVAL", time.Minute), "scheduled jobs interval; 0 disables (ARENA_TICK_INTERVAL)")
	if err := fs.Parse(args); err != nil {
		return o, nil, err
	}
	if o.maxOpenArenas < 1 {
		return o, nil, fmt.Errorf("--max-open-arenas must be at least 1")
	}
	if o.dbTimeout <= 0 {
		return o, nil, fmt.Errorf("--db-timeout must be positive")
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
	logOut := newLogWriter(os.Stderr)
	defer logOut.Close()
	log := newLogger(o.logFormat, logOut)
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
	openDB := store.Opener{Dir: o.dataDir, Timeout: o.dbTimeout}.Open
	dir, err := openDB(dirURL, o.directoryToken)
	if err != nil {
		return nil, nil, err
	}
	sessionKey, err := secretFile(o.dataDir, "session-key", "ARENA_SESSION_KEY")
	if err != nil {
		return nil, nil, err
	}
	// The real stream provider when STREAM_CLIENT_ID and
	// STREAM_CLIENT_SECRET are set; the mock twin otherwise.
	provider, err := streams.FromEnv(os.Getenv, http.DefaultClient, time.Now)
	if err != nil {
		return nil, nil, err
	}
	var streamProvider core.StreamProvider
	if provider != nil {
		streamProvider = provider
	}
	objs, err := objectStore(o.dataDir)
	if err != nil {
		return nil, nil, err
	}
	// Dev mode talks to a Discord twin (the mock guild) instead of
	// Discord.
	var discordAPI core.DiscordAPI
	if o.devDiscord != nil {
		discordAPI = discord.API{Base: o.devDiscord.URL}
	}
	srv := server.New(server.Config{
		Directory:     dir,
		OperatorToken: o.operatorToken,
		Provisioner:   store.LocalProvisioner{Dir: o.dataDir},
		OpenDB:        openDB,
		MaxOpenArenas: o.maxOpenArenas,
		Clock:         time.Now,
		Random:        rand.Reader,
		Logger:        log,
		Dev:           dev,
		Tickets:       &platform.Verifier{},
		RateLimiter:   server.NewMemoryRateLimiter(),
		SoleWriter:    true,
		WebhookKick:   server.WebhookKickDelay,
		Streams:       streamProvider,
		// make dev-edge seeds the demo into a libSQL server the edge reaches.
		DemoDatabaseURL: os.Getenv("ARENA_DEMO_DATABASE_URL"),
		Objects:         objs,
		// The object route's signing key is derived from the session key.
		ObjectRouteKey: []byte(sessionKey),
		Discord:        discordAPI,
	})
	if provider != nil {
		provider.Now = srv.Now // the service clock (moved in dev mode)
	}
	web.Register(srv, web.Config{SessionKey: []byte(sessionKey), Logger: log})
	return srv, dir, nil
}

// seedDemoFunc seeds the demo arena and returns its admin token.
type seedDemoFunc func(ctx context.Context, srv *server.Server) (string, error)

func serve(ctx context.Context, o options, log *slog.Logger) error {
	seed := func(ctx context.Context, srv *server.Server) (string, error) { return srv.SeedDemo(ctx) }
	srv, dir, o, err := start(ctx, o, log, seed)
	if err != nil {
		return err
	}
	defer dir.Close()
	defer srv.Close()

	httpServer := &http.Server{
		Addr:              o.addr,
		Handler:           server.Compress(srv),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	httpServer.RegisterOnShutdown(srv.EndStreams)
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
	if phones := o.devPush; phones != nil {
		defer phones.Close()
		err := srv.UseDevPush(ctx, func(player, serverKey string) core.PushSubscriptionInput {
			d := phones.NewDevice(player+"'s phone", serverKey)
			f := d.Form("")
			return core.PushSubscriptionInput{Endpoint: f.Get("endpoint"), P256dh: f.Get("p256dh"), Auth: f.Get("auth")}
		})
		if err != nil {
			log.Warn("the demo phones are not subscribed", slog.String("error", err.Error()))
		} else {
			fmt.Fprintf(os.Stderr, "Demo phones (Web Push): %s\n", phones.URL)
		}
	}
	if twin := o.devDiscord; twin != nil {
		defer twin.Close()
		twin.ServeGuild("http://localhost" + portOf(o.addr) + "/discord/interactions")
		if err := srv.UseDevDiscord(ctx, twin.App(), twin.Member); err != nil {
			log.Warn("the mock Discord guild is not connected", slog.String("error", err.Error()))
		} else {
			fmt.Fprintf(os.Stderr, "Mock Discord guild: %s\n", twin.URL)
		}
	}

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

// start prepares the data directory and the server: the options as the
// data directory settles them (dev mode), the directory migrated, arena
// creations a crash cut off dropped, and the demo arena seeded while
// seeding is due.
//
// Seeding is due from the first start in an empty data directory until
// it succeeds: the demo-seeding marker is written before anything else,
// and removed only once the demo arena is complete and its admin token
// saved (demo-admin-token). A start cut off part-way leaves the demo
// unfinished (dropped by DropUnfinishedArenas) and the marker, so the
// next start seeds again.
func start(ctx context.Context, o options, log *slog.Logger, seed seedDemoFunc) (*server.Server, *store.DB, options, error) {
	fresh, err := emptyDir(o.dataDir)
	if err != nil {
		return nil, nil, o, err
	}
	demoMarker := filepath.Join(o.dataDir, "demo-admin-token")
	seedingMarker := filepath.Join(o.dataDir, "demo-seeding")
	if fresh {
		if err := os.MkdirAll(o.dataDir, 0o755); err != nil {
			return nil, nil, o, err
		}
		if err := os.WriteFile(seedingMarker, nil, 0o600); err != nil {
			return nil, nil, o, err
		}
	}
	seeding := fileExists(seedingMarker)
	if !o.devSet && (seeding || fileExists(demoMarker)) {
		o.dev = true // a demo data directory starts in dev mode
	}
	if o.operatorToken == "" {
		if o.operatorToken, err = operatorToken(o.dataDir); err != nil {
			return nil, nil, o, err
		}
	}
	var dev *server.DevControls
	if o.dev {
		dev = server.NewDevControls()
		o.devDiscord, o.devPush = discordtest.Start(), webpushtest.Start()
	}
	srv, dir, err := open(o, log, dev)
	if err != nil {
		closeTwins(o)
		return nil, nil, o, err
	}
	fail := func(err error) (*server.Server, *store.DB, options, error) {
		srv.Close()
		dir.Close()
		closeTwins(o)
		return nil, nil, o, err
	}
	if _, err := store.Migrate(ctx, dir, store.DirectoryMigrations); err != nil {
		return fail(err)
	}
	if n, err := srv.DropUnfinishedArenas(ctx); err != nil {
		return fail(err)
	} else if n > 0 {
		log.Info("dropped arena creations cut off by a crash", slog.Int("arenas", n))
	}
	if seeding {
		adminToken, err := seed(ctx, srv)
		if err != nil {
			return fail(err)
		}
		if err := writeFileAtomic(demoMarker, []byte(adminToken+"\n")); err != nil {
			return fail(err)
		}
		if err := os.Remove(seedingMarker); err != nil {
			return fail(err)
		}
		log.Info("created the demo arena", slog.String("hosts", strings.Join(server.DemoHosts, ", ")),
			slog.String("admin_token_file", demoMarker))
	}
	return srv, dir, o, nil
}

// closeTwins stops dev mode's twins.
func closeTwins(o options) {
	if o.devDiscord != nil {
		o.devDiscord.Close()
	}
	if o.devPush != nil {
		o.devPush.Close()
	}
}

// writeFileAtomic writes data to path through a temporary file renamed
// over it: a crash leaves the old file or the new one, never half of it.
func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
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

func newLogger(format string, out io.Writer) *slog.Logger {
	if format == "json" {
		return slog.New(slog.NewJSONHandler(out, nil))
	}
	return slog.New(slog.NewTextHandler(out, nil))
}

func env(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

func envInt(name string, fallback int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return n
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
