package core

import (
	"context"
	"strconv"
	"time"
)

// planGroupStage draws the stage the format starts with, from regs (with
// the seeds the draw uses), and schedules its matches. Groups (or the
// round robin's one group, "A") are drawn by snake draw and play round
// robins: round r (from 0) of every group opens at start + r windows,
// start being the tournament's startsAt or now, whichever is later; GSL
// groups play their five matches instead (gsl.go). A Swiss stage pairs
// its first round, opening at start.
func planGroupStage(t *Tournament, regs []Registration, now time.Time) (map[string]string, []Match, error) {
	start := t.StartsAt
	if start.Before(now) {
		start = now
	}
	if t.Format == FormatSwiss {
		matches, err := planSwissRound(t, regs, nil, 1, start)
		return nil, matches, err
	}
	if t.Format == FormatGroupsPlayoffs && t.GroupFormat == GroupFormatGSL {
		return planGSLGroups(t, regs, start)
	}
	groupCount, stage := t.GroupCount, StageGroup
	if t.Format == FormatRoundRobin {
		groupCount, stage = 1, StageRoundRobin
	}
	draws, err := SnakeDraw(entrants(regs), groupCount)
	if err != nil {
		return nil, nil, err
	}
	window, bestOf := t.MatchWindowFor(stage), t.SeriesLength(stage)
	groups := map[string]string{}
	var matches []Match
	for _, g := range draws {
		for _, m := range g.Members {
			groups[m.ID] = g.Name
		}
		for r, round := range RoundRobin(EntrantIDs(g.Members)) {
			opens := t.paceWindow(start.Add(time.Duration(r)*window), start, true)
			for _, f := range round {
				matches = append(matches, Match{
					TournamentID: t.ID, Stage: stage, Round: "Round " + strconv.Itoa(r+1), RoundNumber: r + 1,
					GroupName: g.Name, Status: MatchScheduled, P1: f.P1, P2: f.P2,
					OpensAt: opens, ClosesAt: opens.Add(window), BestOf: bestOf,
				})
			}
		}
	}
	return groups, matches, nil
}

// SwissRoundsFor is the number of Swiss rounds t plays with n sides: its
// setting, or DefaultSwissRounds(n).
func (t *Tournament) SwissRoundsFor(n int) int {
	if t.SwissRounds > 0 {
		return t.SwissRounds
	}
	return DefaultSwissRounds(n)
}

// planSwissRound pairs Swiss round r from the earlier rounds' matches
// (played; unresolved ones are not allowed here) and returns its matches,
// slots S<r>M<i> in board order and the bye last, resolved at opens. The
// first round checks the stage can be played: the rounds within
// MaxSwissRounds of the sides, the top cut no larger than the field.
func planSwissRound(t *Tournament, regs []Registration, played []Match, r int, opens time.Time) ([]Match, error) {
	field := SeedOrder(entrants(regs))
	n := len(field)
	if r == 1 {
		switch rounds := t.SwissRoundsFor(n); {
		case n < 2:
			return nil, Errorf(CodeTooFewEntrants, "%d sides; Swiss needs 2", n)
		case rounds > MaxSwissRounds(n):
			return nil, Errorf(CodeTooFewEntrants, "%d sides can play at most %d Swiss rounds without a rematch, not %d", n, MaxSwissRounds(n), rounds)
		case t.TopCut > n:
			return nil, Errorf(CodeTooFewEntrants, "%d sides cannot fill a top cut of %d", n, t.TopCut)
		}
	}
	outcomes := make([]MatchOutcome, 0, len(played))
	for i := range played {
		outcomes = append(outcomes, played[i].Outcome())
	}
	round, err := PairSwissRound(field, outcomes)
	if err != nil {
		return nil, err
	}
	window, bestOf := t.MatchWindowFor(StageSwiss), t.SeriesLength(StageSwiss)
	label := "Round " + strconv.Itoa(r)
	matches := make([]Match, 0, len(round.Fixtures)+1)
	for i, f := range round.Fixtures {
		matches = append(matches, Match{TournamentID: t.ID, Stage: StageSwiss, Round: label, RoundNumber: r,
			BracketSlot: SwissSlot(r, i+1), Status: MatchScheduled, P1: f.P1, P2: f.P2,
			OpensAt: opens, ClosesAt: opens.Add(window), BestOf: bestOf})
	}
	if round.Bye != "" {
		resolved := opens
		matches = append(matches, Match{TournamentID: t.ID, Stage: StageSwiss, Round: label, RoundNumber: r,
			BracketSlot: SwissSlot(r, len(round.Fixtures)+1), Status: MatchConfirmed, P1: round.Bye,
			Winner: round.Bye, ResultSource: SourceBye, OpensAt: opens, ClosesAt: opens.Add(window), ResolvedAt: &resolved,
			BestOf: bestOf})
	}
	return matches, nil
}

