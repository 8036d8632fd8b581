package server

import (
	"net/http"

	"arena/core"
	"arena/core/tournamentview"
)

// handleCreateTournament creates a draft tournament from a
// core.TournamentDraft: its Check holds every rule and default, and the
// admin pages' form uses the same.
func (s *Server) handleCreateTournament(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var draft core.TournamentDraft
	if err := decodeJSON(w, r, &draft); err != nil {
		writeError(w, r, err)
		return
	}
	tour, err := t.CreateTournament(r.Context(), &draft)
	if err != nil {
		writeError(w, r, err)
		return
	}
	v, err := tournamentview.New(tour)
	s.writeAdminTournament(w, r, v, err, http.StatusCreated, nil)
}

// adminTournament is the full public tournament plus what only admins see.
type adminTournament struct {
	*tournamentFull
	ID                 int64           `json:"id"`
	Environment        string          `json:"environment"`
	Season             *string         `json:"season"`
	TeamMinPlayers     int             `json:"teamMinPlayers"`
	TeamMaxPlayers     int             `json:"teamMaxPlayers"`
	GroupCount         int             `json:"groupCount"`
	AdvancePerGroup    int             `json:"advancePerGroup"`
	SmallFinal         bool            `json:"smallFinal"`
	MatchWindowMinutes int             `json:"matchWindowMinutes"`
	Cast               core.CastPolicy `json:"cast"`
	AllowSpectators    bool            `json:"allowSpectators"`
	SwissRounds        int             `json:"swissRounds"`
	TopCut             int             `json:"topCut"`
	SeedFromRatings    bool            `json:"seedFromRatings"`
	// Withdrawn: in the answer to a lifecycle step, the captains of the
	// sides it withdrew for not checking in.
	Withdrawn []string `json:"withdrawn,omitempty"`
}

// writeAdminTournament answers the admin's tournament object of the read
// model v (or err, from reading it), with the sides a step withdrew.
func (s *Server) writeAdminTournament(w http.ResponseWriter, r *http.Request, v *tournamentview.Tournament, err error, status int, withdrawn []string) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	tour, full := v.Tournament, fullTournamentOf(v)
	writeJSON(w, status, adminTournament{
		tournamentFull: full, ID: tour.ID, Environment: string(tour.Environment), Season: optional(tour.SeasonSlug),
		TeamMinPlayers: tour.TeamMinPlayers, TeamMaxPlayers: tour.TeamMaxPlayers, GroupCount: tour.GroupCount,
		AdvancePerGroup: tour.AdvancePerGroup, SmallFinal: tour.SmallFinal, MatchWindowMinutes: tour.MatchWindowMinutes,
		Cast: tour.Cast, AllowSpectators: tour.AllowSpectators,
		SwissRounds: tour.SwissRounds, TopCut: tour.TopCut, SeedFromRatings: tour.SeedFromRatings,
		Withdrawn: withdrawn,
	})
}

// handleAdminTournament shows any tournament, drafts included.
func (s *Server) handleAdminTournament(w http.ResponseWriter, r *http.Request, t *Tenant) {
	v, err := t.AdminTournament(r.Context(), r.PathValue("slug"))
	s.writeAdminTournament(w, r, v, err, http.StatusOK, nil)
}

type statusRequest struct {
	Status string `json:"status" validate:"required,stepstatus"`
}

// handleTournamentStatus moves the tournament one lifecycle step.
func (s *Server) handleTournamentStatus(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var req statusRequest
	if err := decodeJSON(w, r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	// The tournament with its sides planned with the admin token
	// (planTournamentBySlug); the answer's read goes with the step's write.
	v, withdrawn, err := t.StepTournament(r.Context(), r.PathValue("slug"), core.TournamentStatus(req.Status))
	s.writeAdminTournament(w, r, v, err, http.StatusOK, withdrawn)
}

// handleEditTournament changes a tournament's name, description and (until
// it starts) schedule after it left draft (core.TournamentEdit's rules).
func (s *Server) handleEditTournament(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var edit core.TournamentEdit
	tour := decodeForTournament(w, r, t, &edit)
	if tour == nil {
		return
	}
	v, err := t.EditTournament(r.Context(), tour, &edit)
	s.writeAdminTournament(w, r, v, err, http.StatusOK, nil)
}
