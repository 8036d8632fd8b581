package core

import (
	"context"
	"slices"
	"time"
)

// CompleteIfDecided completes a tournament whose deciding matches are
// resolved: podium, placements and ladder points in one batch. It reports
// whether the tournament is completed afterwards. What decides, by format
// (see TournamentFinish): the final and small final of a single-elimination
// bracket (groups_playoffs, playoffs_only, a Swiss top cut); the grand
// final, or its reset when played, of a double elimination; every match of
// a round robin, or every Swiss round without a top cut, whose standings
// then rank everyone.
func CompleteIfDecided(ctx context.Context, st TournamentStore, t *Tournament, now time.Time, points PlacementPoints) (bool, error) {
	_, regs, matches, err := st.TournamentPlay(ctx, t.ID)
	if err != nil {
		return false, err
	}
	return completeIfDecided(ctx, st, t, regs, matches, now, func() PlacementPoints { return points })
}

// completeIfDecided is CompleteIfDecided on t's sides and matches read
// already; the points table is read (points) only when t is done.
func completeIfDecided(ctx context.Context, st TournamentStore, t *Tournament, regs []Registration, matches []Match, now time.Time, pointsOf func() PlacementPoints) (bool, error) {
	podium, placements, done, err := TournamentFinish(t, regs, matches)
	if err != nil || !done {
		return false, err
	}
	points := pointsOf()
	disqualified := disqualifiedSides(regs)
	podium = slices.DeleteFunc(podium, func(p PodiumPlace) bool { return disqualified[p.PlayerID] })
	scored := make([]ScoredPlacement, len(placements))
	for i, p := range placements {
		scored[i] = ScoredPlacement{Placement: p, Points: points.Points(p.Place)}
		if disqualified[p.PlayerID] { // no place, no ladder points
			scored[i] = ScoredPlacement{Placement: Placement{PlayerID: p.PlayerID}}
		}
	}
	if err := st.CompleteTournament(ctx, t, podium, scored, now); err != nil {
		return false, err
	}
	return true, nil
}

// TournamentFinish returns a finished tournament's podium and every
// side's placement (in registration order), or done false while its
// deciding matches are not all resolved. Placements: bracket players by
// the round they went out in (BracketPlacements), the other sides of a
// Swiss top cut by their Swiss rank, group-stage-only sides 0; round-robin
// and Swiss sides (no top cut) by their standings' rank, whose top three
// are the podium.
func TournamentFinish(t *Tournament, regs []Registration, matches []Match) (podium []PodiumPlace, placements []Placement, done bool, err error) {
	placed := map[string]int{}
	switch {
	case t.Format == FormatRoundRobin || (t.Format == FormatSwiss && t.TopCut == 0):
		var ranked []string
		if t.Format == FormatRoundRobin {
			if !stageResolved(matches, StageRoundRobin) {
				return nil, nil, false, nil
			}
			tables, names, err := GroupTables(t, regs, matches)
			if err != nil || len(names) == 0 {
				return nil, nil, false, err
			}
			for _, row := range tables[names[0]] {
				ranked = append(ranked, row.PlayerID)
			}
		} else {
			if swissRoundsPlayed(matches) < t.SwissRoundsFor(len(regs)) || !stageResolved(matches, StageSwiss) {
				return nil, nil, false, nil
			}
			rows, _, err := SwissTable(t, regs, matches)
			if err != nil {
				return nil, nil, false, err
			}
			for _, row := range rows {
				ranked = append(ranked, row.PlayerID)
			}
		}
		for i, id := range ranked {
			placed[id] = i + 1
			if i < 3 {
				podium = append(podium, PodiumPlace{Rank: i + 1, PlayerID: id})
			}
		}
	case t.Format == FormatDoubleElimination:
		plan := StoredBracket(matches)
		grand, ok := plan.MatchAt(BracketSlotGrandFinal)
		reset, played := plan.MatchAt(BracketSlotGrandFinalReset)
		switch {
		case !ok || grand.Winner == "":
			return nil, nil, false, nil
		case grand.Winner == grand.P2.PlayerID && t.GrandFinalReset && (!played || reset.Winner == ""):
			return nil, nil, false, nil
		}
		for _, p := range BracketPlacements(plan) {
			placed[p.PlayerID] = p.Place
			if p.Place <= 4 {
				podium = append(podium, PodiumPlace{Rank: p.Place, PlayerID: p.PlayerID})
			}
		}
	default:
		var final, small *Match
		var semis []MatchOutcome
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
		}
		if final == nil || !final.Status.Resolved() || (small != nil && !small.Status.Resolved()) {
			return nil, nil, false, nil
		}
		var smallOutcome *MatchOutcome
		if small != nil {
			o := small.Outcome()
			smallOutcome = &o
		}
		if podium, err = Podium(final.Outcome(), smallOutcome, semis); err != nil {
			return nil, nil, false, err
		}
		for _, p := range BracketPlacements(StoredBracket(matches)) {
			placed[p.PlayerID] = p.Place
		}
		if t.Format == FormatSwiss { // the sides the top cut left out keep their Swiss rank
			rows, _, err := SwissTable(t, regs, matches)
			if err != nil {
				return nil, nil, false, err
			}
			for _, row := range rows {
				if _, ok := placed[row.PlayerID]; !ok {
					placed[row.PlayerID] = row.Rank
				}
			}
		}
	}
	placements = make([]Placement, 0, len(regs))
	for _, r := range regs {
		placements = append(placements, Placement{PlayerID: r.PlatformID, Place: placed[r.PlatformID]})
	}
	return podium, placements, true, nil
}
