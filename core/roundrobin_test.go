package core

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRoundRobinProperties(t *testing.T) {
	for n := 2; n <= 20; n++ {
		t.Run(fmt.Sprintf("%02d", n), func(t *testing.T) {
			ids := make([]string, n)
			for i := range ids {
				ids[i] = fmt.Sprintf("p%02d", i)
			}
			rounds := RoundRobin(ids)

			wantRounds, perRound := n-1, n/2
			if n%2 == 1 {
				wantRounds = n
			}
			require.Len(t, rounds, wantRounds)

			met := map[[2]string]int{}
			slot1 := map[string]int{}
			for r, round := range rounds {
				assert.Len(t, round, perRound, "round %d", r+1)
				busy := map[string]bool{}
				for _, f := range round {
					require.NotEqual(t, f.P1, f.P2, "round %d pairs a player with itself", r+1)
					for _, p := range []string{f.P1, f.P2} {
						assert.False(t, busy[p], "%s plays twice in round %d", p, r+1)
						busy[p] = true
					}
					pair := [2]string{min(f.P1, f.P2), max(f.P1, f.P2)}
					met[pair]++
					slot1[f.P1]++
				}
			}
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					assert.Equal(t, 1, met[[2]string{ids[i], ids[j]}], "%s and %s", ids[i], ids[j])
				}
			}
			assert.Len(t, met, n*(n-1)/2, "only listed ids meet")
			for _, id := range ids {
				// Slot 1 is shared out evenly: half of each player's
				// n-1 matches, rounded either way.
				assert.InDelta(t, float64(n-1)/2, float64(slot1[id]), 0.5, id)
			}
		})
	}
}

func TestRoundRobinSmall(t *testing.T) {
	tests := []struct {
		name string
		ids  []string
		want [][]Fixture
	}{
		{"None", nil, nil},
		{"One", []string{"a"}, nil},
		{"Two", []string{"a", "b"}, [][]Fixture{{{"a", "b"}}}},
		{"ThreeWithBye", []string{"a", "b", "c"}, [][]Fixture{
			{{"b", "c"}},
			{{"c", "a"}},
			{{"a", "b"}},
		}},
		{"Four", []string{"a", "b", "c", "d"}, [][]Fixture{
			{{"a", "d"}, {"b", "c"}},
			{{"c", "a"}, {"d", "b"}},
			{{"a", "b"}, {"c", "d"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, RoundRobin(tt.ids))
		})
	}
}
