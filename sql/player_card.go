package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"

	"arena/core"
)

// PlayerCard returns player id's read model (profile, numbers,
// trophies, the rating as stored), or core.CodePlayerNotFound, as one
// ReadAll: one round trip with what the request planned. Its numbers:
// resolved matches of any side the player was on (byes are not matches
// played), wins, and podium places.
func (s *Arena) PlayerCard(ctx context.Context, id string) (*core.PlayerCard, error) {
	c, err := readPlanned(ctx, s.db, playerCardKey(id), func() (*playerCardRead, []Read) { return playerCardReads(id) })
	if err != nil {
		return nil, fmt.Errorf("store: unable to read player %s: %w", id, err)
	}
	if !c.found {
		return nil, core.Errorf(core.CodePlayerNotFound, "no player %s", id)
	}
	st := &c.card.Stats
	st.Losses = st.MatchesPlayed - st.Wins
	if st.MatchesPlayed > 0 {
		st.WinRate = int(math.Round(float64(st.Wins) / float64(st.MatchesPlayed) * 100))
	}
	return &c.card, nil
}

func playerCardKey(id string) string { return "player_card " + id }

// playerCardRead is what PlayerCard's reads fill.
type playerCardRead struct {
	card  core.PlayerCard
	found bool
}

// playerCardReads are PlayerCard's reads: Player's query, the numbers,
// the trophies and Ratings' query.
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
			var t core.Trophy
			err := row.Scan(&t.Rank, &t.TournamentID, &t.TournamentSlug, &t.TournamentName)
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
