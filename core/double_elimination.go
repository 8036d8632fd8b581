package core

import (
	"cmp"
	"math/bits"
	"slices"
	"strconv"
)

// Double elimination: every side plays until it has lost twice. The
// winners' bracket is a single-elimination bracket seeded like
// PlanBracket (standard order, byes to the top seeds). Its losers drop
// into the losers' bracket, whose rounds alternate: odd rounds pair the
// losers' bracket survivors with each other (round 1 pairs the first
// round's losers), even rounds meet the survivors with the losers of the
// next winners' round. The winners' champion meets the losers' champion
// in the grand final (GF); with a reset, a second grand final (GF2) is
// played when the losers' champion wins the first, so that the winners'
// champion, too, is out only after a second loss.
//
// Slots and rounds, for a bracket of size S = 2^k:
//
//	W<r>M<i>  winners' round r (1..k; round k is the winners' final), S/2^r matches
//	L<r>M<i>  losers' round r (1..2k-2; the last is the losers' final)
//	GF, GF2   grand final and its reset
//
// Drop-down crossover: the losers of winners' round b land in losers'
// round 2b-2 in an order that changes from round to round: round 2's
// losers reversed, round 3's shifted by half, round 4's reversed within
// each half, round 5's flipped pairwise, later ones reversed. That keeps
// apart, as long as the bracket's shape allows, players who may already
// have met (for S = 4..256 no rematch can happen before losers' round
// 2, 3, 4, 5, 7, 8, 9 respectively, the earliest any crossover can force
// one; see TestDoubleEliminationRematchesAsLateAsPossible).
//
// Byes: with fewer entrants than S, a first-round bye has no loser, so the
// losers' bracket match that loser would play is skipped: the other seat's
// player goes straight to where that match's winner would go, and a match
// with no player at all is dropped. Every stored match is one that is
// really played (first-round byes apart, which are stored resolved).

// Bracket sections of a double elimination (BracketMatch.Section).
const (
	BracketSectionWinners    = "winners"
	BracketSectionLosers     = "losers"
	BracketSectionGrandFinal = "grand_final"
)

// Slots of the grand final and its reset.
const (
	BracketSlotGrandFinal      = "GF"
	BracketSlotGrandFinalReset = "GF2"
)

// deCrossover names the drop order of winners' round b's losers
// (deCrossover[b-2]; later rounds reverse).
var deCrossover = []func(i, n int) int{
	func(i, n int) int { return n - 1 - i },         // reversed
	func(i, n int) int { return (i + n/2) % n },     // half shift
	func(i, n int) int { return reverseHalf(i, n) }, // reversed within each half
	func(i, n int) int { return i ^ 1 },             // pairs flipped
}

func reverseHalf(i, n int) int {
	if n < 2 {
		return i
	}
	h := n / 2
	if i < h {
		return h - 1 - i
	}
	return n - 1 - (i - h)
}

// dropOrder returns, for the n matches of losers' round 2b-2, the index
// of the winners' round b match whose loser drops into match i.
func dropOrder(b, i, n int) int {
	if n == 1 {
		return 0
	}
	if b-2 < len(deCrossover) {
		return deCrossover[b-2](i, n)
	}
	return n - 1 - i
}

// deSeat is where a template seat's player comes from: a first-round
// seed, or the winner or loser of another slot.
type deSeat struct {
	seed  int // first round: the bracket seed (> entrants: a bye)
	slot  string
	loser bool
}

