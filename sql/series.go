package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"arena/core"
)

// ResolveGame implements core.TournamentStore: the game's row, the
// match's update and what follows a decision, in one batch, then the
// match as it is.
func (s *Arena) ResolveGame(ctx context.Context, id int64, res core.Resolution) (*core.Match, error) {
	var p1, p2 any
	if res.Score != nil {
		p1, p2 = res.Score.P1, res.Score.P2
	}
	at := formatTime(res.At)
	game := Stmt{SQL: q("series_game_admin"), Args: []any{sql.Named("match", id), sql.Named("game", res.Game),
		sql.Named("winner", res.Winner), sql.Named("p1", p1), sql.Named("p2", p2), sql.Named("token", res.Token),
		sql.Named("source", res.Source), sql.Named("at", at)}}
	decided, m, err := s.decideAndRead(ctx, id, res.Token, res.At, &game, Stmt{SQL: q("resolve_game"), Args: []any{
		sql.Named("match", id), sql.Named("game", res.Game), sql.Named("winner", res.Winner),
		sql.Named("token", res.Token), sql.Named("source", res.Source), sql.Named("at", at)}},
		Stmt{SQL: q("log_resolved"), Args: []any{sql.Named("at", at), sql.Named("admin", res.By),
			sql.Named("token", res.Token), sql.Named("match", id)}})
	if err != nil {
		return nil, err
	}
	switch {
	case decided:
		return m, nil
	case m.Status.Resolved():
		return nil, core.Errorf(core.CodeAlreadyResolved, "match %d is resolved", id)
	}
	return nil, core.Errorf(core.CodeGameNotCurrent, "game %d of match %d was decided meanwhile", res.Game, id)
}

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

// OpenMatches implements core.RoundStore.
func (s *Arena) OpenMatches(ctx context.Context, t *core.Tournament, ids []int64, now time.Time) ([]int64, error) {
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	if _, err := s.db.write(ctx, q("open_matches"), sql.Named("tournament", t.ID), sql.Named("ids", string(list)),
		sql.Named("at", formatTime(now))); err != nil {
		return nil, fmt.Errorf("store: unable to open matches: %w", err)
	}
	return ids, nil
}
