package core

import (
	"cmp"
	"fmt"
	"slices"
)

// Points a group-stage result earns. There are no draws: every resolved
// match has a winner.
const (
	PointsForWin  = 3
	PointsForLoss = 0
)

// OutcomeScore is a match's score as reported, slot 1 first.
type OutcomeScore struct {
	P1 int `json:"p1"`
	P2 int `json:"p2"`
}

// MatchOutcome is one match as the rules see it. Winner is "" while the match
// is unresolved; Score is nil when no score was reported. Forfeit means the
// loser forfeited.
type MatchOutcome struct {
	P1      string        `json:"p1"`
	P2      string        `json:"p2"`
	Winner  string        `json:"winner,omitempty"`
	Score   *OutcomeScore `json:"score,omitempty"`
	Forfeit bool          `json:"forfeit,omitempty"`
}

// Resolved reports whether the match has a winner.
func (o MatchOutcome) Resolved() bool { return o.Winner != "" }

// Loser returns the player who did not win, or "" while unresolved.
func (o MatchOutcome) Loser() string {
	switch o.Winner {
	case "":
		return ""
	case o.P1:
		return o.P2
	default:
		return o.P1
	}
}

// StandingRow is one player's line in a group table; the public API shows
// it as { rank, player, played, wins, losses, scoreDiff, points } with the
// player object for PlayerID. Rank runs 1..n with no shared ranks: every tie
// is broken (see Standings). SeparatedBy names the criterion that put this
// row above the next one, "" on the last row.
type StandingRow struct {
	Rank        int      `json:"rank"`
	PlayerID    string   `json:"playerId"`
	Played      int      `json:"played"`
	Wins        int      `json:"wins"`
	Losses      int      `json:"losses"`
	ScoreDiff   int      `json:"scoreDiff"`
	Points      int      `json:"points"`
	ScoresWon   int      `json:"scoresWon"`
	Forfeits    int      `json:"forfeits"`
	SeparatedBy Tiebreak `json:"separatedBy"`
}

// Standings ranks one group from its matches. Unresolved outcomes are
// skipped; Played counts resolved matches. A win earns PointsForWin, a loss
// PointsForLoss; ScoreDiff and ScoresWon add up the reported scores (a match
// without a score adds nothing); Forfeits counts losses by forfeit.
//
// Players are ordered by these criteria, each consulted only when every
// earlier one is equal:
//
//	(a) points
//	(b) head-to-head points, counting only matches among the tied players
//	(c) head-to-head score difference among the tied players
//	(d) overall score difference
//	(e) scores won
//	(f) fewer forfeits
//	(g) seed, lower first, unseeded last
//	(h) the draw: ascending DrawKey(tournamentID, playerID)
//
// When (b) or (c) splits a tied set into smaller tied subsets, (b) and (c)
// start over for each subset using only the matches among that subset; only
// a set that (b) and (c) cannot split at all moves on to (d). The ranking
// does not depend on the order of members or outcomes; tournamentID only
// feeds the draw.
//
// It returns an error (code internal) when members repeat an id or an
// outcome names a player outside members or a winner who is not in it.
func Standings(tournamentID string, members []Entrant, outcomes []MatchOutcome) ([]StandingRow, error) {
	t, err := tallyGroup(tournamentID, members, outcomes)
	if err != nil {
		return nil, err
	}
	order, seps := t.rank()
	rows := make([]StandingRow, len(order))
	for pos, p := range order {
		s := t.players[p]
		rows[pos] = StandingRow{
			Rank:      pos + 1,
			PlayerID:  s.id,
			Played:    s.wins + s.losses,
			Wins:      s.wins,
			Losses:    s.losses,
			ScoreDiff: s.scoresWon - s.scoresLost,
			Points:    s.points(),
			ScoresWon: s.scoresWon,
			Forfeits:  s.forfeits,
		}
		if pos < len(seps) {
			rows[pos].SeparatedBy = seps[pos]
		}
	}
	return rows, nil
}

