package server

import (
	"context"
	"fmt"
	"io"
	"time"

	"arena/core"
)

// seedDemoCheckIn gives the demo arena a cup in check-in: the Harvest Cup
// closed its registration and starts in 20 hours; its check-in (a day
// long) is open, and four of its six players checked in. Blaise (the
// demo's second player) has not, so a newcomer signed in as him sees the
// button.
func seedDemoCheckIn(ctx context.Context, ts core.TournamentStore, cs core.CheckInStore, now time.Time, random io.Reader) error {
	starts := now.Add(20 * time.Hour).Truncate(time.Hour)
	t := demoTournament("harvest-cup", "Harvest Cup", "Eight places, a single-elimination bracket. Check in before the start or lose your place!", now.Add(-48*time.Hour).Truncate(time.Hour), 8, 0)
	t.Format, t.GroupCount, t.AdvancePerGroup = core.FormatPlayoffsOnly, 0, 0
	t.RegistrationClosesAt, t.StartsAt, t.CheckInMinutes, t.MatchWindowMinutes = now.Add(-time.Hour).Truncate(time.Hour), starts, 24*60, 120
	if err := ts.CreateTournament(ctx, t); err != nil {
		return err
	}
	points := core.DefaultPlacementPoints
	if err := core.ChangeTournamentStatus(ctx, ts, t, core.StatusRegistrationOpen, core.Deps{Now: t.RegistrationOpensAt, Random: random, Points: points}); err != nil {
		return err
	}
	for seed, i := range []int{0, 1, 3, 4, 5, 7} {
		p := demoPlayers[i]
		if _, err := core.Register(ctx, ts, t, core.RegistrationDraft{PlatformID: p.id, PersonaName: p.name, Seed: core.Int(seed + 1)}, now.Add(-24*time.Hour)); err != nil {
			return fmt.Errorf("register %s in %s: %w", p.id, t.Slug, err)
		}
	}
	if err := advance(ctx, ts, t, t.RegistrationClosesAt, random, points, core.StatusRegistrationClosed); err != nil {
		return err
	}
	for _, i := range []int{0, 3, 4, 5} {
		if err := core.CheckIn(ctx, cs, t, demoPlayers[i].id, now.Add(-time.Duration(10*i+5)*time.Minute)); err != nil {
			return fmt.Errorf("check in %s: %w", demoPlayers[i].id, err)
		}
	}
	return nil
}
