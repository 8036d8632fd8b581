package store_test

import (
	"context"
	"crypto/rand"
	"fmt"
	mrand "math/rand/v2"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
)

// The bracket's seating rules live in the decision batch's SQL
// (queries/decided.sql: seat_winner, seat_loser, insert_grand_final_reset):
// these tests decide matches through the store and read the bracket back
// as it is stored (core.StoredBracket), the way the tournament's pages and
// its completion read it.

// localArena is an arena store over a fresh local file, for the tests
// that play many brackets.
func localArena(t testing.TB) *store.Arena {
	t.Helper()
	return openArenaStore(t, func() *store.DB {
		return MustOpenDB(t, "file:"+filepath.Join(t.TempDir(), "test.db"))
	})
}

// sp is seed n's player: the tables below name players "s<seed>", as the
// bracket's seeds, and startedTournament registers pid(n) as seed n.
func sp(name string) string {
	n, err := strconv.Atoi(name[1:])
	if err != nil {
		panic(name)
	}
	return pid(n)
}

// bracketOf starts a bracket tournament of n players (seed i is pid(i))
// and has the admin decide, through the store, every match winners names
// ("s<seed>" by slot) as soon as both its sides are seated.
func bracketOf(t *testing.T, s *store.Arena, slug string, format core.TournamentFormat, n int, set func(*core.Tournament), winners map[string]string) *core.Tournament {
	t.Helper()
	tour := startedTournament(t, s, slug, format, n, set)
	decideSlots(t, s, tour, winners)
	return tour
}

// decideSlots has the admin decide every match winners names ("s<seed>"
// by slot) as soon as both its sides are seated.
func decideSlots(t *testing.T, s *store.Arena, tour *core.Tournament, winners map[string]string) {
	t.Helper()
	at := playoffsAt
	playAll(t, s, s, tour, &at, func(m *core.Match) string {
		if w, ok := winners[m.BracketSlot]; ok {
			return sp(w)
		}
		return ""
	})
}

// storedBracket is the tournament's bracket as stored, each seat with its
// player's seed (what BracketPlacements orders shared places by).
func storedBracket(t *testing.T, s *store.Arena, tour *core.Tournament) core.BracketPlan {
	t.Helper()
	ctx := context.Background()
	matches, err := s.Matches(ctx, tour.ID)
	require.NoError(t, err)
	regs, err := s.Registrations(ctx, tour.ID)
	require.NoError(t, err)
	seeds := map[string]int{}
	for _, r := range regs {
		seeds[r.PlatformID] = r.Seed
	}
	plan := core.StoredBracket(matches)
	for i := range plan.Matches {
		m := &plan.Matches[i]
		m.P1.Seed, m.P2.Seed = seeds[m.P1.PlayerID], seeds[m.P2.PlayerID]
	}
	return plan
}

// seatsAt returns the players in slot's two seats.
func seatsAt(t *testing.T, plan core.BracketPlan, slot string) [2]string {
	t.Helper()
	m, ok := plan.MatchAt(slot)
	require.True(t, ok, slot)
	return [2]string{m.P1.PlayerID, m.P2.PlayerID}
}

