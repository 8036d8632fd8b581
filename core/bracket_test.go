package core

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPlanBracketStandardOrder(t *testing.T) {
	plan, err := PlanBracket(platformIDs(16), false)
	require.NoError(t, err)
	var pairs [][2]int
	for _, m := range plan.Matches[:8] {
		pairs = append(pairs, [2]int{m.P1.Seed, m.P2.Seed})
	}
	assert.Equal(t, [][2]int{{1, 16}, {8, 9}, {4, 13}, {5, 12}, {2, 15}, {7, 10}, {3, 14}, {6, 11}}, pairs)
}

// TestPlanBracketSeatsByes: a bye is no result, it is part of the draw:
// the plan comes back with its bye matches resolved and their players
// seated in the next round. 6 entrants in a bracket of 8: seeds 1 and 2
// have byes (QF1 1-BYE, QF2 4-5, QF3 2-BYE, QF4 3-6).
func TestPlanBracketSeatsByes(t *testing.T) {
	plan, err := PlanBracket([]string{"s1", "s2", "s3", "s4", "s5", "s6"}, true)
	require.NoError(t, err)
	seats := func(slot string) [2]string {
		m, ok := plan.MatchAt(slot)
		require.True(t, ok, slot)
		return [2]string{m.P1.PlayerID, m.P2.PlayerID}
	}
	assert.Equal(t, [2]string{"s1", ""}, seats("SF1"))
	assert.Equal(t, [2]string{"s2", ""}, seats("SF2"))
	qf1, _ := plan.MatchAt("QF1")
	assert.True(t, qf1.Bye)
	assert.Equal(t, "s1", qf1.Winner)
}

// TestPlanBracketProperties checks every size the golden files cover for
// the rules the golden text only shows.
func TestPlanBracketProperties(t *testing.T) {
	for n := 2; n <= 64; n++ {
		t.Run(fmt.Sprintf("%02d", n), func(t *testing.T) {
			ids := platformIDs(n)
			plan, err := PlanBracket(ids, true)
			require.NoError(t, err)
			size := bracketSize(n)
			require.Equal(t, size, plan.Size)
			require.True(t, size >= n && size < 2*n, "the next power of two")
			hasSmallFinal := n >= 4
			assert.Equal(t, hasSmallFinal, plan.SmallFinal)
			wantMatches := size - 1
			if hasSmallFinal {
				wantMatches++
			}
			require.Len(t, plan.Matches, wantMatches)

			bySlot := map[string]BracketMatch{}
			seated := map[string]bool{}
			var byeSeeds []int
			for _, m := range plan.Matches {
				require.NotContains(t, bySlot, m.BracketSlot, "slots are unique")
				bySlot[m.BracketSlot] = m
				if m.RoundNumber != 1 {
					assert.False(t, m.Bye || m.P1.Bye || m.P2.Bye, "%s: byes only in round 1", m.BracketSlot)
					continue
				}
				require.False(t, m.P1.Bye && m.P2.Bye, "%s pairs a bye with a bye", m.BracketSlot)
				assert.False(t, m.P1.Bye, "%s: the bye is in slot 2", m.BracketSlot)
				assert.Equal(t, m.P2.Bye, m.Bye)
				for _, s := range []BracketSeat{m.P1, m.P2} {
					if !s.Bye {
						assert.Equal(t, ids[s.Seed-1], s.PlayerID)
						seated[s.PlayerID] = true
					}
				}
				if m.Bye {
					byeSeeds = append(byeSeeds, m.P1.Seed)
					assert.Equal(t, m.P1.PlayerID, m.Winner, "%s resolves at once", m.BracketSlot)
				}
			}
			assert.Len(t, seated, n, "every entrant is seated once in round 1")
			assert.Len(t, byeSeeds, size-n)
			for _, s := range byeSeeds {
				assert.LessOrEqual(t, s, size-n, "byes go to the top seeds")
			}

			for _, m := range plan.Matches {
				for side, s := range []BracketSeat{m.P1, m.P2} {
					if s.FromSlot == "" {
						continue
					}
					from, ok := bySlot[s.FromSlot]
					require.True(t, ok, "%s feeds from a missing %s", m.BracketSlot, s.FromSlot)
					ref := from.WinnerTo
					if s.FromLoser {
						ref = from.LoserTo
					}
					assert.Equal(t, SeatRef{m.BracketSlot, side + 1}, ref, "%s and %s agree", m.BracketSlot, from.BracketSlot)
				}
				if m.Stage == StagePlayoff {
					assert.NotEmpty(t, m.WinnerTo.BracketSlot, "%s leads somewhere", m.BracketSlot)
				}
			}

		})
	}
}

