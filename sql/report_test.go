package store_test

import (
	"context"
	"crypto/rand"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
)

// playoffsAt is when the report tests' brackets are seeded: their
// matches' windows open then.
var playoffsAt = t0.Add(25 * time.Hour)

// seededBracket creates a playoffs_only tournament of the given players
// (pid numbers), seeded into its bracket at playoffsAt.
func seededBracket(t *testing.T, s *store.Arena, slug string, ids ...int) *core.Tournament {
	t.Helper()
	ctx := context.Background()
	tour := newTournament(slug, core.FormatPlayoffsOnly, len(ids))
	require.NoError(t, s.CreateTournament(ctx, tour))
	points := core.DefaultPlacementPoints
	require.NoError(t, core.ChangeTournamentStatus(ctx, s, tour, core.StatusRegistrationOpen, core.Deps{Now: t0, Random: rand.Reader, Points: points}))
	register(t, s, tour, ids...)
	require.NoError(t, core.ChangeTournamentStatus(ctx, s, tour, core.StatusRegistrationClosed, core.Deps{Now: playoffsAt, Random: rand.Reader, Points: points}))
	require.NoError(t, core.ChangeTournamentStatus(ctx, s, tour, core.StatusPlayoffs, core.Deps{Now: playoffsAt, Random: rand.Reader, Points: points}))
	return tour
}

// goLive readies both sides of the tournament's match in slot and returns
// its live state.
func goLive(t *testing.T, s *store.Arena, tour *core.Tournament, slot string) *core.MatchState {
	t.Helper()
	ctx := context.Background()
	m := matchInSlot(t, s, tour, slot)
	a := &core.Arena{AppIDs: []string{"480"}}
	for _, id := range []string{m.P1, m.P2} {
		_, err := core.Ready(ctx, s, a, core.Caller{PlatformID: id, AppID: "480"}, m.ID, core.Deps{Now: playoffsAt.Add(time.Minute), Random: rand.Reader})
		require.NoError(t, err)
	}
	st, err := s.MatchState(ctx, m.ID)
	require.NoError(t, err)
	require.Equal(t, core.MatchLive, st.Status)
	return st
}

func matchInSlot(t *testing.T, s *store.Arena, tour *core.Tournament, slot string) *core.Match {
	t.Helper()
	matches, err := s.Matches(context.Background(), tour.ID)
	require.NoError(t, err)
	for i := range matches {
		if matches[i].BracketSlot == slot {
			return &matches[i]
		}
	}
	t.Fatalf("no match in slot %s", slot)
	return nil
}

func reloadState(t *testing.T, s *store.Arena, id int64) *core.MatchState {
	t.Helper()
	st, err := s.MatchState(context.Background(), id)
	require.NoError(t, err)
	return st
}

// submit stores a game-client submission of one side naming winner.
func submit(t *testing.T, s *store.Arena, st *core.MatchState, side int, winner string, at time.Time) {
	t.Helper()
	rec := core.SubmissionRecord{
		MatchID: st.ID, Side: side, SubmitterID: st.Captain(side), AppID: "480", Result: `{"winner":"` + winner + `"}`,
		ResultHash: strings.Repeat("a", 63) + string(rune('0'+side)), WinnerID: winner, WinnerSideID: winner,
		ReceivedAt: at, Token: "client-" + st.Captain(side),
	}
	_, err := s.SubmitResult(context.Background(), st, rec, nil)
	require.NoError(t, err)
}

