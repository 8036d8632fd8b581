package core

import (
	"cmp"
	"fmt"
	"slices"
)

// PodiumPlace is one podium step.
type PodiumPlace struct {
	Rank     int    `json:"rank"`
	PlayerID string `json:"playerId"`
}

// Podium ranks the top of a finished bracket: the final's winner 1 and loser
// 2; with a small final its winner 3 and loser 4; without one (smallFinal
// nil) every semifinal loser shares rank 3, in the order semifinals are
// given. A semifinal without a second player (a bye) has no loser and is
// skipped; with only two entrants there are no semifinals and the podium
// stops at 2. It returns an error (code internal) when the final or the
// small final is unresolved or names a winner who did not play it, or when
// a semifinal that was played is unresolved.
func Podium(final MatchOutcome, smallFinal *MatchOutcome, semifinals []MatchOutcome) ([]PodiumPlace, error) {
	if err := checkDecided("final", final); err != nil {
		return nil, err
	}
	podium := []PodiumPlace{{1, final.Winner}, {2, final.Loser()}}
	if smallFinal != nil {
		if err := checkDecided("small final", *smallFinal); err != nil {
			return nil, err
		}
		return append(podium, PodiumPlace{3, smallFinal.Winner}, PodiumPlace{4, smallFinal.Loser()}), nil
	}
	for i, sf := range semifinals {
		if sf.P1 == "" || sf.P2 == "" {
			continue
		}
		if err := checkDecided(fmt.Sprintf("semifinal %d", i+1), sf); err != nil {
			return nil, err
		}
		podium = append(podium, PodiumPlace{3, sf.Loser()})
	}
	return podium, nil
}

func checkDecided(name string, o MatchOutcome) error {
	if !o.Resolved() {
		return fmt.Errorf("podium: the %s (%s vs %s) is unresolved", name, o.P1, o.P2)
	}
	if o.Winner != o.P1 && o.Winner != o.P2 {
		return fmt.Errorf("podium: %s did not play the %s", o.Winner, name)
	}
	return nil
}

// Placement is where a player finished in the playoffs.
type Placement struct {
	PlayerID string `json:"playerId"`
	Place    int    `json:"place"`
}

// BracketPlacements returns the finishing place of every player whose run
// in plan (a stored bracket, StoredBracket: seated by its decisions) is
// over, best first and then by bracket seed. A player eliminated in a round of k matches shares
// place k+1 with the other losers of that round: quarterfinal losers are
// 5th, round-of-16 losers 9th, semifinal losers 3rd when there is no small
// final. The final decides 1 and 2, the small final 3 and 4. Byes eliminate
// nobody, and a player still in the bracket is not listed.
//
// In a double elimination (plan.Double) only the losers' bracket and the
// grand final eliminate: the grand final (or its reset, when played)
// decides 1 and 2, and a loser of losers' round r shares place 3 plus the
// number of losers' matches in later rounds (the losers' final's loser is
// 3rd, the round before's 4th, then 5th-6th, 7th-8th, ...).
func BracketPlacements(plan BracketPlan) []Placement {
	type finish struct {
		Placement
		seed int
	}
	var finishes []finish
	add := func(seat BracketSeat, place int) {
		finishes = append(finishes, finish{Placement{seat.PlayerID, place}, seat.Seed})
	}
	if plan.Double {
		later := map[int]int{} // losers' round -> matches in later losers' rounds
		for _, m := range plan.Matches {
			if m.Section == BracketSectionLosers {
				for r := 1; r < m.SectionRound; r++ {
					later[r]++
				}
			}
		}
		var grand, reset *BracketMatch
		for i := range plan.Matches {
			m := &plan.Matches[i]
			switch {
			case m.Winner == "" || m.Bye:
			case m.Section == BracketSectionLosers:
				_, lost := m.seats()
				add(lost, 3+later[m.SectionRound])
			case m.BracketSlot == BracketSlotGrandFinal:
				grand = m
			case m.BracketSlot == BracketSlotGrandFinalReset:
				reset = m
			}
		}
		// The reset is played once stored: the grand final's decision
		// stores it when it is due (decided.sql insert_grand_final_reset).
		decider := grand
		if plan.Reset {
			decider = reset // nil until the reset is decided
		}
		if decider != nil {
			won, lost := decider.seats()
			add(won, 1)
			add(lost, 2)
		}
	}
	for _, m := range plan.Matches {
		if plan.Double || m.Winner == "" || m.Bye {
			continue
		}
		won, lost := m.P1, m.P2
		if m.Winner == m.P2.PlayerID {
			won, lost = m.P2, m.P1
		}
		switch {
		case m.Stage == StageFinal:
			add(won, 1)
			add(lost, 2)
		case m.Stage == StageSmallFinal:
			add(won, 3)
			add(lost, 4)
		case m.LoserTo.BracketSlot == "": // a semifinal loser with a small final still plays
			add(lost, (plan.Size>>m.RoundNumber)+1)
		}
	}
	slices.SortFunc(finishes, func(a, b finish) int {
		return cmp.Or(cmp.Compare(a.Place, b.Place), cmp.Compare(a.seed, b.seed))
	})
	placements := make([]Placement, len(finishes))
	for i, f := range finishes {
		placements[i] = f.Placement
	}
	return placements
}

// seats returns a decided match's winning and losing seats.
func (m *BracketMatch) seats() (won, lost BracketSeat) {
	if m.Winner == m.P2.PlayerID {
		return m.P2, m.P1
	}
	return m.P1, m.P2
}
