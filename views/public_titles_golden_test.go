package views_test

import (
	"testing"

	"arena/views"
)

// TestGoldenTitles renders a held title (a declined challenge, a lineage
// of a lost and a stripped reign before the current one), a vacant one
// with a volunteer, and one whose coronation is being played; the
// viewer's buttons follow the actions given.
func TestGoldenTitles(t *testing.T) {
	expires := t0.Add(20 * hour)
	lostAt, strippedAt := t0.Add(-5*day), t0.Add(-3*day)
	held := views.TitleCard{
		ID: 1, Slug: "arena-champion", Name: "Arena Champion", Holder: grace, Since: t0.Add(-2 * day), Defenses: 1,
		ClockExpiresAt: &expires,
		Challenge:      &views.TitleChallengeCard{ID: 4, Challenger: *mallory, At: t0.Add(-hour), Declined: true},
		Lineage: []views.TitleReignCard{
			{Player: *ada, Since: t0.Add(-9 * day), Until: &lostAt, Defenses: 2, Ended: "lost"},
			{Player: *blaise, Since: lostAt, Until: &strippedAt, Ended: "stripped"},
			{Player: *grace, Since: t0.Add(-2 * day), Defenses: 1},
		},
		Actions: views.TitleActions{Respond: true, Next: "/titles"},
	}
	vacant := views.TitleCard{ID: 2, Slug: "rookie-belt", Name: "Rookie Belt", Volunteers: []views.PlayerRef{*hedy},
		Actions: views.TitleActions{Volunteer: true, Next: "/titles"}}
	coronation := views.TitleCard{ID: 3, Slug: "old-belt", Name: "Old Belt",
		Match:   &views.TitleMatchCard{ID: 9, Coronation: true, P1: *ada, P2: *blaise, Status: "live", ClosesAt: t0.Add(day)},
		Actions: views.TitleActions{InMatch: true, Next: "/titles"}}
	assertGolden(t, "titles", views.TitlesView(views.TitlesPage{Layout: layout("Titles"), Notice: "You volunteered.", Now: t0,
		Titles: []views.TitleCard{held, vacant, coronation}}))
	assertGolden(t, "titles_empty", views.TitlesView(views.TitlesPage{Layout: layout("Titles")}))
	assertGolden(t, "player_holder", views.PlayerView(views.PlayerPage{Layout: layout(grace.Name), Player: *grace,
		Titles: []views.HeldTitle{{Slug: "arena-champion", Name: "Arena Champion", Since: t0.Add(-2 * day)}}}))
}
