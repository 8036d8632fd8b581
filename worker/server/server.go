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
	"time"

	"arena/app"
	"arena/core"
	store "arena/sql"
	"arena/worker/discord"
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
	// OpenDB opens an arena database; store.Open by default. It must not
	// touch the database (the first query does).
	OpenDB func(url, token string) (*store.DB, error)
	// MaxOpenArenas bounds how many arena databases stay open; the least
	// recently used one no request holds is closed first. 0 means
	// DefaultMaxOpenArenas.
	MaxOpenArenas int
	// Clock is the service clock; Random the source of tokens and nonces.
	Clock  core.Clock
	Random io.Reader
	// WallClock is the machine's clock, which dev mode's clock never
	// moves: what webhook receivers compare a delivery's timestamp with.
	// Nil: Clock.
	WallClock core.Clock
	Logger    *slog.Logger
	// Dev enables the /__dev routes (never on the edge).
	Dev *DevControls
	// Discord is Discord's API (discord.API at Discord when nil; a twin
	// in tests and dev mode). DiscordDeferAfter is how long an
	// interaction's answer may take before it is deferred
	// (DiscordDeferAfter when zero; tests shorten it).
	Discord           core.DiscordAPI
	DiscordDeferAfter time.Duration
	// LoopbackCallouts lets webhooks and push endpoints point at this
	// machine (dev mode implies it): for test deployments whose receivers
	// and push-service twins listen on loopback, never for production.
	LoopbackCallouts bool
	// RateLimiter counts public read requests; nil disables the limits.
	RateLimiter RateLimiter
	// SoleWriter says this process is the only writer of the directory and
	// the arena databases (the native server): host lookups and rendered
	// public reads are then cached in memory until a write changes them.
	SoleWriter bool
	// DemoDatabaseURL is the database SeedDemo puts the demo arena in (a
	// libSQL server's URL); empty: one provisioned as for any arena.
	DemoDatabaseURL string
	// Tickets verifies game clients' platform tickets.
	Tickets core.TicketVerifier
	// SharedCache caches public reads across instances (the edge); nil
	// for none.
	SharedCache SharedCache
	// ClientIPHeader names the header holding the client's IP when a proxy
	// sets it (CF-Connecting-IP on the edge); empty uses the remote address.
	ClientIPHeader string
	// Streams is the stream provider (streams.FromEnv); nil runs the mock
	// twin, whose live set is the dev controls' (POST /__dev/stream-live).
	Streams core.StreamProvider
	// Webhooks sends webhook deliveries; nil sends them over HTTP to
	// public addresses only (loopback too in dev mode).
	Webhooks core.WebhookSender
	// Objects keeps recordings: a core.ObjectStore that is also an
	// ObjectPresigner (clients reach the store) or an ObjectWriter
	// (clients upload through the service's signed route, signed with
	// ObjectRouteKey). Nil: the recording routes answer 503.
	Objects        core.ObjectStore
	ObjectRouteKey []byte
	// FrontHints is told what a front cache needs (the edge); nil for none.
	FrontHints FrontHints
	// CustomHostnames registers custom domains with the edge provider
	// (Cloudflare for SaaS); nil makes a domain active at once.
	CustomHostnames core.CustomHostnames
	// HostCacheTTL, when SoleWriter is false, lets host lookups be answered
	// from memory for this long (a warm edge isolate); 0 asks the directory
	// on every request.
	HostCacheTTL time.Duration
	// WebhookKick, when above 0, sends an arena's webhook subscription
	// deliveries this long after a write to it (webhook_kick.go), besides
	// the scheduled job; 0 leaves them to the job (the edge's cron).
	WebhookKick time.Duration
	// AfterAnswer runs job once the request of ctx is answered (the edge:
	// in a call of its own, edge.Bridge.After); nil runs it in a goroutine
	// (after_answer.go).
	AfterAnswer func(ctx context.Context, job func(context.Context))
	// LivePolled says the runtime cannot hold a response open (the edge):
	// a live stream's answer is then one finite page, and the front holds
	// the stream (live.go).
	LivePolled bool
}

