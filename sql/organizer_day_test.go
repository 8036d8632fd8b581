package store_test

import (
	"context"
	"crypto/rand"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
)

// eventsOf returns the pending events of the kind.
func eventsOf(t *testing.T, s *store.Arena, kind string) []core.Event {
	t.Helper()
	events, err := s.PendingEvents(context.Background(), 1000)
	require.NoError(t, err)
	var out []core.Event
	for _, ev := range events {
		if ev.Kind == kind {
			out = append(out, ev)
		}
	}
	return out
}

func TestCheckInStore(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		points := core.DefaultPlacementPoints
		tour := newTournament("checked", core.FormatGroupsPlayoffs, 8)
		tour.CheckInMinutes = 60
		tour.TeamMaxPlayers = 2
		tour.GroupFormat = core.GroupFormatRoundRobin
		require.NoError(t, s.CreateTournament(ctx, tour))
		stored, err := s.Tournament(ctx, "checked")
		require.NoError(t, err)
		assert.Equal(t, 60, stored.CheckInMinutes)
		assert.Equal(t, core.GroupFormatRoundRobin, stored.GroupFormat)
		require.NoError(t, core.ChangeTournamentStatus(ctx, s, tour, core.StatusRegistrationOpen, core.Deps{Now: t0, Random: rand.Reader, Points: points}))
		during := t0.Add(time.Hour)
		for i := 1; i <= 5; i++ {
			d := core.RegistrationDraft{PlatformID: pid(i)}
			if i == 5 {
				d.Roster = []string{pid(6)}
			}
			_, err := core.Register(ctx, s, tour, d, during)
			require.NoError(t, err)
		}
		inWindow := tour.StartsAt.Add(-30 * time.Minute)

		t.Run("OnceKeepsTheFirstTime", func(t *testing.T) {
			require.NoError(t, core.CheckIn(ctx, s, tour, pid(1), inWindow))
			require.NoError(t, core.CheckIn(ctx, s, tour, pid(1), inWindow.Add(time.Minute)))
			regs, err := s.Registrations(ctx, tour.ID)
			require.NoError(t, err)
			require.NotNil(t, regs[0].CheckedInAt)
			assert.True(t, regs[0].CheckedInAt.Equal(inWindow))
			assert.Nil(t, regs[1].CheckedInAt)
		})
		t.Run("ARosterMemberChecksTheSideIn", func(t *testing.T) {
			require.NoError(t, core.CheckIn(ctx, s, tour, pid(6), inWindow))
			regs, err := s.Registrations(ctx, tour.ID)
			require.NoError(t, err)
			assert.NotNil(t, regs[4].CheckedInAt, "side 5 through its second player")
		})
		t.Run("Refusals", func(t *testing.T) {
			assert.Equal(t, core.CodeNotRegistered, core.ErrorCode(core.CheckIn(ctx, s, tour, pid(9), inWindow)))
			assert.Equal(t, core.CodeCheckInClosed, core.ErrorCode(core.CheckIn(ctx, s, tour, pid(2), t0)))
		})
		for _, i := range []int{2, 3} {
			require.NoError(t, core.CheckIn(ctx, s, tour, pid(i), inWindow))
		}
		t.Run("TheStatementRefusesAStartedTournament", func(t *testing.T) {
			started := *tour
			started.ID = 999999
			ok, err := s.CheckIn(ctx, &started, pid(4), inWindow)
			require.NoError(t, err)
			assert.False(t, ok)
		})
		t.Run("TheStartWithdrawsTheAbsentAndTellsThem", func(t *testing.T) {
			require.NoError(t, core.ChangeTournamentStatus(ctx, s, tour, core.StatusRegistrationClosed, core.Deps{Now: inWindow, Random: rand.Reader, Points: points}))
			require.NoError(t, core.ChangeTournamentStatus(ctx, s, tour, core.StatusGroupStage, core.Deps{Now: tour.StartsAt, Random: rand.Reader, Points: points}))
			regs, err := s.Registrations(ctx, tour.ID)
			require.NoError(t, err)
			var ids []string
			for _, r := range regs {
				ids = append(ids, r.PlatformID)
				assert.NotEmpty(t, r.GroupName)
			}
			assert.Equal(t, []string{pid(1), pid(2), pid(3), pid(5)}, ids)
			missed := eventsOf(t, s, core.EventCheckInMissed)
			require.Len(t, missed, 1)
			assert.Equal(t, pid(4), missed[0].PlayerID)
			assert.Equal(t, tour.ID, missed[0].TournamentID)
			ok, err := s.CheckIn(ctx, tour, pid(1), tour.StartsAt)
			require.NoError(t, err)
			assert.False(t, ok, "no check-in once started")
		})
	})
}

