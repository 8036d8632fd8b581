package tournamentview

import (
	"strconv"

	"arena/core"
)

// Bracket is the stored playoff matches as core.BracketColumns lays them
// out.
type Bracket struct {
	Columns []Column
	// Double marks a double elimination: columns by section (winners,
	// losers, grand_final).
	Double bool
}

// Column is one column of the bracket: a round of one half of the draw,
// or a center placement match.
type Column struct {
	Label, Side string
	// Section is a double elimination's part: winners, losers or
	// grand_final ("" for single elimination).
	Section string
	// Slots is how many match positions a double elimination's round has
	// (0: one per match): a losers' round skips the matches byes left
	// without players, and keeps their place empty.
	Slots int
	Boxes []Box
}

// Box is one match of the bracket.
type Box struct {
	// Match is the stored match in the box's slot.
	Match *core.Match
	// Position is the box's place (1-based) among its column's Slots, as
	// its slot names it; 0 when the slot names none.
	Position int
	Seats    [2]Seat
}

// Seat is one side of a bracket match: a player, a bye, or the match
// that will fill it.
type Seat struct {
	PlayerID string // "" while undecided, and for a bye
	Seed     int    // the player's bracket seed; 0 when unknown
	Bye      bool   // nobody will ever sit here
	// FromSlot is the match whose winner (or loser, FromLoser) fills an
	// undecided seat; "" when none does.
	FromSlot  string
	FromLoser bool
}

// bracket lays the stored playoff matches out as core.BracketColumns
// does; nil before the playoffs. A double elimination's columns keep
// every match position of their round, so the picture lines up.
func bracket(matches []core.Match) *Bracket {
	bySlot := map[string]*core.Match{}
	for i := range matches {
		if m := &matches[i]; core.IsBracketStage(m.Stage) {
			bySlot[m.BracketSlot] = m
		}
	}
	if len(bySlot) == 0 {
		return nil
	}
	plan := core.StoredBracket(matches)
	seeds := bracketSeeds(plan)
	// An undecided seat names the match that fills it.
	from := map[core.SeatRef]Seat{}
	for _, m := range plan.Matches {
		if m.WinnerTo.BracketSlot != "" {
			from[m.WinnerTo] = Seat{FromSlot: m.BracketSlot}
		}
		if m.LoserTo.BracketSlot != "" {
			from[m.LoserTo] = Seat{FromSlot: m.BracketSlot, FromLoser: true}
		}
	}
	cols := core.BracketColumns(plan)
	out := &Bracket{Columns: make([]Column, 0, len(cols)), Double: plan.Double}
	for _, col := range cols {
		c := Column{Label: col.Label, Side: col.Side, Section: col.Section, Boxes: make([]Box, 0, len(col.Matches))}
		if plan.Double && len(col.Matches) > 0 {
			c.Slots = core.DoubleEliminationRoundMatches(plan.Size, col.Section, col.Matches[0].SectionRound)
		}
		for _, bm := range col.Matches {
			box := Box{Match: bySlot[bm.BracketSlot]}
			if _, _, i, ok := core.ParseBracketSlot(bm.BracketSlot); ok {
				box.Position = i
			}
			for i, seat := range [2]core.BracketSeat{bm.P1, bm.P2} {
				s := Seat{Bye: seat.Bye}
				switch {
				case seat.PlayerID != "":
					s.PlayerID, s.Seed = seat.PlayerID, seeds[seat.PlayerID]
				case !seat.Bye:
					f := from[core.SeatRef{BracketSlot: bm.BracketSlot, Side: i + 1}]
					s.FromSlot, s.FromLoser = f.FromSlot, f.FromLoser
				}
				box.Seats[i] = s
			}
			c.Boxes = append(c.Boxes, box)
		}
		out.Columns = append(out.Columns, c)
	}
	return out
}

// bracketSeeds maps each first-round player to their bracket seed. Seeds
// are not stored with the matches, but the first round holds them in the
// standard bracket order, which core.PlanBracket lays out for a full
// bracket of the same size.
func bracketSeeds(plan core.BracketPlan) map[string]int {
	if plan.Size < 2 {
		return nil
	}
	ids := make([]string, plan.Size)
	for i := range ids {
		ids[i] = strconv.Itoa(i + 1)
	}
	layout, err := core.PlanBracket(ids, false)
	if err != nil {
		return nil
	}
	seeds := make(map[string]int, plan.Size)
	i := 0
	for _, m := range plan.Matches {
		if m.RoundNumber != 1 || m.Stage == core.StageSmallFinal || i >= len(layout.Matches) {
			continue
		}
		order := layout.Matches[i]
		if m.P1.PlayerID != "" {
			seeds[m.P1.PlayerID] = order.P1.Seed
		}
		if m.P2.PlayerID != "" {
			seeds[m.P2.PlayerID] = order.P2.Seed
		}
		i++
	}
	return seeds
}
