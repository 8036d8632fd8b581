package core

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// CompletionStore reads a tournament's play and stores its completion:
// what CompleteIfDecided reads and writes.
type CompletionStore interface {
	// TournamentPlay reads the tournament with the id, its sides (in
	// registration order) and its matches (as Matches orders them)
	// together: one round trip to a remote database.
	TournamentPlay(ctx context.Context, id int64) (*Tournament, []Registration, []Match, error)
	// CompleteTournament moves t from playoffs to completed and stores its
	// podium and placements in one batch; a second call changes nothing.
	CompleteTournament(ctx context.Context, t *Tournament, podium []PodiumPlace, placements []ScoredPlacement, at time.Time) error
}

// CompleteIfDecided completes a tournament whose deciding matches are
// resolved: podium, placements and ladder points in one batch. It reports
// whether the tournament is completed afterwards. What decides, by format
// (see TournamentFinish): the final and small final of a single-elimination
// bracket (groups_playoffs, playoffs_only, a Swiss top cut); the grand
// final, or its reset when played, of a double elimination; every match of
// a round robin, or every Swiss round without a top cut, whose standings
// then rank everyone.
func CompleteIfDecided(ctx context.Context, st CompletionStore, t *Tournament, now time.Time, points PlacementPoints) (bool, error) {
	_, regs, matches, err := st.TournamentPlay(ctx, t.ID)
	if err != nil {
		return false, err
	}
	return completeIfDecided(ctx, st, t, regs, matches, now, func() PlacementPoints { return points })
}

// completeIfDecided is CompleteIfDecided on t's sides and matches read
// already; the points table is read (points) only when t is done.
func completeIfDecided(ctx context.Context, st CompletionStore, t *Tournament, regs []Registration, matches []Match, now time.Time, pointsOf func() PlacementPoints) (bool, error) {
	podium, placements, done, err := TournamentFinish(t, regs, matches)
	if err != nil || !done {
		return false, err
	}
	podium, scored := scoredFinish(regs, podium, placements, pointsOf())
	if err := st.CompleteTournament(ctx, t, podium, scored, now); err != nil {
		return false, err
	}
	return true, nil
}

// scoredFinish is a finished tournament's podium and placements with
// their ladder points: a disqualified side has no podium place, no place
// and no points.
func scoredFinish(regs []Registration, podium []PodiumPlace, placements []Placement, points PlacementPoints) ([]PodiumPlace, []ScoredPlacement) {
	disqualified := disqualifiedSides(regs)
	podium = slices.DeleteFunc(podium, func(p PodiumPlace) bool { return disqualified[p.PlayerID] })
	scored := make([]ScoredPlacement, len(placements))
	for i, p := range placements {
		scored[i] = ScoredPlacement{Placement: p, Points: points.Points(p.Place)}
		if disqualified[p.PlayerID] { // no place, no ladder points
			scored[i] = ScoredPlacement{Placement: Placement{PlayerID: p.PlayerID}}
		}
	}
	return podium, scored
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
		case played && reset.Winner == "":
			// The reset is played once stored, and it is stored by the
			// grand final's decision when it is due: sql/queries/
			// decided.sql insert_grand_final_reset, the rule's one home.
			// (CompletionAhead, working on the matches before the
			// decision, cannot see it coming: the reset it inserts
			// fails the completion's condition.)
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

// A Completion is the consequence of a decision worked out before the
// decision is stored, from the tournament read with the match (DESIGN.md
// "Round trips and placement": a confirming final in two round trips).
// The store writes it in the deciding batch, on the condition that the
// tournament's matches and sides are then exactly as Matches and Sides
// say (PlayFingerprint): the state it was worked out on with the decision
// made. Otherwise it writes nothing and reports so, and MatchDecided
// works the consequences out after the decision, as without one.
type Completion struct {
	Tournament *Tournament
	// Done: the decision completes the tournament, with Podium and
	// Placements; false: it leaves the tournament unfinished, and there
	// is nothing to write.
	Done       bool
	Podium     []PodiumPlace
	Placements []ScoredPlacement
	At         time.Time
	// Matches and Sides fingerprint the tournament after the decision.
	Matches, Sides string
}

// CompletionAhead works out what deciding m with winner (and score)
// does to its tournament t, whose sides and matches (m among them, as
// read before the decision) are regs and matches: nil when this cannot
// be worked out ahead (m is not a final or small final of a bracket, or
// a series whose deciding game is not known). points is read only when
// the tournament completes.
func CompletionAhead(t *Tournament, regs []Registration, matches []Match, m *Match, winner string, score *OutcomeScore, now time.Time, points func() PlacementPoints) (*Completion, error) {
	if t == nil || (m.Stage != StageFinal && m.Stage != StageSmallFinal) || m.SeriesLen() != 1 ||
		t.Format == FormatRoundRobin || (t.Format == FormatSwiss && t.TopCut == 0) {
		return nil, nil
	}
	after := slices.Clone(matches)
	found := false
	for i := range after {
		if after[i].ID == m.ID {
			after[i].Status, after[i].Winner, after[i].Score, found = MatchConfirmed, winner, score, true
		}
	}
	if !found {
		return nil, nil
	}
	c := &Completion{Tournament: t, At: now}
	c.Matches, c.Sides = PlayFingerprint(after, regs)
	podium, placements, done, err := TournamentFinish(t, regs, after)
	if err != nil || !done {
		return c, err
	}
	c.Done = true
	c.Podium, c.Placements = scoredFinish(regs, podium, placements, points())
	return c, nil
}

// PlayFingerprint is what a Completion's condition compares: every match
// of the tournament as "id:status:winner" in id order, and its sides as
// "count:disqualified" (sql/queries/decided.sql play_fingerprint computes
// the same in the database).
func PlayFingerprint(matches []Match, regs []Registration) (string, string) {
	sorted := slices.Clone(matches)
	slices.SortFunc(sorted, func(a, b Match) int { return cmp.Compare(a.ID, b.ID) })
	parts := make([]string, len(sorted))
	for i, m := range sorted {
		parts[i] = fmt.Sprintf("%d:%s:%s", m.ID, m.Status, m.Winner)
	}
	return strings.Join(parts, ","), fmt.Sprintf("%d:%d", len(regs), len(disqualifiedSides(regs)))
}
