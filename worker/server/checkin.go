package server

import (
	"net/http"

	"arena/core"
	"arena/core/tournamentview"
)

// handleCheckIn checks the caller's side in (core.CheckIn): 200
// { checkedIn: true }. The environment gate hides a tournament as
// discovery does.
func (s *Server) handleCheckIn(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller) {
	ctx := r.Context()
	tour, err := tournamentview.Find(ctx, t.Store, r.PathValue("slug"))
	if err == nil && !core.EnvironmentVisible(t.Arena, caller.AppID, tour.Environment) {
		err = core.Errorf(core.CodeTournamentNotFound, "no tournament %s", r.PathValue("slug"))
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	if err := core.CheckIn(ctx, t.Store, tour, caller.PlatformID, s.now()); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"checkedIn": true})
}

// adminCheckInRequest is the organizer's check-in control.
type adminCheckInRequest struct {
	PlatformID string `json:"platformId" validate:"required,platformid"`
	CheckedIn  *bool  `json:"checkedIn" validate:"required"`
}

// handleAdminCheckIn checks a side in or out for the organizer
// (core.SetCheckedIn): 200 { platformId, checkedIn }. Four round trips
// to the arena database: the admin token, the tournament, its
// registrations, one conditional write (TestAdminCheckIn holds it).
func (s *Server) handleAdminCheckIn(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var req adminCheckInRequest
	tour := decodeForTournament(w, r, t, &req)
	if tour == nil {
		return
	}
	if err := core.SetCheckedIn(r.Context(), t.Store, tour, req.PlatformID, *req.CheckedIn, s.now()); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"platformId": req.PlatformID, "checkedIn": *req.CheckedIn})
}
