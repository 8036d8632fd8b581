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