// TestBracketSeating: 6 entrants in a bracket of 8 with a small final:
// seeds 1 and 2 have byes (QF1 1-BYE, QF2 4-5, QF3 2-BYE, QF4 3-6).
func TestBracketSeating(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		s := openArenaStore(t, open)
		ctx := context.Background()
		smallFinal := func(t *core.Tournament) { t.SmallFinal = true }
		t.Run("WinnersFillTheNextRound", func(t *testing.T) {
			tour := bracketOf(t, s, "fill", core.FormatPlayoffsOnly, 6, smallFinal, map[string]string{"QF2": "s5", "QF4": "s3"})
			plan := storedBracket(t, s, tour)
			assert.Equal(t, [2]string{sp("s1"), sp("s5")}, seatsAt(t, plan, "SF1"))
			assert.Equal(t, [2]string{sp("s2"), sp("s3")}, seatsAt(t, plan, "SF2"))
			sf1, _ := plan.MatchAt("SF1")
			assert.Equal(t, 5, sf1.P2.Seed, "the seat holds seed 5's player")
			assert.Empty(t, sf1.Winner)
		})
		t.Run("SemifinalLosersGoToTheSmallFinal", func(t *testing.T) {
			tour := bracketOf(t, s, "small", core.FormatPlayoffsOnly, 6, smallFinal,
				map[string]string{"QF2": "s5", "QF4": "s3", "SF1": "s5", "SF2": "s2", "FINAL": "s2", "SMALL_FINAL": "s1"})
			plan := storedBracket(t, s, tour)
			assert.Equal(t, [2]string{sp("s5"), sp("s2")}, seatsAt(t, plan, core.BracketSlotFinal))
			assert.Equal(t, [2]string{sp("s1"), sp("s3")}, seatsAt(t, plan, core.BracketSlotSmallFinal))
			final, _ := plan.MatchAt(core.BracketSlotFinal)
			assert.Equal(t, sp("s2"), final.Winner)
		})
		t.Run("ADecidedResultStays", func(t *testing.T) {
			// A decision is final: deciding the match again for the other
			// side is refused and moves nobody.
			tour := bracketOf(t, s, "stays", core.FormatPlayoffsOnly, 6, smallFinal, map[string]string{"QF2": "s5"})
			before := storedBracket(t, s, tour)
			qf2 := matchInSlot(t, s, tour, "QF2")
			_, err := core.ResolveMatch(ctx, s, tour, qf2, core.Resolution{Winner: sp("s4"), Source: core.SourceAdmin, At: playoffsAt.Add(time.Hour)},
				core.Deps{Random: rand.Reader, Points: core.DefaultPlacementPoints})
			assert.Equal(t, core.CodeAlreadyResolved, core.ErrorCode(err))
			after := storedBracket(t, s, tour)
			assert.Equal(t, [2]string{sp("s1"), sp("s5")}, seatsAt(t, after, "SF1"))
			assert.Equal(t, before, after, "the same winners, the same bracket")
		})
		t.Run("TheDrawnPlanUntouched", func(t *testing.T) {
			plan, err := core.PlanBracket([]string{sp("s1"), sp("s2"), sp("s3"), sp("s4"), sp("s5"), sp("s6")}, true)
			require.NoError(t, err)
			bracketOf(t, s, "drawn", core.FormatPlayoffsOnly, 6, smallFinal, map[string]string{"QF2": "s4"})
			assert.Equal(t, [2]string{sp("s1"), ""}, seatsAt(t, plan, "SF1"))
		})
	})
}

// TestBracketSeatingRefused: a decision the bracket does not allow is
// refused and seats nobody.
func TestBracketSeatingRefused(t *testing.T) {
	s := localArena(t)
	ctx := context.Background()
	tour := startedTournament(t, s, "refused", core.FormatPlayoffsOnly, 6, func(t *core.Tournament) { t.SmallFinal = true })
	before := storedBracket(t, s, tour)
	_, ok := before.MatchAt("QF9")
	assert.False(t, ok, "UnknownSlot: no match to decide")
	tests := []struct {
		name, slot, winner, code string
	}{
		{"WinnerDidNotPlay", "QF2", "s3", core.CodeInvalidWinner},
		{"PlayersNotKnownYet", "SF1", "s1", core.CodeInvalidWinner},
		{"ByeWonBySomeoneElse", "QF1", "s4", core.CodeAlreadyResolved},
		{"ByeWinnerRestated", "QF1", "s1", core.CodeAlreadyResolved},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := matchInSlot(t, s, tour, tt.slot)
			_, err := core.ResolveMatch(ctx, s, tour, m, core.Resolution{Winner: sp(tt.winner), Source: core.SourceAdmin, At: playoffsAt.Add(time.Minute)},
				core.Deps{Random: rand.Reader, Points: core.DefaultPlacementPoints})
			require.Error(t, err)
			assert.Equal(t, tt.code, core.ErrorCode(err))
			assert.Equal(t, before, storedBracket(t, s, tour))
		})
	}
	qf1, _ := before.MatchAt("QF1")
	assert.True(t, qf1.Bye)
	assert.Equal(t, sp("s1"), qf1.Winner, "the bye is its player's when drawn")
}

// TestBracketBetterSeedsReachTheFinal: for every bracket of 2 to 64
// entrants, when the better seed always wins, seeds 1 and 2 reach the
// final (and 3 and 4 the small final).
func TestBracketBetterSeedsReachTheFinal(t *testing.T) {
	s := localArena(t)
	for n := 2; n <= 64; n++ {
		t.Run(fmt.Sprintf("%02d", n), func(t *testing.T) {
			tour := startedTournament(t, s, fmt.Sprintf("seeds-%d", n), core.FormatPlayoffsOnly, n, func(t *core.Tournament) { t.SmallFinal = true })
			at := playoffsAt
			playAll(t, s, s, tour, &at, func(m *core.Match) string { return min(m.P1, m.P2) }) // pid(i) sorts by seed
			done := storedBracket(t, s, tour)
			final, _ := done.MatchAt(core.BracketSlotFinal)
			assert.Equal(t, [2]int{1, 2}, [2]int{final.P1.Seed, final.P2.Seed})
			if n >= 4 {
				small, _ := done.MatchAt(core.BracketSlotSmallFinal)
				assert.Equal(t, [2]int{4, 3}, [2]int{small.P1.Seed, small.P2.Seed})
			}
		})
	}
}

