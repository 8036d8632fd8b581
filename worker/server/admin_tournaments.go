package server

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"arena/core"
	store "arena/sql"
)

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
	if err := t.Store.CreateSeason(r.Context(), season); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, seasonOf(*season))
}

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
	s.writeAdminTournament(w, r, t, tour, http.StatusCreated)
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
}

func (s *Server) writeAdminTournament(w http.ResponseWriter, r *http.Request, t *Tenant, tour *core.Tournament, status int) {
	full, err := fullTournament(r.Context(), t.Store, tour)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, status, adminTournament{
		tournamentFull: full, ID: tour.ID, Environment: string(tour.Environment), Season: optional(tour.SeasonSlug),
		TeamMinPlayers: tour.TeamMinPlayers, TeamMaxPlayers: tour.TeamMaxPlayers, GroupCount: tour.GroupCount,
		AdvancePerGroup: tour.AdvancePerGroup, SmallFinal: tour.SmallFinal, MatchWindowMinutes: tour.MatchWindowMinutes,
		Cast: tour.Cast, AllowSpectators: tour.AllowSpectators,
		SwissRounds: tour.SwissRounds, TopCut: tour.TopCut, SeedFromRatings: tour.SeedFromRatings,
	})
}

// handleAdminTournament shows any tournament, drafts included.
func (s *Server) handleAdminTournament(w http.ResponseWriter, r *http.Request, t *Tenant) {
	tour, err := t.Store.Tournament(r.Context(), r.PathValue("slug"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.writeAdminTournament(w, r, t, tour, http.StatusOK)
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
	ctx := r.Context()
	tour, err := t.Store.Tournament(ctx, r.PathValue("slug"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	err = core.ChangeTournamentStatus(ctx, t.Store, tour, core.TournamentStatus(req.Status), s.now(), s.rand, PlacementPoints(ctx, t.Store))
	if err != nil {
		writeError(w, r, err)
		return
	}
	if tour, err = t.Store.Tournament(ctx, tour.Slug); err != nil {
		writeError(w, r, err)
		return
	}
	s.writeAdminTournament(w, r, t, tour, http.StatusOK)
}

// PlacementPoints returns a function reading the arena's ladder points
// table (core.SettingPlacementPoints; the default when unset or
// unreadable, with a warning) at most once: the lifecycle and every way a
// match is decided read it only when a tournament completes.
func PlacementPoints(ctx context.Context, st core.TournamentStore) func() core.PlacementPoints {
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
func RatingPeriodHours(ctx context.Context, st core.TournamentStore) int {
	hours := core.DefaultRatingPeriodHours
	if _, err := st.Setting(ctx, core.SettingRatingPeriodHours, &hours); err != nil || hours < core.RatingPeriodHoursRange.Min {
		if err != nil {
			logger(ctx).WarnContext(ctx, "rating period setting unreadable, using the default", "error", err.Error())
		}
		return core.DefaultRatingPeriodHours
	}
	return hours
}

// PlayerRating returns the player's rating as of now (its deviation grown
// for the rating periods they sat out), or nil while they are unrated.
func PlayerRating(ctx context.Context, st *store.Arena, id string, now time.Time) (*core.PlayerRating, error) {
	ratings, err := st.Ratings(ctx, []string{id})
	if err != nil {
		return nil, err
	}
	p, ok := ratings[id]
	if !ok {
		return nil, nil
	}
	p.Rating = p.Now(now, RatingPeriodHours(ctx, st))
	return &p, nil
}

type registrationView struct {
	PlatformID   string   `json:"platformId"`
	PersonaName  string   `json:"personaName"`
	Seed         *int     `json:"seed"`
	Roster       []string `json:"roster"`
	RegisteredAt string   `json:"registeredAt"`
}

// handleRegister registers a side (the admin path; players use the site).
func (s *Server) handleRegister(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var req core.RegistrationDraft
	if err := decodeJSON(w, r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	ctx := r.Context()
	tour, err := t.Store.Tournament(ctx, r.PathValue("slug"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	req.PersonaName = strings.TrimSpace(req.PersonaName)
	reg, err := core.Register(ctx, t.Store, tour, req, s.now())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"registration": registrationView{
		PlatformID: reg.PlatformID, PersonaName: reg.PersonaName, Seed: optionalInt(reg.Seed), Roster: reg.Roster, RegisteredAt: isoTime(reg.RegisteredAt),
	}})
}

// adminMatch is a match as the admin API lists it.
type adminMatch struct {
	ID           int64              `json:"id"`
	Stage        string             `json:"stage"`
	Round        string             `json:"round"`
	GroupName    *string            `json:"group"`
	BracketSlot  *string            `json:"bracketSlot"`
	Status       string             `json:"status"`
	P1PlatformID *string            `json:"p1PlatformId"`
	P2PlatformID *string            `json:"p2PlatformId"`
	OpensAt      string             `json:"opensAt"`
	ClosesAt     string             `json:"closesAt"`
	SessionNonce string             `json:"sessionNonce,omitempty"`
	Winner       *string            `json:"winner"`
	Score        *core.OutcomeScore `json:"score"`
	ResultSource *string            `json:"resultSource"`
}

func adminMatchOf(m *core.Match) adminMatch {
	v := adminMatch{
		ID: m.ID, Stage: string(m.Stage), Round: m.Round, GroupName: optional(m.GroupName), BracketSlot: optional(m.BracketSlot),
		Status: string(m.Status), P1PlatformID: optional(m.P1), P2PlatformID: optional(m.P2),
		OpensAt: isoTime(m.OpensAt), ClosesAt: isoTime(m.ClosesAt), SessionNonce: m.SessionNonce,
		Score: m.Score, ResultSource: optional(m.ResultSource),
	}
	if m.Status.Resolved() {
		v.Winner = optional(m.Winner)
	}
	return v
}

// handleAdminMatches lists a tournament's matches with their nonces.
func (s *Server) handleAdminMatches(w http.ResponseWriter, r *http.Request, t *Tenant) {
	tour, err := t.Store.Tournament(r.Context(), r.PathValue("slug"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	matches, err := t.Store.Matches(r.Context(), tour.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]adminMatch, 0, len(matches))
	for i := range matches {
		out = append(out, adminMatchOf(&matches[i]))
	}
	writeJSON(w, http.StatusOK, map[string]any{"matches": out})
}

// matchFromPath reads the {id} path value; a non-integer is match_not_found.
func matchFromPath(ctx context.Context, r *http.Request, t *Tenant) (*core.Match, error) {
	id, err := core.ParseMatchID(r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	return t.Store.Match(ctx, id)
}

// handlePatchMatch moves a match's window (core.Reschedule's rules).
func (s *Server) handlePatchMatch(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var draft core.WindowDraft
	if err := decodeJSON(w, r, &draft); err != nil {
		writeError(w, r, err)
		return
	}
	ctx := r.Context()
	m, err := matchFromPath(ctx, r, t)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if m, err = core.Reschedule(ctx, t.Store, m, draft, s.now()); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, adminMatchOf(m))
}

// handleResolveMatch records the admin's decision, final and with
// resultSource admin (status forfeited when forfeit is set).
func (s *Server) handleResolveMatch(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var draft core.ResolutionDraft
	if err := decodeJSON(w, r, &draft); err != nil {
		writeError(w, r, err)
		return
	}
	res, problems := draft.Check(s.now())
	if err := problems.Err(); err != nil {
		writeError(w, r, err)
		return
	}
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
	resolved, err := core.ResolveMatch(ctx, t.Store, tour, m, res, s.rand, PlacementPoints(ctx, t.Store))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, adminMatchOf(resolved))
}
