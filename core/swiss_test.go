package core

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// perfectPairing reports whether players can all be paired with someone
// they have not met (Edmonds' matching: independent of the pairing's
// search).
func perfectPairing(players []string, met map[[2]string]bool) bool {
	return perfectMatching(len(players), func(a, b int) bool { return !met[meeting(players[a], players[b])] })
}

// perfectMatching reports whether every vertex can be matched.
func perfectMatching(n int, edge func(a, b int) bool) bool {
	if n%2 == 1 {
		return false
	}
	return !slices.Contains(maximumMatching(n, edge), -1)
}

func meeting(a, b string) [2]string { return [2]string{min(a, b), max(a, b)} }

// TestSwissPairing plays Swiss tournaments of 5 to 128 players over 3 to
// 9 rounds (as many as MaxSwissRounds allows), the stronger seed winning
// two times in three, and checks every round's pairing: nobody is paired
// twice or with a former opponent; byes rotate (nobody has a second bye)
// and go to the lowest-ranked player without one unless the others could
// then not all be paired; and score groups are respected: going down the
// ranking (points, then seed), each player is paired with the first
// player below them they have not met (their own score group first)
// unless that would leave the rest unpairable, which the matching
// confirms.
func TestSwissPairing(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 128))
	for n := 5; n <= 128; n++ {
		for rounds := 3; rounds <= 9 && rounds <= MaxSwissRounds(n); rounds++ {
			if n > 24 && rounds%3 != 0 && rounds != 9 { // keep the run short: 3, 6, 9 rounds beyond 24 players
				continue
			}
			playSwiss(t, n, rounds, rng)
		}
	}
}

func playSwiss(t *testing.T, n, rounds int, rng *rand.Rand) {
	t.Helper()
	name := fmt.Sprintf("%d players, %d rounds", n, rounds)
	ids := platformIDs(n)
	entrants := make([]Entrant, n)
	seed := map[string]int{}
	for i, id := range ids {
		entrants[i] = Entrant{ID: id, Seed: i + 1}
		seed[id] = i + 1
	}
	var played []MatchOutcome
	points := map[string]int{}
	byes := map[string]int{}
	met := map[[2]string]bool{}
	for r := 1; r <= rounds; r++ {
		round, err := PairSwissRound(entrants, played)
		require.NoError(t, err, "%s: round %d", name, r)
		ranking := slices.Clone(ids)
		slices.SortStableFunc(ranking, func(a, b string) int { return cmp.Compare(points[b], points[a]) })
		partner := map[string]string{}
		for _, f := range round.Fixtures {
			for _, id := range []string{f.P1, f.P2} {
				_, twice := partner[id]
				require.False(t, twice, "%s: round %d pairs %s twice", name, r, id)
			}
			partner[f.P1], partner[f.P2] = f.P2, f.P1
			require.False(t, met[meeting(f.P1, f.P2)], "%s: round %d repeats %s vs %s", name, r, f.P1, f.P2)
		}
		unpaired := slices.DeleteFunc(slices.Clone(ranking), func(id string) bool { return id == round.Bye })
		require.Len(t, partner, len(unpaired), "%s: round %d pairs everyone but the bye", name, r)
		if n%2 == 1 {
			require.NotEmpty(t, round.Bye, name)
			require.Zero(t, byes[round.Bye], "%s: round %d gives %s a second bye", name, r, round.Bye)
			below := ranking[slices.Index(ranking, round.Bye)+1:]
			for _, x := range below {
				if byes[x] == 0 {
					rest := slices.DeleteFunc(slices.Clone(ranking), func(id string) bool { return id == x })
					require.False(t, perfectPairing(rest, met), "%s: round %d: the bye could have gone to %s", name, r, x)
				}
			}
		} else {
			require.Empty(t, round.Bye, name)
		}
		// Down the ranking: each top unpaired player's partner is the first
		// possible one.
		for len(unpaired) > 0 {
			top, rest := unpaired[0], unpaired[1:]
			for _, c := range rest {
				if c == partner[top] {
					break
				}
				if met[meeting(top, c)] {
					continue
				}
				left := slices.DeleteFunc(slices.Clone(rest), func(id string) bool { return id == c })
				require.False(t, perfectPairing(left, met), "%s: round %d pairs %s (%d pts) with %s (%d pts), passing over %s (%d pts)",
					name, r, top, points[top], partner[top], points[partner[top]], c, points[c])
			}
			unpaired = slices.DeleteFunc(rest, func(id string) bool { return id == partner[top] })
		}
		// Play the round.
		for _, f := range round.Fixtures {
			met[meeting(f.P1, f.P2)] = true
			strong, weak := f.P1, f.P2
			if seed[weak] < seed[strong] {
				strong, weak = weak, strong
			}
			winner := strong
			if rng.IntN(3) == 0 {
				winner = weak
			}
			points[winner]++
			played = append(played, MatchOutcome{P1: f.P1, P2: f.P2, Winner: winner})
		}
		if round.Bye != "" {
			byes[round.Bye]++
			points[round.Bye]++
			played = append(played, MatchOutcome{P1: round.Bye, Winner: round.Bye})
		}
	}
}

