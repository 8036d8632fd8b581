package core

import (
	"fmt"
	"maps"
	"slices"
)

// AdvanceBracket returns a copy of plan with the known results applied:
// winners maps a bracketSlot to its winner's id ("" or no entry: not yet
// decided). Every bye match is resolved for its player without an entry.
// Each decided match sets its Winner and seats the winner (and, for a
// semifinal feeding a small final, or any match of a double elimination,
// the loser) in the match it feeds, so a match whose two seats hold
// players and which has no Winner is ready to be played. A grand final
// won by its side 2 (the losers' champion) seats both again in the reset
// (GF2), when the plan has one.
//
// The result depends only on plan's first round and winners: seats filled
// and winners set by an earlier call are recomputed, so a corrected result
// moves the right player on. It returns an error (code internal) for a slot
// not in the plan, a winner not seated in that match, or a winner for a
// match whose seats are not both known yet.
func AdvanceBracket(plan BracketPlan, winners map[string]string) (BracketPlan, error) {
	out := plan
	out.Matches = slices.Clone(plan.Matches)
	index := make(map[string]int, len(out.Matches))
	for i := range out.Matches {
		m := &out.Matches[i]
		index[m.BracketSlot] = i
		m.Winner = ""
		for _, seat := range []*BracketSeat{&m.P1, &m.P2} {
			if seat.FromSlot != "" {
				seat.PlayerID, seat.Seed = "", 0
			}
		}
	}
	for _, slot := range slices.Sorted(maps.Keys(winners)) { // same error every time
		if _, ok := index[slot]; !ok {
			return BracketPlan{}, fmt.Errorf("bracket: no match in slot %q", slot)
		}
	}
	for i := range out.Matches {
		m := &out.Matches[i]
		winner, given := winners[m.BracketSlot]
		if m.Bye {
			bye := m.P1
			if bye.Bye {
				bye = m.P2
			}
			if given && winner != bye.PlayerID {
				return BracketPlan{}, fmt.Errorf("bracket: %s is a bye for %s, not a win for %q", m.BracketSlot, bye.PlayerID, winner)
			}
			winner = bye.PlayerID
		} else if winner == "" {
			continue
		} else if m.P1.PlayerID == "" || m.P2.PlayerID == "" {
			return BracketPlan{}, fmt.Errorf("bracket: %s has a winner but its players are not both known", m.BracketSlot)
		}
		var won, lost BracketSeat
		switch winner {
		case m.P1.PlayerID:
			won, lost = m.P1, m.P2
		case m.P2.PlayerID:
			won, lost = m.P2, m.P1
		default:
			return BracketPlan{}, fmt.Errorf("bracket: %q did not play %s", winner, m.BracketSlot)
		}
		m.Winner = winner
		out.seat(index, m.WinnerTo, won)
		if !lost.Bye {
			out.seat(index, m.LoserTo, lost)
		}
		// A grand final won by the losers' champion is played again.
		if i, reset := index[BracketSlotGrandFinalReset]; reset && m.BracketSlot == BracketSlotGrandFinal && winner == m.P2.PlayerID {
			out.seat(index, SeatRef{BracketSlot: out.Matches[i].BracketSlot, Side: 1}, m.P1)
			out.seat(index, SeatRef{BracketSlot: out.Matches[i].BracketSlot, Side: 2}, m.P2)
		}
	}
	return out, nil
}

// seat puts the player of from into the seat ref points at, if any.
func (p *BracketPlan) seat(index map[string]int, ref SeatRef, from BracketSeat) {
	if ref.BracketSlot == "" {
		return
	}
	m := &p.Matches[index[ref.BracketSlot]]
	to := &m.P1
	if ref.Side == 2 {
		to = &m.P2
	}
	to.PlayerID, to.Seed = from.PlayerID, from.Seed
}
