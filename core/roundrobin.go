package core

// Fixture is one scheduled pairing: P1 takes slot 1, P2 slot 2.
type Fixture struct {
	P1 string `json:"p1"`
	P2 string `json:"p2"`
}

// RoundRobin schedules every pair of ids to meet exactly once, by the circle
// method: the first id stays put while the others rotate one place per round.
// With an even count n there are n-1 rounds of n/2 fixtures; with an odd
// count a bye slot is added, so there are n rounds of (n-1)/2 fixtures and
// each id sits out exactly one round (the bye is no match at all). Nobody
// plays twice in a round. The fixed id alternates between slot 1 and slot 2
// from round to round, which shares slot 1 out evenly: every id has it in
// half of its n-1 matches, rounded up or down. Fewer than 2 ids give no
// rounds. Ids are expected to be distinct.
func RoundRobin(ids []string) [][]Fixture {
	if len(ids) < 2 {
		return nil
	}
	const bye = -1
	circle := make([]int, 0, len(ids)+1)
	for i := range ids {
		circle = append(circle, i)
	}
	if len(circle)%2 == 1 {
		circle = append(circle, bye)
	}
	n := len(circle)
	rounds := make([][]Fixture, 0, n-1)
	for r := 0; r < n-1; r++ {
		round := make([]Fixture, 0, n/2)
		for i := 0; i < n/2; i++ {
			a, b := circle[i], circle[n-1-i]
			if a == bye || b == bye {
				continue
			}
			if i == 0 && r%2 == 1 {
				a, b = b, a
			}
			round = append(round, Fixture{P1: ids[a], P2: ids[b]})
		}
		rounds = append(rounds, round)
		// Rotate everyone but the first one place clockwise.
		last := circle[n-1]
		copy(circle[2:], circle[1:n-1])
		circle[1] = last
	}
	return rounds
}
