package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"

	"arena/core"
)

// decisionStmts are the statements of queries/decided.sql that follow,
// in the same batch, the statement deciding match id, whatever decided it
// (what each does is written there). Every statement changes nothing when
// it does not apply, so the whole list is always right; decisionStmtsFor
// leaves out those a match's shape rules out.
func decisionStmts(id int64, at string) []Stmt {
	return decisionStmtsFor(matchShape{id: id, seats: true, grandFinal: true, title: true}, at)
}

// matchShape is what of a match never changes once it is scheduled: which
// decision statements can apply to it.
type matchShape struct {
	id         int64
	seats      bool // it feeds another match (winner_to or loser_to)
	grandFinal bool // a double elimination's grand final
	title      bool // a title match
	series     bool // best of more than one game
}

// shapeOf is the shape of a stored match.
func shapeOf(m *core.MatchState) matchShape {
	return matchShape{
		id:         m.ID,
		seats:      m.WinnerTo.BracketSlot != "" || m.LoserTo.BracketSlot != "",
		grandFinal: m.BracketSlot == core.BracketSlotGrandFinal,
		title:      m.Tournament.Format == core.FormatTitle,
		series:     m.SeriesLen() > 1,
	}
}

// seriesNextGameStmts set up the next game of a series whose game the
// batch's decision just decided without deciding the match
// (queries/series.sql); they change nothing otherwise.
func seriesNextGameStmts(id int64, at string) []Stmt {
	args := []any{sql.Named("match", id), sql.Named("at", at)}
	return []Stmt{{SQL: q("series_archive_submissions"), Args: args[:1]},
		{SQL: q("series_clear_submissions"), Args: args[:1]}, {SQL: q("series_next_game"), Args: args}}
}

// decisionStmtsFor are decisionStmts without the statements the match's
// shape rules out (the hot path: a submission or report runs the rest).
func decisionStmtsFor(m matchShape, at string) []Stmt {
	id := m.id
	var out []Stmt
	if m.seats {
		out = append(out,
			Stmt{SQL: q("seat_winner"), Args: []any{sql.Named("match", id), sql.Named("at", at)}},
			Stmt{SQL: q("seat_loser"), Args: []any{sql.Named("match", id), sql.Named("at", at)}},
			Stmt{SQL: q("pace_seated"), Args: []any{sql.Named("match", id), sql.Named("at", at)}})
	}
	if m.grandFinal {
		out = append(out, Stmt{SQL: q("insert_grand_final_reset"), Args: []any{sql.Named("at", at), sql.Named("match", id)}})
	}
	if m.title {
		out = append(out,
			Stmt{SQL: q("title_result"), Args: []any{sql.Named("at", at), sql.Named("match", id)}},
			Stmt{SQL: q("title_defense"), Args: []any{sql.Named("match", id)}},
			Stmt{SQL: q("title_lost"), Args: []any{sql.Named("match", id)}},
			Stmt{SQL: q("title_crowned"), Args: []any{sql.Named("match", id)}},
			Stmt{SQL: q("title_holder"), Args: []any{sql.Named("match", id)}},
			Stmt{SQL: q("title_volunteers_crowned"), Args: []any{sql.Named("match", id)}},
			Stmt{SQL: q("title_result_applied"), Args: []any{sql.Named("match", id)}})
	}
	return append(out,
		Stmt{SQL: q("record_decision_event"), Args: []any{sql.Named("at", at), sql.Named("match", id)}},
		Stmt{SQL: q("end_caster_seats"), Args: []any{sql.Named("at", at), sql.Named("match", id)}})
}

// decide runs decision (a conditional statement that writes token into
// the match's decision_token when it decides it), the decision statements
// and then the caller's own statements as one batch, and reports whether
// this call decided the match.
func (s *Arena) decide(ctx context.Context, matchID int64, token string, at time.Time, decision Stmt, then ...Stmt) (bool, error) {
	return s.decideGame(ctx, matchID, token, at, nil, decision, then...)
}

// decideGame is decide for a decision of one game of a series: game, the
// statement recording the game (queries/series.sql), goes before the
// decision, and the next game is set up after it when the series goes
// on. With game nil it is decide.
func (s *Arena) decideGame(ctx context.Context, matchID int64, token string, at time.Time, game *Stmt, decision Stmt, then ...Stmt) (bool, error) {
	decided, _, err := s.decideAndRead(ctx, matchID, token, at, game, decision, then...)
	return decided, err
}

// decidedMatch reads a match as Match does, with its decision token, as
// a decision's batch's last statement.
var decidedMatch = sync.OnceValue(func() string {
	return "SELECT x.*, (" + q("decision_token") + ") FROM (" + q("match_columns") + " WHERE id = :match) x"
})

// withToken scans a decidedMatch row: the match's columns into what its
// scanner asks, then the token.
type withToken struct {
	row   scanner
	token *string
}

func (w withToken) Scan(dest ...any) error { return w.row.Scan(append(dest, w.token)...) }

// decideAndRead is decideGame that also returns the match as the batch
// left it: whoever decided it, no read after the batch.
func (s *Arena) decideAndRead(ctx context.Context, matchID int64, token string, at time.Time, game *Stmt, decision Stmt, then ...Stmt) (bool, *core.Match, error) {
	when := formatTime(at)
	var stmts []Stmt
	if game != nil {
		stmts = append(stmts, *game, decision)
		stmts = append(stmts, seriesNextGameStmts(matchID, when)...)
	} else {
		stmts = append(stmts, decision)
	}
	stmts = append(append(stmts, decisionStmts(matchID, when)...), then...)
	// The batch reads, as its last statement, the match and whose decision
	// stands: one round trip.
	var stored string
	var m *core.Match
	err := s.db.BatchScan(ctx, Stmt{SQL: decidedMatch(), Args: []any{sql.Named("match", matchID)}}, func(row Scanner) (err error) {
		m, err = scanMatch(withToken{row, &stored})
		return err
	}, stmts...)
	if err != nil {
		return false, nil, fmt.Errorf("store: unable to decide match %d: %w", matchID, err)
	}
	return stored == token, m, nil
}

// DecidedFinals implements core.SettleStore.
func (s *Arena) DecidedFinals(ctx context.Context) ([]int64, error) {
	return s.ids(ctx, q("decided_finals"))
}

// StagesToSettle implements core.SettleStore.
func (s *Arena) StagesToSettle(ctx context.Context) ([]int64, error) {
	return s.ids(ctx, q("stages_to_settle"))
}
