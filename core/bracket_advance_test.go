package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seats returns the player ids in slot's two seats.
func seats(t *testing.T, plan BracketPlan, slot string) [2]string {
	t.Helper()
	m, ok := plan.MatchAt(slot)
	require.True(t, ok, slot)
	return [2]string{m.P1.PlayerID, m.P2.PlayerID}
}

func TestAdvanceBracket(t *testing.T) {
	// 6 entrants in a bracket of 8: seeds 1 and 2 have byes.
	// QF1 1-BYE, QF2 4-5, QF3 2-BYE, QF4 3-6.
	plan, err := PlanBracket([]string{"s1", "s2", "s3", "s4", "s5", "s6"}, true)
	require.NoError(t, err)

	t.Run("ByesAdvanceAtOnce", func(t *testing.T) {
		assert.Equal(t, [2]string{"s1", ""}, seats(t, plan, "SF1"))
		assert.Equal(t, [2]string{"s2", ""}, seats(t, plan, "SF2"))
		qf1, _ := plan.MatchAt("QF1")
		assert.True(t, qf1.Bye)
		assert.Equal(t, "s1", qf1.Winner)
	})
	t.Run("WinnersFillTheNextRound", func(t *testing.T) {
		adv, err := AdvanceBracket(plan, map[string]string{"QF2": "s5", "QF4": "s3"})
		require.NoError(t, err)
		assert.Equal(t, [2]string{"s1", "s5"}, seats(t, adv, "SF1"))
		assert.Equal(t, [2]string{"s2", "s3"}, seats(t, adv, "SF2"))
		sf1, _ := adv.MatchAt("SF1")
		assert.Equal(t, 5, sf1.P2.Seed, "the seat carries the bracket seed")
		assert.Empty(t, sf1.Winner)
	})
	t.Run("SemifinalLosersGoToTheSmallFinal", func(t *testing.T) {
		adv, err := AdvanceBracket(plan, map[string]string{"QF2": "s5", "QF4": "s3", "SF1": "s5", "SF2": "s2", "FINAL": "s2", "SMALL_FINAL": "s1"})
		require.NoError(t, err)
		assert.Equal(t, [2]string{"s5", "s2"}, seats(t, adv, BracketSlotFinal))
		assert.Equal(t, [2]string{"s1", "s3"}, seats(t, adv, BracketSlotSmallFinal))
		final, _ := adv.MatchAt(BracketSlotFinal)
		assert.Equal(t, "s2", final.Winner)
	})
	t.Run("CorrectedResultMovesTheRightPlayer", func(t *testing.T) {
		first, err := AdvanceBracket(plan, map[string]string{"QF2": "s5"})
		require.NoError(t, err)
		fixed, err := AdvanceBracket(first, map[string]string{"QF2": "s4"})
		require.NoError(t, err)
		assert.Equal(t, [2]string{"s1", "s4"}, seats(t, fixed, "SF1"))
	})
	t.Run("SameWinnersSamePlan", func(t *testing.T) {
		winners := map[string]string{"QF2": "s4", "SF1": "s1"}
		once, err := AdvanceBracket(plan, winners)
		require.NoError(t, err)
		twice, err := AdvanceBracket(once, winners)
		require.NoError(t, err)
		assert.Equal(t, once, twice)
	})
	t.Run("InputPlanUntouched", func(t *testing.T) {
		_, err := AdvanceBracket(plan, map[string]string{"QF2": "s4"})
		require.NoError(t, err)
		assert.Equal(t, [2]string{"s1", ""}, seats(t, plan, "SF1"))
	})
}

func TestAdvanceBracketErrors(t *testing.T) {
	plan, err := PlanBracket([]string{"s1", "s2", "s3", "s4", "s5", "s6"}, true)
	require.NoError(t, err)
	tests := []struct {
		name    string
		winners map[string]string
	}{
		{"UnknownSlot", map[string]string{"QF9": "s4"}},
		{"WinnerDidNotPlay", map[string]string{"QF2": "s3"}},
		{"PlayersNotKnownYet", map[string]string{"SF1": "s1"}},
		{"ByeWonBySomeoneElse", map[string]string{"QF1": "s4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := AdvanceBracket(plan, tt.winners)
			require.Error(t, err)
			assert.Equal(t, CodeInternal, ErrorCode(err))
		})
	}
	t.Run("ByeWinnerRestatedIsFine", func(t *testing.T) {
		_, err := AdvanceBracket(plan, map[string]string{"QF1": "s1"})
		assert.NoError(t, err)
	})
}