// Server serves every arena.
type Server struct {
	cfg  Config
	dir  *store.Directory
	mux  *http.ServeMux
	log  *slog.Logger
	now  core.Clock
	wall core.Clock // Config.WallClock
	rand io.Reader

	// public lists the public API endpoints for the meta object.
	public []string
	cache  *publicBodies // nil unless cfg.SoleWriter
	keys   *apiKeys      // nil unless cfg.SoleWriter
	memo   *memos        // Memo's; nil unless cfg.SoleWriter

	requestIDs *requestIDs

	pageNotFound http.HandlerFunc // the site's 404 page, when there is a site
	// pageFailed answers a page whose arena could not be served (its
	// database, or the directory, did not answer): the site's error page.
	pageFailed func(w http.ResponseWriter, r *http.Request, t *Tenant, err error)
	// sessionPlayer is the signed-in web session's account, when there is
	// a site (recordings visible to arena members).
	sessionPlayer func(r *http.Request, t *Tenant) string

	arenaDBs *arenaPool
	live     *liveFeeds    // the arenas' live streams (live.go)
	kicks    *webhookKicks // webhook deliveries after writes (webhook_kick.go)
	after    afterAnswers  // jobs after the answer (after_answer.go)

	// demoStore wraps the store SeedDemo writes tournaments through (tests
	// inject failures with it); nil for none.
	demoStore func(core.TournamentStore) core.TournamentStore

	streams  core.StreamProvider
	webhooks core.WebhookSender
	discord  core.DiscordAPI
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
		wall:     cfg.WallClock,
		rand:     cfg.Random,
		arenaDBs: newArenaPool(cfg.OpenDB, cfg.MaxOpenArenas),
	}
	s.requestIDs = newRequestIDs(cfg.Random)
	if s.wall == nil {
		s.wall = cfg.Clock
	}
	if cfg.Dev != nil {
		s.now = cfg.Dev.Clock(cfg.Clock)
	}
	if s.streams = cfg.Streams; s.streams == nil {
		s.streams = defaultStreams(cfg.Dev)
	}
	s.live = newLiveFeeds()
	s.kicks = newWebhookKicks()
	if s.discord = cfg.Discord; s.discord == nil {
		s.discord = discord.API{}
	}
	if s.webhooks = cfg.Webhooks; s.webhooks == nil {
		s.webhooks = NewWebhookSender(nil, s.LoopbackWebhooks())
	}
	if cfg.SoleWriter {
		s.dir.CacheHosts()
		s.cache = newVersionedCache[publicVersion](maxPublicEntries, maxPublicBytes, publicEntrySize)
		s.keys = newVersionedCache[uint64, apiKeyEntry](maxAPIKeyEntries, 0, nil)
		s.memo = newVersionedCache[publicVersion, any](maxMemoEntries, 0, nil)
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
	s.mux.HandleFunc("PATCH /api/v1/operator/arenas/{slug}", s.operator(s.handlePatchArena))

	s.mux.HandleFunc("GET /api/v1/openapi.json", s.handleOpenAPI)
	s.publicRoute("GET /api/v1", s.handleMeta)
	s.publicRoute("GET /api/v1/tournaments", s.handleTournaments)
	s.publicRoute("GET /api/v1/tournaments/{slug}", s.handleTournament)
	s.publicRoute("GET /api/v1/ladder", s.handleLadder)
	s.publicRoute("GET /api/v1/players/{platformId}", s.handlePlayer)
	s.publicRoute("GET /api/v1/public/titles", s.handlePublicTitles)
	s.publicRoute("GET /api/v1/casters", s.handleCasters)
	s.publicRoute("GET /api/v1/matches/{id}", s.handleMatch)
	s.publicRoute("GET /api/v1/events", s.handleEvents)
	s.publicRoute("GET /api/v1/events/head", s.handleEventsHead)
	s.publicRoute("GET /api/v1/push/key", s.handlePushKey)
	s.mux.HandleFunc("POST /discord/interactions", s.tenant(s.handleDiscordInteraction))
	s.publicRawRoute("GET /api/v1/matches/{id}/receipt", logTextType, nil, s.handleReceipt)
	s.publicRawRoute("GET /log/checkpoint", logTextType, nil, s.handleCheckpoint)
	s.publicRawRoute("GET /log/tile/{path...}", "application/octet-stream", tileCacheControl, s.handleTile)
	s.liveRoute("GET /api/v1/live", arenaLive)
	s.liveRoute("GET /api/v1/tournaments/{slug}/live", tournamentLive)
	s.liveRoute("GET /api/v1/matches/{id}/live", matchLive)

	s.adminRoute("PUT /api/v1/admin/settings", s.handleUpdateSettings)
	s.adminRoute("POST /api/v1/admin/seasons", s.handleCreateSeason)
	s.adminRoute("GET /api/v1/admin/seasons", s.handleListSeasons)
	s.adminRoute("PATCH /api/v1/admin/seasons/{slug}", s.handleEditSeason)
	s.adminRoute("POST /api/v1/admin/tournaments", s.handleCreateTournament, planSeasons)
	s.adminRoute("GET /api/v1/admin/tournaments/{slug}", s.handleAdminTournament)
	s.adminRoute("PATCH /api/v1/admin/tournaments/{slug}", s.handleEditTournament)
	s.adminRoute("POST /api/v1/admin/tournaments/{slug}/status", s.handleTournamentStatus, planTournamentBySlug)
	s.adminRoute("POST /api/v1/admin/tournaments/{slug}/registrations", s.handleRegister)
	s.adminRoute("POST /api/v1/admin/tournaments/{slug}/seeds", s.handleSeeds)
	s.adminRoute("POST /api/v1/admin/tournaments/{slug}/check-in", s.handleAdminCheckIn, planTournamentBySlug)
	s.adminRoute("POST /api/v1/admin/tournaments/{slug}/open-round", s.handleOpenRound)
	s.adminRoute("DELETE /api/v1/admin/tournaments/{slug}/registrations/{platformId}", s.handleRemoveSide)
	s.adminRoute("GET /api/v1/admin/tournaments/{slug}/matches", s.handleAdminMatches)
	s.adminRoute("PATCH /api/v1/admin/matches/{id}", s.handlePatchMatch)
	s.adminRoute("POST /api/v1/admin/matches/{id}/resolve", s.handleResolveMatch, planMatchWithTournament)
	s.adminRoute("POST /api/v1/admin/matches/{id}/accept-report", s.handleAcceptReport, planMatchWithTournament)
	s.adminRoute("POST /api/v1/admin/matches/{id}/reopen", s.handleReopenMatch, planMatchWithTournament)
	s.adminRoute("GET /api/v1/admin/matches/{id}", s.handleAdminMatch)
	s.adminRoute("POST /api/v1/admin/matches/{id}/casters", s.handleAddArenaCaster)
	s.adminRoute("GET /api/v1/admin/queue", s.handleAdminQueue)
	s.adminRoute("POST /api/v1/admin/api-keys", s.handleMintToken(core.TokenAPIKey))
	s.adminRoute("GET /api/v1/admin/api-keys", s.handleListTokens(core.TokenAPIKey))
	s.adminRoute("DELETE /api/v1/admin/api-keys/{id}", s.handleRevokeToken(core.TokenAPIKey))
	s.adminRoute("POST /api/v1/admin/admin-tokens", s.handleMintToken(core.TokenAdmin))
	s.adminRoute("GET /api/v1/admin/admin-tokens", s.handleListTokens(core.TokenAdmin))
	s.adminRoute("DELETE /api/v1/admin/admin-tokens/{id}", s.handleRevokeToken(core.TokenAdmin))
	s.adminRoute("POST /api/v1/admin/titles", s.handleCreateTitle)
	s.adminRoute("POST /api/v1/admin/titles/{id}/retire", s.handleRetireTitle)
	s.adminRoute("POST /api/v1/admin/domains", s.handleAddDomain)
	s.adminRoute("GET /api/v1/admin/domains", s.handleListDomains)
	s.adminRoute("DELETE /api/v1/admin/domains/{hostname}", s.handleDeleteDomain)
	s.adminRoute("POST /api/v1/admin/webhooks", s.handleCreateSubscription)
	s.adminRoute("GET /api/v1/admin/webhooks", s.handleListSubscriptions)
	s.adminRoute("GET /api/v1/admin/webhooks/{id}", s.handleSubscription)
	s.adminRoute("PATCH /api/v1/admin/webhooks/{id}", s.handleEditSubscription)
	s.adminRoute("DELETE /api/v1/admin/webhooks/{id}", s.handleDeleteSubscription)
	s.adminRoute("GET /api/v1/admin/webhooks/{id}/deliveries", s.handleSubscriptionDeliveries)
	s.adminRoute("POST /api/v1/admin/webhooks/{id}/replay", s.handleReplaySubscription)
	s.adminRoute("POST /api/v1/admin/webhooks/{id}/test", s.handleTestSubscription)
	s.adminRoute("POST /api/v1/admin/webhooks/{id}/deliveries/{deliveryId}/replay", s.handleReplayDelivery)

	s.gameRoute("GET /api/v1/me/live-match", s.handleLiveMatch)
	s.gameRoute("GET /api/v1/me/upcoming-match", s.handleUpcomingMatch)
	s.gameRoute("POST /api/v1/matches/{id}/ready", s.handleReady)
	s.gameRoute("POST /api/v1/matches/{id}/result", s.handleResult)
	s.gameRoute("POST /api/v1/me/referee-consent", s.handleRefereeConsent)
	s.gameRoute("POST /api/v1/tournaments/{slug}/check-in", s.handleCheckIn)
	s.gameRoute("GET /api/v1/titles", s.handleTitles)
	s.gameRoute("POST /api/v1/titles/{id}/challenge", s.handleChallenge)
	s.gameRoute("POST /api/v1/title-challenges/{id}/respond", s.handleRespond)
	s.gameRoute("POST /api/v1/titles/{id}/volunteer", s.handleVolunteer)

	s.gameRoute("POST /api/v1/matches/{id}/recording/init", s.handleInitMatchRecording)
	s.gameRoute("POST /api/v1/me/recordings/init", s.handleInitCasualRecording)
	s.gameRoute("GET /api/v1/me/recordings", s.handleMyRecordings)
	s.gameRoute("POST /api/v1/recordings/{id}/finalize", s.handleFinalizeRecording)
	s.gameRoute("POST /api/v1/recordings/{id}/share", s.handleShareRecording)
	s.mux.HandleFunc("GET /api/v1/recordings/{id}", s.tenant(s.handleFetchRecording))
	s.gameRoute("POST /api/v1/recordings/{id}/segments/init", s.handleInitSegment)
	s.gameRoute("POST /api/v1/recordings/{id}/segments/{seq}/finalize", s.handleFinalizeSegment)
	s.mux.HandleFunc("GET /api/v1/recordings/{id}/segments", s.tenant(s.handleSegments))
	s.gameRoute("POST /api/v1/matches/{id}/gameplay-trace", s.handleGameplayTrace)
	s.mux.HandleFunc("PUT /api/v1/objects/{key...}", s.tenant(s.handleObjectPut))
	s.mux.HandleFunc("GET /api/v1/objects/{key...}", s.tenant(s.handleObjectGet))

	s.mux.HandleFunc("POST /__dev/clock", s.dev(s.handleDevClock))
	s.mux.HandleFunc("POST /__dev/tick", s.dev(s.handleDevTick))
	s.mux.HandleFunc("POST /__dev/stream-live", s.dev(s.handleDevStreamLive))
}

