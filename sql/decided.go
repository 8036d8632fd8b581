package store

import (
	"context"
	"fmt"
	"time"

	"arena/core"
)

// decisionStmts are the statements that follow, in the same batch, the
// statement deciding match id, whatever decided it (queries/decided.sql):
// the bracket seats of its winner and loser, read from the decided row,
// and a double elimination's grand-final reset when its losers' champion
// won the grand final.
func decisionStmts(id int64, at string) []Stmt {
	return []Stmt{
		{SQL: q("seat_winner"), Args: []any{id, id, id, id, at, id, id, id}},
		{SQL: q("seat_loser"), Args: []any{id, id, id, id, at, id, id, id}},
		{SQL: q("insert_grand_final_reset"), Args: []any{at, at, at, at, id}},
	}
}

// movesOn reports whether deciding m changes anything beyond m, so that
// a batch that may decide it needs decisionStmts: it feeds a seat, or it
// is a grand final (whose reset the decision may create).
func movesOn(m *core.Match) bool {
	return m.WinnerTo.BracketSlot != "" || m.LoserTo.BracketSlot != "" || m.BracketSlot == core.BracketSlotGrandFinal
}

// decide runs decision (a conditional statement that writes token into
// the match's decision_token when it decides it) and the decision
// statements as one batch, and reports whether this call decided the
// match.
func (s *Arena) decide(ctx context.Context, matchID int64, token string, at time.Time, decision Stmt) (bool, error) {
	stmts := append([]Stmt{decision}, decisionStmts(matchID, formatTime(at))...)
	if err := s.db.Batch(ctx, stmts...); err != nil {
		return false, fmt.Errorf("store: unable to decide match %d: %w", matchID, err)
	}
	var stored string
	if err := s.db.queryRow(ctx, q("decision_token"), matchID).Scan(&stored); err != nil {
		return false, fmt.Errorf("store: unable to read match %d's decision: %w", matchID, err)
	}
	return stored == token, nil
}

// DecidedFinals implements core.TournamentStore.
func (s *Arena) DecidedFinals(ctx context.Context) ([]int64, error) {
	return s.ids(ctx, q("decided_finals"))
}

// StagesToSettle implements core.TournamentStore.
func (s *Arena) StagesToSettle(ctx context.Context) ([]int64, error) {
	return s.ids(ctx, q("stages_to_settle"))
}
