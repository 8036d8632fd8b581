package tournamentview

import (
	"context"

	"arena/core"
)

// Schedule is a public tournament's matches with the names of their
// sides: what a calendar feed shows. It reads less than Tournament (no
// sides, no podium).
type Schedule struct {
	*core.Tournament
	// Matches are every match, in the store's order.
	Matches []core.Match
	// Players names every side of a match.
	Players Players
}

// ReadSchedule reads the public tournament with the slug (Find), its
// matches and the names of their sides.
func ReadSchedule(ctx context.Context, st Store, slug string) (*Schedule, error) {
	t, err := Find(ctx, st, slug)
	if err != nil {
		return nil, err
	}
	matches, err := st.Matches(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, 2*len(matches))
	for i := range matches {
		ids = append(ids, matches[i].P1, matches[i].P2)
	}
	players, err := ReadPlayers(ctx, st, ids)
	if err != nil {
		return nil, err
	}
	return &Schedule{Tournament: t, Matches: matches, Players: players}, nil
}