// HandleTenant registers a handler for one arena's requests (the host
// picks the arena): how the web pages plug into the server.
func (s *Server) HandleTenant(pattern string, h func(w http.ResponseWriter, r *http.Request, t *Tenant)) {
	s.mux.HandleFunc(pattern, s.tenant(h))
}

// Tenanted wraps a handler for one arena's request outside the route
// table (the site's 404 page): the host picks the arena, as in
// HandleTenant.
func (s *Server) Tenanted(h func(w http.ResponseWriter, r *http.Request, t *Tenant)) http.HandlerFunc {
	return s.tenant(h)
}

// Handle registers a handler that serves every host.
func (s *Server) Handle(pattern string, h http.Handler) { s.mux.Handle(pattern, h) }

// SetPageNotFound sets the answer to unknown paths outside /api/ and
// /__dev/ (the site's 404 page); JSON otherwise.
func (s *Server) SetPageNotFound(h http.HandlerFunc) { s.pageNotFound = h }

// SetPageFailed sets the answer to a page request whose arena could not
// be served (the site's error page, t nil when the directory failed);
// JSON errors otherwise.
func (s *Server) SetPageFailed(f func(w http.ResponseWriter, r *http.Request, t *Tenant, err error)) {
	s.pageFailed = f
}

// SetSessionPlayer tells the server how to find a request's signed-in
// web account (the site's sessions): arena members see recordings by it.
func (s *Server) SetSessionPlayer(f func(r *http.Request, t *Tenant) string) { s.sessionPlayer = f }

