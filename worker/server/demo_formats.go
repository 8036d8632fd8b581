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
	if err := core.ChangeTournamentStatus(ctx, st, t, core.StatusRegistrationOpen, t.RegistrationOpensAt, random, points); err != nil {
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
