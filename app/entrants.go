package app

import (
	"context"

	"arena/core"
)

// A tournament's entrants, by its organizer: registering sides, taking
// one out, seeding them, checking them in.

// RegisterSide registers a side in tour at the request's now
// (core.Register, the organizer's rules).
func (s *Session) RegisterSide(ctx context.Context, tour *core.Tournament, draft core.RegistrationDraft) (*core.Registration, error) {
	return core.Register(ctx, s.store, tour, draft, s.Deps.Now)
}

// RegisterSides registers the sides in tour at the request's now, all or
// none (core.RegisterAll).
func (s *Session) RegisterSides(ctx context.Context, tour *core.Tournament, drafts []core.RegistrationDraft) ([]core.Registration, error) {
	return core.RegisterAll(ctx, s.store, tour, drafts, s.Deps.Now)
}

// PlayersNamed are at most limit of the arena's players whose name
// contains text (what finding a player to register offers).
func (s *Session) PlayersNamed(ctx context.Context, text string, limit int) ([]core.PlayerProfile, error) {
	return s.store.PlayersNamed(ctx, text, limit)
}

// SideRemoval is what taking a side out of a tournament would do.
type SideRemoval struct {
	// Side is the side its captain leads; nil when there is none.
	Side *core.Registration
	// Disqualify: the draw happened, so the side is disqualified rather
	// than removed.
	Disqualify bool
	// OpenMatches counts the side's undecided matches with both sides
	// known (what disqualifying it forfeits).
	OpenMatches int
}

// SideRemoval reads what taking captain's side out of tour would do: its
// side, and once the draw happened its open matches.
func (s *Session) SideRemoval(ctx context.Context, tour *core.Tournament, captain string) (*SideRemoval, error) {
	regs, err := s.store.Registrations(ctx, tour.ID)
	if err != nil {
		return nil, err
	}
	out := &SideRemoval{}
	for i := range regs {
		if regs[i].PlatformID == captain {
			out.Side = &regs[i]
		}
	}
	if out.Side == nil {
		return out, nil
	}
	out.Disqualify = tour.Status == core.StatusGroupStage || tour.Status == core.StatusPlayoffs
	if out.Disqualify {
		matches, err := s.store.Matches(ctx, tour.ID)
		if err != nil {
			return nil, err
		}
		for _, m := range matches {
			if !m.Status.Resolved() && m.P1 != "" && m.P2 != "" && (m.P1 == captain || m.P2 == captain) {
				out.OpenMatches++
			}
		}
	}
	return out, nil
}

// RemoveSide takes captain's side out of tour (core.RemoveSide: removed
// before the draw, disqualified after it) and answers how many matches
// that decided.
func (s *Session) RemoveSide(ctx context.Context, tour *core.Tournament, captain string) (int, error) {
	return core.RemoveSide(ctx, s.store, tour, captain, s.Deps)
}

// SeedsByRating seeds tour's sides by their captains' ratings
// (core.SeedsByRating), or only answers that order when d.Preview.
func (s *Session) SeedsByRating(ctx context.Context, tour *core.Tournament, d core.SeedingDraft) ([]core.RatingSeed, error) {
	return core.SeedsByRating(ctx, s.store, tour, d)
}

// SetSeeds sets the seeds of the tournament's sides (captain -> seed, 0
// clears one) before the draw. Errors: CodeTournamentNotFound,
// CodeSeedsLocked.
func (s *Session) SetSeeds(ctx context.Context, tournamentID int64, seeds map[string]int) error {
	return s.store.SetSeeds(ctx, tournamentID, seeds)
}
