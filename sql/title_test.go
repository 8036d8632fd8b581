package store_test

import (
	"context"
	"crypto/rand"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
)

// titleArena is the arena the title tests act in: one AppID, so the
// environment gate shows everything.
var titleArena = &core.Arena{AppIDs: []string{"480"}, GracePeriodSeconds: 3600}

func caller(i int) core.Caller { return core.Caller{PlatformID: pid(i), AppID: "480"} }

// newTitle creates a vacant title.
func newTitle(t *testing.T, s *store.Arena, slug string) *core.Title {
	t.Helper()
	title, err := core.CreateTitle(context.Background(), s, core.TitleDraft{Slug: slug, Name: "Title " + slug}, t0)
	require.NoError(t, err)
	return title
}

func reloadTitle(t *testing.T, s *store.Arena, id int64) *core.Title {
	t.Helper()
	title, err := s.Title(context.Background(), id)
	require.NoError(t, err)
	return title
}

// crown volunteers players a and b and has the admin decide their
// coronation for a at `at`.
func crown(t *testing.T, s *store.Arena, title *core.Title, a, b int, at time.Time) {
	t.Helper()
	ctx := context.Background()
	for _, i := range []int{a, b} {
		_, err := core.Volunteer(ctx, s, titleArena, caller(i), title.ID, core.Deps{Now: at, Random: rand.Reader})
		require.NoError(t, err)
	}
	decideTitleMatch(t, s, title.ID, pid(a), at)
}

// decideTitleMatch has the admin decide the title's open match for winner.
func decideTitleMatch(t *testing.T, s *store.Arena, titleID int64, winner string, at time.Time) {
	t.Helper()
	ctx := context.Background()
	open := reloadTitle(t, s, titleID).Match
	require.NotNil(t, open, "the title has a match to decide")
	m, err := s.Match(ctx, open.ID)
	require.NoError(t, err)
	tour, err := s.TournamentByID(ctx, m.TournamentID)
	require.NoError(t, err)
	_, err = core.ResolveMatch(ctx, s, tour, m, core.Resolution{Winner: winner, Source: core.SourceAdmin, At: at}, core.Deps{Random: rand.Reader, Points: core.DefaultPlacementPoints})
	require.NoError(t, err)
}

// challengeAccepted has challenger challenge the holder, who accepts.
func challengeAccepted(t *testing.T, s *store.Arena, title *core.Title, challenger, holder int, at time.Time) *core.TitleChallenge {
	t.Helper()
	ctx := context.Background()
	c, err := core.Challenge(ctx, s, titleArena, caller(challenger), title.ID, core.Deps{Now: at, Random: rand.Reader})
	require.NoError(t, err)
	c, err = core.RespondToChallenge(ctx, s, titleArena, caller(holder), c.ID, true, core.Deps{Now: at, Random: rand.Reader})
	require.NoError(t, err)
	return c
}

