package core

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
)

// Swiss rounds pair players of equal score who have not met, round after
// round; each round is paired once every match of the one before is
// decided.
//
// Pairing is the Monrad system with backtracking: the players are ranked
// by points, then by their initial rank (seed order); the top unpaired
// player is paired with the next-ranked unpaired player they have not met
// yet, provided the players left can still all be paired without a
// rematch (otherwise the next one down, and so on). Pairs therefore stay
// within a score group whenever the group allows it, and float to the
// nearest group below only when it does not. With an odd count, the bye
// goes to the lowest-ranked player who has not had one, again provided the
// rest can be paired. The result is the first valid pairing in ranking
// order: a search that is fast when few choices are blocked, checked by
// Edmonds' maximum matching when it is not.

// DefaultSwissRounds is the number of rounds for n players unless the
// tournament sets it: ceil(log2 n), at least 1.
func DefaultSwissRounds(n int) int {
	if n <= 2 {
		return 1
	}
	return bits.Len(uint(n - 1))
}

// MaxSwissRounds is the most rounds n players can be guaranteed to be
// paired without a rematch, whatever the results: (n+1)/2. Beyond it a
// round may have no pairing of new opponents (with an even n, after r
// rounds every player still has n-1-r possible opponents, and a perfect
// pairing is certain while that is at least n/2).
func MaxSwissRounds(n int) int {
	if n < 2 {
		return 0
	}
	return (n + 1) / 2
}

// SwissRound is one round's pairing: fixtures in board order (the
// higher-ranked player's board first) and the bye, "" for none.
type SwissRound struct {
	Fixtures []Fixture `json:"fixtures"`
	Bye      string    `json:"bye,omitempty"`
}

// CodeUnpairable: no pairing of new opponents exists for the round.
const CodeUnpairable = "unpairable"

// swissField is the pairing's view of the players: ranked, with who met
// whom, who had a bye and how often each had slot 1.
type swissField struct {
	ids    []string // in ranking order
	n      int
	metBit []uint64 // n*n bits: position a met position b
	hadBye []bool
	slot1  []int
	budget int // search steps left before the matching decides
	used   []bool
}

func newSwissField(n int) *swissField {
	return &swissField{ids: make([]string, n), n: n, metBit: make([]uint64, (n*n+63)/64),
		hadBye: make([]bool, n), slot1: make([]int, n), used: make([]bool, n)}
}

// met reports whether the players at ranking positions a and b met.
func (f *swissField) met(a, b int) bool {
	i := a*f.n + b
	return f.metBit[i/64]&(1<<(i%64)) != 0
}

func (f *swissField) setMet(a, b int) {
	for _, i := range []int{a*f.n + b, b*f.n + a} {
		f.metBit[i/64] |= 1 << (i % 64)
	}
}

// PairSwissRound pairs the next round. entrants are the players in initial
// rank order (SeedOrder); played are every earlier round's outcomes, a bye
// as an outcome whose P2 is "" and whose Winner is P1. Slot 1 goes to the
// player of a pair who had it less often (the higher-ranked on a tie).
//
// It returns a too_few_entrants error for fewer than 2 players, and an
// unpairable error when no pairing without a rematch exists (never within
// MaxSwissRounds rounds).
func PairSwissRound(entrants []Entrant, played []MatchOutcome) (SwissRound, error) {
	if len(entrants) < 2 {
		return SwissRound{}, Errorf(CodeTooFewEntrants, "%d players; Swiss pairing needs 2", len(entrants))
	}
	tally, err := tallySwiss(entrants, played)
	if err != nil {
		return SwissRound{}, err
	}
	order := make([]int, len(entrants))
	for i := range order {
		order[i] = i
	}
	// Ranking: points, then initial rank (the entrants' order).
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(tally[b].points, tally[a].points) })
	f := newSwissField(len(order))
	pos := make([]int, len(order)) // entrant index -> ranking position
	for p, e := range order {
		pos[e] = p
	}
	for p, e := range order {
		f.ids[p] = entrants[e].ID
		f.hadBye[p] = tally[e].byes > 0
		f.slot1[p] = tally[e].slot1
		for _, o := range tally[e].met {
			f.setMet(p, pos[o])
		}
	}
	all := make([]int, len(order))
	for i := range all {
		all[i] = i
	}
	var round SwissRound
	if len(all)%2 == 0 {
		pairs, ok := f.pair(all)
		if !ok {
			return SwissRound{}, Errorf(CodeUnpairable, "no pairing of new opponents for %d players", len(all))
		}
		round.Fixtures = f.fixtures(pairs)
		return round, nil
	}
	// The bye: lowest-ranked first among those without one, then anyone.
	for _, second := range []bool{false, true} {
		for b := len(all) - 1; b >= 0; b-- {
			if f.hadBye[b] != second {
				continue
			}
			rest := slices.Delete(slices.Clone(all), b, b+1)
			if pairs, ok := f.pair(rest); ok {
				round.Fixtures, round.Bye = f.fixtures(pairs), f.ids[b]
				return round, nil
			}
		}
	}
	return SwissRound{}, Errorf(CodeUnpairable, "no pairing of new opponents for %d players and a bye", len(all))
}

