package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
)

func TestWebsiteReads(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		solo := newTournament("solo", core.FormatPlayoffsOnly, 8)
		teams := newTournament("teams", core.FormatPlayoffsOnly, 8)
		teams.TeamMaxPlayers = 3
		require.NoError(t, s.CreateTournament(ctx, solo))
		require.NoError(t, s.CreateTournament(ctx, teams))
		for _, tour := range []*core.Tournament{solo, teams} {
			require.NoError(t, s.SetTournamentStatus(ctx, tour, core.StatusDraft, core.StatusRegistrationOpen, t0))
		}
		register(t, s, solo, 1, 2)
		reg := core.Registration{PlatformID: pid(3), Roster: []string{pid(3), pid(1)}, RegisteredAt: t0.Add(time.Hour)}
		require.NoError(t, s.Register(ctx, teams, reg, []core.PlayerProfile{{PlatformID: pid(3)}, {PlatformID: pid(1)}}))

		t.Run("RosterCaptains", func(t *testing.T) {
			got, err := s.RosterCaptains(ctx, pid(1))
			require.NoError(t, err)
			assert.Equal(t, map[int64]string{solo.ID: pid(1), teams.ID: pid(3)}, got, "their own side and the team they play on")
			got, err = s.RosterCaptains(ctx, pid(9))
			require.NoError(t, err)
			assert.Empty(t, got)
		})
		t.Run("SetPersonaName", func(t *testing.T) {
			require.NoError(t, s.SetPersonaName(ctx, pid(2), "Blaise P.", t0))
			got, err := s.Player(ctx, pid(2))
			require.NoError(t, err)
			assert.Equal(t, "Blaise P.", got.PersonaName)
			err = s.SetPersonaName(ctx, pid(9), "Nobody", t0)
			assert.Equal(t, core.CodePlayerNotFound, core.ErrorCode(err))
		})
	})
}