// TestTitleStory walks a title through its states on both stores:
// coronation, a defense, a lost reign, a stripping and a restarted clock,
// with the lineage that results.
func TestTitleStory(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		title := newTitle(t, s, "world")

		t.Run("TitlesAreNoTournaments", func(t *testing.T) {
			list, err := s.Tournaments(ctx, true)
			require.NoError(t, err)
			assert.Empty(t, list)
			_, err = s.Tournament(ctx, "world")
			assert.Equal(t, core.CodeTournamentNotFound, core.ErrorCode(err))
			_, err = core.CreateTitle(ctx, s, core.TitleDraft{Slug: "world", Name: "Again"}, t0)
			assert.Equal(t, core.CodeSlugTaken, core.ErrorCode(err))
			require.NoError(t, s.CreateTournament(ctx, newTournament("cup", core.FormatPlayoffsOnly, 4)))
			_, err = core.CreateTitle(ctx, s, core.TitleDraft{Slug: "cup", Name: "Cup"}, t0)
			assert.Equal(t, core.CodeSlugTaken, core.ErrorCode(err), "titles and tournaments share slugs")
		})

		t.Run("Coronation", func(t *testing.T) {
			got, err := core.Volunteer(ctx, s, titleArena, caller(1), title.ID, core.Deps{Now: t0, Random: rand.Reader})
			require.NoError(t, err)
			assert.Nil(t, got.Match, "one volunteer: no match yet")
			got, err = core.Volunteer(ctx, s, titleArena, caller(2), title.ID, core.Deps{Now: t0.Add(time.Minute), Random: rand.Reader})
			require.NoError(t, err)
			require.NotNil(t, got.Match)
			assert.Equal(t, [2]string{pid(1), pid(2)}, [2]string{got.Match.P1, got.Match.P2}, "the first two volunteers")
			assert.Equal(t, core.RoundCoronation, got.Match.Round)
			assert.Equal(t, t0.Add(time.Minute+core.TitleMatchWindow), got.Match.ClosesAt)

			upcoming, err := core.UpcomingMatchFor(ctx, s, titleArena, caller(2), t0.Add(2*time.Minute))
			require.NoError(t, err)
			require.NotNil(t, upcoming, "discovery finds the coronation")
			assert.Equal(t, "world", upcoming.Tournament.Slug)
			assert.Equal(t, "Title world", upcoming.Tournament.Name)

			decideTitleMatch(t, s, title.ID, pid(1), t0.Add(time.Hour))
			got = reloadTitle(t, s, title.ID)
			assert.Equal(t, pid(1), got.Holder)
			assert.Empty(t, got.Volunteers, "the volunteers leave once crowned")
			assert.Equal(t, t0.Add(time.Hour+core.TitleClock), *got.ClockExpiresAt())
			require.Len(t, got.Lineage, 1)
			assert.Equal(t, core.Reign{Holder: pid(1), Since: t0.Add(time.Hour)}, got.Lineage[0])
		})

		t.Run("DefenseRestartsTheClock", func(t *testing.T) {
			at := t0.Add(2 * time.Hour)
			c := challengeAccepted(t, s, title, 3, 1, at)
			assert.Equal(t, core.ChallengeAccepted, c.Status)
			assert.NotZero(t, c.MatchID)
			decideTitleMatch(t, s, title.ID, pid(1), at.Add(time.Hour))
			got := reloadTitle(t, s, title.ID)
			assert.Equal(t, pid(1), got.Holder)
			assert.Equal(t, 1, got.CurrentReign().Defenses)
			assert.Equal(t, at.Add(time.Hour+core.TitleClock), *got.ClockExpiresAt())
		})

		t.Run("ChallengerWinsEndsTheReign", func(t *testing.T) {
			at := t0.Add(4 * time.Hour)
			challengeAccepted(t, s, title, 2, 1, at)
			decideTitleMatch(t, s, title.ID, pid(2), at.Add(time.Hour))
			got := reloadTitle(t, s, title.ID)
			assert.Equal(t, pid(2), got.Holder)
			require.Len(t, got.Lineage, 2)
			ended := at.Add(time.Hour)
			assert.Equal(t, core.Reign{Holder: pid(1), Since: t0.Add(time.Hour), Until: &ended, Defenses: 1, Ended: core.ReignLost}, got.Lineage[0])
			assert.Equal(t, core.Reign{Holder: pid(2), Since: ended}, got.Lineage[1])
		})

		reignStart := t0.Add(5 * time.Hour)
		t.Run("ExpiryWithoutChallengeRestartsTheClock", func(t *testing.T) {
			n, err := core.RunTitleClocks(ctx, s, reignStart.Add(core.TitleClock-time.Second))
			require.NoError(t, err)
			assert.Zero(t, n, "the clock still runs")
			expiry := reignStart.Add(core.TitleClock + time.Minute)
			n, err = core.RunTitleClocks(ctx, s, expiry)
			require.NoError(t, err)
			assert.Equal(t, 1, n)
			got := reloadTitle(t, s, title.ID)
			assert.Equal(t, pid(2), got.Holder)
			assert.Equal(t, expiry.Add(core.TitleClock), *got.ClockExpiresAt())
			n, err = core.RunTitleClocks(ctx, s, expiry.Add(time.Minute))
			require.NoError(t, err)
			assert.Zero(t, n, "running it again changes nothing")
			reignStart = expiry
		})

		t.Run("ExpiryWithDeclinedChallengeStrips", func(t *testing.T) {
			at := reignStart.Add(time.Hour)
			c, err := core.Challenge(ctx, s, titleArena, caller(4), title.ID, core.Deps{Now: at, Random: rand.Reader})
			require.NoError(t, err)
			_, err = core.RespondToChallenge(ctx, s, titleArena, caller(2), c.ID, false, core.Deps{Now: at.Add(time.Minute), Random: rand.Reader})
			require.NoError(t, err)
			got := reloadTitle(t, s, title.ID)
			require.NotNil(t, got.OpenChallenge)
			assert.Equal(t, core.ChallengeDeclined, got.OpenChallenge.Status)
			assert.Equal(t, reignStart.Add(core.TitleClock), *got.ClockExpiresAt(), "declining keeps the clock running")

			expiry := reignStart.Add(core.TitleClock)
			n, err := core.RunTitleClocks(ctx, s, expiry)
			require.NoError(t, err)
			assert.Equal(t, 1, n)
			got = reloadTitle(t, s, title.ID)
			assert.True(t, got.Vacant())
			assert.Nil(t, got.ClockExpiresAt())
			assert.Nil(t, got.OpenChallenge)
			require.Len(t, got.Volunteers, 1)
			assert.Equal(t, pid(4), got.Volunteers[0].PlatformID, "the challenger is the first volunteer")
			require.Len(t, got.Lineage, 2)
			assert.Equal(t, core.ReignStripped, got.Lineage[1].Ended)
			assert.Equal(t, expiry, *got.Lineage[1].Until)
			stored, err := s.TitleChallenge(ctx, c.ID)
			require.NoError(t, err)
			assert.Equal(t, core.ChallengeExpired, stored.Status)

			n, err = core.RunTitleClocks(ctx, s, expiry.Add(time.Minute))
			require.NoError(t, err)
			assert.Zero(t, n, "a vacant title has no clock")
		})

		t.Run("RetiredTitleTakesNoAction", func(t *testing.T) {
			got, err := core.RetireTitle(ctx, s, title.ID, t0.Add(100*time.Hour))
			require.NoError(t, err)
			require.NotNil(t, got.RetiredAt)
			assert.Empty(t, got.Volunteers)
			_, err = core.Volunteer(ctx, s, titleArena, caller(5), title.ID, core.Deps{Now: t0.Add(101 * time.Hour), Random: rand.Reader})
			assert.Equal(t, core.CodeTitleRetired, core.ErrorCode(err))
			_, err = core.RetireTitle(ctx, s, title.ID, t0.Add(102*time.Hour))
			require.NoError(t, err, "retiring twice is fine")
			assert.Equal(t, got.RetiredAt, reloadTitle(t, s, title.ID).RetiredAt)
			_, err = core.RetireTitle(ctx, s, 999, t0)
			assert.Equal(t, core.CodeTitleNotFound, core.ErrorCode(err))
		})
	})
}

