package core

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

var dayStart = time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC)

func TestCheckInWindowEdges(t *testing.T) {
	tour := &Tournament{Status: StatusRegistrationClosed, StartsAt: dayStart, CheckInMinutes: 30}
	for _, c := range []struct {
		name string
		at   time.Time
		open bool
	}{
		{"a second before it opens", dayStart.Add(-30*time.Minute - time.Second), false},
		{"the instant it opens", dayStart.Add(-30 * time.Minute), true},
		{"the last second", dayStart.Add(-time.Second), true},
		{"the start", dayStart, false},
		{"after the start", dayStart.Add(time.Minute), false},
	} {
		t.Run(c.name, func(t *testing.T) { assert.Equal(t, c.open, tour.CheckInOpenAt(c.at)) })
	}
	t.Run("NoCheckIn", func(t *testing.T) {
		none := *tour
		none.CheckInMinutes = 0
		assert.False(t, none.CheckInOpenAt(dayStart.Add(-time.Minute)))
		assert.False(t, none.CheckInApplies())
	})
	t.Run("WhileRegistrationIsOpen", func(t *testing.T) {
		open := *tour
		open.Status = StatusRegistrationOpen
		assert.True(t, open.CheckInOpenAt(dayStart.Add(-time.Minute)))
	})
	t.Run("ClosedOnceStarted", func(t *testing.T) {
		for _, s := range []TournamentStatus{StatusDraft, StatusGroupStage, StatusPlayoffs, StatusCompleted, StatusCancelled} {
			started := *tour
			started.Status = s
			assert.False(t, started.CheckInOpenAt(dayStart.Add(-time.Minute)), s)
			assert.False(t, started.CheckInApplies(), s)
		}
	})
}

func TestAbsentSides(t *testing.T) {
	in := dayStart.Add(-10 * time.Minute)
	regs := []Registration{{PlatformID: "a", CheckedInAt: &in}, {PlatformID: "b"}, {PlatformID: "c", CheckedInAt: &in}}
	tour := &Tournament{Status: StatusRegistrationClosed, StartsAt: dayStart, CheckInMinutes: 30}
	ids := func(rs []Registration) (out []string) {
		for _, r := range rs {
			out = append(out, r.PlatformID)
		}
		return out
	}
	present, absent := absentSides(tour, regs, dayStart)
	assert.Equal(t, []string{"a", "c"}, ids(present))
	assert.Equal(t, []string{"b"}, ids(absent))

	present, absent = absentSides(tour, regs, dayStart.Add(-31*time.Minute))
	assert.Len(t, present, 3, "started before check-in opened: nobody could check in, nobody is withdrawn")
	assert.Empty(t, absent)

	none := *tour
	none.CheckInMinutes = 0
	present, absent = absentSides(&none, regs, dayStart)
	assert.Len(t, present, 3, "no check-in")
	assert.Empty(t, absent)
}

func TestRatingOrder(t *testing.T) {
	at := func(m int) time.Time { return dayStart.Add(time.Duration(m) * time.Minute) }
	regs := []Registration{
		{PlatformID: "unrated-early", RegisteredAt: at(1)},
		{PlatformID: "mid", RegisteredAt: at(2)},
		{PlatformID: "unrated-late", RegisteredAt: at(9)},
		{PlatformID: "top", RegisteredAt: at(4)},
		{PlatformID: "mid-later", RegisteredAt: at(5)},
		{PlatformID: "unrated-middle", RegisteredAt: at(3)},
	}
	rated := func(r float64) PlayerRating { return PlayerRating{Rating: Rating{Rating: r, Deviation: 100}} }
	ratings := map[string]PlayerRating{"mid": rated(1600), "top": rated(1800), "mid-later": rated(1600)}
	got := RatingOrder(regs, ratings)
	var order []string
	for i, s := range got {
		assert.Equal(t, i+1, s.Seed)
		order = append(order, s.PlatformID)
	}
	assert.Equal(t, []string{"top", "mid", "mid-later", "unrated-early", "unrated-middle", "unrated-late"}, order,
		"rating first, equal ratings by registration, the unrated last by registration time")
	assert.Equal(t, 1800.0, *got[0].Rating)
	assert.Nil(t, got[3].Rating, "unrated")
	assert.Empty(t, RatingOrder(nil, ratings))
}

