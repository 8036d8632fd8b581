package core

import (
	"cmp"
	"hash/fnv"
	"slices"
)

// Tiebreak names a standings criterion (see Standings for the order).
type Tiebreak string

// The standings criteria, in the order they are applied.
const (
	TiebreakPoints              Tiebreak = "points"
	TiebreakHeadToHeadPoints    Tiebreak = "head_to_head_points"
	TiebreakHeadToHeadScoreDiff Tiebreak = "head_to_head_score_diff"
	TiebreakScoreDiff           Tiebreak = "score_diff"
	TiebreakScoresWon           Tiebreak = "scores_won"
	TiebreakForfeits            Tiebreak = "forfeits"
	TiebreakSeed                Tiebreak = "seed"
	TiebreakDraw                Tiebreak = "draw"
)

// DrawKey is a player's lot in the final, random-looking but reproducible
// tie-break: the 64-bit FNV-1a hash of the tournament id, one zero byte and
// the player id. The lower key ranks higher. The same tournament always
// draws the same way; another tournament id draws independently.
func DrawKey(tournamentID, playerID string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(tournamentID))
	h.Write([]byte{0})
	h.Write([]byte(playerID))
	return h.Sum64()
}

// breakTie orders players level on every criterion applied so far, starting
// from head-to-head points.
func (t *groupTally) breakTie(tied []int) ([]int, []Tiebreak) {
	points, diff := t.headToHead(tied)
	for _, c := range []struct {
		name  Tiebreak
		value []int
	}{{TiebreakHeadToHeadPoints, points}, {TiebreakHeadToHeadScoreDiff, diff}} {
		sorted := slices.Clone(tied)
		slices.SortStableFunc(sorted, func(a, b int) int { return cmp.Compare(c.value[b], c.value[a]) })
		if c.value[sorted[0]] != c.value[sorted[len(sorted)-1]] {
			// Each smaller tied subset starts over from (b) among itself.
			return splitRuns(sorted, c.name, func(p int) int { return c.value[p] }, t.breakTie)
		}
	}
	return t.breakOverall(tied)
}

// headToHead returns, indexed by player, the points and score difference
// earned in matches among the players of set only.
func (t *groupTally) headToHead(set []int) (points, diff []int) {
	in := make([]bool, len(t.players))
	for _, p := range set {
		in[p] = true
	}
	points = make([]int, len(t.players))
	diff = make([]int, len(t.players))
	for _, m := range t.matches {
		if !in[m.winner] || !in[m.loser] {
			continue
		}
		points[m.winner] += PointsForWin
		points[m.loser] += PointsForLoss
		d := m.winnerScore - m.loserScore
		diff[m.winner] += d
		diff[m.loser] -= d
	}
	return points, diff
}

// overallCriteria are (d) to (h): each compares two players, negative when
// a ranks above b.
var overallCriteria = []struct {
	name    Tiebreak
	compare func(a, b *playerTally) int
}{
	{TiebreakScoreDiff, func(a, b *playerTally) int {
		return cmp.Compare(b.scoresWon-b.scoresLost, a.scoresWon-a.scoresLost)
	}},
	{TiebreakScoresWon, func(a, b *playerTally) int { return cmp.Compare(b.scoresWon, a.scoresWon) }},
	{TiebreakForfeits, func(a, b *playerTally) int { return cmp.Compare(a.forfeits, b.forfeits) }},
	{TiebreakSeed, func(a, b *playerTally) int { return cmp.Compare(a.seedRank, b.seedRank) }},
	{TiebreakDraw, func(a, b *playerTally) int {
		// Ids only matter if two keys collide, which keeps the order total.
		return cmp.Or(cmp.Compare(a.drawKey, b.drawKey), cmp.Compare(a.id, b.id))
	}},
}

// breakOverall orders a tie that head-to-head could not split by (d) to (h).
func (t *groupTally) breakOverall(tied []int) ([]int, []Tiebreak) {
	compare := func(a, b int) (int, Tiebreak) {
		for _, c := range overallCriteria {
			if r := c.compare(&t.players[a], &t.players[b]); r != 0 {
				return r, c.name
			}
		}
		return 0, TiebreakDraw
	}
	order := slices.Clone(tied)
	slices.SortFunc(order, func(a, b int) int { r, _ := compare(a, b); return r })
	seps := make([]Tiebreak, len(order)-1)
	for i := range seps {
		_, seps[i] = compare(order[i], order[i+1])
	}
	return order, seps
}
