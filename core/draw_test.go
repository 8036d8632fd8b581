package core

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seededEntrants returns n entrants "s1".."sn" with seeds 1..n, in reverse
// registration order so the draw has to sort them.
func seededEntrants(n int) []Entrant {
	es := make([]Entrant, n)
	for i := range es {
		seed := n - i
		es[i] = Entrant{ID: fmt.Sprintf("s%d", seed), Seed: seed}
	}
	return es
}

// drawnIDs renders a draw as group name to member ids for comparison.
func drawnIDs(groups []GroupDraw) map[string][]string {
	out := make(map[string][]string, len(groups))
	for _, g := range groups {
		out[g.Name] = EntrantIDs(g.Members)
	}
	return out
}

func TestSnakeDraw(t *testing.T) {
	tests := []struct {
		name     string
		entrants []Entrant
		groups   int
		want     map[string][]string
	}{
		{"TwoGroupsSnake", seededEntrants(8), 2, map[string][]string{
			"A": {"s1", "s4", "s5", "s8"},
			"B": {"s2", "s3", "s6", "s7"},
		}},
		{"FourGroupsUneven", seededEntrants(10), 4, map[string][]string{
			"A": {"s1", "s8", "s9"},
			"B": {"s2", "s7", "s10"},
			"C": {"s3", "s6"},
			"D": {"s4", "s5"},
		}},
		{"OneGroupTakesAll", seededEntrants(3), 1, map[string][]string{
			"A": {"s1", "s2", "s3"},
		}},
		{"UnseededLastInRegistrationOrder", []Entrant{
			{ID: "u1"}, {ID: "s2", Seed: 2}, {ID: "u2", Seed: -1}, {ID: "s1", Seed: 1}, {ID: "u3"}, {ID: "u4"},
		}, 2, map[string][]string{
			"A": {"s1", "u2", "u3"},
			"B": {"s2", "u1", "u4"},
		}},
		{"EqualSeedsKeepRegistrationOrder", []Entrant{
			{ID: "late", Seed: 1}, {ID: "x", Seed: 2}, {ID: "early", Seed: 1}, {ID: "y"},
		}, 2, map[string][]string{
			"A": {"late", "y"},
			"B": {"early", "x"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			groups, err := SnakeDraw(tt.entrants, tt.groups)
			require.NoError(t, err)
			require.Len(t, groups, tt.groups)
			assert.Equal(t, tt.want, drawnIDs(groups))
		})
	}
}

func TestSnakeDrawErrors(t *testing.T) {
	tests := []struct {
		name     string
		entrants int
		groups   int
		code     string
	}{
		{"ZeroGroups", 8, 0, CodeInvalidField},
		{"NegativeGroups", 8, -1, CodeInvalidField},
		{"GroupOfOne", 7, 4, CodeTooFewEntrants},
		{"NoEntrants", 0, 1, CodeTooFewEntrants},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := SnakeDraw(seededEntrants(tt.entrants), tt.groups)
			require.Error(t, err)
			assert.Equal(t, tt.code, ErrorCode(err))
		})
	}
}

func TestGroupName(t *testing.T) {
	tests := []struct {
		index int
		want  string
	}{{0, "A"}, {1, "B"}, {25, "Z"}, {26, "AA"}, {27, "AB"}, {51, "AZ"}, {52, "BA"}, {127, "DX"}, {701, "ZZ"}, {702, "AAA"}}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			assert.Equal(t, tt.want, GroupName(tt.index))
		})
	}
}
