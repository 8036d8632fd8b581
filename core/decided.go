package core

import (
	"context"
	"time"
)

// The one way a decided match moves its tournament on.
//
// A match is decided by an admin (ResolveMatch), by two agreeing game
// clients (SubmitResult), by a player report its opponent confirms
// (ConfirmReport) or nobody contests (RunReportGrace), by the grace period
// of a single client submission (RunGracePeriod), or by the window-close
// timer (RunWindowClose). Whatever decides it:
//
//  1. The store records the decision in one conditional batch with the
//     decision statements of sql/queries/decided.sql, the same for every
//     source and read from the decided row (seat_winner, seat_loser,
//     insert_grand_final_reset, title_result to title_result_applied,
//     record_decision_event, end_caster_seats; what each does is written
//     there).
//  2. MatchDecided then moves the tournament on: it completes it once its
//     deciding matches are decided (podium, placements and ladder points in
//     one batch, CompleteIfDecided), and a Swiss match that ends its round
//     pairs the next round (or seeds the top cut) (AdvanceStage).
//
// A confirming game-client submission of a final or small final does
// step 2 in step 1's batch when it can: the completion is worked out
// before the decision from the tournament read with the match
// (CompletionAhead) and written on the condition that the tournament is
// then as it was worked out on (Completion, PlayFingerprint); when that
// does not hold, MatchDecided runs after the batch as above.
//
// A crash between the two steps leaves a decided final in a tournament
// still in playoffs, or a finished round unpaired. SettleTournaments, one
// of the scheduled jobs, finds such tournaments and moves them on, so
// nothing stays half-done.

// DecidedStore is what moving a tournament on after a decision reads and
// writes (MatchDecided, AdvanceStage): its play, a stage's next matches
// and its completion.
type DecidedStore interface {
	CompletionStore
	// AddMatches stores a stage's next matches (a Swiss round, a top
	// cut's bracket) while t is in status `from`, moving it to `to` in the
	// same batch. Every match has a bracket slot; a slot stored already is
	// skipped, so two requests adding the same matches store them once.
	AddMatches(ctx context.Context, t *Tournament, from, to TournamentStatus, matches []Match, at time.Time) error
}

// DecidedByIDStore is DecidedStore with the match read by id: what the
// jobs that decide matches by id (a grace period, a window closing, a
// disqualification) hand on to MatchDecided (decidedByID).
type DecidedByIDStore interface {
	DecidedStore
	// Match returns the match with the id, or CodeMatchNotFound.
	Match(ctx context.Context, id int64) (*Match, error)
}

// SettleStore is what SettleTournaments reads and writes: the
// tournaments a decision left behind, found again, and moved on as
// DecidedStore does.
type SettleStore interface {
	DecidedStore
	TournamentReader
	// DecidedFinals returns the tournaments still in playoffs whose final
	// is decided.
	DecidedFinals(ctx context.Context) ([]int64, error)
	// StagesToSettle returns the round-robin and Swiss tournaments in
	// group_stage with every match resolved, and the double eliminations
	// in playoffs whose grand final is decided with no reset pending.
	StagesToSettle(ctx context.Context) ([]int64, error)
}

// MatchDecided carries a decided match's consequences beyond its own batch:
// a decided final or small final (a grand final or its reset) completes
// the tournament when its deciding matches are decided, with the ladder
// points table points returns (read only then); a decided Swiss or
// round-robin match moves its stage on (AdvanceStage). It is idempotent.
func MatchDecided(ctx context.Context, ts DecidedStore, m *Match, now time.Time, points func() PlacementPoints) error {
	switch m.Stage {
	case StageFinal, StageSmallFinal, StageSwiss, StageRoundRobin:
	default:
		return nil
	}
	t, regs, matches, err := ts.TournamentPlay(ctx, m.TournamentID)
	if err != nil {
		return err
	}
	if m.Stage == StageSwiss || m.Stage == StageRoundRobin {
		_, err = advanceStage(ctx, ts, t, regs, matches, now, points)
		return err
	}
	_, err = completeIfDecided(ctx, ts, t, regs, matches, now, points)
	return err
}

