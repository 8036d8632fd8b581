package store_test

import (
	"context"
	"crypto/rand"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
)

// startedTournament creates a tournament of the format with players 1..n
// (seed i for player i), closes registration and starts its first stage.
func startedTournament(t testing.TB, s core.TournamentStore, slug string, format core.TournamentFormat, n int, set func(*core.Tournament)) *core.Tournament {
	t.Helper()
	ctx := context.Background()
	tour := newTournament(slug, format, n)
	tour.SmallFinal = false
	if set != nil {
		set(tour)
	}
	require.NoError(t, s.CreateTournament(ctx, tour))
	points := core.DefaultPlacementPoints
	require.NoError(t, core.ChangeTournamentStatus(ctx, s, tour, core.StatusRegistrationOpen, core.Deps{Now: t0, Random: rand.Reader, Points: points}))
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i + 1
	}
	register(t, s.(*store.Arena), tour, ids...)
	require.NoError(t, core.ChangeTournamentStatus(ctx, s, tour, core.StatusRegistrationClosed, core.Deps{Now: playoffsAt, Random: rand.Reader, Points: points}))
	first := core.StatusGroupStage
	if format.StartsWithBracket() {
		first = core.StatusPlayoffs
	}
	require.NoError(t, core.ChangeTournamentStatus(ctx, s, tour, first, core.Deps{Now: playoffsAt, Random: rand.Reader, Points: points}))
	return tour
}

// playAll has the admin decide every playable match (both sides known,
// not resolved) until none is left, the winner chosen by pick ("" leaves
// the match undecided), each a minute after the last, in the order the
// store lists them, reading the matches again once those it listed
// playable are decided; it returns the decisions made.
func playAll(t testing.TB, s *store.Arena, ts core.TournamentStore, tour *core.Tournament, at *time.Time, pick func(m *core.Match) string) int {
	t.Helper()
	ctx := context.Background()
	decided := 0
	for {
		matches, err := s.Matches(ctx, tour.ID)
		require.NoError(t, err)
		played := false
		for i := range matches {
			m := &matches[i]
			if m.Status.Resolved() || m.P1 == "" || m.P2 == "" {
				continue
			}
			winner := pick(m)
			if winner == "" {
				continue
			}
			*at = at.Add(time.Minute)
			_, err = core.ResolveMatch(ctx, ts, tour, m, core.Resolution{Winner: winner, Source: core.SourceAdmin, At: *at},
				core.Deps{Random: rand.Reader, Points: core.DefaultPlacementPoints})
			if err != nil {
				return decided
			}
			decided++
			played = true
		}
		if !played {
			return decided
		}
	}
}

func lowerID(m *core.Match) string { return min(m.P1, m.P2) }

func tournamentNow(t *testing.T, s *store.Arena, id int64) *core.Tournament {
	t.Helper()
	tour, err := s.TournamentByID(context.Background(), id)
	require.NoError(t, err)
	return tour
}

// failingAdds fails AddMatches and CompleteTournament while crash is set,
// as if the process died after a decision's own batch.
type failingAdds struct {
	*store.Arena
	crash atomic.Bool
}

func (f *failingAdds) AddMatches(ctx context.Context, t *core.Tournament, from, to core.TournamentStatus, matches []core.Match, at time.Time) error {
	if f.crash.Load() {
		return errors.New("injected crash before the next round")
	}
	return f.Arena.AddMatches(ctx, t, from, to, matches, at)
}

func (f *failingAdds) CompleteTournament(ctx context.Context, t *core.Tournament, podium []core.PodiumPlace, placements []core.ScoredPlacement, at time.Time) error {
	if f.crash.Load() {
		return errors.New("injected crash before completion")
	}
	return f.Arena.CompleteTournament(ctx, t, podium, placements, at)
}

