package server

import (
	"net/http"

	"arena/core"
)

// handleCheckIn checks the caller's side in (core.CheckIn): 200
// { checkedIn: true }. The environment gate hides a tournament as
// discovery does.
func (s *Server) handleCheckIn(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller) {
	ctx := r.Context()
	tour, err := t.Store.Tournament(ctx, r.PathValue("slug"))
	if err == nil && (!tour.Status.Public() || !core.EnvironmentVisible(t.Arena, caller.AppID, tour.Environment)) {
		err = core.Errorf(core.CodeTournamentNotFound, "no tournament %s", r.PathValue("slug"))
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	if err := core.CheckIn(ctx, t.Store, t.Store, tour, caller.PlatformID, s.now()); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"checkedIn": true})
}

// ratingSeedView is a side's seed by rating (rating null when unrated).
type ratingSeedView struct {
	PlatformID string   `json:"platformId"`
	Seed       int      `json:"seed"`
	Rating     *float64 `json:"rating"`
}

// handleSeeds seeds every side by rating (core.SeedsByRating), or shows
// that order with preview.
func (s *Server) handleSeeds(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var draft core.SeedingDraft
	if err := decodeJSON(w, r, &draft); err != nil {
		writeError(w, r, err)
		return
	}
	ctx := r.Context()
	tour, err := t.Store.Tournament(ctx, r.PathValue("slug"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	seeds, err := core.SeedsByRating(ctx, t.Store, t.Store, tour, draft)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]ratingSeedView, len(seeds))
	for i, sd := range seeds {
		out[i] = ratingSeedView{PlatformID: sd.PlatformID, Seed: sd.Seed, Rating: sd.Rating}
	}
	writeJSON(w, http.StatusOK, map[string]any{"seeds": out})
}