// Now reads the service clock (moved by /__dev/clock in dev mode).
func (s *Server) Now() time.Time { return s.now() }

// Random is the service's source of randomness.
func (s *Server) Random() io.Reader { return s.rand }

// Directory is the directory of arenas.
func (s *Server) Directory() *store.Directory { return s.dir }

// adminRoute registers an arena admin endpoint (admin token required).
// plans plan what the route reads first, to go with the token's read.
func (s *Server) adminRoute(pattern string, h tenantHandler, plans ...planner) {
	s.mux.HandleFunc(pattern, s.tenant(s.admin(h, plans...)))
}

// A planner plans what a route will read first (the store's Plan
// methods), keyed by the request's own inputs: those reads go with the
// middleware's read of the caller (the admin token), in one round trip,
// and the route's own read of them is their answer (sql/plan.go). It
// reads nothing itself.
type planner func(r *http.Request, t *Tenant)

// planTournamentBySlug plans the {slug} tournament's parts.
func planTournamentBySlug(r *http.Request, t *Tenant) {
	t.PlanTournamentParts(r.Context(), r.PathValue("slug"), 0)
}

// planMatchWithTournament plans the {id} match with its tournament.
func planMatchWithTournament(r *http.Request, t *Tenant) {
	if id, err := core.ParseMatchID(r.PathValue("id")); err == nil {
		t.PlanMatchWithTournament(r.Context(), id)
	}
}

