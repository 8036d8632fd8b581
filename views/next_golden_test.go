package views_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/views"
)

// The player's panel: a match waiting for them (the opponent ready), a
// match they reported, one opening later, their registration and a
// registration open to them.
func TestGoldenNextActions(t *testing.T) {
	open := groupMatch(14, "Round 2", ada, blaise, 0, nil, "scheduled")
	open.OpensAt, open.ClosesAt, open.Window, open.P2Ready = t0.Add(-hour), t0.Add(100*time.Minute), views.WindowOpen, true
	reported := groupMatch(15, "Round 1", grace, ada, 0, nil, "awaiting_result")
	later := groupMatch(16, "Round 3", ada, hedy, 0, nil, "scheduled")
	later.OpensAt, later.ClosesAt, later.Window = t0.Add(26*hour), t0.Add(28*hour), views.WindowBefore
	side := func(p *views.PlayerRef) views.MatchActionSide {
		return views.MatchActionSide{ID: p.PlatformID, Name: p.Name}
	}
	c := cards()
	assertGolden(t, "next_actions", views.NextActionsPanel(views.NextActions{
		Now: t0,
		Matches: []views.NextMatch{
			{Match: open, Opponent: blaise, Actions: views.MatchActionsProps{MatchID: 14, State: views.MatchReadyUp, Next: "/", Now: t0,
				OpensAt: open.OpensAt, ClosesAt: open.ClosesAt, OpponentReady: true, P1: side(ada), P2: side(blaise)}},
			{Match: reported, Opponent: grace, Actions: views.MatchActionsProps{MatchID: 15, State: views.MatchReportWaiting, Next: "/", Now: t0,
				P1: side(grace), P2: side(ada), Fresh: true,
				Report: &views.MatchReportSummary{WinnerName: ada.Name, Score: &views.ReportedScore{P1: 1, P2: 3}, ConfirmsAt: t0.Add(day)}}},
			{Match: later, Opponent: hedy, Actions: views.MatchActionsProps{MatchID: 16, State: views.MatchWindowNotOpen, Next: "/", Now: t0,
				OpensAt: later.OpensAt, ClosesAt: later.ClosesAt, P1: side(ada), P2: side(hedy)}},
		},
		Entries: []views.NextEntry{
			{Tournament: c[0], State: views.EntryRegistered},
			{Tournament: c[0], State: views.EntryCanRegister},
		},
	}))
	assertGolden(t, "next_actions_empty", views.NextActionsPanel(views.NextActions{Now: t0, Tournament: "Winter Cup"}))
}

// The bracket picture of the decided bracket of 8 and of the double
// elimination: one box per match, a line from each match to the next.
func TestBracketSVG(t *testing.T) {
	svg := views.LayOutBracketSVG("Autumn Open", bracketOf8())
	assert.Len(t, svg.Boxes, 8, "seven matches and the small final")
	assert.Len(t, svg.Lines, 6, "four quarterfinals and two semifinals lead on")
	for _, b := range svg.Boxes {
		assert.True(t, b.X >= 0 && b.Y >= 0 && b.X < svg.Width && b.Y < svg.Height, "box %s inside the picture", b.Box.Slot)
	}
	var final, sf1, sf2 views.SVGBox
	for _, b := range svg.Boxes {
		switch b.Box.Slot {
		case "FINAL":
			final = b
		case "SF1":
			sf1 = b
		case "SF2":
			sf2 = b
		}
	}
	assert.Equal(t, sf1.X, sf2.X, "both semifinals in one column")
	assert.Greater(t, final.X, sf1.X, "the final after them")
	assert.Equal(t, (sf1.Y+sf2.Y)/2, final.Y, "the final level with the middle of its semifinals")
	assertGolden(t, "bracket.svg", views.BracketSVG(svg))
}

func TestCalendarICS(t *testing.T) {
	cal := views.Calendar{Name: "Ada's matches, Demo; Arena", ID: "demo.localhost", Stamp: t0, Events: []views.CalendarEvent{{
		UID: "match-7", Start: t0, End: t0.Add(2 * hour), Summary: "Winter Cup: Ada Lovelace vs Blaise Pascal",
		Description: "Group A, Round 2.\nReady up on the match page: " + strings.Repeat("é", 40), URL: "http://demo.localhost/matches/7",
	}, {UID: "tournament-3", Start: t0, End: t0.Add(hour), Summary: "Cancelled cup starts", Cancelled: true}}}
	var b bytes.Buffer
	require.NoError(t, cal.WriteICS(&b))
	out := b.String()
	assert.True(t, strings.HasPrefix(out, "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
	assert.True(t, strings.HasSuffix(out, "END:VCALENDAR\r\n"))
	assert.NotContains(t, strings.ReplaceAll(out, "\r\n", ""), "\n", "every line ends with CRLF")
	for _, line := range strings.Split(strings.TrimSuffix(out, "\r\n"), "\r\n") {
		assert.LessOrEqual(t, len(line), 75, "folded: %q", line)
		assert.True(t, strings.ToValidUTF8(line, "?") == line, "never folded inside a character: %q", line)
	}
	unfolded := strings.ReplaceAll(out, "\r\n ", "")
	assert.Contains(t, unfolded, `X-WR-CALNAME:Ada's matches\, Demo\; Arena`)
	assert.Contains(t, unfolded, "UID:match-7@demo.localhost\r\n")
	assert.Contains(t, unfolded, "DTSTART:20261120T120000Z\r\nDTEND:20261120T140000Z\r\n")
	assert.Contains(t, unfolded, `DESCRIPTION:Group A\, Round 2.\nReady up on the match page: `+strings.Repeat("é", 40)+"\r\n")
	assert.Contains(t, unfolded, "SUMMARY:Cancelled cup starts\r\nSTATUS:CANCELLED\r\n")
}
