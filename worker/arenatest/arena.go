// Package arenatest builds served arenas for tests: the native server
// (local SQLite files, as `make dev` runs it) with the website and the
// seeded demo arena, and the one way each test does the common things:
// call the JSON API in process, browse and post forms as a person would,
// sign in, read a page's notices, create and play a tournament, count
// database round trips. The server's, the website's and the browser
// tests all build their arena here.
package arenatest

import (
	"bytes"
	"context"
	"crypto/rand"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
	_ "arena/sql/sqlitedriver" // local arena databases
	"arena/worker/objects"
	"arena/worker/platform"
	"arena/worker/server"
	"arena/worker/web"
)

// DemoHost is the demo arena's host that Arena.URL answers on.
const DemoHost = "127.0.0.1"

// Epoch is where the service clock starts unless Options say otherwise.
var Epoch = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

// OperatorToken is the operator API's token unless Options names another.
const OperatorToken = "operator"

// Options vary the served arena; the zero value is the website with the
// demo arena, dev routes and rate limits on, served at a local address.
type Options struct {
	// Site is the website's configuration; a test session key when empty.
	Site web.Config
	// NoSite serves the JSON API alone.
	NoSite bool
	// NoDemo starts from an empty directory: no demo arena.
	NoDemo bool
	// NoDev leaves the /__dev routes off (404).
	NoDev bool
	// NoRateLimits lifts the public API's limits (benchmarks).
	NoRateLimits bool
	// InProcess serves nothing on the network: URL is empty, requests go
	// to the handler directly (benchmarks, API tests).
	InProcess bool
	// LazyDirectory leaves the directory database unmigrated, as a fresh
	// edge deployment finds it.
	LazyDirectory bool
	// OperatorToken is the operator API's token; OperatorToken when empty.
	OperatorToken string
	// Now is where the service clock starts; Epoch when zero.
	Now time.Time
	// Config adjusts the server's configuration before it is built (nil:
	// none).
	Config func(*server.Config)
	// Streams is the stream provider; the mock twin when nil. Webhooks
	// sends webhook deliveries; the server's own sender when nil.
	Streams  core.StreamProvider
	Webhooks core.WebhookSender
	// Objects keeps recordings; a directory in DataDir (upload.local)
	// when nil.
	Objects core.ObjectStore
	// DBTimeout is the deadline of every database call
	// (store.Opener.Timeout); store.DefaultTimeout when zero.
	DBTimeout time.Duration
	// DirectoryURL is the directory database (a libSQL server's URL); a
	// file in DataDir when empty.
	DirectoryURL string
}

// Arena is a served Arena process.
type Arena struct {
	Server *server.Server
	// Site is the website (nil with NoSite).
	Site *web.Site
	// Handler answers the in-process requests: Server, or Server wrapped
	// by a test (an OpenAPI recorder).
	Handler http.Handler
	// URL reaches the demo arena over the network (its 127.0.0.1 host);
	// empty with InProcess.
	URL string
	// AdminToken is the demo arena's admin API token ("" with NoDemo).
	AdminToken string
	// OperatorToken is the operator API's token.
	OperatorToken string
	// Now is the base of the service clock; a test may move it between
	// requests. The dev clock (/__dev/clock) adds its offset on top.
	Now time.Time
	// Directory is the directory database; DataDir holds it and the
	// arenas' files.
	Directory *store.DB
	DataDir   string
	// Logs holds everything the server and the site logged.
	Logs *SyncBuffer
}

// New serves a fresh arena from a new data directory; everything closes
// when the test ends.
func New(tb testing.TB, o Options) *Arena {
	tb.Helper()
	a := &Arena{DataDir: tb.TempDir(), Now: o.Now, OperatorToken: o.OperatorToken, Logs: &SyncBuffer{}}
	if a.Now.IsZero() {
		a.Now = Epoch
	}
	if a.OperatorToken == "" {
		a.OperatorToken = OperatorToken
	}
	open := store.Opener{Dir: a.DataDir, Timeout: o.DBTimeout}.Open
	directoryURL := o.DirectoryURL
	if directoryURL == "" {
		directoryURL = "file:directory.db"
	}
	var err error
	a.Directory, err = open(directoryURL, "")
	require.NoError(tb, err)
	if !o.LazyDirectory {
		_, err = store.Migrate(context.Background(), a.Directory, store.DirectoryMigrations)
		require.NoError(tb, err)
	}
	logger := slog.New(slog.NewTextHandler(a.Logs, nil))
	cfg := server.Config{
		Directory: a.Directory, OperatorToken: a.OperatorToken, Provisioner: store.LocalProvisioner{Dir: a.DataDir},
		OpenDB: open, Clock: func() time.Time { return a.Now }, Random: rand.Reader, Logger: logger,
		// Deliveries are signed with the machine's clock, as natively:
		// receivers (the Standard Webhooks libraries) check it against theirs.
		WallClock:  time.Now,
		SoleWriter: true, // as natively: exercises the caches' invalidation
		Tickets:    &platform.Verifier{},
		Streams:    o.Streams, Webhooks: o.Webhooks,
		Objects: o.Objects, ObjectRouteKey: []byte("arenatest-objects-key"),
	}
	if cfg.Objects == nil {
		cfg.Objects = objects.Local{Dir: filepath.Join(a.DataDir, "objects")}
	}
	if !o.NoDev {
		cfg.Dev = server.NewDevControls()
	}
	if !o.NoRateLimits {
		cfg.RateLimiter = server.NewMemoryRateLimiter()
	}
	if o.Config != nil {
		o.Config(&cfg)
	}
	a.Server = server.New(cfg)
	a.Handler = a.Server
	if !o.NoSite {
		if o.Site.SessionKey == nil {
			o.Site.SessionKey = []byte("arenatest-session-key")
		}
		if o.Site.Logger == nil {
			o.Site.Logger = logger
		}
		a.Site = web.Register(a.Server, o.Site)
	}
	if !o.NoDemo {
		a.AdminToken, err = a.Server.SeedDemo(context.Background())
		require.NoError(tb, err)
	}
	var listener *httptest.Server
	if !o.InProcess {
		// Compressed as the native binary serves it (server.Compress).
		listener = httptest.NewServer(server.Compress(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { a.Handler.ServeHTTP(w, r) })))
		a.URL = listener.URL
	}
	tb.Cleanup(func() {
		if listener != nil {
			listener.Close()
		}
		a.Server.Close()
		a.Directory.Close()
	})
	return a
}

// SyncBuffer is a log sink safe for concurrent handlers.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Players of the demo arena.
const (
	Ada     = "76561198000000001" // Ada Lovelace, the demo arena's admin
	Blaise  = "76561198000000002" // Blaise Pascal
	Charles = "76561198000000003" // Charles Babbage
)
