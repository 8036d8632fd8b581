package core

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// The manual result path (spec 3): a player of a live or awaiting_result
// match reports the result on the website, the other side confirms or
// disputes it, and the grace period confirms a report nobody contested.
//
// Reports and game-client submissions coexist by one rule: a report is
// accepted only while the match has no game-client submission. Once a
// client submitted, the submission path (second submission, or its own
// grace period) decides. A client submission that arrives after a report
// and names another winner turns the report's confirmation (by the
// opponent or by the grace period) into a dispute: contested results go
// to the admin.

// Report errors.
const (
	CodeReportPending   = "report_pending"    // 409: the match already has a report
	CodeClientResult    = "client_result"     // 409: a game client submitted; its path decides
	CodeNoPendingReport = "no_pending_report" // 409: nothing to confirm or dispute
	CodeOwnReport       = "own_report"        // 403: a side cannot confirm or dispute its own report
	CodeInvalidScore    = "invalid_score"     // 422: scores not both 0..MaxReportedScore, winner higher
)

// MaxReportedScore bounds a reported score.
const MaxReportedScore = 999

// ReportStatus is where a report stands.
type ReportStatus string

// Report statuses.
const (
	ReportPending   ReportStatus = "pending"
	ReportConfirmed ReportStatus = "confirmed"
	ReportDisputed  ReportStatus = "disputed"
)

// MatchReport is a player's report of a match's result: at most one per
// match.
type MatchReport struct {
	MatchID    int64
	Side       int    // the reporting side, 1 or 2
	ReporterID string // the account that reported
	Winner     string // the winning side's captain
	Score      *OutcomeScore
	Status     ReportStatus
	ReportedAt time.Time
	DecidedAt  *time.Time
	DecidedBy  string // the account that confirmed or disputed; "" for the grace period
	Token      string // tells the request that stored the report
	// DisputeReason is what the disputing player wrote for the admin.
	DisputeReason string
}

// ReportDecision confirms or disputes a pending report.
type ReportDecision struct {
	Confirm bool
	BySide  int    // the deciding side; 0 for the grace period
	By      string // the deciding account; "" for the grace period
	// ReportedBy limits the decision to a report made at or before it
	// (the grace period's cutoff; the decision time otherwise).
	ReportedBy time.Time
	At         time.Time
	Token      string // tells the request that decided
	// Reason is the disputing player's reason (at most
	// MaxDisputeReasonRunes characters), shown to the admin.
	Reason string
}

// MaxDisputeReasonRunes bounds the reason a player gives for a dispute.
const MaxDisputeReasonRunes = 500

// CodeNoReport: the match has no player report to accept (409).
const CodeNoReport = "no_report"

// ReportStore keeps reports: a player's report and the other side's
// decision on it. Every change is one conditional batch.
type ReportStore interface {
	// StoreReport stores rep if the match is live or awaiting_result, has
	// no game-client submission and no report yet; a live match moves to
	// awaiting_result in the same batch. Otherwise it stores nothing and
	// answers CodeReportPending, CodeClientResult, CodeAlreadyResolved or
	// CodeNotLive.
	StoreReport(ctx context.Context, rep MatchReport) error
	// MatchReport returns the match's report, or nil when it has none.
	MatchReport(ctx context.Context, matchID int64) (*MatchReport, error)
	// DecideReport applies d to the match's pending report while the
	// match is awaiting_result, in one batch: the report and the match
	// become confirmed (winner, score, resultSource player_report, the
	// bracket seats of st's winner and loser) or disputed (a dispute, or a
	// confirmation contradicted by a game-client submission). It returns
	// the match status the decision produced; CodeNoPendingReport when
	// nothing was decided by this call.
	DecideReport(ctx context.Context, st *MatchState, rep *MatchReport, d ReportDecision) (MatchStatus, error)
}