// TestDoubleEliminationThroughTheStore plays a 6-player double
// elimination through the store: the losers drop into the losers' bracket
// in their decisions' batches, the grand final won by the losers'
// champion creates the reset (GF2, a window from the decision on), and
// the reset completes the tournament with its podium; a crash before the
// completion is settled by the scheduled job.
func TestDoubleEliminationThroughTheStore(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		ts := &failingAdds{Arena: s}
		tour := startedTournament(t, s, "double", core.FormatDoubleElimination, 6, func(t *core.Tournament) { t.GrandFinalReset = true })
		at := playoffsAt
		// Seed order wins everywhere but in the grand final, where the
		// losers' champion (side 2) wins.
		pick := func(m *core.Match) string {
			if m.BracketSlot == core.BracketSlotGrandFinal {
				return m.P2
			}
			return lowerID(m)
		}
		playAll(t, s, ts, tour, &at, func(m *core.Match) string {
			if m.BracketSlot == core.BracketSlotGrandFinalReset {
				return "" // stop before the reset
			}
			return pick(m)
		})
		grand := matchInSlot(t, s, tour, "GF")
		require.True(t, grand.Status.Resolved())
		assert.Equal(t, pid(1), grand.P1, "the winners' champion")
		assert.Equal(t, pid(2), grand.P2, "the losers' champion: seed 2 lost the winners' final")
		reset := matchInSlot(t, s, tour, "GF2")
		assert.Equal(t, core.MatchScheduled, reset.Status)
		assert.Equal(t, [2]string{pid(1), pid(2)}, [2]string{reset.P1, reset.P2})
		assert.Equal(t, *grand.ResolvedAt, reset.OpensAt)
		assert.Equal(t, grand.ResolvedAt.Add(time.Hour), reset.ClosesAt, "one match window")
		assert.Equal(t, core.StatusPlayoffs, tournamentNow(t, s, tour.ID).Status)

		ts.crash.Store(true)
		at = at.Add(time.Minute)
		_, err := core.ResolveMatch(ctx, ts, tour, reset, core.Resolution{Winner: pid(2), Source: core.SourceAdmin, At: at}, core.Deps{Random: rand.Reader, Points: core.DefaultPlacementPoints})
		require.Error(t, err, "the completion crashed")
		ts.crash.Store(false)
		n, err := core.SettleTournaments(ctx, s, at.Add(time.Minute), core.DefaultPlacementPoints)
		require.NoError(t, err)
		assert.Equal(t, 1, n)
		assert.Equal(t, core.StatusCompleted, tournamentNow(t, s, tour.ID).Status)
		podium, err := s.Podium(ctx, tour.ID)
		require.NoError(t, err)
		assert.Equal(t, []core.PodiumPlace{{Rank: 1, PlayerID: pid(2)}, {Rank: 2, PlayerID: pid(1)}, {Rank: 3, PlayerID: pid(3)}, {Rank: 4, PlayerID: pid(4)}}, podium)
		n, err = core.SettleTournaments(ctx, s, at.Add(2*time.Minute), core.DefaultPlacementPoints)
		require.NoError(t, err)
		assert.Zero(t, n, "settled once")

		t.Run("NoResetWhenTheWinnersChampionWins", func(t *testing.T) {
			tour := startedTournament(t, s, "double-2", core.FormatDoubleElimination, 5, func(t *core.Tournament) { t.GrandFinalReset = true })
			playAll(t, s, s, tour, &at, lowerID)
			assert.Equal(t, core.StatusCompleted, tournamentNow(t, s, tour.ID).Status)
			matches, err := s.Matches(ctx, tour.ID)
			require.NoError(t, err)
			for _, m := range matches {
				assert.NotEqual(t, "GF2", m.BracketSlot)
			}
		})
	})
}

