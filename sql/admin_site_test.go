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

func TestUpdateTournament(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		season := &core.Season{Slug: "s1", Name: "Season 1", StartsAt: t0, EndsAt: t0.Add(90 * 24 * time.Hour)}
		require.NoError(t, s.CreateSeason(ctx, season))
		tour := newTournament("cup", core.FormatGroupsPlayoffs, 8)
		require.NoError(t, s.CreateTournament(ctx, tour))
		other := newTournament("other", core.FormatPlayoffsOnly, 4)
		require.NoError(t, s.CreateTournament(ctx, other))

		t.Run("DraftChangesEveryField", func(t *testing.T) {
			edit := *tour
			edit.Slug, edit.Name, edit.Description = "cup-2", "Cup Two", "New rules."
			edit.Format, edit.MaxPlayers, edit.GroupCount, edit.AdvancePerGroup = core.FormatPlayoffsOnly, 16, 0, 0
			edit.RegistrationOpensAt = t0.Add(time.Hour)
			edit.RegistrationClosesAt = t0.Add(25 * time.Hour)
			edit.StartsAt = t0.Add(50 * time.Hour)
			edit.Environment, edit.SeasonID = core.EnvironmentBeta, season.ID
			edit.TeamMinPlayers, edit.TeamMaxPlayers, edit.SmallFinal, edit.MatchWindowMinutes = 2, 3, false, 90
			edit.Cast = core.CastPolicy{HandMode: core.HandModeDelayed, DelaySeconds: 120}
			edit.AllowSpectators, edit.UpdatedAt = false, t0.Add(time.Minute)
			edit.BestOf, edit.GroupBestOf, edit.FinalBestOf, edit.Pacing = 3, 5, 7, core.PacingASAP
			require.NoError(t, s.UpdateTournament(ctx, &edit))
			got, err := s.Tournament(ctx, "cup-2")
			require.NoError(t, err)
			assert.Equal(t, tour.ID, got.ID)
			assert.Equal(t, core.StatusDraft, got.Status)
			assert.Equal(t, "Cup Two", got.Name)
			assert.Equal(t, "New rules.", got.Description)
			assert.Equal(t, core.FormatPlayoffsOnly, got.Format)
			assert.Equal(t, 16, got.MaxPlayers)
			assert.Equal(t, 0, got.GroupCount)
			assert.True(t, got.RegistrationOpensAt.Equal(edit.RegistrationOpensAt))
			assert.True(t, got.RegistrationClosesAt.Equal(edit.RegistrationClosesAt))
			assert.True(t, got.StartsAt.Equal(edit.StartsAt))
			assert.Equal(t, core.EnvironmentBeta, got.Environment)
			assert.Equal(t, "s1", got.SeasonSlug)
			assert.Equal(t, 2, got.TeamMinPlayers)
			assert.Equal(t, 3, got.TeamMaxPlayers)
			assert.False(t, got.SmallFinal)
			assert.Equal(t, 90, got.MatchWindowMinutes)
			assert.Equal(t, edit.Cast, got.Cast)
			assert.False(t, got.AllowSpectators)
			assert.Equal(t, []any{3, 5, 7, core.PacingASAP}, []any{got.BestOf, got.GroupBestOf, got.FinalBestOf, got.Pacing}, "the series and the pace")
			assert.True(t, got.UpdatedAt.Equal(edit.UpdatedAt))
			*tour = *got
		})
		t.Run("NoSeasonClearsIt", func(t *testing.T) {
			edit := *tour
			edit.SeasonID = 0
			require.NoError(t, s.UpdateTournament(ctx, &edit))
			got, err := s.TournamentByID(ctx, tour.ID)
			require.NoError(t, err)
			assert.Equal(t, int64(0), got.SeasonID)
		})
		t.Run("ErrSlugTaken", func(t *testing.T) {
			edit := *tour
			edit.Slug = "other"
			err := s.UpdateTournament(ctx, &edit)
			assert.Equal(t, core.CodeSlugTaken, core.ErrorCode(err))
		})
		t.Run("ErrTournamentNotFound", func(t *testing.T) {
			edit := *tour
			edit.ID, edit.Slug = 9999, "ghost"
			err := s.UpdateTournament(ctx, &edit)
			assert.Equal(t, core.CodeTournamentNotFound, core.ErrorCode(err))
		})
		t.Run("ErrTournamentNotDraft", func(t *testing.T) {
			require.NoError(t, core.ChangeTournamentStatus(ctx, s, other, core.StatusRegistrationOpen, core.Deps{Now: t0, Random: rand.Reader, Points: core.DefaultPlacementPoints}))
			edit := *other
			edit.Name = "Renamed"
			err := s.UpdateTournament(ctx, &edit)
			assert.Equal(t, core.CodeTournamentNotDraft, core.ErrorCode(err))
			got, err := s.TournamentByID(ctx, other.ID)
			require.NoError(t, err)
			assert.Equal(t, "Cup other", got.Name, "nothing changed")
		})
	})
}

