package store

import (
	"encoding/json"
	"fmt"
	"slices"

	"arena/core"
)

// parseGames reads {{match_games}}: a JSON array of [game, winner,
// source, score_p1, score_p2, session_nonce, decided_at], ordered by
// game.
func parseGames(raw string) ([]core.Game, error) {
	if raw == "" || raw == "[]" {
		return nil, nil
	}
	var rows [][]any
	if err := json.Unmarshal([]byte(raw), &rows); err != nil {
		return nil, fmt.Errorf("store: unable to read a match's games: %w", err)
	}
	out := make([]core.Game, 0, len(rows))
	for _, r := range rows {
		if len(r) != 7 {
			return nil, fmt.Errorf("store: a game has %d columns", len(r))
		}
		n, _ := r[0].(float64)
		g := core.Game{Game: int(n), Status: core.MatchConfirmed}
		g.Winner, _ = r[1].(string)
		g.ResultSource, _ = r[2].(string)
		g.SessionNonce, _ = r[5].(string)
		p1, ok1 := r[3].(float64)
		p2, ok2 := r[4].(float64)
		if ok1 && ok2 {
			g.Score = &core.OutcomeScore{P1: int(p1), P2: int(p2)}
		}
		if at, _ := r[6].(string); at != "" {
			t, err := parseTime(at)
			if err != nil {
				return nil, err
			}
			g.DecidedAt = &t
		}
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b core.Game) int { return a.Game - b.Game })
	return out, nil
}
