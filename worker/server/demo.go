package server

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"arena/core"
	store "arena/sql"
)

// DemoHosts are the hosts of the demo arena a fresh native data
// directory starts with.
var DemoHosts = []string{"localhost", "127.0.0.1", "demo.localhost"}

// demoPlayers are the demo arena's sample players (mock-mode account ids).
var demoPlayers = []struct{ id, name string }{
	{"76561198000000001", "Ada Lovelace"}, {"76561198000000002", "Blaise Pascal"},
	{"76561198000000003", "Charles Babbage"}, {"76561198000000004", "Dorothy Vaughan"},
	{"76561198000000005", "Edsger Dijkstra"}, {"76561198000000006", "Frances Allen"},
	{"76561198000000007", "Grace Hopper"}, {"76561198000000008", "Hedy Lamarr"},
	{"76561198000000009", "Ida Rhodes"}, {"76561198000000010", "John von Neumann"},
	{"76561198000000011", "Katherine Johnson"}, {"76561198000000012", "Leslie Lamport"},
	{"76561198000000013", "Margaret Hamilton"}, {"76561198000000014", "Niklaus Wirth"},
	{"76561198000000015", "Ole-Johan Dahl"}, {"76561198000000016", "Peter Naur"},
	{"76561198000000017", "Radia Perlman"}, {"76561198000000018", "Sophie Wilson"},
	{"76561198000000019", "Tony Hoare"}, {"76561198000000020", "Ursula Franklin"},
	{"76561198000000021", "Vera Molnár"}, {"76561198000000022", "Wesley Clark"},
	{"76561198000000023", "Xiaoyuan Tu"}, {"76561198000000024", "Yukihiro Matsumoto"},
}

// demoAppID is the demo arena's one AppID.
const demoAppID = "480"

// DemoAdminPlatformID is the demo arena's first admin player.
const DemoAdminPlatformID = "76561198000000001"

// SeedDemo creates the demo arena (slug demo, the DemoHosts, mock
// platform tickets because it has no publisher key) through the same path
// as the operator API, with its sample players, a season, three
// tournaments (completed, group stage, registration) and two titles (held
// and challenged, vacant). It returns the demo arena's admin token.
//
// The sample data is written before the arena is completed, so a failure
// or a crash part-way leaves an unfinished creation that
// DropUnfinishedArenas (the next start) removes, and seeding again starts
// over. When a complete demo arena exists already (a start cut off after
// creating it), SeedDemo mints a new admin token for it instead.
func (s *Server) SeedDemo(ctx context.Context) (string, error) {
	now := s.now()
	fill := func(ctx context.Context, st *store.Arena) error {
		players := make([]core.PlayerProfile, len(demoPlayers))
		for i, p := range demoPlayers {
			players[i] = core.PlayerProfile{PlatformID: p.id, PersonaName: p.name}
		}
		if err := st.UpsertPlayers(ctx, players, now); err != nil {
			return fmt.Errorf("demo players: %w", err)
		}
		var ts core.TournamentStore = st
		if s.demoStore != nil {
			ts = s.demoStore(ts)
		}
		if err := seedDemoTournaments(ctx, ts, now, s.rand); err != nil {
			return fmt.Errorf("demo tournaments: %w", err)
		}
		if err := seedDemoTitles(ctx, &core.Arena{AppIDs: []string{demoAppID}}, st, now, s.rand); err != nil {
			return fmt.Errorf("demo titles: %w", err)
		}
		if err := seedDemoStreams(ctx, st, now); err != nil {
			return fmt.Errorf("demo streams: %w", err)
		}
		if err := seedDemoDoubleElimination(ctx, ts, now, s.rand); err != nil {
			return fmt.Errorf("demo double elimination: %w", err)
		}
		if err := seedDemoCheckIn(ctx, ts, st, now, s.rand); err != nil {
			return fmt.Errorf("demo check-in: %w", err)
		}
		if err := seedDemoGSL(ctx, ts, now, s.rand); err != nil {
			return fmt.Errorf("demo GSL groups: %w", err)
		}
		if err := seedDemoSeries(ctx, ts, now, s.rand); err != nil {
			return fmt.Errorf("demo series: %w", err)
		}
		if err := s.seedDemoRecording(ctx, st, "demo"); err != nil {
			return fmt.Errorf("demo recording: %w", err)
		}
		return nil
	}
	_, adminToken, err := s.createArena(ctx, createArenaRequest{
		Slug:             "demo",
		Name:             "Demo Arena",
		Hosts:            append([]string(nil), DemoHosts...),
		Plan:             core.PlanStudio,
		AppIDs:           core.AppIDs{demoAppID}, // one AppID: the environment gate stays out of the way
		AdminPlatformIDs: []string{DemoAdminPlatformID},
		DatabaseURL:      s.cfg.DemoDatabaseURL,
	}, fill)
	if core.ErrorCode(err) == core.CodeSlugTaken {
		return s.mintDemoAdminToken(ctx)
	}
	if err != nil {
		return "", fmt.Errorf("demo arena: %w", err)
	}
	return adminToken, nil
}

