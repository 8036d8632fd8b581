package store_test

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
)

// crashingStore is the arena store with a crash injected between a
// decision's two steps: CompleteTournament fails while crash is set, as if
// the process died after the match's own batch committed.
type crashingStore struct {
	*store.Arena
	crash atomic.Bool
}

func (c *crashingStore) CompleteTournament(ctx context.Context, t *core.Tournament, podium []core.PodiumPlace, placements []core.ScoredPlacement, at time.Time) error {
	if c.crash.Load() {
		return errors.New("injected crash before completion")
	}
	return c.Arena.CompleteTournament(ctx, t, podium, placements, at)
}

// liveAt readies both sides of m inside its window and returns its live
// state.
func liveAt(t *testing.T, s *store.Arena, m *core.Match) *core.MatchState {
	t.Helper()
	ctx := context.Background()
	a := &core.Arena{AppIDs: []string{"480"}}
	for _, id := range []string{m.P1, m.P2} {
		_, err := core.Ready(ctx, s, a, core.Caller{PlatformID: id, AppID: "480"}, m.ID, core.Deps{Now: m.OpensAt.Add(time.Minute), Random: rand.Reader})
		require.NoError(t, err)
	}
	return reloadState(t, s, m.ID)
}

// clientSubmission is a valid svc.result.v3 body for st naming winner.
func clientSubmission(st *core.MatchState, winner string) *core.ResultSubmission {
	result := fmt.Sprintf(`{"matchId":%d,"sessionNonce":%q,"winner":%q}`, st.ID, st.SessionNonce, winner)
	return &core.ResultSubmission{Protocol: core.ResultProtocol, Result: result, ResultHash: core.ResultHash([]byte(result))}
}

// decisionStore is the store a decision's consequences go through.
type decisionStore interface {
	core.ResultStore
	core.ReportDecisionStore
}

// decider decides m for its side 1 through one of the ways a match is
// decided, with ts as the store the consequences go through.
type decider func(t *testing.T, s *store.Arena, ts decisionStore, m *core.Match) error

// decisionSources are the ways a match is decided, each deciding a match
// for its side 1.
func decisionSources() map[string]decider {
	grace := &core.Arena{AppIDs: []string{"480"}, GracePeriodSeconds: 3600}
	points := core.DefaultPlacementPoints
	return map[string]decider{
		"Admin": func(t *testing.T, s *store.Arena, ts decisionStore, m *core.Match) error {
			tour, err := s.TournamentByID(context.Background(), m.TournamentID)
			require.NoError(t, err)
			_, err = core.ResolveMatch(context.Background(), ts, tour, m, core.Resolution{Winner: m.P1, Source: core.SourceAdmin, At: m.OpensAt}, core.Deps{Random: rand.Reader, Points: points})
			return err
		},
		"GameClients": func(t *testing.T, s *store.Arena, ts decisionStore, m *core.Match) error {
			st := liveAt(t, s, m)
			var err error
			for _, caller := range []string{st.P1, st.P2} {
				st = reloadState(t, s, m.ID)
				_, err = core.SubmitResult(context.Background(), ts, st, core.Caller{PlatformID: caller, AppID: "480"}, clientSubmission(st, st.P1), core.Deps{Now: m.OpensAt.Add(2 * time.Minute), Random: rand.Reader, Points: points})
			}
			return err
		},
		"ReportConfirmed": func(t *testing.T, s *store.Arena, ts decisionStore, m *core.Match) error {
			st := liveAt(t, s, m)
			ctx := context.Background()
			_, err := core.ReportResult(ctx, s, st, st.P1, st.P1, nil, core.Deps{Now: m.OpensAt.Add(2 * time.Minute), Random: rand.Reader})
			require.NoError(t, err)
			_, err = core.ConfirmReport(ctx, ts, reloadState(t, s, m.ID), st.P2, core.Deps{Now: m.OpensAt.Add(3 * time.Minute), Random: rand.Reader, Points: points})
			return err
		},
		"ReportGrace": func(t *testing.T, s *store.Arena, ts decisionStore, m *core.Match) error {
			st := liveAt(t, s, m)
			ctx := context.Background()
			_, err := core.ReportResult(ctx, s, st, st.P1, st.P1, nil, core.Deps{Now: m.OpensAt.Add(2 * time.Minute), Random: rand.Reader})
			require.NoError(t, err)
			_, err = core.RunReportGrace(ctx, ts, grace, core.Deps{Now: m.OpensAt.Add(2 * time.Hour), Points: points})
			return err
		},
		"SubmissionGrace": func(t *testing.T, s *store.Arena, ts decisionStore, m *core.Match) error {
			st := liveAt(t, s, m)
			ctx := context.Background()
			_, err := core.SubmitResult(ctx, ts, st, core.Caller{PlatformID: st.P1, AppID: "480"}, clientSubmission(st, st.P1), core.Deps{Now: m.OpensAt.Add(2 * time.Minute), Random: rand.Reader, Points: points})
			require.NoError(t, err)
			_, err = core.RunGracePeriod(ctx, ts, grace, core.Deps{Now: m.OpensAt.Add(2 * time.Hour), Random: rand.Reader, Points: points})
			return err
		},
		"WindowClose": func(t *testing.T, s *store.Arena, ts decisionStore, m *core.Match) error {
			ctx := context.Background()
			_, err := core.Ready(ctx, s, grace, core.Caller{PlatformID: m.P1, AppID: "480"}, m.ID, core.Deps{Now: m.OpensAt.Add(time.Minute), Random: rand.Reader})
			require.NoError(t, err)
			_, err = core.RunWindowClose(ctx, ts, core.Deps{Now: m.ClosesAt, Random: rand.Reader, Points: points})
			return err
		},
	}
}

