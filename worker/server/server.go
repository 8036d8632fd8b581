// Package server is Arena's HTTP layer, shared by the native binary and
// the Workers build: the route table, middleware, tenancy and handlers,
// plus the scheduled-jobs entry both runtimes call.
package server

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"arena/core"
	store "arena/sql"
)

// Config is everything the server needs; the entry points build it once
// from flags, environment or Workers bindings.
type Config struct {
	// Directory is the directory database (migrated, or migrated lazily
	// on first use).
	Directory *store.DB
	// OperatorToken authorizes the operator API. Empty disables it.
	OperatorToken string
	// Provisioner creates arena databases when the operator gives no
	// databaseUrl; nil makes databaseUrl required.
	Provisioner core.DatabaseProvisioner
	// OpenDB opens an arena database; store.Open by default.
	OpenDB func(url, token string) (*store.DB, error)
	// Clock is the service clock; Random the source of tokens and nonces.
	Clock  core.Clock
	Random io.Reader
	Logger *slog.Logger
	// Dev enables the /__dev routes (never on the edge).
	Dev *DevControls
	// RateLimiter counts public read requests; nil disables the limits.
	RateLimiter RateLimiter
	// SoleWriter says this process is the only writer of the directory and
	// the arena databases (the native server): host lookups and rendered
	// public reads are then cached in memory until a write changes them.
	SoleWriter bool
	// Tickets verifies game clients' platform tickets.
	Tickets core.TicketVerifier
	// SharedCache caches public reads across instances (the edge); nil
	// for none.
	SharedCache SharedCache
	// ClientIPHeader names the header holding the client's IP when a proxy
	// sets it (CF-Connecting-IP on the edge); empty uses the remote address.
	ClientIPHeader string
	// FrontHints is told what a front cache needs (the edge); nil for none.
	FrontHints FrontHints
	// CustomHostnames registers custom domains with the edge provider
	// (Cloudflare for SaaS); nil makes a domain active at once.
	CustomHostnames core.CustomHostnames
	// HostCacheTTL, when SoleWriter is false, lets host lookups be answered
	// from memory for this long (a warm edge isolate); 0 asks the directory
	// on every request.
	HostCacheTTL time.Duration
}

// Server serves every arena.
type Server struct {
	cfg  Config
	dir  *store.Directory
	mux  *http.ServeMux
	log  *slog.Logger
	now  core.Clock
	rand io.Reader

	// public lists the public API endpoints for the meta object.
	public []string
	cache  *publicCache // nil unless cfg.SoleWriter

	pageNotFound http.HandlerFunc // the site's 404 page, when there is a site

	mu       sync.Mutex
	arenaDBs map[string]*store.DB // by database URL; lives as long as the process
}

// New returns a server for cfg.
func New(cfg Config) *Server {
	if cfg.OpenDB == nil {
		cfg.OpenDB = store.Open
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{
		cfg:      cfg,
		dir:      store.NewDirectory(cfg.Directory),
		mux:      http.NewServeMux(),
		log:      cfg.Logger,
		now:      cfg.Clock,
		rand:     cfg.Random,
		arenaDBs: map[string]*store.DB{},
	}
	if cfg.Dev != nil {
		s.now = cfg.Dev.Clock(cfg.Clock)
	}
	if cfg.SoleWriter {
		s.dir.CacheHosts()
		s.cache = &publicCache{entries: map[string]publicEntry{}}
	} else if cfg.HostCacheTTL > 0 {
		s.dir.CacheHostsFor(cfg.HostCacheTTL, cfg.Clock)
	}
	s.routes()
	return s
}

// routes is the route table: one line per endpoint.
func (s *Server) routes() {
	s.mux.HandleFunc("GET /healthz", s.handleHealth)

	s.mux.HandleFunc("POST /api/v1/operator/arenas", s.operator(s.handleCreateArena))
	s.mux.HandleFunc("GET /api/v1/operator/arenas", s.operator(s.handleListArenas))

	s.mux.HandleFunc("GET /api/v1/openapi.json", s.handleOpenAPI)
	s.publicRoute("GET /api/v1", s.handleMeta)
	s.publicRoute("GET /api/v1/tournaments", s.handleTournaments)
	s.publicRoute("GET /api/v1/tournaments/{slug}", s.handleTournament)
	s.publicRoute("GET /api/v1/ladder", s.handleLadder)
	s.publicRoute("GET /api/v1/players/{platformId}", s.handlePlayer)

	s.adminRoute("PUT /api/v1/admin/settings", s.handleUpdateSettings)
	s.adminRoute("POST /api/v1/admin/seasons", s.handleCreateSeason)
	s.adminRoute("POST /api/v1/admin/tournaments", s.handleCreateTournament)
	s.adminRoute("GET /api/v1/admin/tournaments/{slug}", s.handleAdminTournament)
	s.adminRoute("POST /api/v1/admin/tournaments/{slug}/status", s.handleTournamentStatus)
	s.adminRoute("POST /api/v1/admin/tournaments/{slug}/registrations", s.handleRegister)
	s.adminRoute("GET /api/v1/admin/tournaments/{slug}/matches", s.handleAdminMatches)
	s.adminRoute("PATCH /api/v1/admin/matches/{id}", s.handlePatchMatch)
	s.adminRoute("POST /api/v1/admin/matches/{id}/resolve", s.handleResolveMatch)
	s.adminRoute("GET /api/v1/admin/matches/{id}", s.handleAdminMatch)
	s.adminRoute("GET /api/v1/admin/queue", s.handleAdminQueue)
	s.adminRoute("POST /api/v1/admin/api-keys", s.handleCreateAPIKey)
	s.adminRoute("GET /api/v1/admin/api-keys", s.handleListAPIKeys)
	s.adminRoute("DELETE /api/v1/admin/api-keys/{id}", s.handleRevokeAPIKey)
	s.adminRoute("POST /api/v1/admin/domains", s.handleAddDomain)
	s.adminRoute("GET /api/v1/admin/domains", s.handleListDomains)
	s.adminRoute("DELETE /api/v1/admin/domains/{hostname}", s.handleDeleteDomain)

	s.gameRoute("GET /api/v1/me/live-match", s.handleLiveMatch)
	s.gameRoute("GET /api/v1/me/upcoming-match", s.handleUpcomingMatch)
	s.gameRoute("POST /api/v1/matches/{id}/ready", s.handleReady)
	s.gameRoute("POST /api/v1/matches/{id}/result", s.handleResult)
	s.gameRoute("POST /api/v1/me/referee-consent", s.handleRefereeConsent)

	s.mux.HandleFunc("POST /__dev/clock", s.dev(s.handleDevClock))
	s.mux.HandleFunc("POST /__dev/tick", s.dev(s.handleDevTick))
	s.mux.HandleFunc("POST /__dev/stream-live", s.dev(s.handleDevStreamLive))
}

// HandleTenant registers a handler for one arena's requests (the host
// picks the arena): how the web pages plug into the server.
func (s *Server) HandleTenant(pattern string, h func(w http.ResponseWriter, r *http.Request, t *Tenant)) {
	s.mux.HandleFunc(pattern, s.tenant(h))
}

// Handle registers a handler that serves every host.
func (s *Server) Handle(pattern string, h http.Handler) { s.mux.Handle(pattern, h) }

// SetPageNotFound sets the answer to unknown paths outside /api/ and
// /__dev/ (the site's 404 page); JSON otherwise.
func (s *Server) SetPageNotFound(h http.HandlerFunc) { s.pageNotFound = h }

// Now reads the service clock (moved by /__dev/clock in dev mode).
func (s *Server) Now() time.Time { return s.now() }

// Random is the service's source of randomness.
func (s *Server) Random() io.Reader { return s.rand }

// Directory is the directory of arenas.
func (s *Server) Directory() *store.Directory { return s.dir }

// adminRoute registers an arena admin endpoint (admin token required).
func (s *Server) adminRoute(pattern string, h tenantHandler) {
	s.mux.HandleFunc(pattern, s.tenant(s.admin(h)))
}

// ServeHTTP implements http.Handler: request id, logging and panic
// recovery around the route table; unknown routes and wrong methods get
// JSON errors like everything else.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.observe(w, r, func(w http.ResponseWriter, r *http.Request) {
		// Handler finds the route without setting path values; ServeHTTP
		// then routes for real.
		h, pattern := s.mux.Handler(r)
		if pattern == "" {
			s.noRoute(w, r, h)
			return
		}
		s.mux.ServeHTTP(w, r)
	})
}

