package core

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func gslTournament(groups int) *Tournament {
	return &Tournament{ID: 7, Format: FormatGroupsPlayoffs, GroupFormat: GroupFormatGSL, GroupCount: groups,
		AdvancePerGroup: GSLAdvance, MaxPlayers: groups * GSLGroupSize, MatchWindowMinutes: 60, StartsAt: dayStart}
}

func seededRegs(n int) []Registration {
	regs := make([]Registration, n)
	for i := range regs {
		regs[i] = Registration{PlatformID: fmt.Sprintf("s%d", i+1), Seed: i + 1}
	}
	return regs
}

func TestPlanGSLGroups(t *testing.T) {
	tour := gslTournament(2)
	groups, matches, err := planGroupStage(tour, seededRegs(8), dayStart.Add(-time.Hour))
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"s1": "A", "s4": "A", "s5": "A", "s8": "A", "s2": "B", "s3": "B", "s6": "B", "s7": "B"}, groups, "snake draw")
	require.Len(t, matches, 10)
	bySlot := map[string]Match{}
	for _, m := range matches {
		bySlot[m.BracketSlot] = m
		assert.Equal(t, StageGroup, m.Stage)
	}
	a := func(part string) Match { return bySlot[GSLSlot("A", part)] }
	assert.Equal(t, [2]string{"s1", "s8"}, [2]string{a(GSLOpening1).P1, a(GSLOpening1).P2}, "top seed against the fourth")
	assert.Equal(t, [2]string{"s4", "s5"}, [2]string{a(GSLOpening2).P1, a(GSLOpening2).P2})
	assert.Equal(t, SeatRef{BracketSlot: "GA-W", Side: 1}, a(GSLOpening1).WinnerTo)
	assert.Equal(t, SeatRef{BracketSlot: "GA-E", Side: 2}, a(GSLOpening2).LoserTo)
	assert.Equal(t, SeatRef{BracketSlot: "GA-D", Side: 1}, a(GSLWinners).LoserTo)
	assert.Equal(t, SeatRef{BracketSlot: "GA-D", Side: 2}, a(GSLElimination).WinnerTo)
	assert.Equal(t, SeatRef{}, a(GSLDecider).WinnerTo)
	for part, round := range map[string]int{GSLOpening1: 1, GSLOpening2: 1, GSLWinners: 2, GSLElimination: 2, GSLDecider: 3} {
		m := a(part)
		assert.Equal(t, round, m.RoundNumber, part)
		assert.Equal(t, dayStart.Add(time.Duration(round-1)*time.Hour), m.OpensAt, "%s opens step by step", part)
		assert.Equal(t, m.OpensAt.Add(time.Hour), m.ClosesAt)
	}

	for _, n := range []int{3, 6, 12} {
		_, _, err := planGroupStage(tour, seededRegs(n), dayStart)
		assert.Equal(t, CodeTooFewEntrants, ErrorCode(err), "%d sides", n)
	}
	_, matches, err = planGroupStage(tour, seededRegs(4), dayStart)
	require.NoError(t, err)
	assert.Len(t, matches, 5, "four sides fill one group")
}

// TestGSLEveryPath plays one group through each of its 32 paths (who
// wins each of the five matches), seating winners and losers as the
// decision path does, and checks the places and the standings.
func TestGSLEveryPath(t *testing.T) {
	tour := gslTournament(1)
	regs := seededRegs(4)
	for path := range 32 {
		t.Run(fmt.Sprintf("Path%05b", path), func(t *testing.T) {
			_, matches, err := planGroupStage(tour, regs, dayStart)
			require.NoError(t, err)
			idx := map[string]int{}
			for i, m := range matches {
				idx[m.BracketSlot] = i
			}
			decide := func(part string, p1Wins bool) {
				m := &matches[idx[GSLSlot("A", part)]]
				require.NotEmpty(t, m.P1, "%s seated", part)
				require.NotEmpty(t, m.P2, "%s seated", part)
				m.Winner, m.Status = m.P2, MatchConfirmed
				if p1Wins {
					m.Winner = m.P1
				}
				for _, seat := range []struct {
					to SeatRef
					id string
				}{{m.WinnerTo, m.Winner}, {m.LoserTo, m.Loser()}} {
					if seat.to.BracketSlot == "" {
						continue
					}
					target := &matches[idx[seat.to.BracketSlot]]
					if seat.to.Side == 1 {
						target.P1 = seat.id
					} else {
						target.P2 = seat.id
					}
				}
			}
			for i, part := range []string{GSLOpening1, GSLOpening2, GSLWinners, GSLElimination, GSLDecider} {
				decide(part, path&(1<<i) != 0)
			}
			tables, names, err := GroupTables(tour, []Registration{
				{PlatformID: "s1", Seed: 1, GroupName: "A"}, {PlatformID: "s2", Seed: 2, GroupName: "A"},
				{PlatformID: "s3", Seed: 3, GroupName: "A"}, {PlatformID: "s4", Seed: 4, GroupName: "A"},
			}, matches)
			require.NoError(t, err)
			require.Equal(t, []string{"A"}, names)
			rows := tables["A"]
			require.Len(t, rows, 4)
			places := GSLPlaces("A", matches)
			require.Len(t, places, 4, "every side placed")
			// Wins and losses each place must have: 1st 2-0, 2nd 2-1, 3rd 1-2, 4th 0-2.
			record := [][2]int{{2, 0}, {2, 1}, {1, 2}, {0, 2}}
			for i, r := range rows {
				assert.Equal(t, i+1, r.Rank)
				assert.Equal(t, i+1, places[r.PlayerID], "the table follows the places")
				assert.Equal(t, record[i], [2]int{r.Wins, r.Losses}, "place %d", i+1)
			}
			w, d := matches[idx["GA-W"]], matches[idx["GA-D"]]
			assert.Equal(t, w.Winner, rows[0].PlayerID, "the winners' match's winner advances first")
			assert.Equal(t, d.Winner, rows[1].PlayerID, "the decider's winner advances second")
			assert.Equal(t, TiebreakGSL, rows[0].SeparatedBy)
			assert.Equal(t, Tiebreak(""), rows[3].SeparatedBy)
		})
	}
}

func TestGSLPlacesWhileUnderWay(t *testing.T) {
	rows := []StandingRow{{Rank: 1, PlayerID: "a", SeparatedBy: TiebreakPoints}, {Rank: 2, PlayerID: "b", SeparatedBy: TiebreakHeadToHeadPoints},
		{Rank: 3, PlayerID: "c", SeparatedBy: TiebreakPoints}, {Rank: 4, PlayerID: "d"}}
	got := orderGSL(rows, map[string]int{"c": 1, "b": 4})
	var order []string
	for _, r := range got {
		order = append(order, r.PlayerID)
	}
	assert.Equal(t, []string{"c", "a", "d", "b"}, order, "1st first, the eliminated last, the others in standings order between")
	assert.Equal(t, []Tiebreak{TiebreakGSL, "", "", ""}, []Tiebreak{got[0].SeparatedBy, got[1].SeparatedBy, got[2].SeparatedBy, got[3].SeparatedBy},
		"only a place separates rows")
}