// TestSwissThroughTheStore plays 7 players over 3 Swiss rounds with a top
// cut of 4: each round is paired by the decision that ends the one before
// (a crash there is repaired by the scheduled job), byes are stored
// decided, the last round seeds the top cut (status playoffs) whose final
// completes the tournament, every side placed.
func TestSwissThroughTheStore(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		ts := &failingAdds{Arena: s}
		tour := startedTournament(t, s, "swiss", core.FormatSwiss, 7, func(t *core.Tournament) { t.SwissRounds, t.TopCut = 3, 4 })
		matches, err := s.Matches(ctx, tour.ID)
		require.NoError(t, err)
		require.Len(t, matches, 4, "round 1: three matches and a bye")
		assert.Equal(t, core.SourceBye, matches[3].ResultSource)
		assert.Equal(t, pid(7), matches[3].P1, "the bye to the last seed")
		assert.Equal(t, "S1M4", matches[3].BracketSlot)

		at := playoffsAt
		// Round 1 but its last match; the last one crashes before round 2.
		for _, m := range matches[:2] {
			at = at.Add(time.Minute)
			_, err := core.ResolveMatch(ctx, ts, tour, &m, core.Resolution{Winner: m.P1, Source: core.SourceAdmin, At: at}, core.Deps{Random: rand.Reader, Points: core.DefaultPlacementPoints})
			require.NoError(t, err)
		}
		ts.crash.Store(true)
		_, err = core.ResolveMatch(ctx, ts, tour, &matches[2], core.Resolution{Winner: matches[2].P1, Source: core.SourceAdmin, At: at}, core.Deps{Random: rand.Reader, Points: core.DefaultPlacementPoints})
		require.Error(t, err)
		ts.crash.Store(false)
		n, err := core.SettleTournaments(ctx, s, at, core.DefaultPlacementPoints)
		require.NoError(t, err)
		assert.Equal(t, 1, n, "the job pairs round 2")
		// The same round added again (a racing decision) is stored once.
		round2, err := s.Matches(ctx, tour.ID)
		require.NoError(t, err)
		require.NoError(t, s.AddMatches(ctx, tour, core.StatusGroupStage, core.StatusGroupStage, round2[4:], at))
		again, err := s.Matches(ctx, tour.ID)
		require.NoError(t, err)
		assert.Equal(t, round2, again)
		assert.Equal(t, 8, len(again))

		playAll(t, s, s, tour, &at, lowerID)
		assert.Equal(t, core.StatusCompleted, tournamentNow(t, s, tour.ID).Status)
		all, err := s.Matches(ctx, tour.ID)
		require.NoError(t, err)
		swiss, bracket := 0, 0
		for _, m := range all {
			switch {
			case m.Stage == core.StageSwiss:
				swiss++
			case core.IsBracketStage(m.Stage):
				bracket++
			}
		}
		assert.Equal(t, 12, swiss, "3 rounds of 3 matches and a bye")
		assert.Equal(t, 3, bracket, "semifinals and final")
		podium, err := s.Podium(ctx, tour.ID)
		require.NoError(t, err)
		require.Len(t, podium, 4)
		assert.Equal(t, pid(1), podium[0].PlayerID)
		var places []int
		for _, p := range queryPlacements(t, s, tour.ID) {
			places = append(places, p)
		}
		assert.ElementsMatch(t, []int{1, 2, 3, 3, 5, 6, 7}, places, "the cut by the bracket, the others by Swiss rank")
	})
}

// queryPlacements reads the places stored for a completed tournament.
func queryPlacements(t *testing.T, s *store.Arena, tournamentID int64) map[string]int {
	t.Helper()
	rows, err := s.DB().QueryContext(context.Background(), "SELECT platform_id, place FROM placements WHERE tournament_id = ?", tournamentID)
	require.NoError(t, err)
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var id string
		var place int
		require.NoError(t, rows.Scan(&id, &place))
		out[id] = place
	}
	return out
}

// TestRoundRobinThroughTheStore: one group, every pair once; the last
// decision completes the tournament with the standings' top three.
func TestRoundRobinThroughTheStore(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		tour := startedTournament(t, s, "league", core.FormatRoundRobin, 5, nil)
		matches, err := s.Matches(ctx, tour.ID)
		require.NoError(t, err)
		require.Len(t, matches, 10)
		for _, m := range matches {
			assert.Equal(t, core.StageRoundRobin, m.Stage)
			assert.Equal(t, "A", m.GroupName)
		}
		at := playoffsAt
		assert.Equal(t, 10, playAll(t, s, s, tour, &at, lowerID))
		assert.Equal(t, core.StatusCompleted, tournamentNow(t, s, tour.ID).Status)
		podium, err := s.Podium(ctx, tour.ID)
		require.NoError(t, err)
		assert.Equal(t, []core.PodiumPlace{{Rank: 1, PlayerID: pid(1)}, {Rank: 2, PlayerID: pid(2)}, {Rank: 3, PlayerID: pid(3)}}, podium)
		assert.Equal(t, map[string]int{pid(1): 1, pid(2): 2, pid(3): 3, pid(4): 4, pid(5): 5}, queryPlacements(t, s, tour.ID))
	})
}

