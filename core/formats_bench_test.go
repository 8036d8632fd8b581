package core

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkDoubleElimination256 times a 256-player double elimination's
// bracket and standings once every match is played: planning it, applying
// the results (AdvanceBracket), its display columns and everyone's place.
// The results are drawn once, outside the timer. Target: under 5 ms per
// op.
//
//	go test ./core -run '^$' -bench DoubleElimination256 -benchmem
func BenchmarkDoubleElimination256(b *testing.B) {
	ids := platformIDs(256)
	plan, err := PlanDoubleElimination(ids, true)
	if err != nil {
		b.Fatal(err)
	}
	winners := map[string]string{}
	rng := rand.New(rand.NewPCG(256, 2))
	for {
		played := false
		for _, m := range plan.Matches {
			if m.Winner == "" && !m.Bye && m.P1.PlayerID != "" && m.P2.PlayerID != "" {
				w := m.P1.PlayerID
				if rng.IntN(3) == 0 {
					w = m.P2.PlayerID
				}
				winners[m.BracketSlot] = w
				played = true
			}
		}
		if !played {
			break
		}
		if plan, err = AdvanceBracket(plan, winners); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		p, err := PlanDoubleElimination(ids, true)
		if err != nil {
			b.Fatal(err)
		}
		if p, err = AdvanceBracket(p, winners); err != nil {
			b.Fatal(err)
		}
		if cols := BracketColumns(p); len(cols) < 16 {
			b.Fatalf("%d columns", len(cols))
		}
		if places := BracketPlacements(p); len(places) != 256 {
			b.Fatalf("%d placed", len(places))
		}
	}
}

// BenchmarkSwiss1024 times a 1024-player Swiss stage after 10 rounds:
// the standings (points, Buchholz, Sonneborn-Berger) and the pairing of
// the next round. The 10 rounds are paired and played once, outside the
// timer. Target: under 5 ms per op.
//
//	go test ./core -run '^$' -bench Swiss1024 -benchmem
func BenchmarkSwiss1024(b *testing.B) {
	ids := platformIDs(1024)
	entrants := make([]Entrant, len(ids))
	for i, id := range ids {
		entrants[i] = Entrant{ID: id, Seed: i + 1}
	}
	rng := rand.New(rand.NewPCG(1024, 10))
	var played []MatchOutcome
	for r := 0; r < 10; r++ {
		round, err := PairSwissRound(entrants, played)
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range round.Fixtures {
			o := MatchOutcome{P1: f.P1, P2: f.P2, Winner: f.P1}
			if rng.IntN(2) == 0 {
				o.Winner = f.P2
			}
			played = append(played, o)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		rows, err := SwissStandings(entrants, played)
		if err != nil || len(rows) != 1024 {
			b.Fatal(err)
		}
		round, err := PairSwissRound(entrants, played)
		if err != nil || len(round.Fixtures) != 512 {
			b.Fatal(err)
		}
	}
}
