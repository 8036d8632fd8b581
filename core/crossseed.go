package core

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
)

// CrossSeed turns group-stage results into the bracket seed list PlanBracket
// takes (element i is bracket seed i+1). groups holds each group's player
// ids best first (its standings order), in group order A, B, ...; the top
// advancePerGroup of each advance (a smaller group sends everyone it has).
//
// Seeds go by finishing rank first: every group winner seeds above every
// runner-up, who seed above every third, and so on. Group winners seed in
// group order (A1 is seed 1, B1 seed 2, ...). Each later rank's block of
// seeds is shared out so that group-mates meet as late as possible. A seed
// is worth, to a player, the rounds in which its bracket position would
// meet their already-placed group-mates, compared earliest meeting first.
// Taking the groups in order, each player takes the free seed worth most
// (the better seed on a tie); then two players swap seeds whenever that
// makes the earliest of their meetings later, until no swap does.
//
// With 2 groups and 2 advancing this gives A1-B2 and B1-A2 in opposite
// halves. With 2 advancing from any number of groups every runner-up lands
// in the other half from their group's winner, so group-mates can meet only
// in the final (checked for 1 to 128 groups). With 3 or more advancing the
// spread is best effort, not a proven optimum: for up to 32 groups and 4
// advancing, group-mates never meet in the first round and usually not
// before the semifinals.
//
// It returns an invalid_field error for advancePerGroup below 1 and a
// too_few_entrants error when fewer than 2 players advance.
func CrossSeed(groups [][]string, advancePerGroup int) ([]string, error) {
	if advancePerGroup < 1 {
		return nil, FieldError(CodeInvalidField, "advancePerGroup")
	}
	var tiers [][]int // tiers[r] lists the groups with an (r+1)-th player
	n := 0
	for r := 0; r < advancePerGroup; r++ {
		var tier []int
		for g, standings := range groups {
			if len(standings) > r {
				tier = append(tier, g)
			}
		}
		if len(tier) == 0 {
			break
		}
		tiers = append(tiers, tier)
		n += len(tier)
	}
	if n < 2 {
		return nil, &Error{Code: CodeTooFewEntrants, Field: "advancePerGroup",
			Message: fmt.Sprintf("%d players advance; a bracket needs 2", n)}
	}
	position := seedPositions(bracketSize(n))
	placed := make([][]int, len(groups)) // bracket positions taken per group
	seeds := make([]string, 0, n)
	for r, tier := range tiers {
		first := len(seeds) + 1 // the best seed of this rank's block
		meet := meetTable{size: len(tier), depth: r, rounds: make([]int, len(tier)*len(tier)*r)}
		for k, g := range tier {
			for i := range tier {
				meetingRounds(meet.at(k, i), position[first+i], placed[g])
			}
		}
		at := spreadBlock(meet)
		block := make([]string, len(tier))
		for k, g := range tier {
			block[at[k]] = groups[g][r]
			placed[g] = append(placed[g], position[first+at[k]])
		}
		seeds = append(seeds, block...)
	}
	return seeds, nil
}

// meetTable holds, for each player k of a block and each seed i of it,
// at(k, i): the rounds in which k's player at that seed would meet their
// already-placed group-mates, earliest first.
type meetTable struct {
	size, depth int // players (and seeds) in the block; group-mates placed
	rounds      []int
}

func (t meetTable) at(k, i int) []int {
	start := (k*t.size + i) * t.depth
	return t.rounds[start : start+t.depth : start+t.depth]
}

// spreadBlock gives each of a block's players one of its seeds: at[k] is
// player k's. Taking players in order, each gets the free seed with the
// latest meetings (compared earliest first), the best seed on a tie. Then
// pairs of players swap seeds while that makes their earliest meetings
// later, until no swap helps; each swap improves the block as a whole, so
// this ends.
func spreadBlock(meet meetTable) []int {
	at := make([]int, meet.size)
	taken := make([]bool, meet.size)
	for k := range at {
		best := -1
		for i := range taken {
			if !taken[i] && (best < 0 || slices.Compare(meet.at(k, i), meet.at(k, best)) > 0) {
				best = i
			}
		}
		at[k], taken[best] = best, true
	}
	for swapped := true; swapped; {
		swapped = false
		for a := range at {
			for b := a + 1; b < len(at); b++ {
				if compareUnion(meet.at(a, at[b]), meet.at(b, at[a]), meet.at(a, at[a]), meet.at(b, at[b])) > 0 {
					at[a], at[b] = at[b], at[a]
					swapped = true
				}
			}
		}
	}
	return at
}

// compareUnion compares the ascending merge of a1 and a2 with that of b1
// and b2, element by element (slices.Compare without building either).
// The four lists are ascending and the two unions equally long.
func compareUnion(a1, a2, b1, b2 []int) int {
	for len(a1)+len(a2) > 0 {
		var a, b int
		a, a1, a2 = popLowest(a1, a2)
		b, b1, b2 = popLowest(b1, b2)
		if a != b {
			return cmp.Compare(a, b)
		}
	}
	return 0
}

func popLowest(x, y []int) (int, []int, []int) {
	if len(y) == 0 || len(x) > 0 && x[0] <= y[0] {
		return x[0], x[1:], y
	}
	return y[0], x, y[1:]
}

// meetingRounds fills buf (len(others) long) with the rounds in which
// bracket position pos would first meet each of others (1 is the first
// round), ascending.
func meetingRounds(buf []int, pos int, others []int) {
	for i, o := range others {
		buf[i] = bits.Len(uint(pos ^ o))
	}
	slices.Sort(buf)
}