// swissSearchSteps bounds the backtracking search of one pairing before
// the maximum matching takes over.
const swissSearchSteps = 20000

// pair pairs players (ranking positions, best first) without a rematch:
// the first valid pairing in ranking order, as [2]int pairs.
func (f *swissField) pair(players []int) ([][2]int, bool) {
	f.budget = swissSearchSteps
	for i := range f.used {
		f.used[i] = true
	}
	for _, p := range players {
		f.used[p] = false
	}
	pairs, ok, exhausted := f.search(0, make([][2]int, 0, len(players)/2))
	if !exhausted {
		return pairs, ok
	}
	// The search ran long: the matching decides.
	return f.pairByMatching(players)
}

// pairByMatching finds the same pairing as search with the maximum
// matching's help: it keeps a pairing of all players left and accepts the
// top player's first possible opponent when the pairing can be repaired
// around the pair (an augmenting path between the two partners it frees).
func (f *swissField) pairByMatching(players []int) ([][2]int, bool) {
	n := len(players)
	alive := make([]bool, n)
	for i := range alive {
		alive[i] = true
	}
	edge := func(a, b int) bool { return alive[a] && alive[b] && !f.met(players[a], players[b]) }
	mate := maximumMatching(n, edge)
	if slices.Contains(mate, -1) {
		return nil, false
	}
	s := blossomSearch{n: n, edge: edge, mate: mate, parent: make([]int, n), base: make([]int, n),
		used: make([]bool, n), blossom: make([]bool, n), queue: make([]int, 0, n)}
	var pairs [][2]int
	for top := 0; top < n; top++ {
		if !alive[top] {
			continue
		}
		for o := top + 1; o < n; o++ {
			if !edge(top, o) {
				continue
			}
			saved := slices.Clone(mate)
			alive[top], alive[o] = false, false
			if a, b := mate[top], mate[o]; a != o {
				mate[a], mate[b] = -1, -1
				if !s.augment(a) || mate[b] < 0 {
					copy(mate, saved)
					alive[top], alive[o] = true, true
					continue
				}
			}
			pairs = append(pairs, [2]int{players[top], players[o]})
			break
		}
	}
	return pairs, true
}

// search pairs the first unpaired player (from ranking position from
// on) with each possible opponent in ranking order and recurses;
// exhausted reports that it ran out of steps. f.used marks the players
// paired so far (and those not in this pairing).
func (f *swissField) search(from int, pairs [][2]int) (_ [][2]int, ok, exhausted bool) {
	top := from
	for top < f.n && f.used[top] {
		top++
	}
	if top == f.n {
		return pairs, true, false
	}
	f.used[top] = true
	for o := top + 1; o < f.n; o++ {
		if f.used[o] || f.met(top, o) {
			continue
		}
		if f.budget--; f.budget < 0 {
			f.used[top] = false
			return nil, false, true
		}
		f.used[o] = true
		got, ok, exhausted := f.search(top+1, append(pairs, [2]int{top, o}))
		f.used[o] = false
		if ok || exhausted {
			f.used[top] = ok
			return got, ok, exhausted
		}
	}
	f.used[top] = false
	return nil, false, false
}

