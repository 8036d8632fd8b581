package store_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
)

func pid(i int) string { return fmt.Sprintf("765611980000%05d", i) }

func newTournament(slug string, format core.TournamentFormat, max int) *core.Tournament {
	return &core.Tournament{
		Slug: slug, Name: "Cup " + slug, Format: format, MaxPlayers: max,
		RegistrationOpensAt: t0, RegistrationClosesAt: t0.Add(24 * time.Hour), StartsAt: t0.Add(48 * time.Hour),
		Environment: core.EnvironmentDemo, TeamMinPlayers: 1, TeamMaxPlayers: 1, GroupCount: 2,
		AdvancePerGroup: 2, SmallFinal: true, MatchWindowMinutes: 60,
		Cast: core.CastPolicy{HandMode: core.HandModeHidden}, AllowSpectators: true,
		CreatedAt: t0, UpdatedAt: t0,
	}
}

func openArenaStore(t testing.TB, open func() *store.DB) *store.Arena {
	db := open()
	mustMigrate(t, db, store.ArenaMigrations)
	return store.NewArena(db)
}

func register(t testing.TB, s *store.Arena, tour *core.Tournament, ids ...int) {
	t.Helper()
	for _, i := range ids {
		reg := core.Registration{PlatformID: pid(i), Seed: i, Roster: []string{pid(i)}, RegisteredAt: t0.Add(time.Hour)}
		require.NoError(t, s.Register(context.Background(), tour, reg, []core.PlayerProfile{{PlatformID: pid(i)}}))
	}
}