// mintDemoAdminToken adds an admin token to the complete demo arena.
func (s *Server) mintDemoAdminToken(ctx context.Context) (string, error) {
	a, err := s.dir.ArenaByHost(ctx, DemoHosts[0])
	if err != nil || a.Slug != "demo" {
		return "", fmt.Errorf("demo arena: the slug is taken but no complete demo arena answers %s: %v", DemoHosts[0], err)
	}
	st, release, err := s.arenaDB(ctx, a)
	if err != nil {
		return "", err
	}
	defer release()
	return s.mintAdminToken(ctx, st, s.now())
}

// seedDemoTournaments gives the demo arena a season and three tournaments:
// one completed (16 players, groups then playoffs, podium and ladder), one
// in its group stage with some results in, one taking registrations.
// Results are drawn from a fixed seed, so every demo looks the same.
func seedDemoTournaments(ctx context.Context, st core.TournamentStore, now time.Time, random io.Reader) error {
	day := 24 * time.Hour
	season := &core.Season{Slug: "season-1", Name: "Season 1", StartsAt: now.Add(-60 * day).Truncate(day), EndsAt: now.Add(60 * day).Truncate(day), CreatedAt: now}
	if err := st.CreateSeason(ctx, season); err != nil {
		return err
	}
	points := core.DefaultPlacementPoints
	dice := rand.New(rand.NewPCG(2026, 11))

	// A completed cup, played three weeks ago.
	past := now.Add(-30 * day).Truncate(time.Hour)
	autumn := demoTournament("autumn-open", "Autumn Open", "Sixteen players, four groups, the top two of each into the playoffs.", past, 16, 4)
	autumn.SeasonID = season.ID
	if err := createAndRegister(ctx, st, autumn, 16, past.Add(time.Hour), random); err != nil {
		return err
	}
	if err := advance(ctx, st, autumn, past.Add(8*day), random, points, core.StatusRegistrationClosed, core.StatusGroupStage); err != nil {
		return err
	}
	if err := playMatches(ctx, st, autumn, dice, random, points, -1); err != nil {
		return err
	}
	if err := advance(ctx, st, autumn, past.Add(11*day), random, points, core.StatusPlayoffs); err != nil {
		return err
	}
	for range 3 { // quarterfinals, semifinals, final and small final
		if err := playMatches(ctx, st, autumn, dice, random, points, -1); err != nil {
			return err
		}
	}

	// A cup in its group stage: the first round is played, the second is open now.
	started := now.Add(-14 * day).Truncate(time.Hour)
	winter := demoTournament("winter-cup", "Winter Cup", "Eight players in two groups. Round two is open: ready up!", started, 8, 2)
	winter.SeasonID = season.ID
	winter.StartsAt = now.Add(-2 * time.Hour).Truncate(time.Hour)
	winter.MatchWindowMinutes = 120
	if err := createAndRegister(ctx, st, winter, 8, started.Add(time.Hour), random); err != nil {
		return err
	}
	if err := advance(ctx, st, winter, winter.StartsAt, random, points, core.StatusRegistrationClosed, core.StatusGroupStage); err != nil {
		return err
	}
	if err := playMatches(ctx, st, winter, dice, random, points, 1); err != nil {
		return err
	}

	// A cup taking registrations for another week.
	spring := demoTournament("spring-invitational", "Spring Invitational", "Sign up: sixteen places, groups of four.", now.Add(-day).Truncate(time.Hour), 16, 4)
	spring.SeasonID = season.ID
	return createAndRegister(ctx, st, spring, 5, now, random)
}

