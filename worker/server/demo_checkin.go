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
	if err := core.ChangeTournamentStatus(ctx, ts, t, core.StatusRegistrationOpen, t.RegistrationOpensAt, random, points); err != nil {
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
		if err := core.CheckIn(ctx, ts, cs, t, demoPlayers[i].id, now.Add(-time.Duration(10*i+5)*time.Minute)); err != nil {
			return fmt.Errorf("check in %s: %w", demoPlayers[i].id, err)
		}
	}
	return nil
}

// seedDemoGSL gives the demo arena GSL groups: the Autumn Masters, eight
// players in two groups of four drawn two days ago with day-long windows.
// The openings and the winners' and elimination matches are played (the
// better seed wins each); the deciders are open now. Ada and Blaise top
// their groups; the deciders' players (the demo's 9th to 12th) play
// nothing else that is still open.
func seedDemoGSL(ctx context.Context, st core.TournamentStore, now time.Time, random io.Reader) error {
	day := 24 * time.Hour
	drawn := now.Add(-2 * day).Truncate(time.Hour)
	t := demoTournament("autumn-masters", "Autumn Masters", "Eight players in GSL groups of four: out after two losses, two of each group go on. The deciders are open now.", drawn.Add(-8*day), 8, 2)
	t.GroupFormat, t.StartsAt = core.GroupFormatGSL, drawn
	if err := st.CreateTournament(ctx, t); err != nil {
		return err
	}
	points := core.DefaultPlacementPoints
	if err := core.ChangeTournamentStatus(ctx, st, t, core.StatusRegistrationOpen, t.RegistrationOpensAt, random, points); err != nil {
		return err
	}
	// Seeds 1 to 8: groups A (1, 4, 5, 8) and B (2, 3, 6, 7).
	for seed, i := range []int{0, 1, 8, 9, 10, 11, 2, 3} {
		p := demoPlayers[i]
		if _, err := core.Register(ctx, st, t, core.RegistrationDraft{PlatformID: p.id, PersonaName: p.name, Seed: core.Int(seed + 1)}, t.RegistrationOpensAt.Add(time.Hour)); err != nil {
			return fmt.Errorf("register %s in %s: %w", p.id, t.Slug, err)
		}
	}
	if err := advance(ctx, st, t, drawn, random, points, core.StatusRegistrationClosed, core.StatusGroupStage); err != nil {
		return err
	}
	regs, err := st.Registrations(ctx, t.ID)
	if err != nil {
		return err
	}
	seed := map[string]int{}
	for _, r := range regs {
		seed[r.PlatformID] = r.Seed
	}
	for round := 1; round <= 2; round++ {
		matches, err := st.Matches(ctx, t.ID)
		if err != nil {
			return err
		}
		for i := range matches {
			m := &matches[i]
			if m.RoundNumber != round || m.Status != core.MatchScheduled {
				continue
			}
			winner := m.P1
			if seed[m.P2] < seed[m.P1] {
				winner = m.P2
			}
			score := &core.OutcomeScore{P1: 2, P2: 1}
			if winner == m.P2 {
				score = &core.OutcomeScore{P1: 1, P2: 2}
			}
			res := core.Resolution{Winner: winner, Score: score, Source: core.SourceGameClient, At: m.OpensAt.Add(2 * time.Hour)}
			if _, err := core.ResolveMatch(ctx, st, t, m, res, random, points); err != nil {
				return fmt.Errorf("resolve match %d of %s: %w", m.ID, t.Slug, err)
			}
		}
	}
	return nil
}