func TestReports(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		points := core.DefaultPlacementPoints
		at := playoffsAt.Add(30 * time.Minute)

		t.Run("ConfirmSeatsTheBracket", func(t *testing.T) {
			tour := seededBracket(t, s, "seats", 1, 2, 3, 4)
			st := goLive(t, s, tour, "SF1")
			rep, err := core.ReportResult(ctx, s, st, st.P2, st.P2, &core.OutcomeScore{P1: 1, P2: 3}, core.Deps{Now: at, Random: rand.Reader})
			require.NoError(t, err)
			assert.Equal(t, 2, rep.Side)
			st = reloadState(t, s, st.ID)
			assert.Equal(t, core.MatchAwaitingResult, st.Status, "a report moves a live match to awaiting_result")
			got, err := s.MatchReport(ctx, st.ID)
			require.NoError(t, err)
			assert.Equal(t, core.ReportPending, got.Status)
			assert.Equal(t, &core.OutcomeScore{P1: 1, P2: 3}, got.Score)

			status, err := core.ConfirmReport(ctx, s, st, st.P1, core.Deps{Now: at.Add(time.Minute), Random: rand.Reader, Points: points})
			require.NoError(t, err)
			assert.Equal(t, core.MatchConfirmed, status)
			m, err := s.Match(ctx, st.ID)
			require.NoError(t, err)
			assert.Equal(t, core.MatchConfirmed, m.Status)
			assert.Equal(t, st.P2, m.Winner)
			assert.Equal(t, core.SourcePlayerReport, m.ResultSource)
			assert.Equal(t, &core.OutcomeScore{P1: 1, P2: 3}, m.Score)
			final := matchInSlot(t, s, tour, core.BracketSlotFinal)
			small := matchInSlot(t, s, tour, core.BracketSlotSmallFinal)
			assert.Contains(t, []string{final.P1, final.P2}, st.P2, "the winner takes the final seat")
			assert.Contains(t, []string{small.P1, small.P2}, st.P1, "the loser takes the small final seat")
			got, err = s.MatchReport(ctx, st.ID)
			require.NoError(t, err)
			assert.Equal(t, core.ReportConfirmed, got.Status)
			assert.Equal(t, st.P1, got.DecidedBy)
		})
		t.Run("ConfirmCompletesTheTournament", func(t *testing.T) {
			tour := seededBracket(t, s, "final", 5, 6)
			st := goLive(t, s, tour, core.BracketSlotFinal)
			_, err := core.ReportResult(ctx, s, st, st.P1, st.P1, nil, core.Deps{Now: at, Random: rand.Reader})
			require.NoError(t, err)
			st = reloadState(t, s, st.ID)
			_, err = core.ConfirmReport(ctx, s, st, st.P2, core.Deps{Now: at, Random: rand.Reader, Points: points})
			require.NoError(t, err)
			done, err := s.TournamentByID(ctx, tour.ID)
			require.NoError(t, err)
			assert.Equal(t, core.StatusCompleted, done.Status)
			podium, err := s.Podium(ctx, tour.ID)
			require.NoError(t, err)
			require.NotEmpty(t, podium)
			assert.Equal(t, st.P1, podium[0].PlayerID)
		})
		t.Run("ErrReportPendingAndErrOwnReport", func(t *testing.T) {
			tour := seededBracket(t, s, "twice", 7, 8)
			st := goLive(t, s, tour, core.BracketSlotFinal)
			_, err := core.ReportResult(ctx, s, st, st.P1, st.P1, nil, core.Deps{Now: at, Random: rand.Reader})
			require.NoError(t, err)
			st = reloadState(t, s, st.ID)
			_, err = core.ReportResult(ctx, s, st, st.P2, st.P2, nil, core.Deps{Now: at, Random: rand.Reader})
			assert.Equal(t, core.CodeReportPending, core.ErrorCode(err))
			_, err = core.ConfirmReport(ctx, s, st, st.P1, core.Deps{Now: at, Random: rand.Reader, Points: points})
			assert.Equal(t, core.CodeOwnReport, core.ErrorCode(err))
			_, err = core.DisputeReport(ctx, s, st, pid(99), "", core.Deps{Now: at, Random: rand.Reader})
			assert.Equal(t, core.CodeNotParticipant, core.ErrorCode(err))
		})
		t.Run("DisputeGoesToTheAdminQueue", func(t *testing.T) {
			tour := seededBracket(t, s, "dispute", 9, 10)
			st := goLive(t, s, tour, core.BracketSlotFinal)
			_, err := core.ReportResult(ctx, s, st, st.P1, st.P1, nil, core.Deps{Now: at, Random: rand.Reader})
			require.NoError(t, err)
			st = reloadState(t, s, st.ID)
			_, err = core.DisputeReport(ctx, s, st, st.P2, strings.Repeat("x", core.MaxDisputeReasonRunes+1), core.Deps{Now: at, Random: rand.Reader})
			assert.Equal(t, core.CodeInvalidField, core.ErrorCode(err), "a reason over the limit")
			status, err := core.DisputeReport(ctx, s, st, st.P2, "  I won 3-1, the client crashed.  ", core.Deps{Now: at, Random: rand.Reader})
			require.NoError(t, err)
			assert.Equal(t, core.MatchDisputed, status)
			rep, err := s.MatchReport(ctx, st.ID)
			require.NoError(t, err)
			assert.Equal(t, "I won 3-1, the client crashed.", rep.DisputeReason, "the reason reaches the admin")
			queue, err := s.AttentionMatches(ctx, core.StaleCutoffsAt(at, core.DefaultStaleMatchMinutes))
			require.NoError(t, err)
			var ids []int64
			for _, m := range queue {
				ids = append(ids, m.ID)
			}
			assert.Contains(t, ids, st.ID)
			st = reloadState(t, s, st.ID)
			_, err = core.ConfirmReport(ctx, s, st, st.P2, core.Deps{Now: at, Random: rand.Reader, Points: points})
			assert.Equal(t, core.CodeNoPendingReport, core.ErrorCode(err))
		})
		t.Run("ErrClientResult", func(t *testing.T) {
			tour := seededBracket(t, s, "client", 11, 12)
			st := goLive(t, s, tour, core.BracketSlotFinal)
			submit(t, s, st, 1, st.P1, at)
			st = reloadState(t, s, st.ID)
			_, err := core.ReportResult(ctx, s, st, st.P2, st.P2, nil, core.Deps{Now: at, Random: rand.Reader})
			assert.Equal(t, core.CodeClientResult, core.ErrorCode(err))
			err = s.StoreReport(ctx, core.MatchReport{MatchID: st.ID, Side: 2, ReporterID: st.P2, Winner: st.P2, ReportedAt: at, Token: "t"})
			assert.Equal(t, core.CodeClientResult, core.ErrorCode(err), "the store refuses it too")
			rep, err := s.MatchReport(ctx, st.ID)
			require.NoError(t, err)
			assert.Nil(t, rep)
		})
		t.Run("ErrNotLive", func(t *testing.T) {
			tour := seededBracket(t, s, "early", 13, 14)
			m := matchInSlot(t, s, tour, core.BracketSlotFinal)
			err := s.StoreReport(ctx, core.MatchReport{MatchID: m.ID, Side: 1, ReporterID: m.P1, Winner: m.P1, ReportedAt: at, Token: "t"})
			assert.Equal(t, core.CodeNotLive, core.ErrorCode(err))
			st := reloadState(t, s, m.ID)
			_, err = core.ReportResult(ctx, s, st, m.P1, m.P1, nil, core.Deps{Now: at, Random: rand.Reader})
			assert.Equal(t, core.CodeNotLive, core.ErrorCode(err))
		})
		t.Run("ContradictingSubmissionTurnsConfirmIntoDispute", func(t *testing.T) {
			tour := seededBracket(t, s, "contra", 15, 16)
			st := goLive(t, s, tour, core.BracketSlotFinal)
			_, err := core.ReportResult(ctx, s, st, st.P1, st.P1, nil, core.Deps{Now: at, Random: rand.Reader})
			require.NoError(t, err)
			st = reloadState(t, s, st.ID)
			submit(t, s, st, 2, st.P2, at.Add(time.Minute))
			st = reloadState(t, s, st.ID)
			require.Equal(t, core.MatchAwaitingResult, st.Status)
			status, err := core.ConfirmReport(ctx, s, st, st.P2, core.Deps{Now: at.Add(2 * time.Minute), Random: rand.Reader, Points: points})
			require.NoError(t, err)
			assert.Equal(t, core.MatchDisputed, status)
		})
		t.Run("GraceConfirmsAnUncontestedReport", func(t *testing.T) {
			s := openArenaStore(t, open) // only this report is pending here
			tour := seededBracket(t, s, "grace", 17, 18)
			st := goLive(t, s, tour, core.BracketSlotFinal)
			_, err := core.ReportResult(ctx, s, st, st.P2, st.P2, &core.OutcomeScore{P1: 0, P2: 2}, core.Deps{Now: at, Random: rand.Reader})
			require.NoError(t, err)
			a := &core.Arena{GracePeriodSeconds: 3600}
			n, err := core.RunReportGrace(ctx, s, a, core.Deps{Now: at.Add(time.Hour - time.Second), Points: core.DefaultPlacementPoints})
			require.NoError(t, err)
			assert.Zero(t, n, "not before the grace period ends")
			n, err = core.RunReportGrace(ctx, s, a, core.Deps{Now: at.Add(time.Hour), Points: core.DefaultPlacementPoints})
			require.NoError(t, err)
			assert.Equal(t, 1, n)
			m, err := s.Match(ctx, st.ID)
			require.NoError(t, err)
			assert.Equal(t, core.MatchConfirmed, m.Status)
			assert.Equal(t, core.SourcePlayerReport, m.ResultSource)
			assert.Equal(t, st.P2, m.Winner)
			done, err := s.TournamentByID(ctx, tour.ID)
			require.NoError(t, err)
			assert.Equal(t, core.StatusCompleted, done.Status)
			n, err = core.RunReportGrace(ctx, s, a, core.Deps{Now: at.Add(2 * time.Hour), Points: core.DefaultPlacementPoints})
			require.NoError(t, err)
			assert.Zero(t, n, "running again changes nothing")
		})
		t.Run("GraceOfTheTournament", func(t *testing.T) {
			s := openArenaStore(t, open)
			own := seededBracket(t, s, "own-grace", 21, 22)
			edited, problems := (&core.TournamentEdit{GracePeriodMinutes: core.Int(5)}).Apply(*own, at)
			require.Empty(t, problems)
			require.NoError(t, s.UpdateTournamentDetails(ctx, edited, own.Status))
			stored, err := s.TournamentByID(ctx, own.ID)
			require.NoError(t, err)
			require.Equal(t, 5, stored.GracePeriodMinutes)
			arenas := seededBracket(t, s, "arena-grace", 23, 24)
			var live []*core.MatchState
			for _, tour := range []*core.Tournament{own, arenas} {
				st := goLive(t, s, tour, core.BracketSlotFinal)
				_, err := core.ReportResult(ctx, s, st, st.P1, st.P1, nil, core.Deps{Now: at, Random: rand.Reader})
				require.NoError(t, err)
				live = append(live, st)
			}
			a := &core.Arena{GracePeriodSeconds: 3600}
			deps := func(d time.Duration) core.Deps { return core.Deps{Now: at.Add(d), Points: core.DefaultPlacementPoints} }
			n, err := core.RunReportGrace(ctx, s, a, deps(5*time.Minute-time.Second))
			require.NoError(t, err)
			assert.Zero(t, n, "not before the tournament's 5 minutes")
			n, err = core.RunReportGrace(ctx, s, a, deps(5*time.Minute))
			require.NoError(t, err)
			assert.Equal(t, 1, n, "the tournament's 5 minutes, not the arena's hour")
			assert.Equal(t, core.MatchConfirmed, reloadState(t, s, live[0].ID).Status)
			assert.Equal(t, core.MatchAwaitingResult, reloadState(t, s, live[1].ID).Status)
			n, err = core.RunReportGrace(ctx, s, a, deps(time.Hour))
			require.NoError(t, err)
			assert.Equal(t, 1, n, "the other tournament waits the arena's hour")
		})
		t.Run("ConcurrentConfirmAndDisputeDecideOnce", func(t *testing.T) {
			tour := seededBracket(t, s, "race", 19, 20)
			st := goLive(t, s, tour, core.BracketSlotFinal)
			_, err := core.ReportResult(ctx, s, st, st.P1, st.P1, nil, core.Deps{Now: at, Random: rand.Reader})
			require.NoError(t, err)
			st = reloadState(t, s, st.ID)
			var wg sync.WaitGroup
			statuses := make([]core.MatchStatus, 2)
			errs := make([]error, 2)
			wg.Add(2)
			go func() {
				defer wg.Done()
				statuses[0], errs[0] = core.ConfirmReport(ctx, s, st, st.P2, core.Deps{Now: at, Random: rand.Reader, Points: points})
			}()
			go func() {
				defer wg.Done()
				statuses[1], errs[1] = core.DisputeReport(ctx, s, st, st.P2, "", core.Deps{Now: at, Random: rand.Reader})
			}()
			wg.Wait()
			won := 0
			for i, err := range errs {
				if err == nil {
					won++
					m, merr := s.Match(ctx, st.ID)
					require.NoError(t, merr)
					assert.Equal(t, statuses[i], m.Status)
				} else {
					assert.Equal(t, core.CodeNoPendingReport, core.ErrorCode(err))
				}
			}
			assert.Equal(t, 1, won, "exactly one decision takes effect")
		})
	})
}