// ReportResult stores the reporter's report of st: the winner is one of
// the two sides' captains, the score optional. Checks, in order: the
// reporter plays in the match (CodeNotParticipant), the match is not
// resolved (CodeAlreadyResolved), it is live or awaiting_result
// (CodeNotLive), no game client submitted (CodeClientResult), the winner
// (CodeInvalidWinner) and score (CodeInvalidScore); the store then refuses
// a second report (CodeReportPending).
func ReportResult(ctx context.Context, rs ReportStore, st *MatchState, reporter, winner string, score *OutcomeScore, deps Deps) (*MatchReport, error) {
	side := st.SideOf(reporter)
	switch {
	case side == 0:
		return nil, Errorf(CodeNotParticipant, "the reporter plays on neither side")
	case st.Status.Resolved():
		return nil, Errorf(CodeAlreadyResolved, "match %d is resolved", st.ID)
	case st.Status != MatchLive && st.Status != MatchAwaitingResult:
		return nil, Errorf(CodeNotLive, "match %d is %s", st.ID, st.Status)
	case st.SubmittedHash[1] != "" || st.SubmittedHash[2] != "":
		return nil, Errorf(CodeClientResult, "a game client submitted match %d's result", st.ID)
	case winner == "" || (winner != st.P1 && winner != st.P2):
		return nil, FieldError(CodeInvalidWinner, "winner")
	}
	if err := CheckReportedScore(st.P1, winner, score); err != nil {
		return nil, err
	}
	if err := checkSeriesScore(&st.Match, winner, score); err != nil {
		return nil, err
	}
	token, err := RandomHex(deps.Random, 12)
	if err != nil {
		return nil, err
	}
	rep := MatchReport{
		MatchID: st.ID, Side: side, ReporterID: reporter, Winner: winner, Score: score,
		Status: ReportPending, ReportedAt: deps.Now, Token: token,
	}
	if err := rs.StoreReport(ctx, rep); err != nil {
		return nil, err
	}
	return &rep, nil
}

// CheckReportedScore accepts no score, or both scores between 0 and
// MaxReportedScore with the winner's higher (p1 is the slot-1 captain).
func CheckReportedScore(p1, winner string, score *OutcomeScore) error {
	if score == nil {
		return nil
	}
	if score.P1 < 0 || score.P2 < 0 || score.P1 > MaxReportedScore || score.P2 > MaxReportedScore {
		return FieldError(CodeInvalidScore, "score")
	}
	if (winner == p1 && score.P1 <= score.P2) || (winner != p1 && score.P2 <= score.P1) {
		return FieldError(CodeInvalidScore, "score")
	}
	return nil
}

// ReportDecisionStore is what deciding a reported result reads and writes:
// the report, the reports left past their grace period with their
// matches, the admin's decision (ResolveStore) and, for the consequences,
// the tournament. One value, the arena's store, serves it.
type ReportDecisionStore interface {
	ReportStore
	ResolveStore
	MatchStateReader
	// PendingReports returns the matches awaiting_result with a pending
	// report made at least their tournament's grace period before now (its
	// own, else arenaGrace: Tournament.GracePeriod).
	PendingReports(ctx context.Context, now time.Time, arenaGrace time.Duration) ([]int64, error)
}

// ConfirmReport confirms the pending report of st by a player of the other
// side. The match is confirmed (resultSource player_report) and its
// consequences follow (bracket seats, completion with the points table
// deps.Points returns, read only then); or, when a game client submitted
// another winner meanwhile, disputed. It returns the match's new status.
func ConfirmReport(ctx context.Context, rs ReportDecisionStore, st *MatchState, caller string, deps Deps) (MatchStatus, error) {
	status, err := decideByPlayer(ctx, rs, st, caller, true, "", deps)
	if err != nil || status != MatchConfirmed {
		return status, err
	}
	return status, MatchDecided(ctx, rs, &st.Match, deps.Now, deps.Points)
}