// TestTitleMatchDecidedAnyWay decides a title match through each way a
// match is decided: each crowns the winner in the decision's own batch.
func TestTitleMatchDecidedAnyWay(t *testing.T) {
	grace := &core.Arena{AppIDs: []string{"480"}, GracePeriodSeconds: 3600}
	points := core.DefaultPlacementPoints
	// Each decider decides m (both sides ready at opens+1m when needed)
	// for its slot-1 side.
	sources := map[string]func(t *testing.T, s *store.Arena, m *core.Match){
		"Admin": func(t *testing.T, s *store.Arena, m *core.Match) {
			decideTitleMatch(t, s, titleOf(t, s, m), m.P1, m.OpensAt.Add(time.Hour))
		},
		"GameClients": func(t *testing.T, s *store.Arena, m *core.Match) {
			st := liveAt(t, s, m)
			for _, id := range []string{st.P1, st.P2} {
				st = reloadState(t, s, m.ID)
				_, err := core.SubmitResult(context.Background(), s, st, core.Caller{PlatformID: id, AppID: "480"}, clientSubmission(st, st.P1), core.Deps{Now: m.OpensAt.Add(2 * time.Minute), Random: rand.Reader, Points: points})
				require.NoError(t, err)
			}
		},
		"ReportConfirmed": func(t *testing.T, s *store.Arena, m *core.Match) {
			ctx := context.Background()
			st := liveAt(t, s, m)
			_, err := core.ReportResult(ctx, s, st, st.P1, st.P1, nil, core.Deps{Now: m.OpensAt.Add(2 * time.Minute), Random: rand.Reader})
			require.NoError(t, err)
			_, err = core.ConfirmReport(ctx, s, reloadState(t, s, m.ID), st.P2, core.Deps{Now: m.OpensAt.Add(3 * time.Minute), Random: rand.Reader, Points: points})
			require.NoError(t, err)
		},
		"SubmissionGrace": func(t *testing.T, s *store.Arena, m *core.Match) {
			ctx := context.Background()
			st := liveAt(t, s, m)
			_, err := core.SubmitResult(ctx, s, st, core.Caller{PlatformID: st.P1, AppID: "480"}, clientSubmission(st, st.P1), core.Deps{Now: m.OpensAt.Add(2 * time.Minute), Random: rand.Reader, Points: points})
			require.NoError(t, err)
			n, err := core.RunGracePeriod(ctx, s, grace, core.Deps{Now: m.OpensAt.Add(2 * time.Hour), Random: rand.Reader, Points: points})
			require.NoError(t, err)
			require.Equal(t, 1, n)
		},
		"WindowCloseForfeit": func(t *testing.T, s *store.Arena, m *core.Match) {
			ctx := context.Background()
			_, err := core.Ready(ctx, s, grace, core.Caller{PlatformID: m.P1, AppID: "480"}, m.ID, core.Deps{Now: m.OpensAt.Add(time.Minute), Random: rand.Reader})
			require.NoError(t, err)
			n, err := core.RunWindowClose(ctx, s, core.Deps{Now: m.ClosesAt, Random: rand.Reader, Points: points})
			require.NoError(t, err)
			require.Equal(t, 1, n)
		},
	}
	backends(t, func(t *testing.T, open func() *store.DB) {
		s := openArenaStore(t, open)
		i := 0
		for name, decide := range sources {
			i += 10
			t.Run(name, func(t *testing.T) {
				title := newTitle(t, s, "t"+string(rune('a'+i/10)))
				crown(t, s, title, i+1, i+2, t0)
				c := challengeAccepted(t, s, title, i+3, i+1, t0.Add(time.Hour))
				m, err := s.Match(context.Background(), c.MatchID)
				require.NoError(t, err)
				require.Equal(t, pid(i+1), m.P1, "the holder plays in slot 1")
				decide(t, s, m)
				got := reloadTitle(t, s, title.ID)
				assert.Equal(t, pid(i+1), got.Holder)
				assert.Equal(t, 1, got.CurrentReign().Defenses, "the defense counts once")
				assert.Nil(t, got.Match)
			})
		}
	})
}

