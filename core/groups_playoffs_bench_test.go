package core

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkStandingsAndBracket1024 times what moving a 1024-player
// tournament from the group stage to the playoffs costs: standings for 128
// groups of 8 with every match resolved, cross-seeding the top 2 of each
// group, and the bracket plan for those 256. The draw, fixtures and results
// are made once, outside the timer. Target: under 5 ms per op.
//
//	go test ./core -run '^$' -bench StandingsAndBracket1024 -benchmem
func BenchmarkStandingsAndBracket1024(b *testing.B) {
	const players, groupCount, advance = 1024, 128, 2
	entrants := make([]Entrant, players)
	for i := range entrants {
		entrants[i] = Entrant{ID: fmt.Sprintf("7656119%010d", i+1), Seed: i + 1}
	}
	groups, err := SnakeDraw(entrants, groupCount)
	if err != nil {
		b.Fatal(err)
	}
	// Fixed-seed results: the better seed usually wins, scores are close
	// enough to leave ties for the tie-breaks, a few losses are forfeits.
	rng := rand.New(rand.NewPCG(1, 2))
	outcomes := make([][]MatchOutcome, len(groups))
	for g, group := range groups {
		seedOf := map[string]int{}
		for _, m := range group.Members {
			seedOf[m.ID] = m.Seed
		}
		for _, round := range RoundRobin(EntrantIDs(group.Members)) {
			for _, f := range round {
				o := MatchOutcome{P1: f.P1, P2: f.P2, Winner: f.P1}
				if (seedOf[f.P2] < seedOf[f.P1]) != (rng.IntN(4) == 0) {
					o.Winner = f.P2
				}
				switch rng.IntN(10) {
				case 0:
					o.Forfeit = true
				default:
					win, lose := 2, rng.IntN(2)
					o.Score = &OutcomeScore{P1: win, P2: lose}
					if o.Winner == f.P2 {
						o.Score = &OutcomeScore{P1: lose, P2: win}
					}
				}
				outcomes[g] = append(outcomes[g], o)
			}
		}
	}

	b.ReportAllocs()
	for b.Loop() {
		tables := make([][]string, len(groups))
		for g, group := range groups {
			rows, err := Standings("bench-cup", group.Members, outcomes[g])
			if err != nil {
				b.Fatal(err)
			}
			tables[g] = make([]string, len(rows))
			for i, r := range rows {
				tables[g][i] = r.PlayerID
			}
		}
		seeds, err := CrossSeed(tables, advance)
		if err != nil {
			b.Fatal(err)
		}
		plan, err := PlanBracket(seeds, true)
		if err != nil {
			b.Fatal(err)
		}
		if plan.Entrants != groupCount*advance {
			b.Fatalf("bracket of %d, want %d", plan.Entrants, groupCount*advance)
		}
	}
}