// fixtures turns pairs into fixtures in board order, slot 1 to the player
// who had it less often (the higher-ranked on a tie).
func (f *swissField) fixtures(pairs [][2]int) []Fixture {
	slices.SortFunc(pairs, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	out := make([]Fixture, len(pairs))
	for i, p := range pairs {
		hi, lo := p[0], p[1]
		if f.slot1[lo] < f.slot1[hi] {
			hi, lo = lo, hi
		}
		out[i] = Fixture{P1: f.ids[hi], P2: f.ids[lo]}
	}
	return out
}

// swissTally is one player's record over the rounds played.
type swissTally struct {
	points, wins, losses, byes int
	slot1                      int
	scoresWon, scoresLost      int
	forfeits                   int
	met                        []int // entrant indexes of opponents paired with
	played                     []int // entrant indexes of opponents of decided matches
	beat                       []int // entrant indexes of opponents beaten
}

// tallySwiss adds up every resolved outcome per entrant; unresolved ones
// still count as a meeting (they are this round's pairings).
func tallySwiss(entrants []Entrant, played []MatchOutcome) ([]swissTally, error) {
	index := make(map[string]int, len(entrants))
	tally := make([]swissTally, len(entrants))
	// One backing array for every player's lists, room for the rounds
	// played so far (appends beyond it still work).
	room := 2*len(played)/max(len(entrants), 1) + 2
	backing := make([]int, 3*room*len(entrants))
	for i, e := range entrants {
		if _, dup := index[e.ID]; dup || e.ID == "" {
			return nil, fmt.Errorf("swiss: player %q listed twice or empty", e.ID)
		}
		index[e.ID] = i
		at := 3 * room * i
		tally[i].met = backing[at : at : at+room]
		tally[i].played = backing[at+room : at+room : at+2*room]
		tally[i].beat = backing[at+2*room : at+2*room : at+3*room]
	}
	for n, o := range played {
		p1, ok1 := index[o.P1]
		if !ok1 {
			return nil, fmt.Errorf("swiss: outcome %d names %s, who is not playing", n, o.P1)
		}
		if o.P2 == "" { // a bye
			tally[p1].byes++
			tally[p1].points++
			continue
		}
		p2, ok2 := index[o.P2]
		if !ok2 || p1 == p2 {
			return nil, fmt.Errorf("swiss: outcome %d (%s vs %s) is not between two players", n, o.P1, o.P2)
		}
		tally[p1].met = append(tally[p1].met, p2)
		tally[p2].met = append(tally[p2].met, p1)
		tally[p1].slot1++
		if !o.Resolved() {
			continue
		}
		w, l := p1, p2
		ws, ls := 0, 0
		if o.Score != nil {
			ws, ls = o.Score.P1, o.Score.P2
		}
		switch o.Winner {
		case o.P1:
		case o.P2:
			w, l, ws, ls = p2, p1, ls, ws
		default:
			return nil, fmt.Errorf("swiss: outcome %d names winner %s who did not play it", n, o.Winner)
		}
		tally[p1].played = append(tally[p1].played, p2)
		tally[p2].played = append(tally[p2].played, p1)
		tally[w].wins++
		tally[w].points++
		tally[w].beat = append(tally[w].beat, l)
		tally[l].losses++
		tally[w].scoresWon += ws
		tally[w].scoresLost += ls
		tally[l].scoresWon += ls
		tally[l].scoresLost += ws
		if o.Forfeit {
			tally[l].forfeits++
		}
	}
	return tally, nil
}

// SwissSlot names match i (1-based) of Swiss round r: "S2M5". A round's
// bye is its last "match".
func SwissSlot(r, i int) string { return "S" + strconv.Itoa(r) + "M" + strconv.Itoa(i) }
