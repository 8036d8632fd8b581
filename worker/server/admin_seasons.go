package server

import (
	"net/http"

	"arena/core"
)

// handleListSeasons lists the arena's seasons, the latest first.
func (s *Server) handleListSeasons(w http.ResponseWriter, r *http.Request, t *Tenant) {
	seasons, err := t.Seasons(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]seasonView, 0, len(seasons))
	for _, se := range seasons {
		out = append(out, seasonOf(se))
	}
	writeJSON(w, http.StatusOK, map[string]any{"seasons": out})
}

// handleEditSeason changes a season's name and dates (core.SeasonDraft's
// rules; absent fields keep their value, the slug stays).
func (s *Server) handleEditSeason(w http.ResponseWriter, r *http.Request, t *Tenant) {
	ctx := r.Context()
	seasons, err := t.Seasons(ctx)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var draft *core.SeasonDraft
	for _, se := range seasons {
		if se.Slug == r.PathValue("slug") {
			d := core.SeasonDraftOf(se)
			draft = &d
		}
	}
	if draft == nil {
		writeError(w, r, core.Errorf(core.CodeNotFound, "no season %q", r.PathValue("slug")))
		return
	}
	slug := draft.Slug
	if err := decodeJSON(w, r, draft); err != nil {
		writeError(w, r, err)
		return
	}
	if draft.Slug != slug {
		writeError(w, r, &core.Error{Code: core.CodeInvalidField, Field: "slug", Message: "The slug names the season; it does not change."})
		return
	}
	season, problems := draft.Check(s.now())
	if err := problems.Err(); err != nil {
		writeError(w, r, err)
		return
	}
	if err := t.UpdateSeason(ctx, season); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, seasonOf(*season))
}

// handleCreateSeason adds a ladder season (core.SeasonDraft's rules).
func (s *Server) handleCreateSeason(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var draft core.SeasonDraft
	if err := decodeJSON(w, r, &draft); err != nil {
		writeError(w, r, err)
		return
	}
	season, problems := draft.Check(s.now())
	if err := problems.Err(); err != nil {
		writeError(w, r, err)
		return
	}
	if err := t.CreateSeason(r.Context(), season); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, seasonOf(*season))
}