// TestEveryDecisionMovesTheTournamentOn decides a four-player bracket
// through each way a match is decided: the semifinals seat their winners
// in the final and their losers in the small final (in the decision's own
// batch), and the final completes the tournament. A crash injected
// between the final's decision and the completion leaves the tournament
// in playoffs; the scheduled job's SettleTournaments completes it, with
// podium and ladder placements.
func TestEveryDecisionMovesTheTournamentOn(t *testing.T) {
	points := core.DefaultPlacementPoints
	sources := decisionSources()
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		for name, decide := range sources {
			t.Run(name, func(t *testing.T) {
				tour := seededBracket(t, s, strings.ToLower(name), 1, 2, 3, 4)
				ts := &crashingStore{Arena: s}

				sf1, sf2 := matchInSlot(t, s, tour, "SF1"), matchInSlot(t, s, tour, "SF2")
				require.NoError(t, decide(t, s, ts, sf1))
				require.NoError(t, decide(t, s, ts, sf2))
				final, small := matchInSlot(t, s, tour, "FINAL"), matchInSlot(t, s, tour, "SMALL_FINAL")
				assert.Equal(t, [2]string{sf1.P1, sf2.P1}, [2]string{final.P1, final.P2}, "winners seated in the final")
				assert.Equal(t, [2]string{sf1.P2, sf2.P2}, [2]string{small.P1, small.P2}, "losers seated in the small final")

				require.NoError(t, decide(t, s, ts, small))
				ts.crash.Store(true)
				_ = decide(t, s, ts, final) // the completion step crashes
				ts.crash.Store(false)
				final = matchInSlot(t, s, tour, "FINAL")
				require.True(t, final.Status.Resolved(), "the final's own decision committed")
				got, err := s.TournamentByID(ctx, final.TournamentID)
				require.NoError(t, err)
				if name == "GameClients" {
					// The confirming submission carried the completion in
					// its own batch (core.CompletionAhead): no step between.
					require.Equal(t, core.StatusCompleted, got.Status, "completed in the deciding batch")
				} else {
					require.Equal(t, core.StatusPlayoffs, got.Status, "the crash left the tournament in playoffs")
					n, err := core.SettleTournaments(ctx, s, final.ResolvedAt.Add(time.Minute), points)
					require.NoError(t, err)
					assert.Equal(t, 1, n, "the scheduled job completes it")
				}
				got, err = s.TournamentByID(ctx, final.TournamentID)
				require.NoError(t, err)
				assert.Equal(t, core.StatusCompleted, got.Status)
				podium, err := s.Podium(ctx, got.ID)
				require.NoError(t, err)
				require.Len(t, podium, 4)
				assert.Equal(t, final.Winner, podium[0].PlayerID)
				n, err := core.SettleTournaments(ctx, s, final.ResolvedAt.Add(2*time.Minute), points)
				require.NoError(t, err)
				assert.Zero(t, n, "running it again changes nothing")
			})
		}
	})
}

// staleMatchPlay is a store whose MatchPlay reads the tournament as it
// was before some other decision: a match other than the final has
// another winner than the one stored.
type staleMatchPlay struct{ *crashingStore }

func (s staleMatchPlay) MatchPlay(ctx context.Context, id int64) (*core.Tournament, []core.Registration, []core.Match, error) {
	t, regs, matches, err := s.crashingStore.MatchPlay(ctx, id)
	for i := range matches {
		if matches[i].ID != id && matches[i].Status.Resolved() {
			matches[i].Winner = matches[i].P2
		}
	}
	return t, regs, matches, err
}