// planSeasons plans the arena's seasons (what a new tournament may join).
func planSeasons(r *http.Request, t *Tenant) { t.PlanSeasons(r.Context()) }

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
	if s.pageNotFound != nil && pageRequest(r) {
		s.pageNotFound(w, r)
		return
	}
	writeCode(w, r, core.CodeNotFound)
}

// pageRequest reports whether r is for the site (a page or a form), not
// the JSON API or the dev routes.
func pageRequest(r *http.Request) bool {
	return !strings.HasPrefix(r.URL.Path, "/api/") && !strings.HasPrefix(r.URL.Path, "/__dev/")
}

// failTenant answers a request the tenancy could not serve (the
// directory or the arena's database failed): the site's error page for a
// page, the JSON error otherwise. t is nil when the arena is unknown.
func (s *Server) failTenant(w http.ResponseWriter, r *http.Request, t *Tenant, err error) {
	if s.pageFailed != nil && pageRequest(r) {
		s.pageFailed(w, r, t, err)
		return
	}
	writeError(w, r, err)
}

// statusProbe records the status a fallback handler would answer.
type statusProbe struct {
	header http.Header
	status int
}

func (p *statusProbe) Header() http.Header         { return p.header }
func (p *statusProbe) Write(b []byte) (int, error) { return len(b), nil }
func (p *statusProbe) WriteHeader(status int)      { p.status = status }

