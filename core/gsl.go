package core

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// GroupFormat is how a groups_playoffs tournament plays its groups.
type GroupFormat string

// Group formats: every side meets every other (the default), or GSL
// groups of four played as a small double elimination (opening matches,
// winners' match, elimination match, decider), two advancing.
const (
	GroupFormatRoundRobin GroupFormat = "round_robin"
	GroupFormatGSL        GroupFormat = "gsl"
)

// GSLGroupSize is the sides in a GSL group; GSLAdvance how many go on.
const (
	GSLGroupSize = 4
	GSLAdvance   = 2
)

// GroupFormats are the group formats the service runs, the default first.
var GroupFormats = []GroupFormat{GroupFormatRoundRobin, GroupFormatGSL}

// ValidGroupFormat reports whether f is a group format the service runs.
func ValidGroupFormat(f GroupFormat) bool { return slices.Contains(GroupFormats, f) }

// A GSL group's five matches: the two opening matches (1st seed against
// 4th, 2nd against 3rd), the winners' match of the openings' winners
// (its winner is 1st), the elimination match of their losers (its loser
// is 4th), and the decider between the winners' match's loser and the
// elimination match's winner (its winner is 2nd, its loser 3rd). Every
// seat moves by the one decision path (winner_to, loser_to), as in a
// bracket. Their slots are G<group>-<part>.
const (
	GSLOpening1    = "O1"
	GSLOpening2    = "O2"
	GSLWinners     = "W"
	GSLElimination = "E"
	GSLDecider     = "D"
)

// GSLSlot is the bracket slot of a GSL group's match: "GA-O1", "GB-D".
func GSLSlot(group, part string) string { return "G" + group + "-" + part }

// TiebreakGSL: the group's double elimination placed the row above the
// next.
const TiebreakGSL Tiebreak = "gsl_bracket"

// planGSLGroup returns group g's five matches for members in seed order:
// the openings at start, the winners' and elimination matches a window
// later, the decider a window after that.
func planGSLGroup(t *Tournament, g string, members []Entrant, start time.Time) []Match {
	window := t.MatchWindowFor(StageGroup)
	at := func(r int) time.Time { return start.Add(time.Duration(r-1) * window) }
	// Only the openings' sides are known at the draw; under asap pacing
	// the later matches open as they are seated (queries/series.sql).
	match := func(part, label string, r int, p1, p2 string, winTo, loseTo SeatRef) Match {
		return Match{
			TournamentID: t.ID, Stage: StageGroup, Round: label, RoundNumber: r, GroupName: g,
			BracketSlot: GSLSlot(g, part), Status: MatchScheduled, P1: p1, P2: p2,
			OpensAt: at(r), ClosesAt: at(r).Add(window), WinnerTo: winTo, LoserTo: loseTo,
			BestOf: t.SeriesLength(StageGroup),
		}
	}
	seat := func(part string, side int) SeatRef { return SeatRef{BracketSlot: GSLSlot(g, part), Side: side} }
	return []Match{
		match(GSLOpening1, "Opening match", 1, members[0].ID, members[3].ID, seat(GSLWinners, 1), seat(GSLElimination, 1)),
		match(GSLOpening2, "Opening match", 1, members[1].ID, members[2].ID, seat(GSLWinners, 2), seat(GSLElimination, 2)),
		match(GSLWinners, "Winners' match", 2, "", "", SeatRef{}, seat(GSLDecider, 1)),
		match(GSLElimination, "Elimination match", 2, "", "", seat(GSLDecider, 2), SeatRef{}),
		match(GSLDecider, "Decider match", 3, "", "", SeatRef{}, SeatRef{}),
	}
}

// planGSLGroups draws the sides into groups of four by snake draw (as
// many groups as the sides fill) and schedules each group's matches. The
// sides must be a multiple of four (CodeTooFewEntrants otherwise).
func planGSLGroups(t *Tournament, regs []Registration, start time.Time) (map[string]string, []Match, error) {
	n := len(regs)
	if n < GSLGroupSize || n%GSLGroupSize != 0 || n/GSLGroupSize > t.GroupCount {
		return nil, nil, &Error{Code: CodeTooFewEntrants, Field: "groupCount",
			Message: fmt.Sprintf("GSL groups hold exactly %d sides: %d sides cannot fill them (at most %d groups)", GSLGroupSize, n, t.GroupCount)}
	}
	draws, err := SnakeDraw(entrants(regs), n/GSLGroupSize)
	if err != nil {
		return nil, nil, err
	}
	groups := map[string]string{}
	var matches []Match
	for _, g := range draws {
		for _, m := range g.Members {
			groups[m.ID] = g.Name
		}
		matches = append(matches, planGSLGroup(t, g.Name, g.Members, start)...)
	}
	return groups, matches, nil
}

// GSLPlaces returns the places a GSL group's matches decided so far:
// player -> place 1..4 (1st: the winners' match's winner; 2nd and 3rd:
// the decider's winner and loser; 4th: the elimination match's loser).
func GSLPlaces(group string, matches []Match) map[string]int {
	places := map[string]int{}
	for i := range matches {
		m := &matches[i]
		if m.GroupName != group || !m.Status.Resolved() {
			continue
		}
		switch m.BracketSlot {
		case GSLSlot(group, GSLWinners):
			places[m.Winner] = 1
		case GSLSlot(group, GSLDecider):
			places[m.Winner], places[m.Loser()] = 2, 3
		case GSLSlot(group, GSLElimination):
			places[m.Loser()] = 4
		}
	}
	delete(places, "")
	return places
}

// orderGSL reorders a GSL group's standings rows by the places its
// matches decided: sides without a place yet keep their standings order
// below the places above them and above the eliminated 4th. Ranks are
// renumbered; a placed row is separated from the next by TiebreakGSL, and
// a side without a place by nothing yet (points do not place GSL sides).
func orderGSL(rows []StandingRow, places map[string]int) []StandingRow {
	key := func(r StandingRow) int {
		switch p, ok := places[r.PlayerID]; {
		case !ok:
			return GSLGroupSize + r.Rank
		case p == GSLGroupSize:
			return 2*GSLGroupSize + r.Rank
		default:
			return p
		}
	}
	out := slices.Clone(rows)
	slices.SortStableFunc(out, func(a, b StandingRow) int { return cmp.Compare(key(a), key(b)) })
	for i := range out {
		out[i].Rank = i + 1
		out[i].SeparatedBy = ""
		if _, placed := places[out[i].PlayerID]; placed && i < len(out)-1 {
			out[i].SeparatedBy = TiebreakGSL
		}
	}
	return out
}
