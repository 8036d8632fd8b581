package app

import (
	"context"

	"arena/core"
)

// The reads many use cases and pages start from. Each is one read of
// the arena's database, answered from the request's planned reads when
// the route planned it (sql/plan.go).

// Tournament is the tournament with the slug, drafts included, or
// core.CodeTournamentNotFound.
func (s *Session) Tournament(ctx context.Context, slug string) (*core.Tournament, error) {
	return s.store.Tournament(ctx, slug)
}

// TournamentByID is the tournament with the id (a title's row included),
// or core.CodeTournamentNotFound.
func (s *Session) TournamentByID(ctx context.Context, id int64) (*core.Tournament, error) {
	return s.store.TournamentByID(ctx, id)
}

// Tournaments are the arena's tournaments, newest start first, drafts
// only when asked.
func (s *Session) Tournaments(ctx context.Context, withDrafts bool) ([]core.Tournament, error) {
	return s.store.Tournaments(ctx, withDrafts)
}

// Seasons are the arena's seasons.
func (s *Session) Seasons(ctx context.Context) ([]core.Season, error) {
	return s.store.Seasons(ctx)
}

// Registrations are the tournament's sides, in registration order.
func (s *Session) Registrations(ctx context.Context, tournamentID int64) ([]core.Registration, error) {
	return s.store.Registrations(ctx, tournamentID)
}

// Players are the profiles of the players with the ids.
func (s *Session) Players(ctx context.Context, ids []string) (map[string]core.PlayerProfile, error) {
	return s.store.Players(ctx, ids)
}

// Match is the match with the id, or core.CodeMatchNotFound.
func (s *Session) Match(ctx context.Context, id int64) (*core.Match, error) {
	return s.store.Match(ctx, id)
}

// MatchWithTournament is the match with the id and its tournament, read
// together (what deciding or reopening a match works on).
func (s *Session) MatchWithTournament(ctx context.Context, id int64) (*core.Match, *core.Tournament, error) {
	return s.store.MatchWithTournament(ctx, id)
}

// MatchState is the match with the id as the game protocol sees it (its
// tournament, sides, readiness and submissions).
func (s *Session) MatchState(ctx context.Context, id int64) (*core.MatchState, error) {
	return s.store.MatchState(ctx, id)
}
