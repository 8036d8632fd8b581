package server

import (
	"context"
	"net/http"
	"strings"
	"time"

	"arena/core"
)

// createArenaRequest is the operator's POST /api/v1/operator/arenas body.
// The settings an admin can change later (name, plan, AppIDs, publisher
// key, identity, referee, grace period) follow core.SettingsChange's
// rules; the rest are the operator's alone.
type createArenaRequest struct {
	Slug               string      `json:"slug" validate:"required,slug"`
	Name               string      `json:"name"`
	Hosts              []string    `json:"hosts" validate:"required,min=1,max=20,unique,dive,arenahost"`
	Plan               core.Plan   `json:"plan"`
	AppIDs             core.AppIDs `json:"appIds"`
	PublisherKey       string      `json:"publisherKey"`
	Identity           string      `json:"identity"`
	RefereeEnabled     bool        `json:"refereeEnabled"`
	GracePeriodSeconds core.Number `json:"gracePeriodSeconds"`
	AdminPlatformIDs   []string    `json:"adminPlatformIds" validate:"max=50,dive,platformid"`
	DatabaseURL        string      `json:"databaseUrl" validate:"omitempty,max=2000,dburl"`
	DatabaseToken      string      `json:"databaseToken" validate:"max=8000"`
}

// normalize lowercases hosts and drops their trailing dots.
func (req *createArenaRequest) normalize() { req.Hosts = normalizeHosts(req.Hosts) }

// normalizeHosts lowercases the operator's hosts and drops their spaces
// and trailing dots, in place.
func normalizeHosts(hosts []string) []string {
	for i, h := range hosts {
		hosts[i] = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(h)), ".")
	}
	return hosts
}

// arena returns the new arena the request describes at now (defaults:
// grace period, identity, rate limits), or the settings' first problem.
func (req *createArenaRequest) arena(now time.Time) (*core.Arena, error) {
	base := core.Arena{
		Slug: req.Slug, Hosts: req.Hosts, GracePeriodSeconds: int(core.DefaultGracePeriod.Seconds()),
		Identity: core.DefaultIdentity, DatabaseURL: req.DatabaseURL, DatabaseToken: req.DatabaseToken,
		RateLimits: core.DefaultRateLimits, CreatedAt: now, UpdatedAt: now,
	}
	appIDs := req.AppIDs
	if appIDs == nil {
		appIDs = core.AppIDs{} // required: an absent list is a problem
	}
	change := core.SettingsChange{
		Name: &req.Name, Plan: &req.Plan, AppIDs: appIDs, PublisherKey: &req.PublisherKey,
		Identity: &req.Identity, RefereeEnabled: &req.RefereeEnabled, GracePeriodSeconds: req.GracePeriodSeconds,
	}
	a, _, problems := change.Apply(base)
	if err := problems.Err(); err != nil {
		return nil, err
	}
	return &a, nil
}

// createArenaResponse shows the admin token once.
type createArenaResponse struct {
	Arena      core.ArenaView `json:"arena"`
	AdminToken string         `json:"adminToken"`
}

// handleCreateArena creates an arena from the operator's request.
func (s *Server) handleCreateArena(w http.ResponseWriter, r *http.Request) {
	var req createArenaRequest
	if err := decodeJSON(w, r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	a, adminToken, err := s.createArena(r.Context(), req, nil)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, createArenaResponse{Arena: a.View(), AdminToken: adminToken})
}

// createArena validates the request, checks slug and hosts, claims them
// (BeginArena: a loser of a race stops here, having created nothing),
// provisions (or reaches) the arena's database, migrates it, mints the
// first admin token, runs fill (nil for none) on the new database, then
// completes the arena. Completion is the commit point: until then no host
// routes to the arena, and a failure removes what the creation made (see
// buildArena and DropUnfinishedArenas for a crash).
func (s *Server) createArena(ctx context.Context, req createArenaRequest, fill arenaFill) (*core.Arena, string, error) {
	req.normalize()
	if err := validateStruct(&req); err != nil {
		return nil, "", err
	}
	a, err := req.arena(s.now())
	if err != nil {
		return nil, "", err
	}
	if err := s.withDirectory(ctx, func() error { return s.checkAvailable(ctx, req.Slug, req.Hosts, req.DatabaseURL) }); err != nil {
		return nil, "", err
	}

	provision := a.DatabaseURL == ""
	if provision && s.cfg.Provisioner == nil {
		return nil, "", core.FieldError(core.CodeDatabaseURLRequired, "databaseUrl")
	}
	if err := s.withDirectory(ctx, func() error { return s.dir.BeginArena(ctx, a, provision) }); err != nil {
		return nil, "", err
	}
	adminToken, err := s.buildArena(ctx, a, provision, req.AdminPlatformIDs, fill)
	if err != nil {
		return nil, "", err
	}
	return a, adminToken, nil
}

// checkAvailable refuses a taken slug, host or database before any database is
// provisioned; BeginArena guards slug and hosts again atomically.
func (s *Server) checkAvailable(ctx context.Context, slug string, hosts []string, databaseURL string) error {
	taken, err := s.dir.SlugTaken(ctx, slug)
	if err != nil {
		return err
	}
	if taken {
		return core.Errorf(core.CodeSlugTaken, "slug %q is taken", slug)
	}
	hostsTaken, err := s.dir.HostsTaken(ctx, hosts)
	if err != nil {
		return err
	}
	if len(hostsTaken) > 0 {
		return &core.Error{Code: core.CodeHostTaken, Field: "hosts", Message: strings.Join(hostsTaken, ", ")}
	}
	if databaseURL != "" {
		// Two arenas on one database would share admin tokens and data.
		inUse, err := s.dir.DatabaseInUse(ctx, databaseURL)
		if err != nil {
			return err
		}
		if inUse {
			return core.FieldError(core.CodeDatabaseInUse, "databaseUrl")
		}
	}
	return nil
}

// handleListArenas lists every arena without secrets.
func (s *Server) handleListArenas(w http.ResponseWriter, r *http.Request) {
	var arenas []core.Arena
	err := s.withDirectory(r.Context(), func() (err error) {
		arenas, err = s.dir.Arenas(r.Context())
		return err
	})
	if err != nil {
		writeError(w, r, err)
		return
	}
	views := make([]core.ArenaView, 0, len(arenas))
	for i := range arenas {
		views = append(views, arenas[i].View())
	}
	writeJSON(w, http.StatusOK, map[string]any{"arenas": views})
}
