package core

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"time"
)

// ChangeTournamentStatus moves t one legal lifecycle step to `to` at now:
// entering group_stage draws the groups (snake draw by seed) and schedules
// their round robins; entering playoffs seeds the bracket from the group
// standings (or from registration seeds for playoffs_only), resolving byes
// at once; completed needs the final (and small final) resolved. The step
// is one batch guarded by a token from random; a concurrent second step
// gets CodeInvalidTransition. Asking for the status t already has changes
// nothing and is no error (an admin's script may complete a tournament
// that its final's result completed already).
func ChangeTournamentStatus(ctx context.Context, st TournamentStore, t *Tournament, to TournamentStatus, now time.Time, random io.Reader, points func() PlacementPoints) error {
	if t.Status == to {
		return nil
	}
	if err := t.NextStatusAllowed(to); err != nil {
		return err
	}
	from := t.Status
	switch to {
	case StatusGroupStage, StatusPlayoffs:
		var groups map[string]string
		var matches []Match
		var err error
		if to == StatusGroupStage {
			groups, matches, err = planGroupStage(ctx, st, t, now)
		} else {
			matches, err = planPlayoffs(ctx, st, t, now)
		}
		if err != nil {
			return err
		}
		token, err := RandomHex(random, 16)
		if err != nil {
			return err
		}
		return st.StartStage(ctx, t, from, to, groups, matches, now, token)
	case StatusCompleted:
		done, err := CompleteIfDecided(ctx, st, t, now, points())
		if err != nil {
			return err
		}
		if !done {
			return Errorf(CodeMatchesUnresolved, "the final is not resolved")
		}
		return nil
	}
	return st.SetTournamentStatus(ctx, t, from, to, now)
}

// entrants returns the tournament's sides as draw entrants, in
// registration order.
func entrants(regs []Registration) []Entrant {
	out := make([]Entrant, len(regs))
	for i, r := range regs {
		out[i] = Entrant{ID: r.PlatformID, Seed: r.Seed}
	}
	return out
}

// planGroupStage draws the groups and schedules every group match: round r
// (from 0) of every group opens at start + r windows, start being the
// tournament's startsAt or now, whichever is later.
func planGroupStage(ctx context.Context, st TournamentStore, t *Tournament, now time.Time) (map[string]string, []Match, error) {
	regs, err := st.Registrations(ctx, t.ID)
	if err != nil {
		return nil, nil, err
	}
	draws, err := SnakeDraw(entrants(regs), t.GroupCount)
	if err != nil {
		return nil, nil, err
	}
	start := t.StartsAt
	if start.Before(now) {
		start = now
	}
	window := t.MatchWindow()
	groups := map[string]string{}
	var matches []Match
	for _, g := range draws {
		for _, m := range g.Members {
			groups[m.ID] = g.Name
		}
		for r, round := range RoundRobin(EntrantIDs(g.Members)) {
			opens := start.Add(time.Duration(r) * window)
			for _, f := range round {
				matches = append(matches, Match{
					TournamentID: t.ID, Stage: StageGroup, Round: "Round " + strconv.Itoa(r+1), RoundNumber: r + 1,
					GroupName: g.Name, Status: MatchScheduled, P1: f.P1, P2: f.P2,
					OpensAt: opens, ClosesAt: opens.Add(window),
				})
			}
		}
	}
	return groups, matches, nil
}

// GroupTables returns each group's standings, groups in name order.
func GroupTables(t *Tournament, regs []Registration, matches []Match) (map[string][]StandingRow, []string, error) {
	members := map[string][]Entrant{}
	var names []string
	for _, r := range regs {
		if r.GroupName == "" {
			continue
		}
		if _, ok := members[r.GroupName]; !ok {
			names = append(names, r.GroupName)
		}
		members[r.GroupName] = append(members[r.GroupName], Entrant{ID: r.PlatformID, Seed: r.Seed})
	}
	sortGroupNames(names)
	outcomes := map[string][]MatchOutcome{}
	for i := range matches {
		if m := &matches[i]; m.Stage == StageGroup {
			outcomes[m.GroupName] = append(outcomes[m.GroupName], m.Outcome())
		}
	}
	tables := map[string][]StandingRow{}
	for _, g := range names {
		rows, err := Standings(strconv.FormatInt(t.ID, 10), members[g], outcomes[g])
		if err != nil {
			return nil, nil, fmt.Errorf("core: standings of group %s: %w", g, err)
		}
		tables[g] = rows
	}
	return tables, names, nil
}

