package core

// Sides of a bracket column in the two-sided display.
const (
	BracketSideLeft   = "left"
	BracketSideRight  = "right"
	BracketSideCenter = "center"
)

// BracketColumn is one column of the bracket as displayed: a round's label,
// the side of the draw it shows and its matches, top to bottom.
type BracketColumn struct {
	Label   string         `json:"label"`
	Side    string         `json:"side"`
	Matches []BracketMatch `json:"matches"`
}

// BracketColumns lays plan out for a two-sided display, left to right: the
// first half of each round's matches (the top half of the draw) on side
// "left" from the first round inwards, then the final and the small final
// (if any) on side "center", then the second half of each round on side
// "right" from the semifinals outwards. Matches are copied as they are in
// plan, so pass an advanced plan to show players and winners.
func BracketColumns(plan BracketPlan) []BracketColumn {
	byRound := make([][]BracketMatch, plan.Rounds+1)
	var center []BracketColumn
	for _, m := range plan.Matches {
		if m.Stage == BracketStagePlayoff {
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