func TestSetSeeds(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		points := core.DefaultPlacementPoints
		tour := newTournament("cup", core.FormatPlayoffsOnly, 4)
		require.NoError(t, s.CreateTournament(ctx, tour))
		seedsOf := func(t *testing.T) map[string]int {
			regs, err := s.Registrations(ctx, tour.ID)
			require.NoError(t, err)
			out := map[string]int{}
			for _, r := range regs {
				out[r.PlatformID] = r.Seed
			}
			return out
		}

		t.Run("ErrSeedsLockedInDraft", func(t *testing.T) {
			err := s.SetSeeds(ctx, tour.ID, map[string]int{pid(1): 1})
			assert.Equal(t, core.CodeSeedsLocked, core.ErrorCode(err))
		})
		require.NoError(t, core.ChangeTournamentStatus(ctx, s, tour, core.StatusRegistrationOpen, core.Deps{Now: t0, Random: rand.Reader, Points: points}))
		register(t, s, tour, 1, 2, 3, 4) // seeds 1..4

		t.Run("SetsAndClearsWhileOpen", func(t *testing.T) {
			require.NoError(t, s.SetSeeds(ctx, tour.ID, map[string]int{pid(1): 4, pid(4): 1, pid(2): 0}))
			assert.Equal(t, map[string]int{pid(1): 4, pid(2): 0, pid(3): 3, pid(4): 1}, seedsOf(t))
		})
		t.Run("UnregisteredCaptainsAreSkipped", func(t *testing.T) {
			require.NoError(t, s.SetSeeds(ctx, tour.ID, map[string]int{pid(9): 2}))
			assert.Equal(t, map[string]int{pid(1): 4, pid(2): 0, pid(3): 3, pid(4): 1}, seedsOf(t))
		})
		require.NoError(t, core.ChangeTournamentStatus(ctx, s, tour, core.StatusRegistrationClosed, core.Deps{Now: t0, Random: rand.Reader, Points: points}))
		t.Run("SetsWhileClosed", func(t *testing.T) {
			require.NoError(t, s.SetSeeds(ctx, tour.ID, map[string]int{pid(2): 2}))
			assert.Equal(t, 2, seedsOf(t)[pid(2)])
		})
		require.NoError(t, core.ChangeTournamentStatus(ctx, s, tour, core.StatusPlayoffs, core.Deps{Now: t0, Random: rand.Reader, Points: points}))
		t.Run("ErrSeedsLockedAfterTheDraw", func(t *testing.T) {
			err := s.SetSeeds(ctx, tour.ID, map[string]int{pid(2): 3})
			assert.Equal(t, core.CodeSeedsLocked, core.ErrorCode(err))
			assert.Equal(t, 2, seedsOf(t)[pid(2)], "nothing changed")
		})
		t.Run("ErrTournamentNotFound", func(t *testing.T) {
			err := s.SetSeeds(ctx, 9999, map[string]int{pid(2): 3})
			assert.Equal(t, core.CodeTournamentNotFound, core.ErrorCode(err))
		})
	})
}

func TestRemoveArenaAdmin(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		require.NoError(t, s.AddArenaAdmins(ctx, []string{pid(1), pid(2)}, t0))

		t.Run("RemovesOne", func(t *testing.T) {
			require.NoError(t, s.RemoveArenaAdmin(ctx, pid(2)))
			admins, err := s.ArenaAdmins(ctx)
			require.NoError(t, err)
			assert.Equal(t, []string{pid(1)}, admins)
		})
		t.Run("ErrNotFound", func(t *testing.T) {
			err := s.RemoveArenaAdmin(ctx, pid(2))
			assert.Equal(t, core.CodeNotFound, core.ErrorCode(err))
		})
		t.Run("ErrLastAdmin", func(t *testing.T) {
			err := s.RemoveArenaAdmin(ctx, pid(1))
			assert.Equal(t, core.CodeLastAdmin, core.ErrorCode(err))
			admins, err := s.ArenaAdmins(ctx)
			require.NoError(t, err)
			assert.Equal(t, []string{pid(1)}, admins)
		})
		t.Run("ConcurrentRemovalsKeepOne", func(t *testing.T) {
			require.NoError(t, s.AddArenaAdmins(ctx, []string{pid(2)}, t0))
			errs := make(chan error, 2)
			for _, id := range []string{pid(1), pid(2)} {
				go func() { errs <- s.RemoveArenaAdmin(ctx, id) }()
			}
			failed := 0
			for range 2 {
				if err := <-errs; err != nil {
					assert.Equal(t, core.CodeLastAdmin, core.ErrorCode(err))
					failed++
				}
			}
			assert.Equal(t, 1, failed)
			admins, err := s.ArenaAdmins(ctx)
			require.NoError(t, err)
			assert.Len(t, admins, 1)
		})
	})
}