// DisputeReport disputes the pending report of st by a player of the
// other side, with the player's reason for the admin (trimmed; over
// MaxDisputeReasonRunes characters is an invalid_field problem): the match
// becomes disputed and waits in the admin's queue.
func DisputeReport(ctx context.Context, rs ReportStore, st *MatchState, caller, reason string, deps Deps) (MatchStatus, error) {
	reason = strings.TrimSpace(reason)
	if utf8.RuneCountInString(reason) > MaxDisputeReasonRunes {
		return "", &Error{Code: CodeInvalidField, Field: "reason", Message: fmt.Sprintf("At most %d characters.", MaxDisputeReasonRunes)}
	}
	return decideByPlayer(ctx, rs, st, caller, false, reason, deps)
}

// AcceptReport is the admin's decision for the result a player reported
// (typically one the other side disputed): the match is resolved with the
// report's winner and score through ResolveMatch, result source
// player_report. CodeNoReport when the match has no report.
func AcceptReport(ctx context.Context, rs ReportDecisionStore, t *Tournament, m *Match, deps Deps) (*Match, error) {
	rep, err := rs.MatchReport(ctx, m.ID)
	if err != nil {
		return nil, err
	}
	if rep == nil {
		return nil, Errorf(CodeNoReport, "match %d has no report", m.ID)
	}
	res := Resolution{Winner: rep.Winner, Score: rep.Score, Source: SourcePlayerReport, At: deps.Now}
	return ResolveMatch(ctx, rs, t, m, res, deps)
}

// decideByPlayer checks, in order: the caller plays in the match
// (CodeNotParticipant), the match is not resolved (CodeAlreadyResolved),
// it has a pending report (CodeNoPendingReport) made by the other side
// (CodeOwnReport); then decides.
func decideByPlayer(ctx context.Context, rs ReportStore, st *MatchState, caller string, confirm bool, reason string, deps Deps) (MatchStatus, error) {
	side := st.SideOf(caller)
	if side == 0 {
		return "", Errorf(CodeNotParticipant, "the caller plays on neither side")
	}
	if st.Status.Resolved() {
		return "", Errorf(CodeAlreadyResolved, "match %d is resolved", st.ID)
	}
	rep, err := rs.MatchReport(ctx, st.ID)
	if err != nil {
		return "", err
	}
	if rep == nil || rep.Status != ReportPending || st.Status != MatchAwaitingResult {
		return "", Errorf(CodeNoPendingReport, "match %d has no pending report", st.ID)
	}
	if rep.Side == side {
		return "", Errorf(CodeOwnReport, "side %d made the report", side)
	}
	token, err := RandomHex(deps.Random, 12)
	if err != nil {
		return "", err
	}
	return rs.DecideReport(ctx, st, rep, ReportDecision{
		Confirm: confirm, BySide: side, By: caller, ReportedBy: deps.Now, At: deps.Now, Token: token, Reason: reason,
	})
}

// RunReportGrace confirms the pending reports nobody contested within
// their tournament's grace period (resultSource player_report), with their
// consequences (bracket seats, completion with points). A report that a
// game-client submission contradicts is disputed instead. It returns how
// many matches it decided; running it again changes nothing more.
func RunReportGrace(ctx context.Context, rs ReportDecisionStore, a *Arena, deps Deps) (int, error) {
	ids, err := rs.PendingReports(ctx, deps.Now, a.GracePeriod())
	if err != nil {
		return 0, err
	}
	done := 0
	for _, id := range ids {
		st, err := rs.MatchState(ctx, id)
		if err != nil {
			return done, err
		}
		rep, err := rs.MatchReport(ctx, id)
		if err != nil {
			return done, err
		}
		if rep == nil {
			continue
		}
		// Concurrent runs decide alike, so they may share the token: each
		// then carries the consequences, which are idempotent.
		cutoff := deps.Now.Add(-st.Tournament.GracePeriod(a))
		status, err := rs.DecideReport(ctx, st, rep, ReportDecision{Confirm: true, ReportedBy: cutoff, At: deps.Now, Token: "grace"})
		if ErrorCode(err) == CodeNoPendingReport {
			continue // decided meanwhile
		}
		if err != nil {
			return done, err
		}
		done++
		if status == MatchConfirmed {
			if err := MatchDecided(ctx, rs, &st.Match, deps.Now, deps.Points); err != nil {
				return done, err
			}
		}
	}
	return done, nil
}