// TestRatingsThroughTheStore rates a day's matches once the day is over,
// once, and a draw seeded from ratings stores the seeds it used.
func TestRatingsThroughTheStore(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		tour := startedTournament(t, s, "rated", core.FormatRoundRobin, 4, nil)
		at := playoffsAt
		// The higher id wins: player 4 beats everyone.
		playAll(t, s, s, tour, &at, func(m *core.Match) string { return max(m.P1, m.P2) })
		n, err := core.RunRatingPeriods(ctx, s, 24, at)
		require.NoError(t, err)
		assert.Zero(t, n, "the day is not over")
		next := at.Add(24 * time.Hour)
		n, err = core.RunRatingPeriods(ctx, s, 24, next)
		require.NoError(t, err)
		assert.Equal(t, 1, n)
		n, err = core.RunRatingPeriods(ctx, s, 24, next)
		require.NoError(t, err)
		assert.Zero(t, n, "rated once")
		ladder, err := s.RatingLadder(ctx)
		require.NoError(t, err)
		require.Len(t, ladder, 4)
		var order []string
		for _, p := range ladder {
			order = append(order, p.PlatformID)
			assert.Equal(t, 3, p.Matches)
		}
		assert.Equal(t, []string{pid(4), pid(3), pid(2), pid(1)}, order)
		_, dayEnd := core.RatingPeriodOf(at, 24)
		assert.Equal(t, dayEnd, ladder[0].RatedThrough)
		assert.Greater(t, ladder[0].Rating.Rating, core.DefaultRating)

		rated := newTournament("by-rating", core.FormatPlayoffsOnly, 4)
		rated.SeedFromRatings = true
		require.NoError(t, s.CreateTournament(ctx, rated))
		require.NoError(t, core.ChangeTournamentStatus(ctx, s, rated, core.StatusRegistrationOpen, core.Deps{Now: t0, Random: rand.Reader, Points: core.DefaultPlacementPoints}))
		for _, i := range []int{1, 2, 3, 4} {
			reg := core.Registration{PlatformID: pid(i), Roster: []string{pid(i)}, RegisteredAt: t0.Add(time.Hour)}
			require.NoError(t, s.Register(ctx, rated, reg, []core.PlayerProfile{{PlatformID: pid(i)}}))
		}
		require.NoError(t, core.ChangeTournamentStatus(ctx, s, rated, core.StatusRegistrationClosed, core.Deps{Now: next, Random: rand.Reader, Points: core.DefaultPlacementPoints}))
		require.NoError(t, core.ChangeTournamentStatus(ctx, s, rated, core.StatusPlayoffs, core.Deps{Now: next, Random: rand.Reader, Points: core.DefaultPlacementPoints}))
		regs, err := s.Registrations(ctx, rated.ID)
		require.NoError(t, err)
		seeds := map[string]int{}
		for _, r := range regs {
			seeds[r.PlatformID] = r.Seed
		}
		assert.Equal(t, map[string]int{pid(4): 1, pid(3): 2, pid(2): 3, pid(1): 4}, seeds)
		semi := matchInSlot(t, s, rated, "SF1")
		assert.Equal(t, [2]string{pid(4), pid(1)}, [2]string{semi.P1, semi.P2}, "seed 1 meets seed 4")
	})
}

// TestEveryDecisionMovesADoubleEliminationOn decides a 2-player double
// elimination through each way a match is decided: the first match seats
// its winner and its loser in the grand final, whose decision completes
// the tournament.
func TestEveryDecisionMovesADoubleEliminationOn(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		for name, decide := range decisionSources() {
			t.Run(name, func(t *testing.T) {
				tour := startedTournament(t, s, "de-"+strings.ToLower(name), core.FormatDoubleElimination, 2, func(t *core.Tournament) { t.GrandFinalReset = true })
				first := matchInSlot(t, s, tour, "W1M1")
				require.NoError(t, decide(t, s, s, first))
				grand := matchInSlot(t, s, tour, "GF")
				assert.Equal(t, [2]string{first.P1, first.P2}, [2]string{grand.P1, grand.P2}, "winner and loser seated")
				grand.OpensAt, grand.ClosesAt = first.OpensAt, first.ClosesAt // its window opens a step later
				_, err := s.RescheduleMatch(ctx, grand.ID, grand.OpensAt, grand.ClosesAt, grand.OpensAt)
				require.NoError(t, err)
				require.NoError(t, decide(t, s, s, grand))
				assert.Equal(t, core.StatusCompleted, tournamentNow(t, s, tour.ID).Status)
			})
		}
	})
}