// TestCompletionAheadHoldsOnlyOnItsCondition: a final's completion worked
// out from a tournament read before another decision changed it is not
// written by the deciding batch (its fingerprint no longer matches); the
// decision stands, and the completion is worked out after it
// (MatchDecided: here it crashes, so the tournament stays in playoffs for
// the scheduled job). Read as it is, the same final completes the
// tournament in its own batch, with podium and ladder placements.
func TestCompletionAheadHoldsOnlyOnItsCondition(t *testing.T) {
	points := core.DefaultPlacementPoints
	decide := decisionSources()["GameClients"]
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		for _, stale := range []bool{true, false} {
			tour := seededBracket(t, s, fmt.Sprintf("ahead-%v", stale), 1, 2, 3, 4)
			crashing := &crashingStore{Arena: s}
			var ts decisionStore = crashing
			if stale {
				ts = staleMatchPlay{crashing}
			}
			for _, slot := range []string{"SF1", "SF2", "SMALL_FINAL"} {
				require.NoError(t, decide(t, s, crashing, matchInSlot(t, s, tour, slot)))
			}
			crashing.crash.Store(true)
			err := decide(t, s, ts, matchInSlot(t, s, tour, "FINAL"))
			final := matchInSlot(t, s, tour, "FINAL")
			require.True(t, final.Status.Resolved(), "the final's decision stands")
			got, gerr := s.TournamentByID(ctx, tour.ID)
			require.NoError(t, gerr)
			podium, perr := s.Podium(ctx, tour.ID)
			require.NoError(t, perr)
			if stale {
				assert.Error(t, err, "worked out after the decision: the injected crash")
				assert.Equal(t, core.StatusPlayoffs, got.Status, "the stale completion was not written")
				assert.Empty(t, podium)
				n, err := core.SettleTournaments(ctx, s, final.ResolvedAt.Add(time.Minute), points)
				require.NoError(t, err)
				assert.Equal(t, 1, n)
				continue
			}
			require.NoError(t, err)
			assert.Equal(t, core.StatusCompleted, got.Status)
			require.Len(t, podium, 4)
			assert.Equal(t, final.Winner, podium[0].PlayerID)
			var placed int
			require.NoError(t, s.ReadCount(ctx, "SELECT count(*) FROM placements WHERE tournament_id = ?", tour.ID, &placed))
			assert.Equal(t, 4, placed, "every side placed, with its ladder points")
		}
	})
}

// TestGrandFinalResetDecidedInSQLAlone: whether a double elimination's
// grand final is played again is decided by the grand final's own batch
// (decided.sql insert_grand_final_reset); Go completes the tournament on
// what is stored. A confirming submission works the completion out ahead
// (CompletionAhead), without the reset in view: the inserted reset fails
// its condition, and nothing of it is written.
func TestGrandFinalResetDecidedInSQLAlone(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		for _, reset := range []bool{true, false} {
			tour := startedTournament(t, s, fmt.Sprintf("gf-reset-%v", reset), core.FormatDoubleElimination, 4,
				func(t *core.Tournament) { t.GrandFinalReset = reset })
			at := playoffsAt
			playAll(t, s, s, tour, &at, func(m *core.Match) string {
				if m.BracketSlot == core.BracketSlotGrandFinal {
					return ""
				}
				return lowerID(m)
			})
			byClients := func(m *core.Match, winner func(*core.MatchState) string) {
				st := liveAt(t, s, m)
				for _, caller := range []string{st.P1, st.P2} {
					st = reloadState(t, s, m.ID)
					_, err := core.SubmitResult(ctx, s, st, core.Caller{PlatformID: caller, AppID: "480"}, clientSubmission(st, winner(st)),
						core.Deps{Now: m.OpensAt.Add(2 * time.Minute), Random: rand.Reader, Points: core.DefaultPlacementPoints})
					require.NoError(t, err)
				}
			}
			grand := matchInSlot(t, s, tour, core.BracketSlotGrandFinal)
			byClients(grand, func(st *core.MatchState) string { return st.P2 }) // the losers' champion wins
			grand = matchInSlot(t, s, tour, core.BracketSlotGrandFinal)
			require.True(t, grand.Status.Resolved())
			podium, err := s.Podium(ctx, tour.ID)
			require.NoError(t, err)
			if !reset {
				assert.Equal(t, core.StatusCompleted, tournamentNow(t, s, tour.ID).Status, "no reset: the grand final decides")
				require.NotEmpty(t, podium)
				assert.Equal(t, grand.P2, podium[0].PlayerID)
				continue
			}
			again := matchInSlot(t, s, tour, core.BracketSlotGrandFinalReset)
			assert.Equal(t, core.MatchScheduled, again.Status, "the grand final's batch stored the reset")
			assert.Equal(t, core.StatusPlayoffs, tournamentNow(t, s, tour.ID).Status, "the completion worked out ahead was not written")
			assert.Empty(t, podium)

			byClients(again, func(st *core.MatchState) string { return st.P1 })
			podium, err = s.Podium(ctx, tour.ID)
			require.NoError(t, err)
			assert.Equal(t, core.StatusCompleted, tournamentNow(t, s, tour.ID).Status, "the reset decides")
			require.NotEmpty(t, podium)
			assert.Equal(t, again.P1, podium[0].PlayerID)
		}
	})
}