func TestWithdraw(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		tour := newTournament("teams", core.FormatGroupsPlayoffs, 8)
		tour.TeamMaxPlayers = 3
		require.NoError(t, s.CreateTournament(ctx, tour))
		require.NoError(t, core.ChangeTournamentStatus(ctx, s, tour, core.StatusRegistrationOpen, core.Deps{Now: t0, Random: rand.Reader, Points: core.DefaultPlacementPoints}))
		during := t0.Add(2 * time.Hour)
		_, err := core.Register(ctx, s, tour, core.RegistrationDraft{PlatformID: pid(1), Roster: []string{pid(2)}}, during)
		require.NoError(t, err)
		_, err = core.Register(ctx, s, tour, core.RegistrationDraft{PlatformID: pid(3)}, during)
		require.NoError(t, err)

		t.Run("ErrNotCaptain", func(t *testing.T) {
			err := core.Withdraw(ctx, s, tour, pid(2), during)
			assert.Equal(t, core.CodeNotCaptain, core.ErrorCode(err))
		})
		t.Run("ErrNotRegistered", func(t *testing.T) {
			err := core.Withdraw(ctx, s, tour, pid(9), during)
			assert.Equal(t, core.CodeNotRegistered, core.ErrorCode(err))
		})
		t.Run("RemovesTheSideAndItsRoster", func(t *testing.T) {
			require.NoError(t, core.Withdraw(ctx, s, tour, pid(1), during))
			regs, err := s.Registrations(ctx, tour.ID)
			require.NoError(t, err)
			require.Len(t, regs, 1)
			assert.Equal(t, pid(3), regs[0].PlatformID)
			_, err = core.Register(ctx, s, tour, core.RegistrationDraft{PlatformID: pid(2)}, during)
			assert.NoError(t, err, "the former roster member is free to register again")
		})
		t.Run("ErrRegistrationClosedAfterTheWindow", func(t *testing.T) {
			err := s.Withdraw(ctx, tour, pid(3), tour.RegistrationClosesAt)
			assert.Equal(t, core.CodeRegistrationClosed, core.ErrorCode(err))
			err = core.Withdraw(ctx, s, tour, pid(3), tour.RegistrationClosesAt)
			assert.Equal(t, core.CodeRegistrationClosed, core.ErrorCode(err))
		})
		t.Run("ErrRegistrationClosedByStatus", func(t *testing.T) {
			require.NoError(t, core.ChangeTournamentStatus(ctx, s, tour, core.StatusRegistrationClosed, core.Deps{Now: during, Random: rand.Reader, Points: core.DefaultPlacementPoints}))
			err := s.Withdraw(ctx, tour, pid(3), during)
			assert.Equal(t, core.CodeRegistrationClosed, core.ErrorCode(err))
			regs, err := s.Registrations(ctx, tour.ID)
			require.NoError(t, err)
			assert.Len(t, regs, 2, "nothing was deleted")
			for _, r := range regs {
				assert.NotEmpty(t, r.Roster)
			}
		})
	})
}

