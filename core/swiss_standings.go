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
	criteria := []struct {
		name  Tiebreak
		value func(r *SwissRow) int
	}{
		{TiebreakPoints, func(r *SwissRow) int { return r.Points }},
		{TiebreakBuchholz, func(r *SwissRow) int { return r.Buchholz }},
		{TiebreakSonnebornBerger, func(r *SwissRow) int { return r.SonnebornBerger }},
	}
	initial := make(map[string]int, len(entrants))
	for i, e := range entrants {
		initial[e.ID] = i
	}
	compare := func(a, b *SwissRow) (int, Tiebreak) {
		for _, c := range criteria {
			if r := cmp.Compare(c.value(b), c.value(a)); r != 0 {
				return r, c.name
			}
		}
		return cmp.Compare(initial[a.PlayerID], initial[b.PlayerID]), TiebreakSeed
	}
	slices.SortFunc(rows, func(a, b SwissRow) int { r, _ := compare(&a, &b); return r })
	for i := range rows {
		rows[i].Rank = i + 1
		if i+1 < len(rows) {
			_, rows[i].SeparatedBy = compare(&rows[i], &rows[i+1])
		}
	}
	return rows, nil
}