func TestBracketPlacements(t *testing.T) {
	// QF1 1-8, QF2 4-5, QF3 2-7, QF4 3-6; upsets in QF2 and SF2.
	allPlayed := map[string]string{
		"QF1": "s1", "QF2": "s5", "QF3": "s2", "QF4": "s3",
		"SF1": "s1", "SF2": "s3", "FINAL": "s3",
	}
	type placement struct {
		player string
		place  int
	}
	tests := []struct {
		name       string
		entrants   int
		smallFinal bool
		winners    map[string]string
		want       []placement
	}{
		{
			name: "SmallFinalDecidesThirdAndFourth", entrants: 8, smallFinal: true,
			winners: merge(allPlayed, map[string]string{"SMALL_FINAL": "s2"}),
			want: []placement{
				{"s3", 1}, {"s1", 2}, {"s2", 3}, {"s5", 4},
				{"s4", 5}, {"s6", 5}, {"s7", 5}, {"s8", 5},
			},
		},
		{
			name: "SemifinalLosersShareThird", entrants: 8, smallFinal: false, winners: allPlayed,
			want: []placement{
				{"s3", 1}, {"s1", 2}, {"s2", 3}, {"s5", 3},
				{"s4", 5}, {"s6", 5}, {"s7", 5}, {"s8", 5},
			},
		},
		{
			name: "SmallFinalNotYetPlayed", entrants: 8, smallFinal: true, winners: allPlayed,
			want: []placement{
				{"s3", 1}, {"s1", 2},
				{"s4", 5}, {"s6", 5}, {"s7", 5}, {"s8", 5},
			},
		},
		{
			name: "ByesEliminateNobody", entrants: 6, smallFinal: true,
			winners: map[string]string{"QF2": "s4", "QF4": "s6"},
			want:    []placement{{"s3", 5}, {"s5", 5}},
		},
		{
			name: "RoundOf16LosersNinth", entrants: 9, smallFinal: false,
			winners: map[string]string{"R1M2": "s9"},
			want:    []placement{{"s8", 9}},
		},
	}
	s := localArena(t)
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tour := bracketOf(t, s, fmt.Sprintf("places-%d", i), core.FormatPlayoffsOnly, tt.entrants,
				func(t *core.Tournament) { t.SmallFinal = tt.smallFinal }, tt.winners)
			want := make([]core.Placement, len(tt.want))
			for i, p := range tt.want {
				want[i] = core.Placement{PlayerID: sp(p.player), Place: p.place}
			}
			assert.Equal(t, want, core.BracketPlacements(storedBracket(t, s, tour)))
		})
	}
}

