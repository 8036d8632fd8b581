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
	// The tournament with its sides: one read, then one conditional write.
	tour, sides, err := t.TournamentWithSides(r.Context(), r.PathValue("slug"))
	if err == nil && (!tour.Status.Public() || !core.EnvironmentVisible(t.Arena, caller.AppID, tour.Environment)) {
		err = core.Errorf(core.CodeTournamentNotFound, "no tournament %s", r.PathValue("slug"))
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	if err := t.CheckIn(ctx, tour, sides, caller.PlatformID); err != nil {
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
// (core.SetCheckedIn): 200 { platformId, checkedIn }. Two round trips
// to the arena database: the admin token with the tournament and its
// sides (planned with it: planTournamentBySlug), one conditional write
// (TestAdminCheckIn holds it).
func (s *Server) handleAdminCheckIn(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var req adminCheckInRequest
	if err := decodeJSON(w, r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	tour, sides, err := t.TournamentWithSides(r.Context(), r.PathValue("slug"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	if err := t.SetCheckedIn(r.Context(), tour, sides, req.PlatformID, *req.CheckedIn); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"platformId": req.PlatformID, "checkedIn": *req.CheckedIn})
}