// PlanDoubleElimination plans a double-elimination bracket for seeded
// (seeded[i] is seed i+1's id), with a grand-final reset when reset is
// set. Matches come in the order they can be played: a match's feeders
// are always before it (winners' round r, then losers' round r-1, ...,
// then GF and GF2). RoundNumber is that order's step (W r is step r, L r
// step r+1, GF step 2k, GF2 step 2k+1): match windows open step by step.
// First-round byes come back resolved. GF2 has no players until GF is
// decided for the losers' champion (insert_grand_final_reset in
// sql/queries/decided.sql creates it, seated).
//
// It returns a too_few_entrants error for fewer than 2 entrants and an
// internal error for an empty or repeated id.
func PlanDoubleElimination(seeded []string, reset bool) (BracketPlan, error) {
	if err := checkSeeded(seeded); err != nil {
		return BracketPlan{}, err
	}
	n := len(seeded)
	size := bracketSize(n)
	k := bits.Len(uint(size)) - 1
	plan := BracketPlan{Entrants: n, Size: size, Rounds: k, Double: true, Reset: reset}
	order := bracketOrder(size)

	type tmpl struct {
		m      BracketMatch
		p1, p2 deSeat
	}
	all := make([]tmpl, 0, 2*size)
	add := func(section string, r, i int, p1, p2 deSeat) {
		m := BracketMatch{Stage: StagePlayoff, Section: section, SectionRound: r}
		switch section {
		case BracketSectionWinners:
			m.BracketSlot, m.RoundNumber, m.Round = deSlot("W", r, i), r, "Winners round "+strconv.Itoa(r)
			if r == k {
				m.Round = "Winners final"
			}
		case BracketSectionLosers:
			m.BracketSlot, m.RoundNumber, m.Round = deSlot("L", r, i), r+1, "Losers round "+strconv.Itoa(r)
			if r == 2*k-2 {
				m.Round = "Losers final"
			}
		}
		all = append(all, tmpl{m: m, p1: p1, p2: p2})
	}
	for r := 1; r <= k; r++ {
		count := size >> r
		for i := 1; i <= count; i++ {
			if r == 1 {
				add(BracketSectionWinners, 1, i, deSeat{seed: order[2*i-2]}, deSeat{seed: order[2*i-1]})
			} else {
				add(BracketSectionWinners, r, i,
					deSeat{slot: deSlot("W", r-1, 2*i-1)}, deSeat{slot: deSlot("W", r-1, 2*i)})
			}
		}
		// The losers' rounds this winners' round makes playable.
		switch {
		case r == 1 && k >= 2:
			for i := 1; i <= size>>2; i++ {
				add(BracketSectionLosers, 1, i,
					deSeat{slot: deSlot("W", 1, 2*i-1), loser: true}, deSeat{slot: deSlot("W", 1, 2*i), loser: true})
			}
		case r >= 2:
			lr := 2*r - 2
			count := size >> r
			for i := 1; i <= count; i++ {
				add(BracketSectionLosers, lr, i,
					deSeat{slot: deSlot("L", lr-1, i)},
					deSeat{slot: deSlot("W", r, dropOrder(r, i-1, count)+1), loser: true})
			}
			if r < k {
				for i := 1; i <= count/2; i++ {
					add(BracketSectionLosers, lr+1, i,
						deSeat{slot: deSlot("L", lr, 2*i-1)}, deSeat{slot: deSlot("L", lr, 2*i)})
				}
			}
		}
	}
	champion := deSeat{slot: deSlot("W", k, 1)}
	challenger := deSeat{slot: deSlot("L", 2*k-2, 1)}
	if k == 1 {
		challenger = deSeat{slot: deSlot("W", 1, 1), loser: true}
	}
	grand := BracketMatch{Stage: StageFinal, Section: BracketSectionGrandFinal, SectionRound: 1,
		BracketSlot: BracketSlotGrandFinal, Round: "Grand final", RoundNumber: 2 * k}
	all = append(all, tmpl{m: grand, p1: champion, p2: challenger})

	// Byes: a seat is dead when nobody will ever sit there; a losers'
	// match with one dead seat passes its other seat's player through.
	dead := map[string]bool{}      // slots with no player ever (winner and loser both dead)
	through := map[string]deSeat{} // skipped slot -> where its winner really comes from
	deadLoser := map[string]bool{} // slots with no loser (first-round byes)
	resolve := func(s deSeat) (deSeat, bool) {
		for {
			if s.slot == "" {
				return s, s.seed <= n
			}
			if s.loser {
				return s, !deadLoser[s.slot] && !dead[s.slot]
			}
			if dead[s.slot] {
				return s, false
			}
			next, ok := through[s.slot]
			if !ok {
				return s, true
			}
			s = next
		}
	}
	// In play order: by step, winners first, then by match.
	slices.SortStableFunc(all, func(a, b tmpl) int {
		return cmp.Or(cmp.Compare(a.m.RoundNumber, b.m.RoundNumber), cmp.Compare(sectionOrder(a.m.Section), sectionOrder(b.m.Section)))
	})
	kept := make([]tmpl, 0, len(all))
	index := make(map[string]int, len(all))
	for _, t := range all {
		p1, live1 := resolve(t.p1)
		p2, live2 := resolve(t.p2)
		t.p1, t.p2 = p1, p2
		switch {
		case t.m.Section == BracketSectionWinners && t.m.SectionRound == 1 && (!live1 || !live2):
			deadLoser[t.m.BracketSlot] = true
		case !live1 && !live2:
			dead[t.m.BracketSlot] = true
			continue
		case !live1:
			through[t.m.BracketSlot] = p2
			continue
		case !live2:
			through[t.m.BracketSlot] = p1
			continue
		}
		index[t.m.BracketSlot] = len(kept)
		kept = append(kept, t)
	}
	for _, t := range kept {
		m := t.m
		for side, s := range []deSeat{t.p1, t.p2} {
			seat := &m.P1
			if side == 1 {
				seat = &m.P2
			}
			switch {
			case s.slot == "" && s.seed > n:
				seat.Bye = true
			case s.slot == "":
				seat.PlayerID, seat.Seed = seeded[s.seed-1], s.seed
			default:
				seat.FromSlot, seat.FromLoser = s.slot, s.loser
				from := &kept[index[s.slot]].m
				ref := SeatRef{BracketSlot: m.BracketSlot, Side: side + 1}
				if s.loser {
					from.LoserTo = ref
				} else {
					from.WinnerTo = ref
				}
			}
		}
		m.Bye = m.P1.Bye || m.P2.Bye
		kept[index[m.BracketSlot]].m = m
	}
	plan.Matches = make([]BracketMatch, 0, len(kept)+1)
	for _, t := range kept {
		plan.Matches = append(plan.Matches, t.m)
	}
	if reset {
		plan.Matches = append(plan.Matches, BracketMatch{Stage: StageFinal, Section: BracketSectionGrandFinal,
			SectionRound: 2, BracketSlot: BracketSlotGrandFinalReset, Round: "Grand final reset", RoundNumber: 2*k + 1,
			P1: BracketSeat{FromSlot: BracketSlotGrandFinal}, P2: BracketSeat{FromSlot: BracketSlotGrandFinal}})
	}
	return seatByes(plan), nil
}

