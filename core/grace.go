package core

import "time"

// The grace period: how long a result that one side gave (a single
// client submission, or a player's report) waits for the other side
// before the scheduled job confirms it. The arena sets one
// (gracePeriodSeconds, default DefaultGracePeriod); a tournament may set
// its own (gracePeriodMinutes, 0: the arena's), for a night that cannot
// wait a day.

// GracePeriodMinutesRange bounds a tournament's own grace period (0: the
// arena's).
var GracePeriodMinutesRange = Range{Min: 0, Max: int(MaxGracePeriod / time.Minute)}

// GracePeriod is how long t's results wait for their second side: its
// own grace period, else the arena's.
func (t *Tournament) GracePeriod(a *Arena) time.Duration {
	if t.GracePeriodMinutes > 0 {
		return time.Duration(t.GracePeriodMinutes) * time.Minute
	}
	return a.GracePeriod()
}