func merge(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// forcedRematchRound is the first losers' round in which a double
// elimination's bracket of a size must let two former opponents meet
// again (core's TestDoubleEliminationRematchesAsLateAsPossible pins it
// for the drawn brackets).
var forcedRematchRound = map[int]int{2: 2, 4: 2, 8: 3, 16: 4, 32: 5, 64: 7, 128: 8, 256: 9}

// TestDoubleEliminationPlaysOut plays double eliminations of 2 to 64
// entrants (and some larger) through the store with random results, with
// and without a reset: every playable match is decided until none is
// left. Then every entrant has played until two losses (the champion
// excepted, and without a reset the runner-up who lost the one grand
// final), nobody played on after being eliminated or was placed twice,
// the places are consistent (place p means p-1 players finished ahead)
// with the grand final deciding 1 and 2 and the losers' final 3, and no
// two players met twice before the losers' round where a rematch is
// forced.
func TestDoubleEliminationPlaysOut(t *testing.T) {
	sizes := []int{}
	for n := 2; n <= 64; n++ {
		sizes = append(sizes, n)
	}
	sizes = append(sizes, 97, 256)
	if testing.Short() {
		sizes = []int{2, 3, 7, 16, 33}
	}
	s := localArena(t)
	for _, n := range sizes {
		for _, reset := range []bool{true, false} {
			playDoubleElimination(t, s, n, reset, mrand.New(mrand.NewPCG(13, uint64(n))))
		}
	}
}

func playDoubleElimination(t *testing.T, s *store.Arena, n int, reset bool, rng *mrand.Rand) {
	t.Helper()
	name := fmt.Sprintf("%d entrants, reset %v", n, reset)
	tour := startedTournament(t, s, fmt.Sprintf("de-%d-%v", n, reset), core.FormatDoubleElimination, n,
		func(t *core.Tournament) { t.GrandFinalReset = reset })
	losses := map[string]int{}
	met := map[[2]string]bool{}
	size := storedBracket(t, s, tour).Size
	forced := forcedRematchRound[size]
	require.NotZero(t, forced, "%s: bracket of %d", name, size)
	at := playoffsAt
	playAll(t, s, s, tour, &at, func(m *core.Match) string {
		p1, p2 := m.P1, m.P2
		require.Less(t, losses[p1], 2, "%s: %s plays %s after two losses", name, p1, m.BracketSlot)
		require.Less(t, losses[p2], 2, "%s: %s plays %s after two losses", name, p2, m.BracketSlot)
		pair := [2]string{min(p1, p2), max(p1, p2)}
		if section, r, _, _ := core.ParseBracketSlot(m.BracketSlot); met[pair] && section == core.BracketSectionLosers {
			require.GreaterOrEqual(t, r, forced, "%s: %s is a rematch before it is forced", name, m.BracketSlot)
		}
		met[pair] = true
		winner, loser := p1, p2
		if rng.IntN(2) == 1 {
			winner, loser = p2, p1
		}
		losses[loser]++
		return winner
	})
	plan := storedBracket(t, s, tour)
	for _, m := range plan.Matches {
		require.True(t, m.Winner != "", "%s: %s never played", name, m.BracketSlot)
	}
	places := core.BracketPlacements(plan)
	require.Len(t, places, n, "%s: everyone is placed once", name)
	at2 := map[string]int{}
	count := map[int]int{}
	for _, p := range places {
		_, twice := at2[p.PlayerID]
		require.False(t, twice, "%s: %s placed twice", name, p.PlayerID)
		at2[p.PlayerID] = p.Place
		count[p.Place]++
	}
	for _, p := range places {
		ahead := 0
		for q, c := range count {
			if q < p.Place {
				ahead += c
			}
		}
		require.Equal(t, p.Place-1, ahead, "%s: place %d of %s", name, p.Place, p.PlayerID)
	}
	champion, runnerUp := places[0].PlayerID, places[1].PlayerID
	require.Equal(t, 1, at2[champion])
	require.Equal(t, 2, at2[runnerUp])
	for i := 1; i <= n; i++ {
		id := pid(i)
		switch {
		case id == champion:
			require.LessOrEqual(t, losses[id], 1, "%s: the champion", name)
		case id == runnerUp && !reset:
			require.GreaterOrEqual(t, losses[id], 1, "%s: the runner-up", name)
		default:
			require.Equal(t, 2, losses[id], "%s: %s is out after two losses", name, id)
		}
	}
	if n >= 3 {
		lf, ok := plan.MatchAt(fmt.Sprintf("L%dM1", 2*plan.Rounds-2))
		require.True(t, ok, name)
		lost := lf.P1
		if lf.Winner == lf.P1.PlayerID {
			lost = lf.P2
		}
		require.Equal(t, 3, at2[lost.PlayerID], "%s: the losers' final decides 3rd", name)
	}
}

// BenchmarkDoubleElimination256 times a 256-player double elimination's
// bracket and standings once every match is played: planning it, reading
// the stored results back (StoredBracket: the decisions seated them), its
// display columns and everyone's place. The matches are played through
// the store once, outside the timer. Target: under 5 ms per op.
//
//	go test ./sql -run '^$' -bench DoubleElimination256 -benchmem
func BenchmarkDoubleElimination256(b *testing.B) {
	s := localArena(b)
	tour := startedTournament(b, s, "de-256", core.FormatDoubleElimination, 256, func(t *core.Tournament) { t.GrandFinalReset = true })
	rng := mrand.New(mrand.NewPCG(256, 2))
	at := playoffsAt
	playAll(b, s, s, tour, &at, func(m *core.Match) string {
		if rng.IntN(3) == 0 {
			return m.P2
		}
		return m.P1
	})
	matches, err := s.Matches(context.Background(), tour.ID)
	require.NoError(b, err)
	ids := make([]string, 256)
	for i := range ids {
		ids[i] = pid(i + 1)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := core.PlanDoubleElimination(ids, true); err != nil {
			b.Fatal(err)
		}
		p := core.StoredBracket(matches)
		if cols := core.BracketColumns(p); len(cols) < 16 {
			b.Fatalf("%d columns", len(cols))
		}
		if places := core.BracketPlacements(p); len(places) != 256 {
			b.Fatalf("%d placed", len(places))
		}
	}
}
