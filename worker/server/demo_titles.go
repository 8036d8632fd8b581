package server

import (
	"context"
	"fmt"
	"io"
	"time"

	"arena/core"
)

// demoTitleStore is what the demo's titles are played through.
type demoTitleStore interface {
	core.TitleStore
	core.TournamentStore
}

// seedDemoTitles gives the demo arena a held title with a short lineage
// and a pending challenge, and a vacant one with a volunteer, played
// through the same rules as the API over the last three days: Ada won the
// coronation against Blaise, lost the title to Grace, who defended it
// against Edsger and is now challenged by Margaret. The Rookie Belt waits for
// a second volunteer besides Charles.
func seedDemoTitles(ctx context.Context, a *core.Arena, st demoTitleStore, now time.Time, random io.Reader) error {
	player := func(i int) core.Caller { return core.Caller{PlatformID: demoPlayers[i].id, AppID: a.AppIDs[0]} }
	ada, blaise, charles, edsger, grace, margaret := player(0), player(1), player(2), player(4), player(6), player(12)
	ago := func(hours int) time.Time { return now.Add(-time.Duration(hours) * time.Hour).Truncate(time.Minute) }

	champion, err := core.CreateTitle(ctx, st, core.TitleDraft{Slug: "arena-champion", Name: "Arena Champion"}, ago(96))
	if err != nil {
		return err
	}
	steps := []func() error{
		func() error {
			_, err := core.Volunteer(ctx, st, a, ada, champion.ID, core.Deps{Now: ago(71), Random: random})
			return err
		},
		func() error {
			_, err := core.Volunteer(ctx, st, a, blaise, champion.ID, core.Deps{Now: ago(70), Random: random})
			return err
		},
		func() error { return demoTitleMatch(ctx, st, champion.ID, ada, ago(69), random) },
		func() error { return demoChallenge(ctx, st, a, grace, ada, champion.ID, ago(60), random) },
		func() error { return demoTitleMatch(ctx, st, champion.ID, grace, ago(50), random) },
		func() error { return demoChallenge(ctx, st, a, edsger, grace, champion.ID, ago(30), random) },
		func() error { return demoTitleMatch(ctx, st, champion.ID, grace, ago(20), random) },
		func() error {
			_, err := core.Challenge(ctx, st, a, margaret, champion.ID, core.Deps{Now: ago(1), Random: random})
			return err
		},
	}
	for i, step := range steps {
		if err := step(); err != nil {
			return fmt.Errorf("arena-champion step %d: %w", i+1, err)
		}
	}
	rookie, err := core.CreateTitle(ctx, st, core.TitleDraft{Slug: "rookie-belt", Name: "Rookie Belt"}, ago(96))
	if err != nil {
		return err
	}
	_, err = core.Volunteer(ctx, st, a, charles, rookie.ID, core.Deps{Now: ago(3), Random: random})
	return err
}

// demoChallenge has challenger challenge the holder, who accepts an hour
// later.
func demoChallenge(ctx context.Context, st demoTitleStore, a *core.Arena, challenger, holder core.Caller, titleID int64, at time.Time, random io.Reader) error {
	c, err := core.Challenge(ctx, st, a, challenger, titleID, core.Deps{Now: at, Random: random})
	if err != nil {
		return err
	}
	_, err = core.RespondToChallenge(ctx, st, a, holder, c.ID, true, core.Deps{Now: at.Add(time.Hour), Random: random})
	return err
}

// demoTitleMatch decides the title's match for winner at `at`, as two
// agreeing game clients would have.
func demoTitleMatch(ctx context.Context, st demoTitleStore, titleID int64, winner core.Caller, at time.Time, random io.Reader) error {
	t, err := st.Title(ctx, titleID)
	if err != nil {
		return err
	}
	if t.Match == nil {
		return fmt.Errorf("title %d has no match to decide", titleID)
	}
	m, err := st.Match(ctx, t.Match.ID)
	if err != nil {
		return err
	}
	tour, err := st.TournamentByID(ctx, m.TournamentID)
	if err != nil {
		return err
	}
	score := &core.OutcomeScore{P1: 3, P2: 1}
	if winner.PlatformID == m.P2 {
		score = &core.OutcomeScore{P1: 1, P2: 3}
	}
	res := core.Resolution{Winner: winner.PlatformID, Score: score, Source: core.SourceGameClient, At: at}
	_, err = core.ResolveMatch(ctx, st, tour, m, res, core.Deps{Random: random, Points: core.DefaultPlacementPoints})
	return err
}
