package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"

	"arena/core"
)

// PlayerCard reads player id's card (core.PlayerCard, its rating as
// stored) as one ReadAll: one round trip, with what the request planned.
// CodePlayerNotFound when there is no such player.
func (s *Arena) PlayerCard(ctx context.Context, id string) (*core.PlayerCard, error) {
	c, err := readPlanned(ctx, s.db, playerCardKey(id), func() (*playerCardRead, []Read) { return playerCardReads(id) })
	if err != nil {
		return nil, fmt.Errorf("store: unable to read player %s: %w", id, err)
	}
	if !c.found {
		return nil, core.Errorf(core.CodePlayerNotFound, "no player %s", id)
	}
	c.card.Stats = playerStats(c.card.Stats.MatchesPlayed, c.card.Stats.Wins, c.card.Stats.Trophies)
	return &c.card, nil
}

// PlanPlayerCard plans PlayerCard's reads with the request's first
// ReadAll (plan.go).
func (s *Arena) PlanPlayerCard(ctx context.Context, id string) {
	planAhead(ctx, s.db, playerCardKey(id), func() (*playerCardRead, []Read) { return playerCardReads(id) })
}

func playerCardKey(id string) string { return "player_card " + id }

// playerCardRead is what PlayerCard's reads fill.
type playerCardRead struct {
	card  core.PlayerCard
	found bool
}

// playerCardReads are PlayerCard's reads: the same queries as Player,
// PlayerStats and Ratings.
func playerCardReads(id string) (*playerCardRead, []Read) {
	c := &playerCardRead{card: core.PlayerCard{Stats: core.PlayerStats{Trophies: []core.Trophy{}}}}
	player := sql.Named("player", id)
	list, _ := json.Marshal([]string{id}) // a string list always marshals
	return c, []Read{
		{SQL: q("player"), Args: []any{player}, Row: func(row Scanner) error {
			p := &c.card.Profile
			c.found = true
			return row.Scan(&p.PlatformID, &p.PersonaName, &p.AvatarURL)
		}},
		{SQL: q("player_match_counts"), Args: []any{player}, Row: func(row Scanner) error {
			return row.Scan(&c.card.Stats.MatchesPlayed, &c.card.Stats.Wins)
		}},
		{SQL: q("player_trophies"), Args: []any{player}, Row: func(row Scanner) error {
			t, err := scanTrophy(row)
			c.card.Stats.Trophies = append(c.card.Stats.Trophies, t)
			return err
		}},
		{SQL: q("ratings_in"), Args: []any{sql.Named("players", string(list))}, Row: func(row Scanner) error {
			r, err := scanRating(row)
			c.card.Rating = &r
			return err
		}},
	}
}

// playerStats completes a player's stats from the match counts: losses
// and the win rate in whole percent.
func playerStats(played, wins int, trophies []core.Trophy) core.PlayerStats {
	st := core.PlayerStats{MatchesPlayed: played, Wins: wins, Losses: played - wins, Trophies: trophies}
	if played > 0 {
		st.WinRate = int(math.Round(float64(wins) / float64(played) * 100))
	}
	return st
}

// scanTrophy reads a player_trophies row.
func scanTrophy(row Scanner) (core.Trophy, error) {
	var t core.Trophy
	err := row.Scan(&t.Rank, &t.TournamentID, &t.TournamentSlug, &t.TournamentName)
	return t, err
}