// arenaDB returns the arena's database, migrated when the directory says
// it is behind, and the function that hands it back to the pool of open
// databases: call it once the database is no longer used.
func (s *Server) arenaDB(ctx context.Context, a *core.Arena) (*store.Arena, func(), error) {
	db, release, err := s.arenaDBs.acquire(a.DatabaseURL, a.DatabaseToken)
	if err != nil {
		return nil, nil, err
	}
	if a.SchemaVersion < store.ArenaMigrations.Latest() {
		v, err := store.Migrate(ctx, db, store.ArenaMigrations)
		if err == nil {
			err = s.dir.SetSchemaVersion(ctx, a.ID, v)
		}
		if err != nil {
			release()
			return nil, nil, err
		}
		a.SchemaVersion = v
	}
	return store.NewArena(db), release, nil
}

// withDirectory runs fn against the directory, migrating the directory
// once and retrying when its schema is missing or behind (a table or
// column fn needs is not there). A fresh or updated edge deployment thus
// needs no separate migration step, and a migrated one pays no round trip
// for the check. fn must change nothing when it fails.
func (s *Server) withDirectory(ctx context.Context, fn func() error) error {
	err := fn()
	if err == nil || !schemaBehind(err) {
		return err
	}
	if _, merr := store.Migrate(ctx, s.cfg.Directory, store.DirectoryMigrations); merr != nil {
		return merr
	}
	return fn()
}

// schemaBehind reports whether err says a table or column is missing, as
// SQLite and libSQL word it.
func schemaBehind(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "no such table") || strings.Contains(msg, "no such column") ||
		strings.Contains(msg, "has no column named")
}

// Close closes the arena databases the server holds open: idle ones at
// once, one still used by a request when that request ends.
func (s *Server) Close() error {
	s.live.end()
	s.kicks.stop()
	s.after.stop()
	s.arenaDBs.close()
	return nil
}

// TenantBySlug returns the arena with the slug and its database: how the
// one network-wide stream-provider callback finds the arena its state
// names. CodeArenaNotFound when there is none. The caller calls release
// once done with the tenant's database.
func (s *Server) TenantBySlug(ctx context.Context, slug string) (*Tenant, func(), error) {
	a, err := s.arenaBySlug(ctx, slug)
	if err != nil {
		return nil, nil, err
	}
	st, release, err := s.arenaDB(ctx, a)
	if err != nil {
		return nil, nil, err
	}
	return app.NewSession(ctx, a, st, s.now(), s.rand, logger(ctx), release), release, nil
}

// withSession runs fn on a session of arena a at the service clock's
// reading, its database taken from the pool for fn alone (a held stream
// keeps none open between its reads; work after an answer holds none
// once done).
func (s *Server) withSession(ctx context.Context, a *core.Arena, fn func(t *app.Session) error) error {
	st, release, err := s.arenaDB(ctx, a)
	if err != nil {
		return err
	}
	defer release()
	return fn(app.NewSession(ctx, a, st, s.now(), s.rand, s.log.With(slog.String("arena", a.Slug)), nil))
}

// arenaBySlug is the directory's arena with the slug, or
// CodeArenaNotFound.
func (s *Server) arenaBySlug(ctx context.Context, slug string) (*core.Arena, error) {
	var arenas []core.Arena
	err := s.withDirectory(ctx, func() (err error) {
		arenas, err = s.dir.Arenas(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	for i := range arenas {
		if arenas[i].Slug == slug {
			return &arenas[i], nil
		}
	}
	return nil, core.Errorf(core.CodeArenaNotFound, "no arena %s", slug)
}
