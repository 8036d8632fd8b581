package core

import (
	"context"
	"slices"
	"time"
)

// Pacing (DESIGN.md "Series and the pace of results"): when a match's
// window opens. Scheduled pacing keeps the planned windows (a round opens
// a window after the one before); asap opens a match's window the moment
// both its sides are known (round one at the start) and gives it its N
// windows from then. The store moves a window forward in the batch that
// seats the match's second side (queries/series.sql pace_seated); the
// admin opens a whole round now with OpenRound.

// Pacing is a tournament's pace.
type Pacing string

// Paces.
const (
	PacingScheduled Pacing = "scheduled"
	PacingASAP      Pacing = "asap"
)

// Pacings are the paces, the default first.
var Pacings = []Pacing{PacingScheduled, PacingASAP}

// PacingOrDefault is t's pace (scheduled for a tournament stored
// without one).
func (t *Tournament) PacingOrDefault() Pacing {
	if t.Pacing == "" {
		return PacingScheduled
	}
	return t.Pacing
}

// ValidPacing reports whether p is one of the paces.
func ValidPacing(p Pacing) bool { return slices.Contains(Pacings, p) }

// CodeRoundNotFound: the tournament has no round of that label (404).
const CodeRoundNotFound = "round_not_found"

// RoundStore reads a round's matches and opens them.
type RoundStore interface {
	MatchReader
	// OpenMatches opens now the scheduled matches of t with the ids whose
	// sides are known, in one statement: each window from now for its
	// series' length (a window that is open already keeps its start). It
	// returns the ids (a match that left scheduled meanwhile is left as
	// it is).
	OpenMatches(ctx context.Context, t *Tournament, ids []int64, now time.Time) ([]int64, error)
}

// OpenRound opens now every scheduled match of round (a label as the
// admin match list gives it: "Round 2", "Final") of t whose sides are
// known, and returns their ids (none: an empty list). CodeRoundNotFound
// when t has no match of that round.
func OpenRound(ctx context.Context, st RoundStore, t *Tournament, round string, now time.Time) ([]int64, error) {
	matches, err := st.Matches(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	found := false
	var ids []int64
	for _, m := range matches {
		if m.Round != round {
			continue
		}
		found = true
		if m.Status == MatchScheduled && m.P1 != "" && m.P2 != "" {
			ids = append(ids, m.ID)
		}
	}
	if !found {
		return nil, &Error{Code: CodeRoundNotFound, Field: "round", Message: "The tournament has no round " + round + "."}
	}
	if len(ids) == 0 {
		return []int64{}, nil
	}
	return st.OpenMatches(ctx, t, ids, now)
}

// paceWindow returns when a match of t planned to open at opens, with its
// sides known, opens under t's pace: start for asap, opens otherwise.
func (t *Tournament) paceWindow(opens, start time.Time, known bool) time.Time {
	if t.Pacing == PacingASAP && known && start.Before(opens) {
		return start
	}
	return opens
}
