package app

import (
	"context"

	"arena/core"
)

// Streams and casters: who is live now, and the arena's official channel
// seated on matches.

// LiveNow is the arena's live set as last polled, as it holds at the
// request's now (core.LiveNow).
func (s *Session) LiveNow(ctx context.Context) (map[string]core.LiveStream, error) {
	return core.LiveNow(ctx, s.store, s.Deps.Now)
}

// AddArenaCaster seats the arena's official channel with the login on
// the match with the id at the request's now (core.AddArenaCaster).
func (s *Session) AddArenaCaster(ctx context.Context, matchID int64, login string) (core.CasterSeat, error) {
	return core.AddArenaCaster(ctx, s.store, s.store, matchID, login, s.Deps.Now)
}

// SeatArenaCaster seats the arena's official channel with the login on
// the match with the id (as AddArenaCaster) and answers the match's
// casters afterwards.
func (s *Session) SeatArenaCaster(ctx context.Context, matchID int64, login string) ([]core.CasterSeat, error) {
	if _, err := core.AddArenaCaster(ctx, s.store, s.store, matchID, login, s.Deps.Now); err != nil {
		return nil, err
	}
	return s.store.Casters(ctx, matchID)
}
