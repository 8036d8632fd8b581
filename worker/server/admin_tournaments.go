package server

import (
	"context"
	"net/http"
	"sync"
	"time"

	"arena/core"
	"arena/core/tournamentview"
	store "arena/sql"
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
	ctx := r.Context()
	seasons, err := t.Store.Seasons(ctx)
	if err != nil {
		writeError(w, r, err)
		return
	}
	tour, problems := draft.Check(seasons, s.now())
	if err := problems.Err(); err != nil {
		writeError(w, r, err)
		return
	}
	if err := t.Store.CreateTournament(ctx, tour); err != nil {
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
	v, err := tournamentview.ReadAny(r.Context(), t.Store, r.PathValue("slug"))
	s.writeAdminTournament(w, r, v, err, http.StatusOK, nil)
}

type statusRequest struct {
	Status string `json:"status" validate:"required,stepstatus"`
}

// tournamentWithSides reads the {slug} tournament with its sides in one
// read (TournamentParts; planned with the admin token on admin routes:
// planTournamentBySlug). Sides is never nil: a use case given nil reads
// them itself.
func tournamentWithSides(r *http.Request, t *Tenant) (*core.Tournament, []core.Registration, error) {
	parts, err := t.Store.TournamentParts(r.Context(), r.PathValue("slug"), 0)
	if err != nil {
		return nil, nil, err
	}
	sides := parts.Registrations
	if sides == nil {
		sides = []core.Registration{}
	}
	return parts.Tournament, sides, nil
}

// handleTournamentStatus moves the tournament one lifecycle step.
func (s *Server) handleTournamentStatus(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var req statusRequest
	if err := decodeJSON(w, r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	ctx := r.Context()
	tour, sides, err := tournamentWithSides(r, t)
	if err != nil {
		writeError(w, r, err)
		return
	}
	// The answer's read goes with the step's write (sql/plan.go).
	t.Store.PlanTournamentPartsAfterWrite(ctx, "", tour.ID)
	withdrawn, err := core.StepTournamentOf(ctx, t.Store, tour, sides, core.TournamentStatus(req.Status), t.Deps)
	if err != nil {
		writeError(w, r, err)
		return
	}
	v, err := tournamentview.Build(ctx, t.Store, tour) // the row as the step left it
	s.writeAdminTournament(w, r, v, err, http.StatusOK, withdrawn)
}

// PlacementPoints returns a function reading the arena's ladder points
// table (core.SettingPlacementPoints; the default when unset or
// unreadable, with a warning) at most once: the lifecycle and every way a
// match is decided read it only when a tournament completes.
func PlacementPoints(ctx context.Context, st core.SettingStore) func() core.PlacementPoints {
	return sync.OnceValue(func() core.PlacementPoints {
		points := core.DefaultPlacementPoints()
		if _, err := st.Setting(ctx, core.SettingPlacementPoints, &points); err != nil {
			logger(ctx).WarnContext(ctx, "placement points setting unreadable, using the default", "error", err.Error())
			return core.DefaultPlacementPoints()
		}
		return points
	})
}

// RatingPeriodHours reads the arena's rating period
// (core.SettingRatingPeriodHours; the default when unset or unreadable,
// with a warning).
func RatingPeriodHours(ctx context.Context, st core.SettingStore) int {
	hours := core.DefaultRatingPeriodHours
	if _, err := st.Setting(ctx, core.SettingRatingPeriodHours, &hours); err != nil || hours < core.RatingPeriodHoursRange.Min {
		if err != nil {
			logger(ctx).WarnContext(ctx, "rating period setting unreadable, using the default", "error", err.Error())
		}
		return core.DefaultRatingPeriodHours
	}
	return hours
}

// PlayerCard reads a player's public card (store.Arena.PlayerCard, with the
// rating period setting: one round trip), its rating brought to now (its
// deviation grown for the rating periods they sat out). The player API
// and the player page both answer from it. CodePlayerNotFound when there
// is no such player.
func PlayerCard(ctx context.Context, st *store.Arena, id string, now time.Time) (*core.PlayerCard, error) {
	st.PlanSetting(ctx, core.SettingRatingPeriodHours)
	c, err := st.PlayerCard(ctx, id)
	if err != nil {
		return nil, err
	}
	if c.Rating != nil {
		c.Rating.Rating = c.Rating.Now(now, RatingPeriodHours(ctx, st))
	}
	return c, nil
}

// handleEditTournament changes a tournament's name, description and (until
// it starts) schedule after it left draft (core.TournamentEdit's rules).
func (s *Server) handleEditTournament(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var edit core.TournamentEdit
	tour := decodeForTournament(w, r, t, &edit)
	if tour == nil {
		return
	}
	ctx := r.Context()
	edited, err := core.EditTournament(ctx, t.Store, tour, &edit, s.now())
	if err != nil {
		writeError(w, r, err)
		return
	}
	v, err := tournamentview.Build(ctx, t.Store, edited)
	s.writeAdminTournament(w, r, v, err, http.StatusOK, nil)
}