// noRoute answers a request that matches no pattern: 405 when the path
// exists under another method (with its Allow header), else 404.
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request, fallback http.Handler) {
	probe := &statusProbe{header: http.Header{}}
	fallback.ServeHTTP(probe, r)
	if probe.status == http.StatusMethodNotAllowed {
		w.Header().Set("Allow", probe.header.Get("Allow"))
		writeCode(w, r, core.CodeMethodNotAllowed)
		return
	}
	if s.pageNotFound != nil && !strings.HasPrefix(r.URL.Path, "/api/") && !strings.HasPrefix(r.URL.Path, "/__dev/") {
		s.pageNotFound(w, r)
		return
	}
	writeCode(w, r, core.CodeNotFound)
}

// statusProbe records the status a fallback handler would answer.
type statusProbe struct {
	header http.Header
	status int
}

func (p *statusProbe) Header() http.Header         { return p.header }
func (p *statusProbe) Write(b []byte) (int, error) { return len(b), nil }
func (p *statusProbe) WriteHeader(status int)      { p.status = status }

// arenaDB returns the arena's database, opened once per process and
// migrated when the directory says it is behind.
func (s *Server) arenaDB(ctx context.Context, a *core.Arena) (*store.Arena, error) {
	s.mu.Lock()
	db, ok := s.arenaDBs[a.DatabaseURL]
	if !ok {
		var err error
		if db, err = s.cfg.OpenDB(a.DatabaseURL, a.DatabaseToken); err != nil {
			s.mu.Unlock()
			return nil, err
		}
		s.arenaDBs[a.DatabaseURL] = db
	}
	s.mu.Unlock()
	if a.SchemaVersion < store.ArenaMigrations.Latest() {
		v, err := store.Migrate(ctx, db, store.ArenaMigrations)
		if err != nil {
			return nil, err
		}
		if err := s.dir.SetSchemaVersion(ctx, a.ID, v); err != nil {
			return nil, err
		}
		a.SchemaVersion = v
	}
	return store.NewArena(db), nil
}

// withDirectory runs fn against the directory, migrating the directory
// once and retrying when it has no schema yet. A fresh edge deployment
// thus needs no separate migration step, and a migrated one pays no
// round trip for the check.
func (s *Server) withDirectory(ctx context.Context, fn func() error) error {
	err := fn()
	if err == nil || !strings.Contains(err.Error(), "no such table") {
		return err
	}
	if _, merr := store.Migrate(ctx, s.cfg.Directory, store.DirectoryMigrations); merr != nil {
		return merr
	}
	return fn()
}

// Close closes every database the server opened.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for url, db := range s.arenaDBs {
		_ = db.Close()
		delete(s.arenaDBs, url)
	}
	return nil
}
