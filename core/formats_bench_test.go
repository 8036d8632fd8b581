package core

import (
	"math/rand/v2"
	"testing"
)

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
