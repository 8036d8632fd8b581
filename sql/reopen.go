package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"arena/core"
)

var _ core.ReopenStore = (*Arena)(nil)

// reopenStmts are queries/reopen.sql's statements, in order.
var reopenStmts = []string{"reopen_claim", "reopen_log", "reopen_unseat_winner", "reopen_unseat_loser",
	"reopen_drop_reset_casters", "reopen_drop_reset_streams", "reopen_drop_reset", "reopen_uncomplete",
	"reopen_podium", "reopen_placements", "reopen_ratings", "reopen_rating_periods", "reopen_alerts",
	"reopen_results", "reopen_reports", "reopen_game_submissions", "reopen_games", "reopen_match"}

// ReopenMatch implements core.ReopenStore: one batch, then one read of
// whether it took.
func (s *Arena) ReopenMatch(ctx context.Context, t *core.Tournament, m *core.Match, now time.Time, token, by string) (bool, error) {
	args := []sql.NamedArg{sql.Named("match", m.ID), sql.Named("token", token), sql.Named("at", formatTime(now)),
		sql.Named("admin", by)}
	stmts := make([]Stmt, len(reopenStmts))
	for i, name := range reopenStmts {
		text := q(name)
		stmts[i] = Stmt{SQL: text}
		for _, a := range args {
			if strings.Contains(text, ":"+a.Name) {
				stmts[i].Args = append(stmts[i].Args, a)
			}
		}
	}
	var status, stored string
	read := Stmt{SQL: q("reopen_outcome"), Args: []any{sql.Named("match", m.ID)}}
	if err := s.db.BatchRead(ctx, read, []any{&status, &stored}, stmts...); err != nil {
		return false, fmt.Errorf("store: unable to reopen match %d: %w", m.ID, err)
	}
	return stored == token && core.MatchStatus(status) == core.MatchScheduled, nil
}
