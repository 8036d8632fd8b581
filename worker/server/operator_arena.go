package server

import (
	"net/http"

	"arena/core"
)

// patchArenaRequest is the operator's PATCH /api/v1/operator/arenas/{slug}
// body: the settings only the operator changes (the plan above all),
// under core.SettingsChange's rules, and the arena's own hosts under the
// creation's rules. Absent fields keep their value.
type patchArenaRequest struct {
	Name           *string     `json:"name"`
	Plan           *core.Plan  `json:"plan"`
	AppIDs         core.AppIDs `json:"appIds"`
	RefereeEnabled *bool       `json:"refereeEnabled"`
	// Hosts replaces the hosts the operator gave the arena, primary first;
	// its custom domains stay (their admin owns them).
	Hosts []string `json:"hosts" validate:"omitempty,min=1,max=20,unique,dive,arenahost"`
}

// normalize lowercases hosts and drops their trailing dots.
func (req *patchArenaRequest) normalize() { req.Hosts = normalizeHosts(req.Hosts) }

// handlePatchArena changes an arena's settings and answers the arena
// without secrets. A plan change counts at once: the next fetch of an
// over-plan recording reads the new plan. A hosts change is one step with
// the settings: a taken host (409 host_taken) changes nothing.
func (s *Server) handlePatchArena(w http.ResponseWriter, r *http.Request) {
	var req patchArenaRequest
	if err := decodeJSON(w, r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	if req.Hosts != nil && len(req.Hosts) == 0 { // an arena keeps a host
		writeError(w, r, core.FieldError(core.CodeInvalidField, "hosts"))
		return
	}
	ctx := r.Context()
	var a *core.Arena
	err := s.withDirectory(ctx, func() (err error) {
		a, err = s.dir.ArenaBySlug(ctx, r.PathValue("slug"))
		return err
	})
	if err != nil {
		writeError(w, r, err)
		return
	}
	change := core.SettingsChange{Name: req.Name, Plan: req.Plan, AppIDs: req.AppIDs, RefereeEnabled: req.RefereeEnabled}
	t := &Tenant{Arena: a} // the change touches the directory alone
	if req.Hosts == nil {
		err = s.UpdateSettings(ctx, t, &change)
	} else {
		err = s.moveHosts(r, t, &change, req.Hosts)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	if s.cfg.FrontHints != nil {
		s.cfg.FrontHints.Changed(ctx, a.Slug)
	}
	writeJSON(w, http.StatusOK, t.Arena.View())
}

// moveHosts applies the operator's settings change and moves the arena to
// hosts in one directory step.
func (s *Server) moveHosts(r *http.Request, t *Tenant, change *core.SettingsChange, hosts []string) error {
	a, _, problems := change.Apply(*t.Arena)
	if err := problems.Err(); err != nil {
		return err
	}
	a.UpdatedAt = s.now()
	ctx := r.Context()
	if err := s.withDirectory(ctx, func() error { return s.dir.MoveArenaHosts(ctx, &a, hosts) }); err != nil {
		return err
	}
	*t.Arena = a
	return nil
}