func demoTournament(slug, name, description string, opens time.Time, players, groups int) *core.Tournament {
	day := 24 * time.Hour
	return &core.Tournament{
		Slug: slug, Name: name, Description: description, Format: core.FormatGroupsPlayoffs, MaxPlayers: players,
		RegistrationOpensAt: opens, RegistrationClosesAt: opens.Add(7 * day), StartsAt: opens.Add(8 * day),
		Environment: core.EnvironmentDemo, TeamMinPlayers: 1, TeamMaxPlayers: 1, GroupCount: groups,
		AdvancePerGroup: 2, SmallFinal: true, MatchWindowMinutes: 24 * 60,
		Cast: core.CastPolicy{HandMode: core.HandModeDelayed, DelaySeconds: 120}, AllowSpectators: true,
		CreatedAt: opens, UpdatedAt: opens,
	}
}

// createAndRegister creates t, opens it and registers the first n demo
// players, seeded in order.
func createAndRegister(ctx context.Context, st core.TournamentStore, t *core.Tournament, n int, at time.Time, random io.Reader) error {
	if err := st.CreateTournament(ctx, t); err != nil {
		return err
	}
	if err := core.ChangeTournamentStatus(ctx, st, t, core.StatusRegistrationOpen, core.Deps{Now: t.RegistrationOpensAt, Random: random, Points: core.DefaultPlacementPoints}); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		p := demoPlayers[i]
		if _, err := core.Register(ctx, st, t, core.RegistrationDraft{PlatformID: p.id, PersonaName: p.name, Seed: core.Int(i + 1)}, at); err != nil {
			return fmt.Errorf("register %s in %s: %w", p.id, t.Slug, err)
		}
	}
	return nil
}

func advance(ctx context.Context, st core.TournamentStore, t *core.Tournament, at time.Time, random io.Reader, points func() core.PlacementPoints, steps ...core.TournamentStatus) error {
	for _, to := range steps {
		if err := core.ChangeTournamentStatus(ctx, st, t, to, core.Deps{Now: at, Random: random, Points: points}); err != nil {
			return fmt.Errorf("%s to %s: %w", t.Slug, to, err)
		}
	}
	return nil
}

// playMatches resolves every playable scheduled match (both sides known)
// of rounds up to maxRound (-1: all). The better seed wins two times in
// three; most results come from the game client, some from the admin.
func playMatches(ctx context.Context, st core.TournamentStore, t *core.Tournament, dice *rand.Rand, random io.Reader, points func() core.PlacementPoints, maxRound int) error {
	matches, err := st.Matches(ctx, t.ID)
	if err != nil {
		return err
	}
	for i := range matches {
		m := &matches[i]
		if m.Status != core.MatchScheduled || m.P1 == "" || m.P2 == "" || (maxRound > 0 && m.RoundNumber > maxRound) {
			continue
		}
		winner := m.P1
		if (m.P2 < m.P1) == (dice.IntN(3) > 0) {
			winner = m.P2
		}
		won, lost := 3, dice.IntN(3)
		score := &core.OutcomeScore{P1: won, P2: lost}
		if winner == m.P2 {
			score = &core.OutcomeScore{P1: lost, P2: won}
		}
		source := core.SourceGameClient
		if dice.IntN(8) == 0 {
			source = core.SourceAdmin
		}
		res := core.Resolution{Winner: winner, Score: score, Source: source, At: m.OpensAt.Add(time.Hour)}
		if _, err := core.ResolveMatch(ctx, st, t, m, res, core.Deps{Random: random, Points: points}); err != nil {
			return fmt.Errorf("resolve match %d of %s: %w", m.ID, t.Slug, err)
		}
	}
	return nil
}
