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
	opened, err := core.OpenRound(r.Context(), t.Store, tour, round, s.now())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"opened": opened})
}

// handleReopenMatch takes a decided match back (core.ReopenMatch): 200
// the match, scheduled.
func (s *Server) handleReopenMatch(w http.ResponseWriter, r *http.Request, t *Tenant) {
	ctx := r.Context()
	m, tour, err := matchAndTournament(ctx, r, t)
	if err != nil {
		writeError(w, r, err)
		return
	}
	reopened, err := core.ReopenMatch(ctx, t.Store, tour, m, adminTokenID(r), t.Deps)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, adminMatchOf(reopened))
}