// AdvanceStage moves a round-robin or Swiss tournament in group_stage on
// once every match stored is resolved: the round robin completes; a Swiss
// stage pairs its next round, or after its last round seeds the top cut
// (status playoffs) or completes. Rounds open at the later of now and
// startsAt plus one window per earlier round. Pairings depend only on the
// decided results, so two requests doing this at once store the same
// matches once (DecidedStore.AddMatches). It reports whether it changed
// anything.
func AdvanceStage(ctx context.Context, ts DecidedStore, t *Tournament, now time.Time, points func() PlacementPoints) (bool, error) {
	if t.Status != StatusGroupStage || (t.Format != FormatSwiss && t.Format != FormatRoundRobin) {
		return false, nil
	}
	_, regs, matches, err := ts.TournamentPlay(ctx, t.ID)
	if err != nil {
		return false, err
	}
	return advanceStage(ctx, ts, t, regs, matches, now, points)
}

// advanceStage is AdvanceStage on t's sides and matches read already.
func advanceStage(ctx context.Context, ts DecidedStore, t *Tournament, regs []Registration, matches []Match, now time.Time, points func() PlacementPoints) (bool, error) {
	if t.Status != StatusGroupStage || (t.Format != FormatSwiss && t.Format != FormatRoundRobin) {
		return false, nil
	}
	for i := range matches {
		if !matches[i].Status.Resolved() {
			return false, nil
		}
	}
	if t.Format == FormatRoundRobin {
		return completeIfDecided(ctx, ts, t, regs, matches, now, points)
	}
	played := swissRoundsPlayed(matches)
	switch {
	case played < t.SwissRoundsFor(len(regs)):
		opens := t.paceWindow(t.StartsAt.Add(time.Duration(played)*t.MatchWindowFor(StageSwiss)), now, true)
		if opens.Before(now) {
			opens = now
		}
		next, err := planSwissRound(t, regs, matches, played+1, opens)
		if err != nil {
			return false, err
		}
		return true, ts.AddMatches(ctx, t, StatusGroupStage, StatusGroupStage, next, now)
	case t.TopCut > 0:
		cut, err := planTopCut(t, regs, matches, now)
		if err != nil {
			return false, err
		}
		return true, ts.AddMatches(ctx, t, StatusGroupStage, StatusPlayoffs, cut, now)
	}
	return completeIfDecided(ctx, ts, t, regs, matches, now, points)
}

// SettleTournaments moves on every tournament a decision left behind (a
// decision whose second step did not run, or failed): it completes those
// still in playoffs whose final is decided, and moves round-robin, Swiss
// and double-elimination stages on (StagesToSettle, AdvanceStage). It
// returns how many it changed; running it again changes nothing more.
func SettleTournaments(ctx context.Context, ts SettleStore, now time.Time, points func() PlacementPoints) (int, error) {
	ids, err := ts.DecidedFinals(ctx)
	if err != nil {
		return 0, err
	}
	stages, err := ts.StagesToSettle(ctx)
	if err != nil {
		return 0, err
	}
	ids = append(ids, stages...)
	if len(ids) == 0 {
		return 0, nil
	}
	table := points()
	done := 0
	for _, id := range ids {
		t, err := ts.TournamentByID(ctx, id)
		if err != nil {
			return done, err
		}
		var ok bool
		if t.Status == StatusGroupStage {
			ok, err = AdvanceStage(ctx, ts, t, now, func() PlacementPoints { return table })
		} else {
			ok, err = CompleteIfDecided(ctx, ts, t, now, table)
		}
		if err != nil {
			return done, err
		}
		if ok {
			done++
		}
	}
	return done, nil
}

// decidedByID runs MatchDecided for a match a store call decided by id.
func decidedByID(ctx context.Context, ts DecidedByIDStore, matchID int64, now time.Time, points func() PlacementPoints) error {
	m, err := ts.Match(ctx, matchID)
	if err != nil {
		return err
	}
	return MatchDecided(ctx, ts, m, now, points)
}
