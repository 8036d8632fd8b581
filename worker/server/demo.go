package server

import (
	"context"
	"fmt"

	"arena/core"
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
}

// DemoAdminPlatformID is the demo arena's first admin player.
const DemoAdminPlatformID = "76561198000000001"

// SeedDemo creates the demo arena (slug demo, the DemoHosts, mock
// platform tickets because it has no publisher key) with its sample
// players, through the same path as the operator API. It returns the
// demo arena's admin token.
func (s *Server) SeedDemo(ctx context.Context) (string, error) {
	a, adminToken, err := s.createArena(ctx, createArenaRequest{
		Slug:             "demo",
		Name:             "Demo Arena",
		Hosts:            append([]string(nil), DemoHosts...),
		Plan:             string(core.PlanStudio),
		AppIDs:           []string{"480", "481"},
		AdminPlatformIDs: []string{DemoAdminPlatformID},
	})
	if err != nil {
		return "", fmt.Errorf("demo arena: %w", err)
	}
	st, err := s.arenaDB(ctx, a)
	if err != nil {
		return "", err
	}
	players := make([]core.PlayerProfile, len(demoPlayers))
	for i, p := range demoPlayers {
		players[i] = core.PlayerProfile{PlatformID: p.id, PersonaName: p.name}
	}
	if err := st.UpsertPlayers(ctx, players, s.now()); err != nil {
		return "", fmt.Errorf("demo players: %w", err)
	}
	return adminToken, nil
}