func TestSignInStore(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)

		t.Run("OpenIDNonceIsClaimedOnce", func(t *testing.T) {
			ok, err := s.ClaimOpenIDNonce(ctx, "2026-11-01T12:00:00Zabc", t0, t0.Add(-time.Hour))
			require.NoError(t, err)
			assert.True(t, ok)
			ok, err = s.ClaimOpenIDNonce(ctx, "2026-11-01T12:00:00Zabc", t0, t0.Add(-time.Hour))
			require.NoError(t, err)
			assert.False(t, ok, "a replayed nonce")
		})
		t.Run("MockSignInKeepsAKnownName", func(t *testing.T) {
			require.NoError(t, s.UpsertPlayers(ctx, []core.PlayerProfile{{PlatformID: pid(1), PersonaName: "Ada"}}, t0))
			require.NoError(t, s.SignInMockPlayer(ctx, core.PlayerProfile{PlatformID: pid(1), PersonaName: "Player 0001", AvatarURL: "/avatars/1.svg"}, t0))
			require.NoError(t, s.SignInMockPlayer(ctx, core.PlayerProfile{PlatformID: pid(2), PersonaName: "Player 0002", AvatarURL: "/avatars/2.svg"}, t0))
			p1, err := s.Player(ctx, pid(1))
			require.NoError(t, err)
			assert.Equal(t, core.PlayerProfile{PlatformID: pid(1), PersonaName: "Ada", AvatarURL: "/avatars/1.svg"}, *p1)
			p2, err := s.Player(ctx, pid(2))
			require.NoError(t, err)
			assert.Equal(t, core.PlayerProfile{PlatformID: pid(2), PersonaName: "Player 0002", AvatarURL: "/avatars/2.svg"}, *p2)
		})
		t.Run("SummaryCache", func(t *testing.T) {
			require.NoError(t, s.CacheSummaries(ctx, []core.PlayerProfile{{PlatformID: pid(3), PersonaName: "Cy", AvatarURL: "https://cdn.test/cy.jpg"}}, []string{pid(1), pid(4)}, t0))
			fresh, err := s.FreshSummaries(ctx, []string{pid(1), pid(2), pid(3), pid(4)}, t0)
			require.NoError(t, err)
			assert.Equal(t, map[string]bool{pid(1): true, pid(3): true}, fresh, "unknown players are not cached")
			fresh, err = s.FreshSummaries(ctx, []string{pid(3)}, t0.Add(time.Second))
			require.NoError(t, err)
			assert.Empty(t, fresh, "older than asked")
			p, err := s.Player(ctx, pid(3))
			require.NoError(t, err)
			assert.Equal(t, "Cy", p.PersonaName)
			assert.Equal(t, "https://cdn.test/cy.jpg", p.AvatarURL)
		})
	})
}

// TestMatchStateAndLogSeq: a match read with the log's last seq is the
// match MatchState reads, and the seq is LogSeq's, moving on with each
// event (sides readying log match.ready, then match.live).
func TestMatchStateAndLogSeq(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		tour := seededBracket(t, s, "seq", 1, 2, 3, 4)
		m := matchInSlot(t, s, tour, "SF1")
		before, err := s.LogSeq(ctx)
		require.NoError(t, err)
		st, seq, err := s.MatchStateAndLogSeq(ctx, m.ID)
		require.NoError(t, err)
		assert.Equal(t, before, seq)
		assert.Equal(t, reloadState(t, s, m.ID), st)
		live := goLive(t, s, tour, "SF1")
		st, seq, err = s.MatchStateAndLogSeq(ctx, m.ID)
		require.NoError(t, err)
		assert.Equal(t, live, st)
		after, err := s.LogSeq(ctx)
		require.NoError(t, err)
		assert.Equal(t, after, seq)
		assert.Greater(t, seq, before, "readying logged events")
		_, _, err = s.MatchStateAndLogSeq(ctx, 999999)
		assert.Equal(t, core.CodeMatchNotFound, core.ErrorCode(err))
	})
}