func TestStartStopsWhenAnAbsentSideChecksIn(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		tour := newTournament("race", core.FormatPlayoffsOnly, 4)
		tour.CheckInMinutes = 60
		require.NoError(t, s.CreateTournament(ctx, tour))
		require.NoError(t, core.ChangeTournamentStatus(ctx, s, tour, core.StatusRegistrationOpen, core.Deps{Now: t0, Random: rand.Reader, Points: core.DefaultPlacementPoints}))
		register(t, s, tour, 1, 2, 3)
		require.NoError(t, core.ChangeTournamentStatus(ctx, s, tour, core.StatusRegistrationClosed, core.Deps{Now: t0, Random: rand.Reader, Points: core.DefaultPlacementPoints}))
		// The draw was planned with side 3 absent; it checks in first.
		ok, err := s.CheckIn(ctx, tour, pid(3), tour.StartsAt.Add(-time.Minute))
		require.NoError(t, err)
		require.True(t, ok)
		regs, err := s.Registrations(ctx, tour.ID)
		require.NoError(t, err)
		err = s.StartStage(ctx, tour, core.StatusRegistrationClosed, core.StatusPlayoffs, core.StageStart{Absent: regs[2:]}, tour.StartsAt, "token")
		assert.Equal(t, core.CodeInvalidTransition, core.ErrorCode(err))
		after, err := s.Registrations(ctx, tour.ID)
		require.NoError(t, err)
		assert.Len(t, after, 3, "nothing withdrawn")
		assert.Empty(t, eventsOf(t, s, core.EventCheckInMissed))
	})
}

func TestStampStale(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		tour := seededBracket(t, s, "stale", 1, 2, 3, 4)
		live := goLive(t, s, tour, "SF1") // live since playoffsAt + 1 minute
		sf2 := matchInSlot(t, s, tour, "SF2")
		liveAt := playoffsAt.Add(time.Minute)
		stamp := func(now time.Time, minutes int) {
			t.Helper()
			require.NoError(t, s.StampStale(ctx, core.StaleCutoffsAt(now, minutes)))
		}

		stamp(liveAt.Add(19*time.Minute), 20)
		assert.Empty(t, eventsOf(t, s, core.EventMatchStale), "not yet")
		stamp(liveAt.Add(20*time.Minute), 0)
		assert.Empty(t, eventsOf(t, s, core.EventMatchStale), "stale alerts off")
		stamp(liveAt.Add(20*time.Minute), 20)
		stamp(liveAt.Add(25*time.Minute), 20)
		stale := eventsOf(t, s, core.EventMatchStale)
		require.Len(t, stale, 1, "once")
		assert.Equal(t, live.ID, stale[0].MatchID)

		closes := sf2.ClosesAt // a 60-minute window from playoffsAt
		stamp(closes.Add(-11*time.Minute), 20)
		assert.Empty(t, eventsOf(t, s, core.EventMatchWindowClosing), "not within 10 minutes yet")
		stamp(closes.Add(-10*time.Minute), 20)
		stamp(closes.Add(-5*time.Minute), 20)
		closing := eventsOf(t, s, core.EventMatchWindowClosing)
		assert.Len(t, closing, 2, "both semifinals, once each")
		stamp(closes.Add(time.Minute), 20)
		assert.Len(t, eventsOf(t, s, core.EventMatchWindowClosing), 2, "past the window: the queue's overdue, no new alert")

		t.Run("TheQueueAgrees", func(t *testing.T) {
			c := core.StaleCutoffsAt(closes.Add(-5*time.Minute), 20)
			list, err := s.AttentionMatches(ctx, c)
			require.NoError(t, err)
			reasons := map[string]string{}
			for _, m := range list {
				reasons[m.BracketSlot] = core.AttentionReason(&m.Match, c)
			}
			assert.Equal(t, map[string]string{"SF1": core.AttentionStale, "SF2": core.AttentionWindowClosing}, reasons)
		})
	})
}
