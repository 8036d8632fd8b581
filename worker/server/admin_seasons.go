package server

import (
	"net/http"

	"arena/core"
)

// handleEditTournament changes a tournament's name, description and (until
// it starts) schedule after it left draft (core.TournamentEdit's rules).
func (s *Server) handleEditTournament(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var edit core.TournamentEdit
	if err := decodeJSON(w, r, &edit); err != nil {
		writeError(w, r, err)
		return
	}
	ctx := r.Context()
	tour, err := t.Store.Tournament(ctx, r.PathValue("slug"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	edited, err := core.EditTournament(ctx, t.Store, tour, &edit, s.now())
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.writeAdminTournament(w, r, t, edited, http.StatusOK)
}

// removedSide is the answer to removing a side: removed before the draw,
// or disqualified after it with the matches that were forfeited.
type removedSide struct {
	PlatformID       string `json:"platformId"`
	Outcome          string `json:"outcome"` // removed or disqualified
	MatchesForfeited int    `json:"matchesForfeited"`
}

// handleRemoveSide takes a registered side out of a tournament
// (core.RemoveSide: removed before the draw, disqualified after it).
func (s *Server) handleRemoveSide(w http.ResponseWriter, r *http.Request, t *Tenant) {
	ctx := r.Context()
	tour, err := t.Store.Tournament(ctx, r.PathValue("slug"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	captain := r.PathValue("platformId")
	if !core.ValidPlatformID(captain) {
		writeError(w, r, core.FieldError(core.CodeInvalidSteamID, "platformId"))
		return
	}
	before := tour.Status
	n, err := core.RemoveSide(ctx, t.Store, t.Store, tour, captain, s.now(), s.rand, PlacementPoints(ctx, t.Store))
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := removedSide{PlatformID: captain, Outcome: "removed", MatchesForfeited: n}
	if before == core.StatusGroupStage || before == core.StatusPlayoffs {
		out.Outcome = "disqualified"
	}
	writeJSON(w, http.StatusOK, out)
}

// handleListSeasons lists the arena's seasons, the latest first.
func (s *Server) handleListSeasons(w http.ResponseWriter, r *http.Request, t *Tenant) {
	seasons, err := t.Store.Seasons(r.Context())
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
	seasons, err := t.Store.Seasons(ctx)
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
	if err := t.Store.UpdateSeason(ctx, season); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, seasonOf(*season))
}

// handleAcceptReport resolves a match with the result a player reported
// (core.AcceptReport: the admin's answer to a disputed report).
func (s *Server) handleAcceptReport(w http.ResponseWriter, r *http.Request, t *Tenant) {
	ctx := r.Context()
	m, err := matchFromPath(ctx, r, t)
	if err != nil {
		writeError(w, r, err)
		return
	}
	tour, err := t.Store.TournamentByID(ctx, m.TournamentID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	resolved, err := core.AcceptReport(ctx, t.Store, t.Store, tour, m, s.now(), s.rand, PlacementPoints(ctx, t.Store))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, adminMatchOf(resolved))
}
