package core

import (
	"fmt"
	"math/big"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDoubleEliminationGolden pins every slot's feeders for 2 to 64
// entrants: each match's seats (a seed, BYE, or the slot whose winner W or
// loser L fills it), where its winner and loser go, and the columns.
func TestDoubleEliminationGolden(t *testing.T) {
	for n := 2; n <= 64; n++ {
		t.Run(fmt.Sprintf("%02d", n), func(t *testing.T) {
			plan, err := PlanDoubleElimination(platformIDs(n), true)
			require.NoError(t, err)
			assertGolden(t, filepath.Join("testdata", "double_elimination", fmt.Sprintf("%02d.golden", n)), renderDoubleElimination(plan))
		})
	}
}

func renderDoubleElimination(plan BracketPlan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %d entrants, bracket of %d, %d winners' rounds, reset %v\n", plan.Entrants, plan.Size, plan.Rounds, plan.Reset)
	for _, m := range plan.Matches {
		line := fmt.Sprintf("%-6s step %-2d  %-17s  %-27s", m.BracketSlot, m.RoundNumber, m.Round, renderSeat(m.P1)+" vs "+renderSeat(m.P2))
		notes := renderNotes(m)
		if m.BracketSlot == BracketSlotGrandFinalReset {
			notes = append(notes, "played when GF's side 2 wins")
		}
		b.WriteString(strings.TrimRight(line+"  "+strings.Join(notes, ", "), " ") + "\n")
	}
	b.WriteString("\ncolumns:\n")
	for _, c := range BracketColumns(plan) {
		slots := make([]string, len(c.Matches))
		for i, m := range c.Matches {
			slots[i] = m.BracketSlot
		}
		fmt.Fprintf(&b, "%-6s  %-11s  %-17s  %s\n", c.Side, c.Section, c.Label, strings.Join(slots, " "))
	}
	return b.String()
}

// forcedRematchRound is the first losers' round in which a bracket of
// size (a power of 2, at least 4) cannot keep every pair of possible
// former opponents apart, whatever its crossover: counted in first-round
// matches, a losers' match after round 1 covers 2; a drop round adds the
// dropping winners' match's 2^(b-1), a merge round doubles; once that is
// more than the bracket's size/2, two regions must overlap.
func forcedRematchRound(size int) int {
	cover, r := 2, 1
	for b := 2; ; b++ {
		r++
		if cover += 1 << (b - 1); cover > size/2 {
			return r
		}
		r++
		if cover *= 2; cover > size/2 {
			return r
		}
	}
}

// firstPossibleRematch returns the first losers' round with a match whose
// two seats could hold players who met before: each seat's region is the
// set of first-round matches its player, and everyone they can have
// played, came through; disjoint regions mean a first meeting.
func firstPossibleRematch(plan BracketPlan) int {
	region := map[string]*big.Int{}
	seatRegion := func(m BracketMatch, s BracketSeat) *big.Int {
		if s.FromSlot != "" {
			return region[s.FromSlot]
		}
		_, _, i, _ := ParseBracketSlot(m.BracketSlot)
		return new(big.Int).SetBit(new(big.Int), i, 1)
	}
	first := 0
	for _, m := range plan.Matches {
		if m.BracketSlot == BracketSlotGrandFinalReset {
			continue
		}
		a, b := seatRegion(m, m.P1), seatRegion(m, m.P2)
		if m.Section == BracketSectionLosers && new(big.Int).And(a, b).Sign() != 0 && (first == 0 || m.SectionRound < first) {
			first = m.SectionRound
		}
		region[m.BracketSlot] = new(big.Int).Or(a, b)
	}
	return first
}

// TestDoubleEliminationRematchesAsLateAsPossible checks the crossover on
// the bracket's shape: for every size from 4 to 256, no losers' match can
// be a rematch before the round where one is forced (forcedRematchRound),
// and from 2 to 256 entrants, byes never bring that round earlier.
func TestDoubleEliminationRematchesAsLateAsPossible(t *testing.T) {
	for size := 4; size <= 256; size *= 2 {
		plan, err := PlanDoubleElimination(platformIDs(size), true)
		require.NoError(t, err)
		assert.Equal(t, forcedRematchRound(size), firstPossibleRematch(plan), "bracket of %d", size)
	}
	for n := 3; n <= 256; n++ {
		plan, err := PlanDoubleElimination(platformIDs(n), true)
		require.NoError(t, err)
		if first := firstPossibleRematch(plan); first != 0 {
			assert.GreaterOrEqual(t, first, forcedRematchRound(plan.Size), "%d entrants", n)
		}
	}
}

func TestParseBracketSlot(t *testing.T) {
	for slot, want := range map[string][3]any{
		"W1M3": {BracketSectionWinners, 1, 3}, "L12M1": {BracketSectionLosers, 12, 1},
		"GF": {BracketSectionGrandFinal, 1, 1}, "GF2": {BracketSectionGrandFinal, 2, 1},
	} {
		section, r, i, ok := ParseBracketSlot(slot)
		require.True(t, ok, slot)
		assert.Equal(t, want, [3]any{section, r, i}, slot)
	}
	for _, slot := range []string{"", "R1M3", "SF1", "FINAL", "W0M1", "WxM1", "W1M", "L1X2", "W1M-1"} {
		_, _, _, ok := ParseBracketSlot(slot)
		assert.False(t, ok, slot)
	}
}
