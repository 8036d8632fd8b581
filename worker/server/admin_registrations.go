package server

import (
	"net/http"
	"strings"

	"arena/core"
)

type registrationView struct {
	PlatformID   string   `json:"platformId"`
	PersonaName  string   `json:"personaName"`
	Seed         *int     `json:"seed"`
	Roster       []string `json:"roster"`
	RegisteredAt string   `json:"registeredAt"`
}

// registrationRequest is the admin's body: one side, or a list of them
// (registrations, all or none).
type registrationRequest struct {
	core.RegistrationDraft
	Registrations []core.RegistrationDraft `json:"registrations"`
}

// handleRegister registers a side, or a list of sides all or none (the
// admin path; players use the site).
func (s *Server) handleRegister(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var req registrationRequest
	tour := decodeForTournament(w, r, t, &req)
	if tour == nil {
		return
	}
	ctx := r.Context()
	if req.Registrations != nil {
		if req.PlatformID != "" || req.PersonaName != "" || req.Seed.Set || req.Roster != nil {
			writeError(w, r, core.FieldError(core.CodeInvalidField, "registrations"))
			return
		}
		for i := range req.Registrations {
			req.Registrations[i].PersonaName = strings.TrimSpace(req.Registrations[i].PersonaName)
		}
		regs, err := t.RegisterSides(ctx, tour, req.Registrations)
		if err != nil {
			writeError(w, r, err)
			return
		}
		out := make([]registrationView, len(regs))
		for i := range regs {
			out[i] = registrationViewOf(&regs[i])
		}
		writeJSON(w, http.StatusCreated, map[string]any{"registrations": out})
		return
	}
	req.PersonaName = strings.TrimSpace(req.PersonaName)
	reg, err := t.RegisterSide(ctx, tour, req.RegistrationDraft)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"registration": registrationViewOf(reg)})
}

func registrationViewOf(reg *core.Registration) registrationView {
	return registrationView{PlatformID: reg.PlatformID, PersonaName: reg.PersonaName, Seed: optionalInt(reg.Seed),
		Roster: reg.Roster, RegisteredAt: isoTime(reg.RegisteredAt)}
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
	tour, err := t.Tournament(ctx, r.PathValue("slug"))
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
	n, err := t.RemoveSide(ctx, tour, captain)
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
	tour := decodeForTournament(w, r, t, &draft)
	if tour == nil {
		return
	}
	seeds, err := t.SeedsByRating(r.Context(), tour, draft)
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
