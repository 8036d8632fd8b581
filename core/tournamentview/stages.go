package tournamentview

import "arena/core"

// Group is one group table with its matches.
type Group struct {
	Name      string
	Standings []Standing
	// Matches are the group's matches, in the store's order.
	Matches []*core.Match
	// Decided is true once every match of the group has its result: the
	// places that advance are final.
	Decided bool
}

// Standing is one line of a group table.
type Standing struct {
	core.StandingRow
	// Advances marks the places that go through to a groups_playoffs
	// tournament's playoffs.
	Advances bool
}

// groups builds the group tables with their matches (core.GroupTables);
// none before the group stage.
func groups(t *core.Tournament, regs []core.Registration, matches []core.Match) ([]Group, error) {
	tables, names, err := core.GroupTables(t, regs, matches)
	if err != nil || len(names) == 0 {
		return nil, err
	}
	byGroup := make(map[string][]*core.Match, len(names))
	open := map[string]bool{} // groups with a match still to decide
	for i := range matches {
		if m := &matches[i]; m.Stage == core.StageGroup || m.Stage == core.StageRoundRobin {
			byGroup[m.GroupName] = append(byGroup[m.GroupName], m)
			if !m.Status.Resolved() {
				open[m.GroupName] = true
			}
		}
	}
	out := make([]Group, 0, len(names))
	for _, name := range names {
		g := Group{Name: name, Standings: make([]Standing, 0, len(tables[name])), Matches: byGroup[name], Decided: !open[name]}
		for _, row := range tables[name] {
			g.Standings = append(g.Standings, Standing{StandingRow: row,
				Advances: t.Format == core.FormatGroupsPlayoffs && row.Rank <= t.AdvancePerGroup})
		}
		out = append(out, g)
	}
	return out, nil
}

// Swiss is a Swiss stage: Round of Rounds paired so far (0 before the
// draw), the top cut (0: none), the standings and the matches.
type Swiss struct {
	Rounds, Round, TopCut int
	Standings             []SwissStanding
	// Matches are every Swiss match, in the store's order.
	Matches []core.Match
	// RoundMatches are the matches by round, the latest round first.
	RoundMatches []SwissRound
	// Decided is true once the last round is played: the top cut is final.
	Decided bool
}

// SwissStanding is one line of the Swiss standings.
type SwissStanding struct {
	core.SwissRow
	// Advances marks the places of the top cut.
	Advances bool
}

// SwissRound is one Swiss round's matches, in board order.
type SwissRound struct {
	Number  int
	Matches []*core.Match
}

// swiss builds a Swiss stage's standings and rounds (core.SwissTable).
func swiss(t *core.Tournament, regs []core.Registration, matches []core.Match) (*Swiss, error) {
	rows, played, err := core.SwissTable(t, regs, matches)
	if err != nil {
		return nil, err
	}
	sw := &Swiss{Rounds: t.SwissRoundsFor(len(regs)), TopCut: t.TopCut, Matches: played}
	for _, row := range rows {
		sw.Standings = append(sw.Standings, SwissStanding{SwissRow: row, Advances: row.Rank <= t.TopCut})
	}
	decided := len(played) > 0
	for i := range played {
		m := &played[i]
		if m.RoundNumber > sw.Round {
			sw.Round = m.RoundNumber
			sw.RoundMatches = append([]SwissRound{{Number: m.RoundNumber}}, sw.RoundMatches...)
		}
		for j := range sw.RoundMatches {
			if sw.RoundMatches[j].Number == m.RoundNumber {
				sw.RoundMatches[j].Matches = append(sw.RoundMatches[j].Matches, m)
			}
		}
		if !m.Status.Resolved() {
			decided = false
		}
	}
	sw.Decided = decided && sw.Round >= sw.Rounds
	return sw, nil
}
