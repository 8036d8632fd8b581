package server

import (
	"net/http"

	"arena/core"
)

// patchArenaRequest is the operator's PATCH /api/v1/operator/arenas/{slug}
// body: the settings only the operator changes (the plan above all),
// under core.SettingsChange's rules. Absent fields keep their value.
// Hosts are not changed here (custom domains own them); a hosts field is
// an unknown field.
type patchArenaRequest struct {
	Name           *string     `json:"name"`
	Plan           *core.Plan  `json:"plan"`
	AppIDs         core.AppIDs `json:"appIds"`
	RefereeEnabled *bool       `json:"refereeEnabled"`
}

// handlePatchArena changes an arena's settings and answers the arena
// without secrets. A plan change counts at once: the next fetch of an
// over-plan recording reads the new plan.
func (s *Server) handlePatchArena(w http.ResponseWriter, r *http.Request) {
	var req patchArenaRequest
	if err := decodeJSON(w, r, &req); err != nil {
		writeError(w, r, err)
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
	if err := s.UpdateSettings(ctx, t, &change); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, t.Arena.View())
}
