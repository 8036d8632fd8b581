// Package playerview is what a signed-in player's own panels read of an
// arena (their matches to play, their entries), read together: one round
// trip to a remote database, keyed by the player.
package playerview

import (
	"context"

	"arena/core"
)

// Parts are a player's own things, read together.
type Parts struct {
	// Matches are the player's matches of the statuses asked for, both
	// sides known, by opening time.
	Matches []core.MatchState
	// Reports are those matches' reports, by match.
	Reports map[int64]*core.MatchReport
	// Captains are the captains of the player's sides, by tournament (the
	// player's own id where they captain).
	Captains map[int64]string
	// CheckedIn says whether each of the player's sides checked in, by
	// tournament.
	CheckedIn map[int64]bool
	// Players are the profiles of the matches' sides and of the captains.
	Players map[string]core.PlayerProfile
}

// Store reads a player's parts.
type Store interface {
	ViewerParts(ctx context.Context, platformID string, statuses ...core.MatchStatus) (*Parts, error)
}
