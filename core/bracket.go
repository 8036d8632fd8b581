package core

import (
	"fmt"
	"math/bits"
	"strconv"
)

// Bracket slots of the deciding matches. Other slots are "SF1", "SF2",
// "QF1".."QF4" and, in earlier rounds, "R<round>M<match>" such as "R1M3".
const (
	BracketSlotFinal      = "FINAL"
	BracketSlotSmallFinal = "SMALL_FINAL"
)

// BracketPlan is a whole single-elimination bracket: every match of every
// round, first round first, in bracket order within a round, the final and
// then the small final (when there is one) last.
type BracketPlan struct {
	Entrants   int  `json:"entrants"`   // players seeded into the bracket
	Size       int  `json:"size"`       // first-round seats, a power of two
	Rounds     int  `json:"rounds"`     // log2(Size); the final is round Rounds
	SmallFinal bool `json:"smallFinal"` // a match for third place is planned
	// Double marks a double-elimination bracket (PlanDoubleElimination):
	// Rounds counts its winners' rounds; Reset says a grand-final reset
	// is planned.
	Double  bool           `json:"double,omitempty"`
	Reset   bool           `json:"reset,omitempty"`
	Matches []BracketMatch `json:"matches"`
}

// BracketMatch is one planned playoff match.
type BracketMatch struct {
	Stage       MatchStage `json:"stage"`
	Round       string     `json:"round"`       // "Round of 16", "Quarterfinals", ..., "Small final"
	RoundNumber int        `json:"roundNumber"` // 1 is the first round; the small final shares the final's
	BracketSlot string     `json:"bracketSlot"`
	// Section and SectionRound place a double-elimination match: winners,
	// losers or grand_final, and its round there ("" and 0 otherwise).
	Section      string      `json:"section,omitempty"`
	SectionRound int         `json:"sectionRound,omitempty"`
	P1           BracketSeat `json:"p1"`
	P2           BracketSeat `json:"p2"`
	// Bye marks a first-round match with one empty seat: it resolves at once
	// for the other seat's player, and callers record resultSource "bye".
	Bye      bool    `json:"bye,omitempty"`
	Winner   string  `json:"winner,omitempty"`  // a bye's when drawn, a stored decision's
	WinnerTo SeatRef `json:"winnerTo,omitzero"` // zero for the final and small final
	LoserTo  SeatRef `json:"loserTo,omitzero"`  // semifinals with a small final only
}

// BracketSeat is one side of a bracket match.
type BracketSeat struct {
	PlayerID  string `json:"playerId,omitempty"`  // "" while undecided, and for a bye
	Seed      int    `json:"seed,omitempty"`      // the seated player's bracket seed
	Bye       bool   `json:"bye,omitempty"`       // nobody will ever sit here
	FromSlot  string `json:"fromSlot,omitempty"`  // after round 1: the match that fills this seat
	FromLoser bool   `json:"fromLoser,omitempty"` // filled by FromSlot's loser, not its winner
}

// SeatRef points at one seat of a bracket match. The zero SeatRef points
// nowhere.
type SeatRef struct {
	BracketSlot string `json:"bracketSlot"`
	Side        int    `json:"side"` // 1 or 2
}

// MatchAt returns the match in slot, and whether there is one.
func (p BracketPlan) MatchAt(slot string) (BracketMatch, bool) {
	for _, m := range p.Matches {
		if m.BracketSlot == slot {
			return m, true
		}
	}
	return BracketMatch{}, false
}