func TestSeedingDraftCheck(t *testing.T) {
	assert.Empty(t, (&SeedingDraft{By: "rating"}).Check())
	for _, by := range []string{"", "elo", "Rating"} {
		p := (&SeedingDraft{By: by}).Check()
		if assert.Len(t, p, 1, by) {
			assert.Equal(t, "by", p[0].Field)
		}
	}
}

func TestAttentionReason(t *testing.T) {
	now := dayStart
	c := StaleCutoffsAt(now, 20)
	liveAt := func(m int) *time.Time { t := now.Add(-time.Duration(m) * time.Minute); return &t }
	match := func(status MatchStatus, closesIn time.Duration, live *time.Time) *Match {
		return &Match{Status: status, P1: "a", P2: "b", ClosesAt: now.Add(closesIn), LiveAt: live}
	}
	for _, tc := range []struct {
		name string
		m    *Match
		want string
	}{
		{"disputed", match(MatchDisputed, time.Hour, nil), AttentionDisputed},
		{"scheduled past its window", match(MatchScheduled, -time.Minute, nil), AttentionOverdue},
		{"live past its window", match(MatchLive, 0, liveAt(5)), AttentionOverdue},
		{"live 20 minutes: stale", match(MatchLive, time.Hour, liveAt(20)), AttentionStale},
		{"live 19 minutes", match(MatchLive, time.Hour, liveAt(19)), ""},
		{"scheduled closing in 10 minutes", match(MatchScheduled, 10*time.Minute, nil), AttentionWindowClosing},
		{"scheduled closing in 11 minutes", match(MatchScheduled, 11*time.Minute, nil), ""},
		{"live closing soon, not yet stale", match(MatchLive, 5*time.Minute, liveAt(3)), AttentionWindowClosing},
		{"a report came (awaiting)", match(MatchAwaitingResult, 5*time.Minute, liveAt(30)), ""},
		{"confirmed", match(MatchConfirmed, -time.Hour, liveAt(30)), ""},
		{"a side undecided", &Match{Status: MatchScheduled, P1: "a", ClosesAt: now.Add(time.Minute)}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, AttentionReason(tc.m, c)) })
	}
	t.Run("StaleOff", func(t *testing.T) {
		assert.Equal(t, "", AttentionReason(match(MatchLive, time.Hour, liveAt(600)), StaleCutoffsAt(now, 0)))
	})
}

func TestSlugFromName(t *testing.T) {
	for name, want := range map[string]string{
		"Winter Cup 2026":           "winter-cup-2026",
		"  Spring -- Invitational!": "spring-invitational",
		"Crème brûlée Open":         "cr-me-br-l-e-open",
		"¡¿!":                       "",
		strings.Repeat("ab ", 30):   strings.Repeat("ab-", 13) + "a", // cut at 40
	} {
		got := SlugFromName(name)
		assert.Equal(t, want, got, name)
		if got != "" {
			assert.True(t, ValidSlug(got), got)
		}
	}
	d := TournamentDraft{Name: "Harvest Cup", Format: FormatPlayoffsOnly, MaxPlayers: Int(8),
		RegistrationOpensAt: InstantText("2026-11-01T10:00:00Z"), RegistrationClosesAt: InstantText("2026-11-02T10:00:00Z"),
		StartsAt: InstantText("2026-11-03T10:00:00Z")}
	tour, p := d.Check(nil, dayStart)
	if assert.Empty(t, p) {
		assert.Equal(t, "harvest-cup", tour.Slug, "an empty slug is made from the name")
	}
}
