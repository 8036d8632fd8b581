package server

import (
	"context"
	"net/http"
	"strings"

	"arena/core"
)

// createArenaRequest is the operator's POST /api/v1/operator/arenas body.
type createArenaRequest struct {
	Slug               string   `json:"slug" validate:"required,slug"`
	Name               string   `json:"name" validate:"required,max=100"`
	Hosts              []string `json:"hosts" validate:"required,min=1,max=20,unique,dive,arenahost"`
	Plan               string   `json:"plan" validate:"required,oneof=free indie studio"`
	AppIDs             []string `json:"appIds" validate:"required,min=1,max=10,unique,dive,appid"`
	PublisherKey       string   `json:"publisherKey" validate:"max=200"`
	Identity           string   `json:"identity" validate:"max=64"`
	RefereeEnabled     bool     `json:"refereeEnabled"`
	GracePeriodSeconds *int     `json:"gracePeriodSeconds" validate:"omitnil,min=0,max=604800"`
	AdminPlatformIDs   []string `json:"adminPlatformIds" validate:"max=50,dive,platformid"`
	DatabaseURL        string   `json:"databaseUrl" validate:"omitempty,max=2000,dburl"`
	DatabaseToken      string   `json:"databaseToken" validate:"max=8000"`
}

// normalize lowercases hosts and drops their trailing dots.
func (req *createArenaRequest) normalize() {
	for i, h := range req.Hosts {
		req.Hosts[i] = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(h)), ".")
	}
	req.Name = strings.TrimSpace(req.Name)
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
	if strings.TrimSpace(req.Name) == "" {
		return nil, "", core.FieldError(core.CodeInvalidField, "name")
	}
	if err := s.withDirectory(ctx, func() error { return s.checkAvailable(ctx, req.Slug, req.Hosts, req.DatabaseURL) }); err != nil {
		return nil, "", err
	}

	now := s.now()
	a := &core.Arena{
		Slug: req.Slug, Name: strings.TrimSpace(req.Name), Hosts: req.Hosts, Plan: core.Plan(req.Plan),
		AppIDs: req.AppIDs, PublisherKey: req.PublisherKey, Identity: req.Identity,
		RefereeEnabled:     req.RefereeEnabled,
		GracePeriodSeconds: int(core.DefaultGracePeriod.Seconds()),
		DatabaseURL:        req.DatabaseURL, DatabaseToken: req.DatabaseToken,
		RateLimits: core.DefaultRateLimits, CreatedAt: now, UpdatedAt: now,
	}
	if a.Identity == "" {
		a.Identity = core.DefaultIdentity
	}
	if req.GracePeriodSeconds != nil {
		a.GracePeriodSeconds = *req.GracePeriodSeconds
	}
	provision := a.DatabaseURL == ""
	if provision && s.cfg.Provisioner == nil {
		return nil, "", core.FieldError(codeDatabaseURLRequired, "databaseUrl")
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
			return core.FieldError(codeDatabaseInUse, "databaseUrl")
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
