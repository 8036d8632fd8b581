package server

import (
	"context"
	"fmt"
	"io"
	"time"

	"arena/core"
)

// seedDemoSeries gives the demo arena a bracket of series at an asap
// pace: the Spring Showdown, four players (the demo's 21st to 24th, who
// play nothing else), semifinals best of 3 and the final best of 5,
// drawn a day ago. Both semifinals are played game by game (2-1 and
// 2-0); the final opened the moment its second side was known and
// stands at 1-1, game 3 to play now.
func seedDemoSeries(ctx context.Context, st core.TournamentStore, now time.Time, random io.Reader) error {
	day := 24 * time.Hour
	drawn := now.Add(-day).Truncate(time.Hour)
	t := demoTournament("spring-showdown", "Spring Showdown",
		"Four players in series: semifinals best of 3, the final best of 5, each match opening as soon as its players are known. The final is under way.",
		drawn.Add(-8*day), 4, 0)
	t.Format, t.GroupCount, t.AdvancePerGroup, t.SmallFinal = core.FormatPlayoffsOnly, 0, 0, false
	t.BestOf, t.GroupBestOf, t.FinalBestOf, t.Pacing, t.MatchWindowMinutes = 3, 1, 5, core.PacingASAP, 8*60
	t.StartsAt = drawn
	if err := st.CreateTournament(ctx, t); err != nil {
		return err
	}
	points := core.DefaultPlacementPoints
	if err := core.ChangeTournamentStatus(ctx, st, t, core.StatusRegistrationOpen, core.Deps{Now: t.RegistrationOpensAt, Random: random, Points: points}); err != nil {
		return err
	}
	for i, p := range demoPlayers[20:24] {
		if _, err := core.Register(ctx, st, t, core.RegistrationDraft{PlatformID: p.id, PersonaName: p.name, Seed: core.Int(i + 1)}, t.RegistrationOpensAt.Add(time.Hour)); err != nil {
			return fmt.Errorf("register %s in %s: %w", p.id, t.Slug, err)
		}
	}
	if err := advance(ctx, st, t, drawn, random, points, core.StatusRegistrationClosed, core.StatusPlayoffs); err != nil {
		return err
	}
	// The games by bracket slot: true when side 1 wins the game.
	games := []struct {
		slot string
		wins []bool
	}{{"SF1", []bool{true, false, true}}, {"SF2", []bool{true, true}}, {"FINAL", []bool{false, true}}}
	at := drawn
	for _, s := range games {
		for n, p1Wins := range s.wins {
			at = at.Add(40 * time.Minute)
			m, err := matchAtSlot(ctx, st, t, s.slot)
			if err != nil {
				return err
			}
			winner := m.P2
			if p1Wins {
				winner = m.P1
			}
			res := core.Resolution{Winner: winner, Game: n + 1, Source: core.SourceGameClient, At: at}
			if _, err := core.ResolveMatch(ctx, st, t, m, res, core.Deps{Random: random, Points: points}); err != nil {
				return fmt.Errorf("game %d of %s in %s: %w", n+1, s.slot, t.Slug, err)
			}
		}
	}
	return nil
}

// matchAtSlot returns t's match at the bracket slot.
func matchAtSlot(ctx context.Context, st core.TournamentStore, t *core.Tournament, slot string) (*core.Match, error) {
	matches, err := st.Matches(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	for i := range matches {
		if matches[i].BracketSlot == slot {
			return &matches[i], nil
		}
	}
	return nil, fmt.Errorf("%s has no match %s", t.Slug, slot)
}