// planPlayoffs seeds and materializes the bracket the format plays:
// single elimination from registration seeds (playoffs_only), from the
// groups' standings cross-seeded (groups_playoffs) or from the Swiss
// standings' top cut, or double elimination from registration seeds.
func planPlayoffs(ctx context.Context, st MatchReader, t *Tournament, regs []Registration, now time.Time) ([]Match, error) {
	switch t.Format {
	case FormatPlayoffsOnly:
		plan, err := PlanBracket(EntrantIDs(SeedOrder(entrants(regs))), t.SmallFinal)
		if err != nil {
			return nil, err
		}
		return bracketMatches(t, plan, now), nil
	case FormatDoubleElimination:
		plan, err := PlanDoubleElimination(EntrantIDs(SeedOrder(entrants(regs))), t.GrandFinalReset)
		if err != nil {
			return nil, err
		}
		return bracketMatches(t, plan, now), nil
	}
	matches, err := st.Matches(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	if t.Format == FormatSwiss {
		return planTopCut(t, regs, matches, now)
	}
	for i := range matches {
		if matches[i].Stage == StageGroup && !matches[i].Status.Resolved() {
			return nil, Errorf(CodeMatchesUnresolved, "group match %d is not resolved", matches[i].ID)
		}
	}
	tables, names, err := GroupTables(t, regs, matches)
	if err != nil {
		return nil, err
	}
	disqualified := disqualifiedSides(regs)
	ordered := make([][]string, len(names))
	for i, g := range names {
		for _, row := range tables[g] {
			if !disqualified[row.PlayerID] { // qualifies for nothing
				ordered[i] = append(ordered[i], row.PlayerID)
			}
		}
	}
	seeded, err := CrossSeed(ordered, t.AdvancePerGroup)
	if err != nil {
		return nil, err
	}
	plan, err := PlanBracket(seeded, t.SmallFinal)
	if err != nil {
		return nil, err
	}
	return bracketMatches(t, plan, now), nil
}

// planTopCut seeds the Swiss standings' top t.TopCut into a
// single-elimination bracket once every Swiss round is played.
func planTopCut(t *Tournament, regs []Registration, matches []Match, now time.Time) ([]Match, error) {
	rows, _, err := SwissTable(t, regs, matches)
	if err != nil {
		return nil, err
	}
	if played, rounds := swissRoundsPlayed(matches), t.SwissRoundsFor(len(regs)); played < rounds || !stageResolved(matches, StageSwiss) {
		return nil, Errorf(CodeMatchesUnresolved, "%d of %d Swiss rounds are decided", played, rounds)
	}
	disqualified := disqualifiedSides(regs)
	seeded := make([]string, 0, t.TopCut)
	for _, row := range rows {
		if len(seeded) < t.TopCut && !disqualified[row.PlayerID] { // qualifies for nothing
			seeded = append(seeded, row.PlayerID)
		}
	}
	plan, err := PlanBracket(seeded, t.SmallFinal)
	if err != nil {
		return nil, err
	}
	return bracketMatches(t, plan, now), nil
}

// bracketMatches stores a planned bracket: step k (the plan's RoundNumber)
// opens at now + (k-1) playoff windows (a window per game of a playoff
// series), each match's window as long as its own series; byes are stored resolved (resultSource
// bye) with their winners already seated. A double elimination's reset
// (GF2) is not stored: the grand final's decision creates it when it is
// played.
func bracketMatches(t *Tournament, plan BracketPlan, now time.Time) []Match {
	step := t.MatchWindowFor(StagePlayoff)
	out := make([]Match, 0, len(plan.Matches))
	for _, bm := range plan.Matches {
		if bm.BracketSlot == BracketSlotGrandFinalReset {
			continue
		}
		opens := t.paceWindow(now.Add(time.Duration(bm.RoundNumber-1)*step), now, bm.P1.PlayerID != "" && bm.P2.PlayerID != "")
		m := Match{
			TournamentID: t.ID, Stage: bm.Stage, Round: bm.Round, RoundNumber: bm.RoundNumber,
			BracketSlot: bm.BracketSlot, Status: MatchScheduled, P1: bm.P1.PlayerID, P2: bm.P2.PlayerID,
			OpensAt: opens, ClosesAt: opens.Add(t.MatchWindowFor(bm.Stage)), WinnerTo: bm.WinnerTo, LoserTo: bm.LoserTo,
			BestOf: t.SeriesLength(bm.Stage),
		}
		if bm.Bye {
			resolved := now
			m.Status, m.Winner, m.ResultSource, m.ResolvedAt = MatchConfirmed, bm.Winner, SourceBye, &resolved
		}
		out = append(out, m)
	}
	return out
}

// stageResolved reports whether every match of the stage is resolved.
func stageResolved(matches []Match, stage MatchStage) bool {
	for i := range matches {
		if matches[i].Stage == stage && !matches[i].Status.Resolved() {
			return false
		}
	}
	return true
}

// swissRoundsPlayed is the highest Swiss round stored.
func swissRoundsPlayed(matches []Match) int {
	r := 0
	for i := range matches {
		if matches[i].Stage == StageSwiss {
			r = max(r, matches[i].RoundNumber)
		}
	}
	return r
}

// SwissTable returns the Swiss standings of t's stage and its matches.
func SwissTable(t *Tournament, regs []Registration, matches []Match) ([]SwissRow, []Match, error) {
	var swiss []Match
	var outcomes []MatchOutcome
	for i := range matches {
		if matches[i].Stage == StageSwiss {
			swiss = append(swiss, matches[i])
			outcomes = append(outcomes, matches[i].Outcome())
		}
	}
	rows, err := SwissStandings(SeedOrder(entrants(regs)), outcomes)
	return rows, swiss, err
}
