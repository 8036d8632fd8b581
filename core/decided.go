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
//  1. The store records the decision in one conditional batch that also
//     seats the decided match's winner (and, from a semifinal feeding a
//     small final, its loser) in the bracket match it feeds, for a title
//     match crowns its winner (holder, reign, defenses, lineage, clock;
//     see title.go), records the result_confirmed event its alerts are
//     made of (result_disputed when a submission or report left it
//     disputed) and ends its caster seats (alerts.go). These are the same
//     statements for every source, read from the decided row.
//  2. MatchDecided then completes the tournament once its final (and small
//     final) are decided: podium, placements and ladder points in one batch
//     (CompleteIfDecided).
//
// A crash between the two steps leaves a decided final in a tournament
// still in playoffs. SettleTournaments, one of the scheduled jobs, finds
// such tournaments and completes them, so nothing stays half-done.

// MatchDecided carries a decided match's consequences beyond its own batch:
// a decided final or small final completes the tournament when both are
// decided, with the ladder points table points returns (read only then).
// It is idempotent.
func MatchDecided(ctx context.Context, ts TournamentStore, m *Match, now time.Time, points func() PlacementPoints) error {
	if m.Stage != StageFinal && m.Stage != StageSmallFinal {
		return nil
	}
	t, err := ts.TournamentByID(ctx, m.TournamentID)
	if err != nil {
		return err
	}
	_, err = CompleteIfDecided(ctx, ts, t, now, points())
	return err
}

// SettleTournaments completes every tournament still in playoffs whose
// final is decided (a decision whose second step did not run, or failed).
// It returns how many it completed; running it again changes nothing more.
func SettleTournaments(ctx context.Context, ts TournamentStore, now time.Time, points func() PlacementPoints) (int, error) {
	ids, err := ts.DecidedFinals(ctx)
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	table := points()
	done := 0
	for _, id := range ids {
		t, err := ts.TournamentByID(ctx, id)
		if err != nil {
			return done, err
		}
		ok, err := CompleteIfDecided(ctx, ts, t, now, table)
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
func decidedByID(ctx context.Context, ts TournamentStore, matchID int64, now time.Time, points func() PlacementPoints) error {
	m, err := ts.Match(ctx, matchID)
	if err != nil {
		return err
	}
	return MatchDecided(ctx, ts, m, now, points)
}
