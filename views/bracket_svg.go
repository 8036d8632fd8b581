package views

import "strconv"

// The bracket as a standalone SVG picture (GET .../bracket.svg): the same
// Bracket the page draws, laid out round after round from the left, for
// chat apps and forums that show an image but no page. Sizes are in SVG
// user units.
const (
	svgBoxW    = 190
	svgSeatH   = 24
	svgHeadH   = 16
	svgBoxH    = svgHeadH + 2*svgSeatH
	svgColGap  = 36
	svgRowGap  = 14
	svgMargin  = 16
	svgTitleH  = 40
	svgLabelH  = 22
	svgPartGap = 28
)

// SVGBracket is a bracket laid out for the picture.
type SVGBracket struct {
	Title         string
	Width, Height int
	Labels        []SVGLabel
	Boxes         []SVGBox
	Lines         []SVGLine
}

// SVGLabel is a round's or a part's heading.
type SVGLabel struct {
	X, Y int
	Text string
	Part bool // a part's title (winners', losers' bracket) rather than a round's
}

// SVGBox is one match.
type SVGBox struct {
	X, Y int
	Box  BracketBox
	// Round names the box's round (its accessible title).
	Round string
}

// SVGLine joins a match to the one its winner plays next: from (X1, Y1)
// right, down or up at XM, then on to (X2, Y2).
type SVGLine struct {
	X1, Y1, XM, X2, Y2 int
}

// svgColumn is a round: its label and its boxes in their places (nil
// where a bye left no match).
type svgColumn struct {
	label string
	boxes []*BracketBox
}

// LayOutBracketSVG lays b out: a single elimination's rounds left to
// right (each round's two halves one above the other), the final and the
// small final last; a double elimination's winners' bracket above its
// losers' bracket, the grand final to the right.
func LayOutBracketSVG(title string, b Bracket) SVGBracket {
	out := SVGBracket{Title: title}
	top := svgMargin + svgTitleH
	if b.Double {
		winners, losers, grand := pubDoubleParts(b.Columns)
		wcols, lcols := svgPlaced(winners), svgPlaced(losers)
		y := top
		var bottom, right int
		if len(wcols) > 0 {
			out.Labels = append(out.Labels, SVGLabel{X: svgMargin, Y: y + 14, Text: "Winners' bracket", Part: true})
			// The part's heading on its own line, its rounds' below it.
			bottom, right = out.addColumns(wcols, svgMargin, y+2*svgLabelH, true)
			y = bottom + svgPartGap
		}
		if len(lcols) > 0 {
			out.Labels = append(out.Labels, SVGLabel{X: svgMargin, Y: y + 14, Text: "Losers' bracket", Part: true})
			var r int
			first := len(out.Boxes)
			bottom, r = out.addColumns(lcols, svgMargin, y+2*svgLabelH, false)
			right = max(right, r)
			out.joinFed(out.Boxes[first:])
		}
		x := right + svgColGap
		gy := top + svgLabelH
		out.Labels = append(out.Labels, SVGLabel{X: x, Y: top + 14, Text: "Grand final", Part: true})
		for _, col := range grand {
			for i := range col.Matches {
				out.Boxes = append(out.Boxes, SVGBox{X: x, Y: gy, Box: col.Matches[i], Round: col.Label})
				gy += svgBoxH + svgRowGap
			}
		}
		out.Width, out.Height = x+svgBoxW+svgMargin, max(bottom, gy)+svgMargin
		return out
	}
	left, center, right := pubBracketParts(b.Columns)
	// A round's two halves: the left one's boxes, then the right one's
	// (right columns run from the semifinal outwards).
	var cols []svgColumn
	for i, col := range left {
		c := svgColumn{label: col.Label}
		for j := range col.Matches {
			c.boxes = append(c.boxes, &col.Matches[j])
		}
		if k := len(right) - 1 - i; k >= 0 && k < len(right) {
			for j := range right[k].Matches {
				c.boxes = append(c.boxes, &right[k].Matches[j])
			}
		}
		cols = append(cols, c)
	}
	if len(center) > 0 {
		c := svgColumn{label: center[0].Label}
		for j := range center[0].Matches {
			c.boxes = append(c.boxes, &center[0].Matches[j])
		}
		cols = append(cols, c)
	}
	bottom, r := out.addColumns(cols, svgMargin, top+svgLabelH, true)
	// The placement matches (the small final) under the final.
	if len(center) > 1 && len(cols) > 0 {
		x := r - svgBoxW
		y := bottom + svgRowGap
		for _, col := range center[1:] {
			out.Labels = append(out.Labels, SVGLabel{X: x, Y: y + 14, Text: col.Label})
			y += svgLabelH
			for j := range col.Matches {
				out.Boxes = append(out.Boxes, SVGBox{X: x, Y: y, Box: col.Matches[j], Round: col.Label})
				y += svgBoxH + svgRowGap
			}
		}
		bottom = max(bottom, y)
	}
	out.Width, out.Height = max(r+svgMargin, 360), bottom+svgMargin
	return out
}

