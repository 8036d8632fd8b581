package app

import (
	"context"

	"arena/core"
)

// The planned reads: a route plans what it reads first, keyed by the
// request's own inputs, and those reads go with the request's first
// round trip (the admin token's read); the route's own read of them is
// their answer (sql/plan.go). Planning reads nothing itself.

// PlanTournamentParts plans the read of a tournament's parts (its row,
// sides, matches, podium, names, casters and streams), by slug or, when
// slug is "", by id.
func (s *Session) PlanTournamentParts(ctx context.Context, slug string, id int64) {
	s.store.PlanTournamentParts(ctx, slug, id)
}

// PlanMatchWithTournament plans the read of the match with the id and
// its tournament.
func (s *Session) PlanMatchWithTournament(ctx context.Context, id int64) {
	s.store.PlanMatchWithTournament(ctx, id)
}

// PlanSeasons plans the read of the arena's seasons.
func (s *Session) PlanSeasons(ctx context.Context) {
	s.store.PlanSeasons(ctx)
}

// AdminToken is the arena's admin token with the id (its hash to check
// the bearer's token against). Its read answers the reads the route
// planned with it.
func (s *Session) AdminToken(ctx context.Context, id string) (*core.AdminTokenRecord, error) {
	return s.store.AdminToken(ctx, id)
}
