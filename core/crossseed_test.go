package core

import (
	"fmt"
	"math/bits"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// groupTables returns count groups of size players named by group and
// finishing rank: "A1", "A2", ..., "B1", ...
func groupTables(count, size int) [][]string {
	groups := make([][]string, count)
	for g := range groups {
		for r := 1; r <= size; r++ {
			groups[g] = append(groups[g], fmt.Sprintf("%s%d", GroupName(g), r))
		}
	}
	return groups
}

func TestCrossSeed(t *testing.T) {
	tests := []struct {
		name    string
		groups  [][]string
		advance int
		want    []string
	}{
		{"TwoGroupsTwoAdvance", groupTables(2, 4), 2, []string{"A1", "B1", "A2", "B2"}},
		{"ThreeGroupsTwoAdvance", groupTables(3, 4), 2, []string{"A1", "B1", "C1", "B2", "C2", "A2"}},
		{"FourGroupsTwoAdvance", groupTables(4, 4), 2, []string{"A1", "B1", "C1", "D1", "B2", "A2", "D2", "C2"}},
		{"WinnersOnly", groupTables(3, 4), 1, []string{"A1", "B1", "C1"}},
		{"SmallGroupSendsWhatItHas", [][]string{{"A1", "A2", "A3"}, {"B1"}}, 2, []string{"A1", "B1", "A2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seeds, err := CrossSeed(tt.groups, tt.advance)
			require.NoError(t, err)
			assert.Equal(t, tt.want, seeds)
		})
	}
}

func TestCrossSeedTwoGroupsMeetInOppositeHalves(t *testing.T) {
	seeds, err := CrossSeed(groupTables(2, 4), 2)
	require.NoError(t, err)
	plan, err := PlanBracket(seeds, false)
	require.NoError(t, err)
	sf1, _ := plan.MatchAt("SF1")
	sf2, _ := plan.MatchAt("SF2")
	assert.Equal(t, [2]string{"A1", "B2"}, [2]string{sf1.P1.PlayerID, sf1.P2.PlayerID})
	assert.Equal(t, [2]string{"B1", "A2"}, [2]string{sf2.P1.PlayerID, sf2.P2.PlayerID})
}

// earliestMeetings returns, per group letter, the earliest round in which
// two of its players could meet in a bracket seeded by seeds.
func earliestMeetings(seeds []string) (earliest map[string]int, rounds int) {
	size := bracketSize(len(seeds))
	pos := seedPositions(size)
	earliest = map[string]int{}
	for i := range seeds {
		for j := i + 1; j < len(seeds); j++ {
			gi, gj := seeds[i][:len(seeds[i])-1], seeds[j][:len(seeds[j])-1]
			if gi != gj {
				continue
			}
			meet := bits.Len(uint(pos[i+1] ^ pos[j+1]))
			if e, ok := earliest[gi]; !ok || meet < e {
				earliest[gi] = meet
			}
		}
	}
	return earliest, bits.Len(uint(size)) - 1
}

func TestCrossSeedTwoAdvancingMeetOnlyInFinal(t *testing.T) {
	for g := 1; g <= 128; g++ {
		t.Run(fmt.Sprintf("%dGroups", g), func(t *testing.T) {
			seeds, err := CrossSeed(groupTables(g, 4), 2)
			require.NoError(t, err)
			earliest, rounds := earliestMeetings(seeds)
			require.Len(t, earliest, g)
			for group, round := range earliest {
				assert.Equal(t, rounds, round, "group %s", group)
			}
		})
	}
}

func TestCrossSeedProperties(t *testing.T) {
	for advance := 1; advance <= 4; advance++ {
		for g := 1; g <= 32; g++ {
			if g*advance < 2 {
				continue
			}
			t.Run(fmt.Sprintf("%dGroups%dAdvance", g, advance), func(t *testing.T) {
				seeds, err := CrossSeed(groupTables(g, 6), advance)
				require.NoError(t, err)
				require.Len(t, seeds, g*advance)
				seen := map[string]bool{}
				for i, id := range seeds {
					assert.False(t, seen[id], "%s seeded twice", id)
					seen[id] = true
					rank := i/g + 1
					assert.Equal(t, fmt.Sprint(rank), id[len(id)-1:], "seed %d goes to a rank-%d player", i+1, rank)
					if rank == 1 {
						assert.Equal(t, GroupName(i)+"1", id, "winners seed in group order")
					}
				}
				if advance > 1 && g > 1 {
					// Best effort, but never a first-round meeting.
					earliest, _ := earliestMeetings(seeds)
					for group, round := range earliest {
						assert.Greater(t, round, 1, "group %s", group)
					}
				}
			})
		}
	}
}

func TestCrossSeedErrors(t *testing.T) {
	tests := []struct {
		name    string
		groups  [][]string
		advance int
		code    string
	}{
		{"NoneAdvance", groupTables(4, 4), 0, CodeInvalidField},
		{"OnePlayerAdvances", [][]string{{"A1"}}, 2, CodeTooFewEntrants},
		{"NoGroups", nil, 2, CodeTooFewEntrants},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := CrossSeed(tt.groups, tt.advance)
			require.Error(t, err)
			assert.Equal(t, tt.code, ErrorCode(err))
		})
	}
}