// playerTally is one player's running totals in a group.
type playerTally struct {
	id                    string
	seedRank              int
	drawKey               uint64
	wins, losses          int
	scoresWon, scoresLost int
	forfeits              int
}

func (s *playerTally) points() int { return s.wins*PointsForWin + s.losses*PointsForLoss }

// resolvedMatch is a resolved outcome with players as indexes into
// groupTally.players, the winner first.
type resolvedMatch struct {
	winner, loser           int
	winnerScore, loserScore int
}

type groupTally struct {
	players []playerTally
	matches []resolvedMatch
}

func tallyGroup(tournamentID string, members []Entrant, outcomes []MatchOutcome) (*groupTally, error) {
	t := &groupTally{players: make([]playerTally, len(members))}
	index := make(map[string]int, len(members))
	for i, m := range members {
		if _, dup := index[m.ID]; dup {
			return nil, fmt.Errorf("standings: player %s listed twice", m.ID)
		}
		index[m.ID] = i
		t.players[i] = playerTally{id: m.ID, seedRank: m.seedRank(), drawKey: DrawKey(tournamentID, m.ID)}
	}
	t.matches = make([]resolvedMatch, 0, len(outcomes))
	for n, o := range outcomes {
		if !o.Resolved() {
			continue
		}
		p1, ok1 := index[o.P1]
		p2, ok2 := index[o.P2]
		if !ok1 || !ok2 || p1 == p2 {
			return nil, fmt.Errorf("standings: outcome %d (%s vs %s) is not between two group members", n, o.P1, o.P2)
		}
		m := resolvedMatch{winner: p1, loser: p2}
		switch o.Winner {
		case o.P1:
		case o.P2:
			m.winner, m.loser = p2, p1
		default:
			return nil, fmt.Errorf("standings: outcome %d names winner %s who did not play it", n, o.Winner)
		}
		if o.Score != nil {
			m.winnerScore, m.loserScore = o.Score.P1, o.Score.P2
			if m.winner == p2 {
				m.winnerScore, m.loserScore = o.Score.P2, o.Score.P1
			}
		}
		w, l := &t.players[m.winner], &t.players[m.loser]
		w.wins++
		l.losses++
		w.scoresWon += m.winnerScore
		w.scoresLost += m.loserScore
		l.scoresWon += m.loserScore
		l.scoresLost += m.winnerScore
		if o.Forfeit {
			l.forfeits++
		}
		t.matches = append(t.matches, m)
	}
	return t, nil
}

// rank orders every player and names, for each adjacent pair, the
// criterion that separated them (len(seps) == len(order)-1).
func (t *groupTally) rank() (order []int, seps []Tiebreak) {
	all := make([]int, len(t.players))
	for i := range all {
		all[i] = i
	}
	points := func(p int) int { return t.players[p].points() }
	slices.SortStableFunc(all, func(a, b int) int { return cmp.Compare(points(b), points(a)) })
	return splitRuns(all, TiebreakPoints, points, t.breakTie)
}

// splitRuns cuts sorted (already ordered by value, best first) into runs of
// equal value, orders each run of two or more with within, and joins the
// runs with sep between them.
func splitRuns(sorted []int, sep Tiebreak, value func(int) int, within func([]int) ([]int, []Tiebreak)) ([]int, []Tiebreak) {
	order := make([]int, 0, len(sorted))
	seps := make([]Tiebreak, 0, len(sorted))
	for start := 0; start < len(sorted); {
		end := start + 1
		for end < len(sorted) && value(sorted[end]) == value(sorted[start]) {
			end++
		}
		if start > 0 {
			seps = append(seps, sep)
		}
		if end-start == 1 {
			order = append(order, sorted[start])
		} else {
			o, s := within(sorted[start:end])
			order = append(order, o...)
			seps = append(seps, s...)
		}
		start = end
	}
	return order, seps
}
