package server

import (
	"net/http"
	"strings"

	"arena/core"
)

// openRoundBody is the body of POST .../open-round.
type openRoundBody struct {
	Round string `json:"round"`
}

// handleOpenRound opens now every scheduled match of a round whose sides
// are known (core.OpenRound): 200 { opened: [matchId..] }.
func (s *Server) handleOpenRound(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var body openRoundBody
	tour := decodeForTournament(w, r, t, &body)
	if tour == nil {
		return
	}
	round := strings.TrimSpace(body.Round)
	if round == "" {
		writeError(w, r, &core.Error{Code: core.CodeInvalidField, Field: "round", Message: "Name the round."})
		return
	}
	opened, err := t.OpenRound(r.Context(), tour, round)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"opened": opened})
}

// handleReopenMatch takes a decided match back (core.ReopenMatch): 200
// the match, scheduled.
func (s *Server) handleReopenMatch(w http.ResponseWriter, r *http.Request, t *Tenant) {
	id, err := core.ParseMatchID(r.PathValue("id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	// The match with its tournament is planned with the admin token
	// (planMatchWithTournament).
	reopened, err := t.ReopenMatch(r.Context(), id, adminTokenID(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, adminMatchOf(reopened))
}
