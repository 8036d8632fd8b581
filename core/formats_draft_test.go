package core

import (
	"arena/i18n"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFormatDrafts: each format's own settings, their defaults, and the
// problems of settings given to the wrong format or out of range.
func TestFormatDrafts(t *testing.T) {
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	draft := func(format TournamentFormat, extra string) *TournamentDraft {
		body := `{"slug":"cup","name":"Cup","format":"` + string(format) + `","maxPlayers":16,
			"registrationOpensAt":"2026-11-01T10:00:00Z","registrationClosesAt":"2026-11-02T10:00:00Z",
			"startsAt":"2026-11-03T10:00:00Z"` + extra + `}`
		var d TournamentDraft
		require.NoError(t, json.Unmarshal([]byte(body), &d))
		return &d
	}
	t.Run("Defaults", func(t *testing.T) {
		de, p := draft(FormatDoubleElimination, "").Check(nil, now)
		require.Empty(t, p)
		assert.True(t, de.GrandFinalReset, "double elimination resets the grand final unless told not to")
		noReset, p := draft(FormatDoubleElimination, `,"grandFinalReset":false,"seedFromRatings":true`).Check(nil, now)
		require.Empty(t, p)
		assert.False(t, noReset.GrandFinalReset)
		assert.True(t, noReset.SeedFromRatings)
		swiss, p := draft(FormatSwiss, `,"swissRounds":5,"topCut":8,"smallFinal":true`).Check(nil, now)
		require.Empty(t, p)
		assert.Equal(t, [2]int{5, 8}, [2]int{swiss.SwissRounds, swiss.TopCut})
		assert.True(t, swiss.SmallFinal)
		auto, p := draft(FormatSwiss, "").Check(nil, now)
		require.Empty(t, p)
		assert.Equal(t, [2]int{0, 0}, [2]int{auto.SwissRounds, auto.TopCut}, "rounds from the field at the draw; no cut")
		rr, p := draft(FormatRoundRobin, "").Check(nil, now)
		require.Empty(t, p)
		assert.Equal(t, [2]int{0, 0}, [2]int{rr.GroupCount, rr.AdvancePerGroup})
	})
	for _, tc := range []struct {
		name   string
		format TournamentFormat
		extra  string
		field  string
	}{
		{"ErrResetOnGroups", FormatGroupsPlayoffs, `,"grandFinalReset":true`, "grandFinalReset"},
		{"ErrRoundsOnDouble", FormatDoubleElimination, `,"swissRounds":3`, "swissRounds"},
		{"ErrTopCutOnRoundRobin", FormatRoundRobin, `,"topCut":4`, "topCut"},
		{"ErrGroupsOnSwiss", FormatSwiss, `,"groupCount":2`, "groupCount"},
		{"ErrTopCutOfOne", FormatSwiss, `,"topCut":1`, "topCut"},
		{"ErrTopCutOverMax", FormatSwiss, `,"topCut":32`, "topCut"},
		{"ErrRoundsOverRange", FormatSwiss, `,"swissRounds":17`, "swissRounds"},
		{"ErrRoundsOverField", FormatSwiss, `,"swissRounds":9`, "swissRounds"},
		{"ErrSmallFinalOnDouble", FormatDoubleElimination, `,"smallFinal":true`, "smallFinal"},
		{"ErrSmallFinalOnSwissWithoutCut", FormatSwiss, `,"smallFinal":true`, "smallFinal"},
		{"ErrDoubleOver256", FormatDoubleElimination, `,"maxPlayers":257`, "maxPlayers"},
		{"ErrRoundRobinOver64", FormatRoundRobin, `,"maxPlayers":65`, "maxPlayers"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tour, p := draft(tc.format, tc.extra).Check(nil, now)
			require.Nil(t, tour)
			require.NotEmpty(t, p)
			assert.Equal(t, tc.field, p[0].Field, p.ByField(i18n.For(i18n.DefaultLocale)))
			assert.Equal(t, CodeInvalidField, p[0].Code)
		})
	}
}

// TestFormatLifecycles: the steps each format takes.
func TestFormatLifecycles(t *testing.T) {
	steps := func(f TournamentFormat, topCut int) []TournamentStatus {
		var out []TournamentStatus
		tour := &Tournament{Format: f, TopCut: topCut, Status: StatusRegistrationClosed}
		for !tour.Status.Final() {
			moved := false
			for _, to := range []TournamentStatus{StatusGroupStage, StatusPlayoffs, StatusCompleted} {
				if tour.NextStatusAllowed(to) == nil {
					tour.Status, moved = to, true
					out = append(out, to)
					break
				}
			}
			require.True(t, moved, "%s stuck in %s", f, tour.Status)
		}
		return out
	}
	assert.Equal(t, []TournamentStatus{StatusGroupStage, StatusPlayoffs, StatusCompleted}, steps(FormatGroupsPlayoffs, 0))
	assert.Equal(t, []TournamentStatus{StatusPlayoffs, StatusCompleted}, steps(FormatPlayoffsOnly, 0))
	assert.Equal(t, []TournamentStatus{StatusPlayoffs, StatusCompleted}, steps(FormatDoubleElimination, 0))
	assert.Equal(t, []TournamentStatus{StatusGroupStage, StatusCompleted}, steps(FormatRoundRobin, 0))
	assert.Equal(t, []TournamentStatus{StatusGroupStage, StatusCompleted}, steps(FormatSwiss, 0))
	assert.Equal(t, []TournamentStatus{StatusGroupStage, StatusPlayoffs, StatusCompleted}, steps(FormatSwiss, 8))
	dbl := &Tournament{Format: FormatDoubleElimination, Status: StatusRegistrationClosed}
	assert.Equal(t, CodeInvalidTransition, ErrorCode(dbl.NextStatusAllowed(StatusGroupStage)))
}
