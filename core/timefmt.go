package core

import "time"

// The one way every text shows an instant: the pages (before their script
// shows it in the viewer's zone, in the same shape), the alerts and
// webhooks, the admin's confirmations and the calendars' descriptions.
// The zone is always named: "27 Nov 2026, 15:00 UTC".
const (
	DateLayout  = "2 Jan 2006"
	ClockLayout = "15:04"
	TimeLayout  = DateLayout + ", " + ClockLayout + " MST"
)

// FormatTime shows t in loc (UTC when nil), the zone named:
// "27 Nov 2026, 15:00 UTC".
func FormatTime(t time.Time, loc *time.Location) string {
	return in(t, loc).Format(TimeLayout)
}

// FormatDate shows the day of t in loc (UTC when nil): "27 Nov 2026".
func FormatDate(t time.Time, loc *time.Location) string {
	return in(t, loc).Format(DateLayout)
}

// FormatRange shows from – to in loc (UTC when nil), the end's day left
// out when both fall on one day there: "27 Nov 2026, 15:00 – 17:00 UTC".
func FormatRange(from, to time.Time, loc *time.Location) string {
	a, b := in(from, loc), in(to, loc)
	if SameDay(a, b) {
		return a.Format(DateLayout+", "+ClockLayout) + " – " + b.Format(ClockLayout+" MST")
	}
	return a.Format(TimeLayout) + " – " + b.Format(TimeLayout)
}

// SameDay reports whether a and b fall on the same calendar day in a's
// location.
func SameDay(a, b time.Time) bool {
	b = b.In(a.Location())
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd
}

func in(t time.Time, loc *time.Location) time.Time {
	if loc == nil {
		loc = time.UTC
	}
	return t.In(loc)
}