func TestTournamentLifecycle(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		season := &core.Season{Slug: "s1", Name: "Season 1", StartsAt: t0, EndsAt: t0.Add(90 * 24 * time.Hour), CreatedAt: t0.Add(-time.Hour)}
		require.NoError(t, s.CreateSeason(ctx, season))
		seasons, err := s.Seasons(ctx)
		require.NoError(t, err)
		require.Len(t, seasons, 1)
		assert.Equal(t, t0.Add(-time.Hour), seasons[0].CreatedAt, "stored at the injected clock's time, not the machine's")
		tour := newTournament("cup", core.FormatGroupsPlayoffs, 8)
		tour.SeasonID = season.ID
		require.NoError(t, s.CreateTournament(ctx, tour))
		points := core.DefaultPlacementPoints

		t.Run("DraftsAreHidden", func(t *testing.T) {
			public, err := s.Tournaments(ctx, false)
			require.NoError(t, err)
			assert.Empty(t, public)
			all, err := s.Tournaments(ctx, true)
			require.NoError(t, err)
			assert.Len(t, all, 1)
		})
		t.Run("ErrRegistrationClosedInDraft", func(t *testing.T) {
			err := s.Register(ctx, tour, core.Registration{PlatformID: pid(1), Roster: []string{pid(1)}, RegisteredAt: t0.Add(time.Hour)}, nil)
			assert.Equal(t, core.CodeRegistrationClosed, core.ErrorCode(err))
		})
		require.NoError(t, core.ChangeTournamentStatus(ctx, s, tour, core.StatusRegistrationOpen, core.Deps{Now: t0, Random: rand.Reader, Points: points}))
		register(t, s, tour, 1, 2, 3, 4, 5, 6, 7, 8)

		t.Run("ErrTournamentFull", func(t *testing.T) {
			err := s.Register(ctx, tour, core.Registration{PlatformID: pid(9), Roster: []string{pid(9)}, RegisteredAt: t0.Add(time.Hour)}, nil)
			assert.Equal(t, core.CodeTournamentFull, core.ErrorCode(err))
		})
		t.Run("ErrAlreadyRegistered", func(t *testing.T) {
			err := s.Register(ctx, tour, core.Registration{PlatformID: pid(1), Roster: []string{pid(1)}, RegisteredAt: t0.Add(time.Hour)}, nil)
			assert.Equal(t, core.CodeAlreadyRegistered, core.ErrorCode(err))
		})
		t.Run("ErrInvalidTransition", func(t *testing.T) {
			err := core.ChangeTournamentStatus(ctx, s, tour, core.StatusPlayoffs, core.Deps{Now: t0, Random: rand.Reader, Points: points})
			assert.Equal(t, core.CodeInvalidTransition, core.ErrorCode(err))
		})
		require.NoError(t, core.ChangeTournamentStatus(ctx, s, tour, core.StatusRegistrationClosed, core.Deps{Now: t0, Random: rand.Reader, Points: points}))
		require.NoError(t, core.ChangeTournamentStatus(ctx, s, tour, core.StatusGroupStage, core.Deps{Now: t0, Random: rand.Reader, Points: points}))

		matches, err := s.Matches(ctx, tour.ID)
		require.NoError(t, err)
		require.Len(t, matches, 12, "two groups of four: 6 matches each")
		t.Run("ErrPlayoffsBeforeGroupsEnd", func(t *testing.T) {
			err := core.ChangeTournamentStatus(ctx, s, tour, core.StatusPlayoffs, core.Deps{Now: t0, Random: rand.Reader, Points: points})
			assert.Equal(t, core.CodeMatchesUnresolved, core.ErrorCode(err))
		})
		// The lower id wins every group match: seeds 1 and 2 top their groups.
		for _, m := range matches {
			winner := min(m.P1, m.P2)
			_, err := core.ResolveMatch(ctx, s, tour, &m, core.Resolution{Winner: winner, Score: &core.OutcomeScore{P1: 2, P2: 1}, Source: core.SourceAdmin, At: t0}, core.Deps{Random: rand.Reader, Points: points})
			require.NoError(t, err)
		}
		t.Run("ErrAlreadyResolved", func(t *testing.T) {
			m, err := s.Match(ctx, matches[0].ID)
			require.NoError(t, err)
			_, err = s.ResolveMatch(ctx, m.ID, core.Resolution{Winner: m.P2, Source: core.SourceAdmin, At: t0})
			assert.Equal(t, core.CodeAlreadyResolved, core.ErrorCode(err))
		})
		require.NoError(t, core.ChangeTournamentStatus(ctx, s, tour, core.StatusPlayoffs, core.Deps{Now: t0.Add(time.Hour), Random: rand.Reader, Points: points}))

		bracket, err := s.Matches(ctx, tour.ID)
		require.NoError(t, err)
		var playoff []core.Match
		for _, m := range bracket {
			if m.Stage != core.StageGroup {
				playoff = append(playoff, m)
			}
		}
		require.Len(t, playoff, 4, "SF1, SF2, FINAL, SMALL_FINAL")
		assert.Equal(t, "SF1", playoff[0].BracketSlot)
		// Play the bracket: the lower id always wins.
		for _, slot := range []string{"SF1", "SF2", "FINAL", "SMALL_FINAL"} {
			all, err := s.Matches(ctx, tour.ID)
			require.NoError(t, err)
			for _, m := range all {
				if m.BracketSlot == slot {
					require.NotEmpty(t, m.P1, slot)
					require.NotEmpty(t, m.P2, slot)
					_, err := core.ResolveMatch(ctx, s, tour, &m, core.Resolution{Winner: min(m.P1, m.P2), Source: core.SourceAdmin, At: t0}, core.Deps{Random: rand.Reader, Points: points})
					require.NoError(t, err)
				}
			}
		}
		got, err := s.Tournament(ctx, "cup")
		require.NoError(t, err)
		assert.Equal(t, core.StatusCompleted, got.Status)
		podium, err := s.Podium(ctx, tour.ID)
		require.NoError(t, err)
		require.Len(t, podium, 4)
		assert.Equal(t, core.PodiumPlace{Rank: 1, PlayerID: pid(1)}, podium[0])

		ladder, err := s.Ladder(ctx, season.ID)
		require.NoError(t, err)
		require.Len(t, ladder, 8)
		assert.Equal(t, core.LadderRow{PlatformID: pid(1), Points: 100, Tournaments: 1}, ladder[0])

		card, err := s.PlayerCard(ctx, pid(1))
		require.NoError(t, err)
		stats := card.Stats
		assert.Equal(t, 5, stats.MatchesPlayed, "three group matches, semifinal, final")
		assert.Equal(t, 5, stats.Wins)
		assert.Equal(t, 100, stats.WinRate)
		require.Len(t, stats.Trophies, 1)
		assert.Equal(t, 1, stats.Trophies[0].Rank)
	})
}

