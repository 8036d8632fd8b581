package views

import (
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// Calendar is an iCalendar feed (RFC 5545) of match windows: what a
// player's or a tournament's calendar link serves.
type Calendar struct {
	// Name is the calendar's name in the viewer's app.
	Name string
	// ID makes event UIDs unique to the arena ("demo.localhost").
	ID     string
	Stamp  time.Time
	Events []CalendarEvent
}

// CalendarEvent is one event: a match window, or a tournament's start.
type CalendarEvent struct {
	UID         string
	Start, End  time.Time
	Summary     string
	Description string
	URL         string
	// Cancelled marks an event that will not happen.
	Cancelled bool
}

// WriteICS writes the calendar: CRLF line ends, lines folded at 75
// octets (never inside a character), text escaped.
func (c Calendar) WriteICS(w io.Writer) error {
	var b strings.Builder
	line := func(name, value string) { icsLine(&b, name+":"+value) }
	line("BEGIN", "VCALENDAR")
	line("VERSION", "2.0")
	line("PRODID", "-//Arena//Match windows//EN")
	line("CALSCALE", "GREGORIAN")
	line("METHOD", "PUBLISH")
	line("X-WR-CALNAME", icsText(c.Name))
	for _, e := range c.Events {
		line("BEGIN", "VEVENT")
		line("UID", icsText(e.UID+"@"+c.ID))
		line("DTSTAMP", icsTime(c.Stamp))
		line("DTSTART", icsTime(e.Start))
		line("DTEND", icsTime(e.End))
		line("SUMMARY", icsText(e.Summary))
		if e.Description != "" {
			line("DESCRIPTION", icsText(e.Description))
		}
		if e.URL != "" {
			line("URL", e.URL)
		}
		if e.Cancelled {
			line("STATUS", "CANCELLED")
		} else {
			line("STATUS", "CONFIRMED")
		}
		line("END", "VEVENT")
	}
	line("END", "VCALENDAR")
	_, err := io.WriteString(w, b.String())
	return err
}

func icsTime(t time.Time) string { return t.UTC().Format("20060102T150405Z") }

// icsText escapes a TEXT value: backslash, semicolon, comma and newline.
var icsEscaper = strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`, "\r\n", `\n`, "\n", `\n`, "\r", `\n`)

func icsText(s string) string { return icsEscaper.Replace(s) }

// icsLine writes one content line, folded: at most 75 octets a line, a
// continuation starting with a space.
func icsLine(b *strings.Builder, s string) {
	limit := 75
	for len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		b.WriteString(s[:cut])
		b.WriteString("\r\n ")
		s = s[cut:]
		limit = 74 // the leading space counts
	}
	b.WriteString(s)
	b.WriteString("\r\n")
}
