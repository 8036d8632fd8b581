package server

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"arena/core"
)

// seedDemoDoubleElimination gives the demo arena a double elimination in
// its bracket: seven players (the top seed has a bye), drawn two days ago
// with day-long windows; the first two steps are played (winners' round 1,
// then winners' round 2 and losers' round 1), the third is open now. Its
// players are the demo's 13th to 19th, who play nothing else that is
// still open.
func seedDemoDoubleElimination(ctx context.Context, st core.TournamentStore, now time.Time, random io.Reader) error {
	day := 24 * time.Hour
	drawn := now.Add(-2 * day).Truncate(time.Hour)
	t := demoTournament("summer-double", "Summer Double", "Seven players, double elimination: out after two losses. The losers' bracket is open now.", drawn.Add(-8*day), 8, 0)
	t.Format, t.GroupCount, t.AdvancePerGroup, t.SmallFinal, t.GrandFinalReset = core.FormatDoubleElimination, 0, 0, false, true
	if err := st.CreateTournament(ctx, t); err != nil {
		return err
	}
	points := core.DefaultPlacementPoints
	if err := core.ChangeTournamentStatus(ctx, st, t, core.StatusRegistrationOpen, core.Deps{Now: t.RegistrationOpensAt, Random: random, Points: points}); err != nil {
		return err
	}
	for i, p := range demoPlayers[13:20] { // not the titles' challenger
		if _, err := core.Register(ctx, st, t, core.RegistrationDraft{PlatformID: p.id, PersonaName: p.name, Seed: core.Int(i + 1)}, t.RegistrationOpensAt.Add(time.Hour)); err != nil {
			return fmt.Errorf("register %s in %s: %w", p.id, t.Slug, err)
		}
	}
	if err := advance(ctx, st, t, drawn, random, points, core.StatusRegistrationClosed, core.StatusPlayoffs); err != nil {
		return err
	}
	dice := rand.New(rand.NewPCG(2026, 13))
	for range 2 { // step 1, then step 2 once its players are known
		if err := playMatches(ctx, st, t, dice, random, points, 2); err != nil {
			return err
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
	if err := core.ChangeTournamentStatus(ctx, st, t, core.StatusRegistrationOpen, core.Deps{Now: t.RegistrationOpensAt, Random: random, Points: points}); err != nil {
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
			if _, err := core.ResolveMatch(ctx, st, t, m, res, core.Deps{Random: random, Points: points}); err != nil {
				return fmt.Errorf("resolve match %d of %s: %w", m.ID, t.Slug, err)
			}
		}
	}
	return nil
}