func TestRegistrationCapUnderConcurrency(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		tour := newTournament("race", core.FormatPlayoffsOnly, 4)
		require.NoError(t, s.CreateTournament(ctx, tour))
		require.NoError(t, s.SetTournamentStatus(ctx, tour, core.StatusDraft, core.StatusRegistrationOpen, t0))
		var wg sync.WaitGroup
		errs := make([]error, 12)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				reg := core.Registration{PlatformID: pid(i + 1), Roster: []string{pid(i + 1)}, RegisteredAt: t0.Add(time.Hour)}
				errs[i] = s.Register(ctx, tour, reg, nil)
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
			} else {
				assert.Equal(t, core.CodeTournamentFull, core.ErrorCode(err), err)
			}
		}
		assert.Equal(t, 4, ok)
		regs, err := s.Registrations(ctx, tour.ID)
		require.NoError(t, err)
		assert.Len(t, regs, 4)
	})
}

func TestTeamRosters(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		tour := newTournament("teams", core.FormatPlayoffsOnly, 8)
		tour.TeamMinPlayers, tour.TeamMaxPlayers = 2, 3
		require.NoError(t, s.CreateTournament(ctx, tour))
		require.NoError(t, s.SetTournamentStatus(ctx, tour, core.StatusDraft, core.StatusRegistrationOpen, t0))
		at := t0.Add(time.Hour)
		require.NoError(t, s.Register(ctx, tour, core.Registration{PlatformID: pid(1), Roster: []string{pid(1), pid(2)}, RegisteredAt: at}, nil))
		err := s.Register(ctx, tour, core.Registration{PlatformID: pid(3), Roster: []string{pid(3), pid(2)}, RegisteredAt: at}, nil)
		assert.Equal(t, core.CodeAlreadyRegistered, core.ErrorCode(err), "a player is on one roster per tournament")
		regs, err := s.Registrations(ctx, tour.ID)
		require.NoError(t, err)
		require.Len(t, regs, 1, "the refused side left nothing behind")
		assert.Equal(t, []string{pid(1), pid(2)}, regs[0].Roster)
	})
}

func TestConcurrentStageStart(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		tour := newTournament("stage", core.FormatPlayoffsOnly, 8)
		require.NoError(t, s.CreateTournament(ctx, tour))
		require.NoError(t, s.SetTournamentStatus(ctx, tour, core.StatusDraft, core.StatusRegistrationOpen, t0))
		register(t, s, tour, 1, 2, 3, 4, 5)
		require.NoError(t, s.SetTournamentStatus(ctx, tour, core.StatusRegistrationOpen, core.StatusRegistrationClosed, t0))
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				mine := *tour
				errs[i] = core.ChangeTournamentStatus(ctx, s, &mine, core.StatusPlayoffs, core.Deps{Now: t0, Random: rand.Reader, Points: core.DefaultPlacementPoints})
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
			} else {
				assert.Equal(t, core.CodeInvalidTransition, core.ErrorCode(err))
			}
		}
		assert.Equal(t, 1, ok)
		matches, err := s.Matches(ctx, tour.ID)
		require.NoError(t, err)
		assert.Len(t, matches, 8, "one bracket of 8 with a small final, never two")
		byes := 0
		for _, m := range matches {
			if m.ResultSource == core.SourceBye {
				byes++
				assert.Equal(t, core.MatchConfirmed, m.Status)
			}
		}
		assert.Equal(t, 3, byes, "5 entrants in a bracket of 8")
	})
}
