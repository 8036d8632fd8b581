package views_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"arena/views"
)

// Issue 25 point 6: in the bracket picture no heading overlaps another
// (a double elimination's part headings sat on its rounds' headings).
func TestBracketSVGHeadingsDoNotOverlap(t *testing.T) {
	box := func(id int64, slot string, pos int) views.BracketBox {
		return views.BracketBox{ID: id, Slot: slot, Status: "scheduled", Position: pos,
			Seats: [2]views.BracketSeat{{Player: ada}, {Player: blaise}}}
	}
	b := views.Bracket{Double: true, Columns: []views.BracketColumn{
		{Label: "Winners round 1", Side: "left", Section: "winners", Slots: 2, Matches: []views.BracketBox{box(1, "W1M1", 1), box(2, "W1M2", 2)}},
		{Label: "Winners final", Side: "left", Section: "winners", Slots: 1, Matches: []views.BracketBox{box(3, "W2M1", 1)}},
		{Label: "Losers round 1", Side: "left", Section: "losers", Slots: 1, Matches: []views.BracketBox{box(4, "L1M1", 1)}},
		{Label: "Losers final", Side: "left", Section: "losers", Slots: 1, Matches: []views.BracketBox{box(5, "L2M1", 1)}},
		{Label: "Grand final", Side: "center", Section: "grand_final", Slots: 1, Matches: []views.BracketBox{box(6, "GF", 1)}},
	}}
	pic := views.LayOutBracketSVG("Cup", b)
	const lineH, charW = 14, 8 // a heading's height and a generous glyph width
	for i, a := range pic.Labels {
		for _, c := range pic.Labels[i+1:] {
			apart := a.X+len(a.Text)*charW <= c.X || c.X+len(c.Text)*charW <= a.X || a.Y-c.Y >= lineH || c.Y-a.Y >= lineH
			assert.True(t, apart, "%q at (%d, %d) overlaps %q at (%d, %d)", a.Text, a.X, a.Y, c.Text, c.X, c.Y)
		}
		for _, bx := range pic.Boxes {
			inside := a.X < bx.X+190 && bx.X < a.X+len(a.Text)*charW && a.Y > bx.Y && a.Y-lineH < bx.Y+64
			assert.False(t, inside, "%q at (%d, %d) is on match %s", a.Text, a.X, a.Y, bx.Box.Slot)
		}
	}
}