func TestPlanBracketRounds(t *testing.T) {
	tests := []struct {
		entrants int
		labels   map[string]string // slot -> round label
	}{
		{2, map[string]string{"FINAL": "Final"}},
		{4, map[string]string{"SF1": "Semifinals", "SF2": "Semifinals", "FINAL": "Final", "SMALL_FINAL": "Small final"}},
		{8, map[string]string{"QF1": "Quarterfinals", "QF4": "Quarterfinals"}},
		{32, map[string]string{"R1M1": "Round of 32", "R1M16": "Round of 32", "R2M1": "Round of 16", "R2M8": "Round of 16", "QF1": "Quarterfinals"}},
		{33, map[string]string{"R1M32": "Round of 64", "R2M16": "Round of 32", "R3M8": "Round of 16"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%02d", tt.entrants), func(t *testing.T) {
			plan, err := PlanBracket(platformIDs(tt.entrants), true)
			require.NoError(t, err)
			for slot, label := range tt.labels {
				m, ok := plan.MatchAt(slot)
				require.True(t, ok, slot)
				assert.Equal(t, label, m.Round, slot)
			}
			final, _ := plan.MatchAt(BracketSlotFinal)
			assert.Equal(t, StageFinal, final.Stage)
			assert.Equal(t, plan.Rounds, final.RoundNumber)
		})
	}
}

func TestPlanBracketSmallFinal(t *testing.T) {
	tests := []struct {
		name       string
		entrants   int
		smallFinal bool
		want       bool
	}{
		{"Requested", 4, true, true},
		{"NotRequested", 8, false, false},
		{"ThreeEntrantsHaveOneSemifinalLoser", 3, true, false},
		{"TwoEntrantsHaveNoSemifinals", 2, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan, err := PlanBracket(platformIDs(tt.entrants), tt.smallFinal)
			require.NoError(t, err)
			assert.Equal(t, tt.want, plan.SmallFinal)
			_, planned := plan.MatchAt(BracketSlotSmallFinal)
			assert.Equal(t, tt.want, planned)
			for _, m := range plan.Matches {
				assert.Equal(t, tt.want && m.Round == "Semifinals", m.LoserTo.BracketSlot != "", m.BracketSlot)
			}
		})
	}
}

func TestPlanBracketErrors(t *testing.T) {
	tests := []struct {
		name   string
		seeded []string
		code   string
	}{
		{"NoEntrants", nil, CodeTooFewEntrants},
		{"OneEntrant", []string{"a"}, CodeTooFewEntrants},
		{"RepeatedID", []string{"a", "b", "a"}, CodeInternal},
		{"EmptyID", []string{"a", ""}, CodeInternal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := PlanBracket(tt.seeded, false)
			require.Error(t, err)
			assert.Equal(t, tt.code, ErrorCode(err))
		})
	}
}

func TestBracketColumns(t *testing.T) {
	plan, err := PlanBracket(platformIDs(8), true)
	require.NoError(t, err)
	type column struct {
		label, side string
		slots       []string
	}
	var got []column
	for _, c := range BracketColumns(plan) {
		col := column{label: c.Label, side: c.Side}
		for _, m := range c.Matches {
			col.slots = append(col.slots, m.BracketSlot)
		}
		got = append(got, col)
	}
	assert.Equal(t, []column{
		{"Quarterfinals", "left", []string{"QF1", "QF2"}},
		{"Semifinals", "left", []string{"SF1"}},
		{"Final", "center", []string{"FINAL"}},
		{"Small final", "center", []string{"SMALL_FINAL"}},
		{"Semifinals", "right", []string{"SF2"}},
		{"Quarterfinals", "right", []string{"QF3", "QF4"}},
	}, got)
}
