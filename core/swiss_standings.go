package core

import (
	"cmp"
	"slices"
)

// Swiss standings' tie-breaks, after points.
const (
	TiebreakBuchholz        Tiebreak = "buchholz"
	TiebreakSonnebornBerger Tiebreak = "sonneborn_berger"
)

// SwissRow is one player's line in the Swiss standings. Points are 1 per
// win, a bye counting as a win; Played, Wins and Losses count matches
// played (byes are not). Buchholz is the sum of the points of every
// opponent played; SonnebornBerger the sum of the points of every
// opponent beaten.
type SwissRow struct {
	Rank            int      `json:"rank"`
	PlayerID        string   `json:"playerId"`
	Played          int      `json:"played"`
	Wins            int      `json:"wins"`
	Losses          int      `json:"losses"`
	Byes            int      `json:"byes"`
	ScoreDiff       int      `json:"scoreDiff"`
	Points          int      `json:"points"`
	Buchholz        int      `json:"buchholz"`
	SonnebornBerger int      `json:"sonnebornBerger"`
	SeparatedBy     Tiebreak `json:"separatedBy"`
}

// SwissStandings ranks the players of a Swiss stage: points, then
// Buchholz, then Sonneborn-Berger, then the initial rank (entrants are
// given in initial rank order, SeedOrder). Unresolved outcomes are
// skipped; a bye is an outcome whose P2 is "". SeparatedBy names the
// criterion that put each row above the next ("" on the last).
//
// It returns an error (code internal) for a repeated entrant or an
// outcome naming someone else.
func SwissStandings(entrants []Entrant, outcomes []MatchOutcome) ([]SwissRow, error) {
	tally, err := tallySwiss(entrants, outcomes)
	if err != nil {
		return nil, err
	}
	rows := make([]SwissRow, len(entrants))
	for i, e := range entrants {
		t := &tally[i]
		row := SwissRow{PlayerID: e.ID, Played: t.wins + t.losses, Wins: t.wins, Losses: t.losses, Byes: t.byes,
			ScoreDiff: t.scoresWon - t.scoresLost, Points: t.points}
		for _, o := range t.played {
			row.Buchholz += tally[o].points
		}
		for _, o := range t.beat {
			row.SonnebornBerger += tally[o].points
		}
		rows[i] = row
	}
	// compare orders rows a and b (indexes into rows, which are in
	// initial rank order) and names what decided it.
	compare := func(a, b int) (int, Tiebreak) {
		ra, rb := &rows[a], &rows[b]
		switch {
		case ra.Points != rb.Points:
			return cmp.Compare(rb.Points, ra.Points), TiebreakPoints
		case ra.Buchholz != rb.Buchholz:
			return cmp.Compare(rb.Buchholz, ra.Buchholz), TiebreakBuchholz
		case ra.SonnebornBerger != rb.SonnebornBerger:
			return cmp.Compare(rb.SonnebornBerger, ra.SonnebornBerger), TiebreakSonnebornBerger
		}
		return cmp.Compare(a, b), TiebreakSeed
	}
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { r, _ := compare(a, b); return r })
	ranked := make([]SwissRow, len(rows))
	for pos, i := range order {
		ranked[pos] = rows[i]
		ranked[pos].Rank = pos + 1
		if pos+1 < len(order) {
			_, ranked[pos].SeparatedBy = compare(i, order[pos+1])
		}
	}
	rows = ranked
	return rows, nil
}