func TestSwissRoundsLimits(t *testing.T) {
	for n, want := range map[int][2]int{2: {1, 1}, 3: {2, 2}, 4: {2, 2}, 5: {3, 3}, 8: {3, 4}, 9: {4, 5}, 16: {4, 8}, 17: {5, 9}, 1024: {10, 512}} {
		assert.Equal(t, want, [2]int{DefaultSwissRounds(n), MaxSwissRounds(n)}, "%d players", n)
	}
}

// TestSwissPairingUnpairable: four players after three rounds have met
// everyone; the fourth round has no pairing of new opponents.
func TestSwissPairingUnpairable(t *testing.T) {
	ids := platformIDs(4)
	entrants := []Entrant{{ID: ids[0]}, {ID: ids[1]}, {ID: ids[2]}, {ID: ids[3]}}
	var played []MatchOutcome
	for _, round := range RoundRobin(ids) {
		for _, f := range round {
			played = append(played, MatchOutcome{P1: f.P1, P2: f.P2, Winner: f.P1})
		}
	}
	_, err := PairSwissRound(entrants, played)
	assert.Equal(t, CodeUnpairable, ErrorCode(err))
	_, err = PairSwissRound(entrants[:1], nil)
	assert.Equal(t, CodeTooFewEntrants, ErrorCode(err))
}

// TestSwissPairingFirstRound: Monrad order, 1-2 and 3-4, the bye to the
// last seed; then the round's winners meet.
func TestSwissPairingFirstRound(t *testing.T) {
	ids := platformIDs(5)
	var entrants []Entrant
	for _, id := range ids {
		entrants = append(entrants, Entrant{ID: id})
	}
	round, err := PairSwissRound(entrants, nil)
	require.NoError(t, err)
	assert.Equal(t, SwissRound{Fixtures: []Fixture{{ids[0], ids[1]}, {ids[2], ids[3]}}, Bye: ids[4]}, round)
	// Round 2: the winners 1 and 3 meet; 5 (bye, 1 point) meets 2, the
	// best of the losers; slot 1 to whoever had it less.
	played := []MatchOutcome{{P1: ids[0], P2: ids[1], Winner: ids[0]}, {P1: ids[2], P2: ids[3], Winner: ids[2]}, {P1: ids[4], Winner: ids[4]}}
	round, err = PairSwissRound(entrants, played)
	require.NoError(t, err)
	assert.Equal(t, SwissRound{Fixtures: []Fixture{{ids[0], ids[2]}, {ids[4], ids[1]}}, Bye: ids[3]}, round)
}

// TestSwissPairingMatchingFallback: a search cut short by its step budget
// gives the same pairing as the full search (the matching takes over).
func TestSwissPairingMatchingFallback(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for trial := 0; trial < 30; trial++ {
		n := 6 + 2*rng.IntN(8)
		f := newSwissField(n)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if rng.IntN(3) == 0 {
					f.setMet(i, j)
				}
			}
		}
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		f.budget = 1 << 30
		want, ok, _ := f.search(0, nil)
		got, gotOK := f.pairByMatching(all)
		require.Equal(t, ok, gotOK, "trial %d", trial)
		if ok {
			assert.Equal(t, want, got, "trial %d", trial)
		}
	}
}

// TestSwissStandings: points, then Buchholz, then Sonneborn-Berger, then
// the initial rank; a bye is a point that adds to neither tie-break.
func TestSwissStandings(t *testing.T) {
	a, b, c, d, e := "a", "b", "c", "d", "e"
	entrants := []Entrant{{ID: a}, {ID: b}, {ID: c}, {ID: d}, {ID: e}}
	outcomes := []MatchOutcome{
		{P1: a, P2: b, Winner: a, Score: &OutcomeScore{P1: 3, P2: 1}}, {P1: c, P2: d, Winner: d}, {P1: e, Winner: e},
		{P1: a, P2: d, Winner: d}, {P1: e, P2: b, Winner: e}, {P1: c, Winner: c},
		{P1: d, P2: e}, // unresolved: skipped
	}
	rows, err := SwissStandings(entrants, outcomes)
	require.NoError(t, err)
	got := make([]string, len(rows))
	for i, r := range rows {
		got[i] = fmt.Sprintf("%d %s %d pts bh %d sb %d %s", r.Rank, r.PlayerID, r.Points, r.Buchholz, r.SonnebornBerger, r.SeparatedBy)
	}
	// Points: a 1, b 0, c 1 (bye), d 2, e 2 (bye + win over b).
	// Buchholz: a (b 0 + d 2) 2; b (a 1 + e 2) 3; c (d 2) 2; d (c 1 + a 1) 2; e (b 0) 0.
	// Sonneborn-Berger: a (b) 0; c 0; d (c 1 + a 1) 2; e (b) 0.
	assert.Equal(t, []string{
		"1 d 2 pts bh 2 sb 2 buchholz",
		"2 e 2 pts bh 0 sb 0 points",
		"3 a 1 pts bh 2 sb 0 seed",
		"4 c 1 pts bh 2 sb 0 points",
		"5 b 0 pts bh 3 sb 0 ",
	}, got)
	assert.Equal(t, SwissRow{Rank: 3, PlayerID: a, Played: 2, Wins: 1, Losses: 1, ScoreDiff: 2, Points: 1, Buchholz: 2, SeparatedBy: TiebreakSeed}, rows[2])
	_, err = SwissStandings(entrants, []MatchOutcome{{P1: a, P2: "x", Winner: a}})
	assert.Error(t, err)
}