// sortGroupNames orders "A".."Z","AA".. as drawn: shorter names first.
func sortGroupNames(names []string) {
	for i := 1; i < len(names); i++ {
		for j := i; j > 0 && groupLess(names[j], names[j-1]); j-- {
			names[j], names[j-1] = names[j-1], names[j]
		}
	}
}

func groupLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// planPlayoffs seeds and materializes the bracket. Round k (from 1) opens
// at now + (k-1) windows. Byes are stored resolved (resultSource bye) with
// their winners already seated in round 2.
func planPlayoffs(ctx context.Context, st TournamentStore, t *Tournament, now time.Time) ([]Match, error) {
	regs, err := st.Registrations(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	var seeded []string
	if t.Format == FormatPlayoffsOnly {
		seeded = EntrantIDs(SeedOrder(entrants(regs)))
	} else {
		matches, err := st.Matches(ctx, t.ID)
		if err != nil {
			return nil, err
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
		ordered := make([][]string, len(names))
		for i, g := range names {
			for _, row := range tables[g] {
				ordered[i] = append(ordered[i], row.PlayerID)
			}
		}
		if seeded, err = CrossSeed(ordered, t.AdvancePerGroup); err != nil {
			return nil, err
		}
	}
	plan, err := PlanBracket(seeded, t.SmallFinal)
	if err != nil {
		return nil, err
	}
	window := t.MatchWindow()
	out := make([]Match, 0, len(plan.Matches))
	for _, bm := range plan.Matches {
		opens := now.Add(time.Duration(bm.RoundNumber-1) * window)
		m := Match{
			TournamentID: t.ID, Stage: string(bm.Stage), Round: bm.Round, RoundNumber: bm.RoundNumber,
			BracketSlot: bm.BracketSlot, Status: MatchScheduled, P1: bm.P1.PlayerID, P2: bm.P2.PlayerID,
			OpensAt: opens, ClosesAt: opens.Add(window), WinnerTo: bm.WinnerTo, LoserTo: bm.LoserTo,
		}
		if bm.Bye {
			resolved := now
			m.Status, m.Winner, m.ResultSource, m.ResolvedAt = MatchConfirmed, bm.Winner, SourceBye, &resolved
		}
		out = append(out, m)
	}
	return out, nil
}

// ResolveMatch records an admin's decision (res, from
// ResolutionDraft.Check): the winner must be one of the match's two
// sides. The store decides the match and seats its winner and loser in one
// batch (tokened from random, so one of two racing admins wins); then
// MatchDecided moves the tournament on, as for every way a match is
// decided.
func ResolveMatch(ctx context.Context, st TournamentStore, t *Tournament, m *Match, res Resolution, random io.Reader, points func() PlacementPoints) (*Match, error) {
	if m.Status.Resolved() {
		return nil, Errorf(CodeAlreadyResolved, "match %d is resolved", m.ID)
	}
	if m.P1 == "" || m.P2 == "" {
		return nil, &Error{Code: CodeInvalidWinner, Field: "winner", Message: "Both sides must be known before the match is decided."}
	}
	if res.Winner != m.P1 && res.Winner != m.P2 {
		return nil, &Error{Code: CodeInvalidWinner, Field: "winner", Message: "The winner must be one of the two sides."}
	}
	token, err := RandomHex(random, 12)
	if err != nil {
		return nil, err
	}
	res.Token = token
	resolved, err := st.ResolveMatch(ctx, m.ID, res)
	if err != nil {
		return nil, err
	}
	if err := MatchDecided(ctx, st, resolved, res.At, points); err != nil {
		return nil, err
	}
	return resolved, nil
}

// CompleteIfDecided completes a playoffs tournament whose final (and small
// final) are resolved: podium, placements and ladder points in one batch.
// It reports whether the tournament is completed afterwards.
func CompleteIfDecided(ctx context.Context, st TournamentStore, t *Tournament, now time.Time, points PlacementPoints) (bool, error) {
	matches, err := st.Matches(ctx, t.ID)
	if err != nil {
		return false, err
	}
	var final, small *Match
	var semis []MatchOutcome
	winners := map[string]string{}
	for i := range matches {
		m := &matches[i]
		switch {
		case m.BracketSlot == BracketSlotFinal:
			final = m
		case m.BracketSlot == BracketSlotSmallFinal:
			small = m
		case m.Stage == StagePlayoff && (m.BracketSlot == "SF1" || m.BracketSlot == "SF2"):
			semis = append(semis, m.Outcome())
		}
		if m.Stage != StageGroup && m.Status.Resolved() {
			winners[m.BracketSlot] = m.Winner
		}
	}
	if final == nil || !final.Status.Resolved() || (small != nil && !small.Status.Resolved()) {
		return false, nil
	}
	var smallOutcome *MatchOutcome
	if small != nil {
		o := small.Outcome()
		smallOutcome = &o
	}
	podium, err := Podium(final.Outcome(), smallOutcome, semis)
	if err != nil {
		return false, err
	}
	placements, err := tournamentPlacements(ctx, st, t, matches)
	if err != nil {
		return false, err
	}
	scored := make([]ScoredPlacement, len(placements))
	for i, p := range placements {
		scored[i] = ScoredPlacement{Placement: p, Points: points.Points(p.Place)}
	}
	if err := st.CompleteTournament(ctx, t, podium, scored, now); err != nil {
		return false, err
	}
	return true, nil
}

// tournamentPlacements places every side: bracket players by the round they
// lost in (podium ranks for the last four), group-only players 0.
func tournamentPlacements(ctx context.Context, st TournamentStore, t *Tournament, matches []Match) ([]Placement, error) {
	regs, err := st.Registrations(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	plan := StoredBracket(matches)
	placed := map[string]int{}
	for _, p := range BracketPlacements(plan) {
		placed[p.PlayerID] = p.Place
	}
	out := make([]Placement, 0, len(regs))
	for _, r := range regs {
		out = append(out, Placement{PlayerID: r.PlatformID, Place: placed[r.PlatformID]})
	}
	return out, nil
}

// StoredBracket rebuilds the bracket plan from a tournament's stored
// playoff matches (group, Swiss and round-robin matches are skipped), with
// players and winners as they stand. Double-elimination slots (W1M1, L2M1,
// GF) make a double-elimination plan, its sections read from the slots.
func StoredBracket(matches []Match) BracketPlan {
	plan := BracketPlan{}
	for _, m := range matches {
		if !IsBracketStage(m.Stage) {
			continue
		}
		bye := m.ResultSource == SourceBye
		bm := BracketMatch{
			Stage: BracketStage(m.Stage), Round: m.Round, RoundNumber: m.RoundNumber, BracketSlot: m.BracketSlot,
			P1: BracketSeat{PlayerID: m.P1}, P2: BracketSeat{PlayerID: m.P2, Bye: bye},
			Bye: bye, Winner: m.Winner, WinnerTo: m.WinnerTo, LoserTo: m.LoserTo,
		}
		if section, r, _, ok := ParseBracketSlot(m.BracketSlot); ok {
			plan.Double, bm.Section, bm.SectionRound = true, section, r
			if section == BracketSectionWinners && r > plan.Rounds {
				plan.Rounds = r
			}
			if m.BracketSlot == BracketSlotGrandFinalReset {
				plan.Reset = true
			}
		} else if m.RoundNumber > plan.Rounds {
			plan.Rounds = m.RoundNumber
		}
		plan.Matches = append(plan.Matches, bm)
	}
	plan.Size = 1 << plan.Rounds
	return plan
}

// IsBracketStage reports whether a match stage is part of a bracket.
func IsBracketStage(stage string) bool {
	return stage == StagePlayoff || stage == StageFinal || stage == StageSmallFinal
}
