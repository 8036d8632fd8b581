package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"arena/core"
)

var (
	_ core.ReportStore         = (*Arena)(nil)
	_ core.ReportDecisionStore = (*Arena)(nil)
)

// StoreReport implements core.ReportStore: one batch inserts the report
// (only while the match is live or awaiting_result without game-client
// submissions; the first report of a match wins) and moves a live match
// to awaiting_result; one query then reads what happened.
func (s *Arena) StoreReport(ctx context.Context, rep core.MatchReport) error {
	at := formatTime(rep.ReportedAt)
	p1, p2 := scoreArgs(rep.Score)
	err := s.db.Batch(ctx,
		Stmt{SQL: q("insert_report"), Args: []any{
			sql.Named("match", rep.MatchID), sql.Named("side", rep.Side),
			sql.Named("reporter", rep.ReporterID), sql.Named("winner", rep.Winner), sql.Named("p1", p1),
			sql.Named("p2", p2), sql.Named("at", at), sql.Named("token", rep.Token),
		}},
		Stmt{SQL: q("report_awaits_confirmation"), Args: []any{sql.Named("at", at),
			sql.Named("match", rep.MatchID), sql.Named("token", rep.Token)}},
	)
	if err != nil {
		return fmt.Errorf("store: unable to store the report of match %d: %w", rep.MatchID, err)
	}
	var status, token string
	var submissions int
	err = s.db.queryRow(ctx, q("report_attempt"), sql.Named("match", rep.MatchID)).Scan(&status, &submissions, &token)
	if errors.Is(err, sql.ErrNoRows) {
		return core.Errorf(core.CodeMatchNotFound, "no match %d", rep.MatchID)
	}
	if err != nil {
		return fmt.Errorf("store: unable to read the report of match %d: %w", rep.MatchID, err)
	}
	switch {
	case token == rep.Token:
		return nil
	case core.MatchStatus(status).Resolved():
		return core.Errorf(core.CodeAlreadyResolved, "match %d is resolved", rep.MatchID)
	case token != "":
		return core.Errorf(core.CodeReportPending, "match %d already has a report", rep.MatchID)
	case submissions > 0:
		return core.Errorf(core.CodeClientResult, "a game client submitted match %d's result", rep.MatchID)
	default:
		return core.Errorf(core.CodeNotLive, "match %d is %s", rep.MatchID, status)
	}
}

// MatchReport implements core.ReportStore.
func (s *Arena) MatchReport(ctx context.Context, matchID int64) (*core.MatchReport, error) {
	rep, err := scanReport(s.db.queryRow(ctx, q("match_report"), sql.Named("match", matchID)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to read the report of match %d: %w", matchID, err)
	}
	return rep, nil
}

// scanReport reads a match_reports row.
func scanReport(row scanner) (*core.MatchReport, error) {
	var (
		rep              core.MatchReport
		s1, s2           sql.NullInt64
		status, reported string
		decided          sql.NullString
	)
	err := row.Scan(&rep.MatchID, &rep.Side, &rep.ReporterID,
		&rep.Winner, &s1, &s2, &status, &reported, &decided, &rep.DecidedBy, &rep.DisputeReason)
	if err != nil {
		return nil, err
	}
	rep.Status = core.ReportStatus(status)
	if s1.Valid && s2.Valid {
		rep.Score = &core.OutcomeScore{P1: int(s1.Int64), P2: int(s2.Int64)}
	}
	if rep.ReportedAt, err = parseTime(reported); err != nil {
		return nil, err
	}
	if rep.DecidedAt, err = parseNullTime(decided); err != nil {
		return nil, err
	}
	return &rep, nil
}

// DecideReport implements core.ReportStore: one batch decides the report,
// carries the decision to the match and, when that confirmed it, seats the
// winner and loser as every decision does (decisionStmts); one query then
// reads the outcome.
func (s *Arena) DecideReport(ctx context.Context, st *core.MatchState, rep *core.MatchReport, d core.ReportDecision) (core.MatchStatus, error) {
	at := formatTime(d.At)
	stmts := append([]Stmt{
		{SQL: q("decide_report"), Args: []any{sql.Named("confirm", d.Confirm), sql.Named("at", at),
			sql.Named("by", d.By), sql.Named("token", d.Token), sql.Named("reason", d.Reason),
			sql.Named("match", st.ID), sql.Named("by_side", d.BySide),
			sql.Named("reported_by", formatTime(d.ReportedBy))}},
		{SQL: q("apply_report"), Args: []any{sql.Named("at", at), sql.Named("match", st.ID),
			sql.Named("token", d.Token)}},
	}, decisionStmtsFor(shapeOf(st), at)...)
	if err := s.db.Batch(ctx, stmts...); err != nil {
		return "", fmt.Errorf("store: unable to decide the report of match %d: %w", st.ID, err)
	}
	var token, status string
	err := s.db.queryRow(ctx, q("report_decision"), sql.Named("match", st.ID)).Scan(&token, &status)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && token != d.Token) {
		return "", core.Errorf(core.CodeNoPendingReport, "match %d has no pending report", st.ID)
	}
	if err != nil {
		return "", fmt.Errorf("store: unable to read the decision of match %d: %w", st.ID, err)
	}
	return core.MatchStatus(status), nil
}

// PendingReports implements core.ReportDecisionStore.
func (s *Arena) PendingReports(ctx context.Context, now time.Time, arenaGrace time.Duration) ([]int64, error) {
	return s.ids(ctx, q("pending_reports"), sql.Named("now", formatTime(now)),
		sql.Named("arena_grace_seconds", int64(arenaGrace/time.Second)))
}
