package core

import (
	"context"
	"time"
)

// AdminScoreRange bounds each side's score in an admin's decision.
var AdminScoreRange = Range{Min: 0, Max: 1000000}

// ResolutionDraft is an admin's decision on a match as it is given: the
// body of POST /api/v1/admin/matches/{id}/resolve, or the admin match
// page's form read into the same type.
type ResolutionDraft struct {
	Winner  string      `json:"winner"`
	Score   *ScoreDraft `json:"score"`
	Forfeit bool        `json:"forfeit"`
	// Game decides only that game of a series (the one being played).
	Game Number `json:"game"`
}

// ScoreDraft is a score as given: both sides' scores, or neither.
type ScoreDraft struct {
	P1 Number `json:"p1"`
	P2 Number `json:"p2"`
}

// Check returns the admin's resolution at `at` (result source admin;
// forfeited when Forfeit is set), or the problems: a winner is named
// (invalid_field) as a 17-digit account id (invalid_steam_id); a score
// has both sides' numbers within AdminScoreRange. Whether the winner is
// one of the match's sides is ResolveMatch's rule.
func (d *ResolutionDraft) Check(at time.Time) (Resolution, Problems) {
	var p Problems
	switch {
	case d.Winner == "":
		p.invalid("winner", "Choose the winner.")
	case !ValidPlatformID(d.Winner):
		p.add(CodeInvalidSteamID, "winner", "Enter a 17-digit account id.")
	}
	res := Resolution{Winner: d.Winner, Forfeit: d.Forfeit, Source: SourceAdmin, At: at, Game: d.Game.N}
	BestOfRange.check(&p, "game", d.Game, false)
	if d.Game.Set && d.Forfeit {
		p.invalid("forfeit", "A forfeit decides the series: leave the game out.")
	}
	if d.Score != nil {
		for _, side := range []struct {
			field string
			n     Number
		}{{"score.p1", d.Score.P1}, {"score.p2", d.Score.P2}} {
			if !side.n.Set && !side.n.bad {
				p.invalid(side.field, "Give both scores, or neither.")
			}
			AdminScoreRange.check(&p, side.field, side.n, false)
		}
		res.Score = &OutcomeScore{P1: d.Score.P1.N, P2: d.Score.P2.N}
	}
	return res, p
}

// WindowDraft is a match's new window as an admin gives it (PATCH
// /api/v1/admin/matches/{id}); an absent end keeps its value.
type WindowDraft struct {
	OpensAt  Instant `json:"opensAt"`
	ClosesAt Instant `json:"closesAt"`
}

// WindowStore moves matches' windows.
type WindowStore interface {
	// RescheduleMatch changes a match's window.
	RescheduleMatch(ctx context.Context, id int64, opensAt, closesAt time.Time, at time.Time) (*Match, error)
}

// Reschedule moves m's window at now: a resolved match keeps its window
// (CodeAlreadyResolved), and the window must close after it opens.
func Reschedule(ctx context.Context, st WindowStore, m *Match, d WindowDraft, now time.Time) (*Match, error) {
	var p Problems
	d.OpensAt.check(&p, "opensAt", false)
	d.ClosesAt.check(&p, "closesAt", false)
	if err := p.Err(); err != nil {
		return nil, err
	}
	if m.Status.Resolved() {
		return nil, Errorf(CodeAlreadyResolved, "match %d is resolved", m.ID)
	}
	opens, closes := m.OpensAt, m.ClosesAt
	if d.OpensAt.Set {
		opens = d.OpensAt.T
	}
	if d.ClosesAt.Set {
		closes = d.ClosesAt.T
	}
	if !closes.After(opens) {
		return nil, &Error{Code: CodeInvalidField, Field: "closesAt", Message: "The window must close after it opens."}
	}
	return st.RescheduleMatch(ctx, m.ID, opens, closes, now)
}
