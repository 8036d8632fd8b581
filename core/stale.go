package core

import (
	"context"
	"time"
)

// Stale matches: the organizer hears of a live match with no result
// StaleMatchMinutes after it went live, and of a match whose window
// closes within WindowClosingNotice with nothing reported. The queue
// lists both; the alerts (the admins' inboxes, the arena's webhook) tell
// of each once per match (stamped like upcomingAlertAt).

// StaleMatchMinutesRange bounds the arena setting staleMatchMinutes (0:
// no stale-match alerts).
var StaleMatchMinutesRange = Range{Min: 0, Max: 24 * 60}

// DefaultStaleMatchMinutes is the stale-match delay unless the arena
// sets another.
const DefaultStaleMatchMinutes = 20

// SettingStaleMatchMinutes is the arena setting of the stale-match delay.
const SettingStaleMatchMinutes = "stale_match_minutes"

// OverdueAlertWithin bounds how long after its window closed an overdue
// match no closing alert told of is still alerted (older ones, such as
// those of an arena upgraded from before the overdue alert, stay in the
// queue only).
const OverdueAlertWithin = 24 * time.Hour

// WindowClosingNotice is how long before a window closes with nothing
// reported the organizer hears of it.
const WindowClosingNotice = 10 * time.Minute

// Attention reasons: why a match is in the organizer's queue.
const (
	AttentionDisputed      = "disputed"
	AttentionOverdue       = "overdue"        // scheduled or live past its window
	AttentionStale         = "stale"          // live, nothing reported StaleMatchMinutes on
	AttentionWindowClosing = "window_closing" // nothing reported, the window closes soon
	// AttentionWindowClosed: a series past its window; the games decided
	// stand, the organizer decides the rest.
	AttentionWindowClosed = "window_closed"
)

// StaleCutoffs are the instants the queue and the alerts compare with: a
// live match that went live at or before LiveBy is stale (never, when
// LiveBy is zero); a match whose window closes at or before ClosesBy is
// closing (or overdue, once Now has passed it).
type StaleCutoffs struct {
	Now      time.Time
	LiveBy   time.Time
	ClosesBy time.Time
}

// StaleCutoffsAt returns the cutoffs at now for a stale-match delay of
// minutes (0: no stale flag).
func StaleCutoffsAt(now time.Time, minutes int) StaleCutoffs {
	c := StaleCutoffs{Now: now, ClosesBy: now.Add(WindowClosingNotice)}
	if minutes > 0 {
		c.LiveBy = now.Add(-time.Duration(minutes) * time.Minute)
	}
	return c
}

// AttentionReason says why m needs the organizer, or "" when it does
// not: disputed; scheduled or live past its window (overdue, or
// window_closed for a series); live with
// nothing reported since LiveBy (stale); scheduled or live, both sides
// known, its window closing by ClosesBy (window_closing).
func AttentionReason(m *Match, c StaleCutoffs) string {
	if m.Status == MatchDisputed {
		return AttentionDisputed
	}
	if (m.Status != MatchScheduled && m.Status != MatchLive) || m.P1 == "" || m.P2 == "" {
		return ""
	}
	switch {
	case !m.ClosesAt.After(c.Now) && m.SeriesLen() > 1:
		return AttentionWindowClosed
	case !m.ClosesAt.After(c.Now):
		return AttentionOverdue
	case m.Status == MatchLive && !c.LiveBy.IsZero() && m.LiveAt != nil && !m.LiveAt.After(c.LiveBy):
		return AttentionStale
	case !m.ClosesAt.After(c.ClosesBy):
		return AttentionWindowClosing
	}
	return ""
}

// StaleMatchMinutes reads the arena's stale-match delay (the default
// when unset).
func StaleMatchMinutes(ctx context.Context, ts SettingStore) (int, error) {
	minutes := DefaultStaleMatchMinutes
	if _, err := ts.Setting(ctx, SettingStaleMatchMinutes, &minutes); err != nil {
		return DefaultStaleMatchMinutes, err
	}
	return minutes, nil
}

// QueuedMatch is a match in the organizer's queue and why it is there.
type QueuedMatch struct {
	MatchState
	Reason string
}

// QueueStore is what the organizer's queue reads: the matches and the
// arena's stale-match delay. One value, the arena's store, serves it.
type QueueStore interface {
	SettingStore
	// AttentionMatches returns the candidates of the organizer's queue:
	// disputed, or scheduled/live (both sides known) with a window closing
	// by c.ClosesBy or live since c.LiveBy (OrganizerQueue decides).
	AttentionMatches(ctx context.Context, c StaleCutoffs) ([]MatchState, error)
}

// OrganizerQueue returns the matches that need the organizer at now, by
// AttentionReason under the arena's stale-match delay, window closing
// first: the admin API's queue and the admin pages' alike.
func OrganizerQueue(ctx context.Context, ps QueueStore, now time.Time) ([]QueuedMatch, error) {
	minutes, err := StaleMatchMinutes(ctx, ps)
	if err != nil {
		return nil, err
	}
	c := StaleCutoffsAt(now, minutes)
	list, err := ps.AttentionMatches(ctx, c)
	if err != nil {
		return nil, err
	}
	out := make([]QueuedMatch, 0, len(list))
	for _, m := range list {
		if reason := AttentionReason(&m.Match, c); reason != "" {
			out = append(out, QueuedMatch{MatchState: m, Reason: reason})
		}
	}
	return out, nil
}
