package core

import (
	"cmp"
	"slices"
)

// Sides of a bracket column in the two-sided display.
const (
	BracketSideLeft   = "left"
	BracketSideRight  = "right"
	BracketSideCenter = "center"
)

// BracketColumn is one column of the bracket as displayed: a round's label,
// the side of the draw it shows and its matches, top to bottom.
type BracketColumn struct {
	Label string `json:"label"`
	Side  string `json:"side"`
	// Section is a double elimination's part: winners, losers or
	// grand_final ("" for single elimination).
	Section string         `json:"section,omitempty"`
	Matches []BracketMatch `json:"matches"`
}

// BracketColumns lays plan out for a two-sided display, left to right: the
// first half of each round's matches (the top half of the draw) on side
// "left" from the first round inwards, then the final and the small final
// (if any) on side "center", then the second half of each round on side
// "right" from the semifinals outwards. Matches are copied as they are in
// plan, so pass an advanced plan to show players and winners.
//
// A double elimination (plan.Double) is laid out by section instead: the
// winners' rounds (side left, section winners) first round first, then the
// losers' rounds (side left, section losers), then the grand final and its
// reset when planned (side center, section grand_final), each column's
// matches in slot order. A client draws the winners above the losers and
// the grand final after both.
func BracketColumns(plan BracketPlan) []BracketColumn {
	if plan.Double {
		return doubleColumns(plan)
	}
	byRound := make([][]BracketMatch, plan.Rounds+1)
	var center []BracketColumn
	for _, m := range plan.Matches {
		if m.Stage == StagePlayoff {
			byRound[m.RoundNumber] = append(byRound[m.RoundNumber], m)
			continue
		}
		center = append(center, BracketColumn{Label: m.Round, Side: BracketSideCenter, Matches: []BracketMatch{m}})
	}
	columns := make([]BracketColumn, 0, 2*plan.Rounds)
	for r := 1; r < plan.Rounds; r++ {
		half := len(byRound[r]) / 2
		columns = append(columns, BracketColumn{Label: byRound[r][0].Round, Side: BracketSideLeft, Matches: byRound[r][:half:half]})
	}
	columns = append(columns, center...)
	for r := plan.Rounds - 1; r >= 1; r-- {
		half := len(byRound[r]) / 2
		columns = append(columns, BracketColumn{Label: byRound[r][0].Round, Side: BracketSideRight, Matches: byRound[r][half:]})
	}
	return columns
}

func doubleColumns(plan BracketPlan) []BracketColumn {
	var columns []BracketColumn
	at := map[[2]int]int{} // section order and round -> column index
	for _, m := range plan.Matches {
		key := [2]int{sectionOrder(m.Section), m.SectionRound}
		i, ok := at[key]
		if !ok {
			side := BracketSideLeft
			if m.Section == BracketSectionGrandFinal {
				side = BracketSideCenter
			}
			i = len(columns)
			at[key] = i
			columns = append(columns, BracketColumn{Label: m.Round, Side: side, Section: m.Section})
		}
		columns[i].Matches = append(columns[i].Matches, m)
	}
	slices.SortStableFunc(columns, func(a, b BracketColumn) int {
		return cmp.Or(cmp.Compare(sectionOrder(a.Section), sectionOrder(b.Section)),
			cmp.Compare(a.Matches[0].SectionRound, b.Matches[0].SectionRound))
	})
	for _, c := range columns {
		slices.SortStableFunc(c.Matches, func(a, b BracketMatch) int { return cmp.Compare(slotMatch(a.BracketSlot), slotMatch(b.BracketSlot)) })
	}
	return columns
}

// slotMatch is a double-elimination slot's match number (0 if none): the
// digits after its last M.
func slotMatch(slot string) int {
	n, scale := 0, 1
	for i := len(slot) - 1; i >= 0; i-- {
		c := slot[i]
		if c < '0' || c > '9' {
			if c != 'M' {
				return 0
			}
			return n
		}
		n += int(c-'0') * scale
		scale *= 10
	}
	return 0
}