func sectionOrder(s string) int {
	switch s {
	case BracketSectionWinners:
		return 0
	case BracketSectionLosers:
		return 1
	}
	return 2
}

// DoubleEliminationRoundMatches is how many matches a round of a section
// has in a full bracket of size (byes may leave some unplayed): S/2^r in
// winners' round r, S/2^(ceil(r/2)+1) in losers' round r, 1 in the grand
// final and its reset.
func DoubleEliminationRoundMatches(size int, section string, round int) int {
	switch section {
	case BracketSectionWinners:
		return size >> round
	case BracketSectionLosers:
		return size >> ((round+1)/2 + 1)
	}
	return 1
}

// deSlot names match i of round r of a bracket side ("W" or "L").
func deSlot(side string, r, i int) string {
	return side + strconv.Itoa(r) + "M" + strconv.Itoa(i)
}

// ParseBracketSlot reads a double-elimination slot: its section, round
// within the section (GF 1, GF2 2) and match number; ok false for any
// other slot.
func ParseBracketSlot(slot string) (section string, round, match int, ok bool) {
	switch slot {
	case BracketSlotGrandFinal:
		return BracketSectionGrandFinal, 1, 1, true
	case BracketSlotGrandFinalReset:
		return BracketSectionGrandFinal, 2, 1, true
	}
	if len(slot) < 4 || (slot[0] != 'W' && slot[0] != 'L') {
		return "", 0, 0, false
	}
	var err error
	r, m, found := cutByte(slot[1:], 'M')
	if !found {
		return "", 0, 0, false
	}
	if round, err = strconv.Atoi(r); err != nil || round < 1 {
		return "", 0, 0, false
	}
	if match, err = strconv.Atoi(m); err != nil || match < 1 {
		return "", 0, 0, false
	}
	section = BracketSectionWinners
	if slot[0] == 'L' {
		section = BracketSectionLosers
	}
	return section, round, match, true
}

func cutByte(s string, b byte) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