// svgPlaced turns a double elimination's columns into placed columns,
// each box at its Position among the round's Slots.
func svgPlaced(cols []BracketColumn) []svgColumn {
	out := make([]svgColumn, 0, len(cols))
	for _, col := range cols {
		out = append(out, svgColumn{label: col.Label, boxes: pubPlacedBoxes(col)})
	}
	return out
}

// addColumns places cols left to right from (x, y): the first round's
// boxes stacked, each later box level with the middle of the two places
// before it; joined says the rounds pair up (box j feeds box j/2 of the
// next round). It returns the bottom and right edges used.
func (o *SVGBracket) addColumns(cols []svgColumn, x, y int, joined bool) (bottom, right int) {
	if len(cols) == 0 {
		return y, x
	}
	rows := 1
	for _, c := range cols {
		rows = max(rows, len(c.boxes))
	}
	height := rows * (svgBoxH + svgRowGap)
	var prev []int // the previous round's box centres, by place
	for ci, c := range cols {
		cx := x + ci*(svgBoxW+svgColGap)
		o.Labels = append(o.Labels, SVGLabel{X: cx, Y: y - 6, Text: c.label})
		n := max(1, len(c.boxes))
		slot := height / n
		centres := make([]int, len(c.boxes))
		for j, b := range c.boxes {
			mid := y + j*slot + slot/2
			centres[j] = mid
			if b == nil {
				continue
			}
			o.Boxes = append(o.Boxes, SVGBox{X: cx, Y: mid - svgBoxH/2, Box: *b, Round: c.label})
			if !joined || prev == nil {
				continue
			}
			for _, k := range []int{2 * j, 2*j + 1} {
				if k < len(prev) && len(prev) == 2*len(c.boxes) && cols[ci-1].boxes[k] != nil {
					o.Lines = append(o.Lines, SVGLine{X1: cx - svgColGap, Y1: prev[k], XM: cx - svgColGap/2, X2: cx, Y2: mid})
				}
			}
		}
		prev = centres
		right = cx + svgBoxW
	}
	return y + height, right
}

// joinFed draws the lines of a part whose rounds do not simply pair up
// (a losers' bracket: some rounds take the previous round's winners one
// to one, beside the winners' bracket's losers): from each box to the
// one its winner plays next, read from the seats' FedBy.
func (o *SVGBracket) joinFed(boxes []SVGBox) {
	bySlot := make(map[string]SVGBox, len(boxes))
	for _, b := range boxes {
		bySlot[b.Box.Slot] = b
	}
	for _, b := range boxes {
		for _, s := range b.Box.Seats {
			from, ok := bySlot[s.FedBy]
			if s.FedBy == "" || !ok || from.X >= b.X {
				continue
			}
			o.Lines = append(o.Lines, SVGLine{X1: from.X + svgBoxW, Y1: from.Y + svgBoxH/2, XM: b.X - svgColGap/2, X2: b.X, Y2: b.Y + svgBoxH/2})
		}
	}
}

// svgScore is a seat's score ("" without one).
func svgScore(score *Score, slot int) string {
	if score == nil {
		return ""
	}
	if slot == 1 {
		return strconv.Itoa(score.P1)
	}
	return strconv.Itoa(score.P2)
}

func svgInt(n int) string { return strconv.Itoa(n) }

// svgTrim shortens a name to what a box holds.
func svgTrim(s string) string {
	r := []rune(s)
	if len(r) > 22 {
		return string(r[:21]) + "…"
	}
	return s
}

// svgPath is a connector's path.
func svgPath(l SVGLine) string {
	return "M" + svgInt(l.X1) + " " + svgInt(l.Y1) + "H" + svgInt(l.XM) + "V" + svgInt(l.Y2) + "H" + svgInt(l.X2)
}