func titleOf(t *testing.T, s *store.Arena, m *core.Match) int64 {
	t.Helper()
	list, err := s.Titles(context.Background())
	require.NoError(t, err)
	for _, title := range list {
		if title.TournamentID == m.TournamentID {
			return title.ID
		}
	}
	t.Fatalf("match %d is no title's", m.ID)
	return 0
}

// TestTitleRaces runs the racing state changes at once on both stores:
// each is one conditional batch, so exactly one outcome comes of them.
func TestTitleRaces(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		const racers = 6
		race := func(n int, f func(i int) error) []error {
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs[i] = f(i)
				}()
			}
			wg.Wait()
			return errs
		}

		t.Run("VolunteersMakeOneCoronation", func(t *testing.T) {
			title := newTitle(t, s, "volunteers")
			errs := race(racers, func(i int) error {
				_, err := core.Volunteer(ctx, s, titleArena, caller(100+i), title.ID, core.Deps{Now: t0, Random: rand.Reader})
				return err
			})
			got := reloadTitle(t, s, title.ID)
			require.NotNil(t, got.Match)
			matches, err := s.Matches(ctx, got.TournamentID)
			require.NoError(t, err)
			assert.Len(t, matches, 1, "exactly one coronation match")
			assert.Len(t, got.Volunteers, 2, "the others found the coronation under way")
			assert.Equal(t, [2]string{got.Volunteers[0].PlatformID, got.Volunteers[1].PlatformID}, [2]string{got.Match.P1, got.Match.P2})
			refused := 0
			for _, err := range errs {
				if err != nil {
					assert.Equal(t, core.CodeCoronationPending, core.ErrorCode(err))
					refused++
				}
			}
			assert.Equal(t, racers-2, refused)
		})

		t.Run("ChallengersMakeOnePendingChallenge", func(t *testing.T) {
			title := newTitle(t, s, "challengers")
			crown(t, s, title, 110, 111, t0)
			errs := race(racers, func(i int) error {
				_, err := core.Challenge(ctx, s, titleArena, caller(120+i), title.ID, core.Deps{Now: t0.Add(time.Hour), Random: rand.Reader})
				return err
			})
			won := 0
			for _, err := range errs {
				if err == nil {
					won++
				} else {
					assert.Equal(t, core.CodeChallengePending, core.ErrorCode(err))
				}
			}
			assert.Equal(t, 1, won, "one pending challenge")
			require.NotNil(t, reloadTitle(t, s, title.ID).OpenChallenge)
		})

		t.Run("AcceptRacingExpiryHasOneOutcome", func(t *testing.T) {
			for round := range 4 {
				title := newTitle(t, s, "clock"+string(rune('a'+round)))
				crown(t, s, title, 130, 131, t0)
				c, err := core.Challenge(ctx, s, titleArena, caller(132), title.ID, core.Deps{Now: t0.Add(time.Hour), Random: rand.Reader})
				require.NoError(t, err)
				// The holder answers in the clock's last second; the job runs
				// at the stroke of its end.
				end := t0.Add(core.TitleClock)
				errs := race(2, func(i int) error {
					if i == 0 {
						_, err := core.RespondToChallenge(ctx, s, titleArena, caller(130), c.ID, true, core.Deps{Now: end.Add(-time.Second), Random: rand.Reader})
						return err
					}
					_, err := core.RunTitleClocks(ctx, s, end)
					return err
				})
				require.NoError(t, errs[1])
				got := reloadTitle(t, s, title.ID)
				stored, err := s.TitleChallenge(ctx, c.ID)
				require.NoError(t, err)
				if errs[0] == nil {
					assert.Equal(t, pid(130), got.Holder, "accepted first: the holder keeps the title")
					assert.Equal(t, core.ChallengeAccepted, stored.Status)
					require.NotNil(t, got.Match)
				} else {
					assert.Equal(t, core.CodeNotHolder, core.ErrorCode(errs[0]), "stripped first")
					assert.True(t, got.Vacant())
					assert.Equal(t, core.ChallengeExpired, stored.Status)
					assert.Nil(t, got.Match, "no title match for a stripped holder")
				}
			}
		})
	})
}
