package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPodium(t *testing.T) {
	tests := []struct {
		name       string
		final      MatchOutcome
		smallFinal *MatchOutcome
		semifinals []MatchOutcome
		want       []PodiumPlace
	}{
		{
			name:       "WithSmallFinal",
			final:      won("a", "b", 3, 1),
			smallFinal: &MatchOutcome{P1: "d", P2: "c", Winner: "c"},
			semifinals: []MatchOutcome{won("a", "d", 2, 0), won("b", "c", 2, 0)},
			want:       []PodiumPlace{{1, "a"}, {2, "b"}, {3, "c"}, {4, "d"}},
		},
		{
			name:       "WithoutSmallFinalBothSemifinalLosersThird",
			final:      lostTo("b", "a", 1, 3),
			semifinals: []MatchOutcome{won("a", "c", 2, 0), lostTo("d", "b", 0, 2)},
			want:       []PodiumPlace{{1, "a"}, {2, "b"}, {3, "c"}, {3, "d"}},
		},
		{
			name:       "SemifinalByeHasNoLoser",
			final:      won("a", "b", 2, 1),
			semifinals: []MatchOutcome{{P1: "a", Winner: "a"}, won("b", "c", 2, 0)},
			want:       []PodiumPlace{{1, "a"}, {2, "b"}, {3, "c"}},
		},
		{
			name:  "TwoEntrantsFinalOnly",
			final: MatchOutcome{P1: "a", P2: "b", Winner: "b", Forfeit: true},
			want:  []PodiumPlace{{1, "b"}, {2, "a"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Podium(tt.final, tt.smallFinal, tt.semifinals)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestPodiumErrors(t *testing.T) {
	tests := []struct {
		name       string
		final      MatchOutcome
		smallFinal *MatchOutcome
		semifinals []MatchOutcome
	}{
		{"FinalUnresolved", MatchOutcome{P1: "a", P2: "b"}, nil, nil},
		{"FinalWinnerDidNotPlay", MatchOutcome{P1: "a", P2: "b", Winner: "c"}, nil, nil},
		{"SmallFinalUnresolved", won("a", "b", 1, 0), &MatchOutcome{P1: "c", P2: "d"}, nil},
		{"SemifinalUnresolved", won("a", "b", 1, 0), nil, []MatchOutcome{{P1: "a", P2: "c"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Podium(tt.final, tt.smallFinal, tt.semifinals)
			require.Error(t, err)
			assert.Equal(t, CodeInternal, ErrorCode(err))
		})
	}
}

func TestBracketPlacements(t *testing.T) {
	eight := []string{"s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"}
	// QF1 1-8, QF2 4-5, QF3 2-7, QF4 3-6; upsets in QF2 and SF2.
	allPlayed := map[string]string{
		"QF1": "s1", "QF2": "s5", "QF3": "s2", "QF4": "s3",
		"SF1": "s1", "SF2": "s3", "FINAL": "s3",
	}
	tests := []struct {
		name       string
		seeded     []string
		smallFinal bool
		winners    map[string]string
		want       []Placement
	}{
		{
			name: "SmallFinalDecidesThirdAndFourth", seeded: eight, smallFinal: true,
			winners: merge(allPlayed, map[string]string{"SMALL_FINAL": "s2"}),
			want: []Placement{
				{"s3", 1}, {"s1", 2}, {"s2", 3}, {"s5", 4},
				{"s4", 5}, {"s6", 5}, {"s7", 5}, {"s8", 5},
			},
		},
		{
			name: "SemifinalLosersShareThird", seeded: eight, smallFinal: false, winners: allPlayed,
			want: []Placement{
				{"s3", 1}, {"s1", 2}, {"s2", 3}, {"s5", 3},
				{"s4", 5}, {"s6", 5}, {"s7", 5}, {"s8", 5},
			},
		},
		{
			name: "SmallFinalNotYetPlayed", seeded: eight, smallFinal: true, winners: allPlayed,
			want: []Placement{
				{"s3", 1}, {"s1", 2},
				{"s4", 5}, {"s6", 5}, {"s7", 5}, {"s8", 5},
			},
		},
		{
			name: "ByesEliminateNobody", seeded: eight[:6], smallFinal: true,
			winners: map[string]string{"QF2": "s4", "QF4": "s6"},
			want:    []Placement{{"s3", 5}, {"s5", 5}},
		},
		{
			name: "RoundOf16LosersNinth", seeded: platformIDs(9), smallFinal: false,
			winners: map[string]string{"R1M2": platformIDs(9)[8]},
			want:    []Placement{{platformIDs(9)[7], 9}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan, err := PlanBracket(tt.seeded, tt.smallFinal)
			require.NoError(t, err)
			plan, err = AdvanceBracket(plan, tt.winners)
			require.NoError(t, err)
			assert.Equal(t, tt.want, BracketPlacements(plan))
		})
	}
}

func merge(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func TestPlacementPoints(t *testing.T) {
	def := DefaultPlacementPoints()
	custom := PlacementPoints{Tiers: []PlacementTier{{Through: 1, Points: 10}, {Through: 3, Points: 4}}, Played: 1}
	tests := []struct {
		name  string
		table PlacementPoints
		place int
		want  int
	}{
		{"DefaultFirst", def, 1, 100},
		{"DefaultSecond", def, 2, 70},
		{"DefaultThird", def, 3, 50},
		{"DefaultFourth", def, 4, 40},
		{"DefaultQuarterfinalLoser", def, 5, 25},
		{"DefaultEighth", def, 8, 25},
		{"DefaultRoundOf16Loser", def, 9, 10},
		{"DefaultSixteenth", def, 16, 10},
		{"DefaultRoundOf32Loser", def, 17, 5},
		{"DefaultGroupStageOnly", def, 0, 5},
		{"CustomTierUpperBound", custom, 3, 4},
		{"CustomBeyondTiers", custom, 4, 1},
		{"NegativeIsNoPlace", custom, -2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.table.Points(tt.place))
		})
	}
}