// PlanBracket plans a single-elimination bracket for seeded, where
// seeded[i] is the id of bracket seed i+1 (from CrossSeed, or
// EntrantIDs(SeedOrder(entrants)) for a playoffs-only tournament).
//
// The bracket is padded to the next power of two with byes and laid out in
// standard order, built recursively so that seeds s and size+1-s meet in
// round 1 and the top seeds meet as late as possible (for 16: 1v16, 8v9,
// 4v13, 5v12, 2v15, 7v10, 3v14, 6v11). The byes are the missing bottom
// seeds, so they face the top seeds and never each other. Bye matches come
// back already resolved with their player moved on (seatByes).
// With smallFinal, the semifinal losers play a small final, unless there are
// only 3 entrants (one semifinal is a bye, so there is no second loser).
//
// It returns a too_few_entrants error for fewer than 2 entrants (a lone
// player wins without a bracket; the caller decides that), and an internal
// error for an empty or repeated id.
func PlanBracket(seeded []string, smallFinal bool) (BracketPlan, error) {
	n := len(seeded)
	if err := checkSeeded(seeded); err != nil {
		return BracketPlan{}, err
	}
	size := bracketSize(n)
	plan := BracketPlan{
		Entrants:   n,
		Size:       size,
		Rounds:     bits.Len(uint(size)) - 1,
		SmallFinal: smallFinal && n >= 4,
	}
	order := bracketOrder(size)
	firstRoundSeat := func(seed int) BracketSeat {
		if seed > n {
			return BracketSeat{Bye: true}
		}
		return BracketSeat{PlayerID: seeded[seed-1], Seed: seed}
	}
	for r := 1; r <= plan.Rounds; r++ {
		count := size >> r
		for i := 1; i <= count; i++ {
			m := BracketMatch{
				Stage:       StagePlayoff,
				Round:       roundLabel(count),
				RoundNumber: r,
				BracketSlot: bracketSlot(r, count, i),
			}
			if r == 1 {
				m.P1, m.P2 = firstRoundSeat(order[2*i-2]), firstRoundSeat(order[2*i-1])
				m.Bye = m.P1.Bye || m.P2.Bye
			} else {
				m.P1.FromSlot = bracketSlot(r-1, 2*count, 2*i-1)
				m.P2.FromSlot = bracketSlot(r-1, 2*count, 2*i)
			}
			if count == 1 {
				m.Stage = StageFinal
			} else {
				m.WinnerTo = SeatRef{BracketSlot: bracketSlot(r+1, count/2, (i+1)/2), Side: 2 - i%2}
			}
			if count == 2 && plan.SmallFinal {
				m.LoserTo = SeatRef{BracketSlot: BracketSlotSmallFinal, Side: i}
			}
			plan.Matches = append(plan.Matches, m)
		}
	}
	if plan.SmallFinal {
		plan.Matches = append(plan.Matches, BracketMatch{
			Stage:       StageSmallFinal,
			Round:       "Small final",
			RoundNumber: plan.Rounds,
			BracketSlot: BracketSlotSmallFinal,
			P1:          BracketSeat{FromSlot: "SF1", FromLoser: true},
			P2:          BracketSeat{FromSlot: "SF2", FromLoser: true},
		})
	}
	return seatByes(plan), nil
}

// checkSeeded refuses fewer than 2 entrants (too_few_entrants) and an
// empty or repeated id (internal).
func checkSeeded(seeded []string) error {
	if len(seeded) < 2 {
		return Errorf(CodeTooFewEntrants, "%d entrants; a bracket needs 2", len(seeded))
	}
	seen := make(map[string]bool, len(seeded))
	for i, id := range seeded {
		if id == "" || seen[id] {
			return fmt.Errorf("bracket: seed %d has an empty or repeated id %q", i+1, id)
		}
		seen[id] = true
	}
	return nil
}

// bracketSize is the smallest power of two holding n >= 1 players.
func bracketSize(n int) int {
	return 1 << bits.Len(uint(n-1))
}

// bracketOrder lists the seeds of a bracket of size (a power of two) from
// top to bottom; consecutive pairs meet in round 1. Each doubling replaces
// every seed s with the pair s, 2k+1-s (k the new size).
func bracketOrder(size int) []int {
	order := []int{1}
	for k := 2; k <= size; k *= 2 {
		next := make([]int, 0, k)
		for _, s := range order {
			next = append(next, s, k+1-s)
		}
		order = next
	}
	return order
}

// seedPositions maps each seed (1..size; index 0 unused) to its position
// from the top in bracketOrder(size). Two positions p and q first meet in
// round bits.Len(p^q).
func seedPositions(size int) []int {
	pos := make([]int, size+1)
	for i, s := range bracketOrder(size) {
		pos[s] = i
	}
	return pos
}

// roundLabel names a round by how many matches it has.
func roundLabel(matches int) string {
	switch matches {
	case 1:
		return "Final"
	case 2:
		return "Semifinals"
	case 4:
		return "Quarterfinals"
	}
	return "Round of " + strconv.Itoa(2*matches)
}

// bracketSlot names match i (1-based) of round r, which has count matches.
func bracketSlot(r, count, i int) string {
	switch count {
	case 1:
		return BracketSlotFinal
	case 2:
		return "SF" + strconv.Itoa(i)
	case 4:
		return "QF" + strconv.Itoa(i)
	}
	return "R" + strconv.Itoa(r) + "M" + strconv.Itoa(i)
}
