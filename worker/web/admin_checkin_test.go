package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestOrganizerDayPages drives check-in on the site and the admin's view
// of it, seeding by rating with its preview, and the cancel step kept
// apart from the lifecycle's next steps.
func TestOrganizerDayPages(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	admin := e.SignedIn(t, arenatest.Ada)
	players := arenatest.CupPlayers(4)
	// Starts in two hours; check-in opened half an hour ago.
	e.OpenCup(t, arenatest.Cup{Slug: "day", MaxPlayers: 4, Players: players, Fields: map[string]any{"checkInMinutes": 150}})

	t.Run("PlayerChecksIn", func(t *testing.T) {
		c := e.SignedIn(t, players[1])
		page := c.Get(t, "/tournaments/day")
		require.Equal(t, http.StatusOK, page.Status)
		assert.Contains(t, page.Body, `action="/tournaments/day/check-in"`)
		assert.Equal(t, "/tournaments/day?notice=checked_in", c.PostOK(t, "/tournaments/day/check-in", nil))
		page = c.Get(t, "/tournaments/day")
		assert.Contains(t, page.Body, "Your side is checked in.")
		assert.NotContains(t, page.Body, `action="/tournaments/day/check-in"`)
	})
	t.Run("NotRegistered", func(t *testing.T) {
		c := e.SignedIn(t, arenatest.Charles)
		res := c.Post(t, "/tournaments/day/check-in", nil)
		assert.Equal(t, http.StatusForbidden, res.Status)
		assert.Contains(t, res.Body, "You are not registered")
	})
	t.Run("TheOrganizerSeesWhoIsIn", func(t *testing.T) {
		page := admin.Get(t, "/admin/tournaments/day")
		assert.Contains(t, page.Body, "1 checked in")
		assert.Equal(t, 1, strings.Count(page.Body, `<span class="badge confirmed">Checked in</span>`))
		assert.Equal(t, 3, strings.Count(page.Body, "not yet"))
		assert.Contains(t, page.Body, "Opens 2 hours 30 minutes before the start")
	})
	t.Run("CancelStandsApart", func(t *testing.T) {
		page := admin.Get(t, "/admin/tournaments/day")
		steps := regexp.MustCompile(`(?s)<p class="admin-steps">.*?</p>`).FindString(page.Body)
		assert.Contains(t, steps, "Close registration")
		assert.NotContains(t, steps, "to=cancelled", "the next step and the destructive one are apart")
		assert.Contains(t, page.Body, `class="admin-danger"`)
		assert.Contains(t, page.Body, "This cannot be undone.")
	})
	t.Run("SeedByRatingShowsTheOrderFirst", func(t *testing.T) {
		seedInputs := regexp.MustCompile(`class="seed" id="seed-\d+" name="seed-\d+" type="number" min="1" max="4096" value="(\d*)"`)
		page := admin.Get(t, "/admin/tournaments/day")
		for _, m := range seedInputs.FindAllStringSubmatch(page.Body, -1) {
			assert.Equal(t, "", m[1], "unseeded before")
		}
		assert.Contains(t, page.Body, `href="/admin/tournaments/day/seeds/rating"`)
		preview := admin.Get(t, "/admin/tournaments/day/seeds/rating")
		require.Equal(t, http.StatusOK, preview.Status)
		assert.Equal(t, 4, strings.Count(preview.Body, "unrated"), "cup players have no rating")
		assert.Contains(t, preview.Body, "Apply these seeds")
		page = admin.Get(t, "/admin/tournaments/day")
		for _, m := range seedInputs.FindAllStringSubmatch(page.Body, -1) {
			assert.Equal(t, "", m[1], "the preview changed nothing")
		}
		assert.Equal(t, "/admin/tournaments/day?done=rating-seeds#registrations", admin.PostOK(t, "/admin/tournaments/day/seeds/rating", nil))
		page = admin.Get(t, "/admin/tournaments/day")
		var got []string
		for _, m := range seedInputs.FindAllStringSubmatch(page.Body, -1) {
			got = append(got, m[1])
		}
		assert.Equal(t, []string{"1", "2", "3", "4"}, got, "unrated: by registration time")
	})
	t.Run("TheStartWithdrawsTheAbsent", func(t *testing.T) {
		e.SetStatus(t, "day", "registration_closed")
		confirm := admin.Get(t, "/admin/tournaments/day/status?to=playoffs")
		assert.Contains(t, confirm.Body, "First withdraws the 3 sides that have not checked in: <bdi>Player 0001</bdi>, <bdi>Player 0003</bdi>, <bdi>Player 0004</bdi>.")
	})
}

// TestTournamentFormFollowsTheFormat drives the new-tournament form: each
// format's own settings are marked for the script, durations are typed in
// hours, the slug is made from the name when left empty, GSL groups and
// check-in are chosen there, and sides are added by name.
func TestTournamentFormFollowsTheFormat(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	admin := e.SignedIn(t, arenatest.Ada)
	page := admin.Get(t, "/admin/tournaments/new")
	require.Equal(t, http.StatusOK, page.Status)
	for field, formats := range map[string]string{
		"groupCount": "groups_playoffs", "groupFormat": "groups_playoffs", "grandFinalReset": "double_elimination",
		"swissRounds": "swiss", "topCut": "swiss", "smallFinal": "groups_playoffs playoffs_only swiss",
	} {
		assert.Regexp(t, `data-formats="`+formats+`">\s*<label[^>]*>(<input[^>]*name="`+field+`"|[^<]*)`, page.Body, field)
	}
	assert.Contains(t, page.Body, "left empty, it is made from the name", "the server's rule, said once; no script copies it")
	assert.Contains(t, page.Body, "Demo is your public game")
	assert.Contains(t, page.Body, "a cast can show hands without helping anyone cheat")

	form := url.Values{
		"name": {"Harvest Masters"}, "slug": {""}, "format": {"groups_playoffs"}, "groupFormat": {"gsl"},
		"maxPlayers": {"8"}, "groupCount": {"2"}, "environment": {"demo"},
		"registrationOpensAt": {utcField(e.Now.Add(-time.Hour))}, "registrationClosesAt": {utcField(e.Now.Add(2 * time.Hour))},
		"startsAt": {utcField(e.Now.Add(3 * time.Hour))}, "checkInMinutes": {"2"}, "checkInMinutesUnit": {"hours"},
		"matchWindowMinutes": {"90"}, "matchWindowMinutesUnit": {"minutes"}, "handMode": {"hidden"}, "delaySeconds": {"0"},
		"allowSpectators": {"on"}, "smallFinal": {"on"}, "gracePeriodMinutes": {"90"}, "gracePeriodMinutesUnit": {"minutes"},
	}
	assert.Equal(t, "/admin/tournaments/harvest-masters?done=created", admin.PostOK(t, "/admin/tournaments", form))
	got := e.Admin(t, "GET", "/api/v1/admin/tournaments/harvest-masters", nil, http.StatusOK)
	assert.Equal(t, "gsl", got["groupFormat"])
	assert.Equal(t, float64(120), got["checkInMinutes"], "2 hours")
	assert.Equal(t, float64(90), got["matchWindowMinutes"])
	assert.Equal(t, float64(90), got["gracePeriodMinutes"])
	assert.Equal(t, float64(2), got["advancePerGroup"])
	edit := admin.Get(t, "/admin/tournaments/harvest-masters")
	assert.Regexp(t, `id="checkInMinutes" name="checkInMinutes" type="number" min="0" value="2"`, edit.Body, "shown back in hours")

	t.Run("PlayersAddedByName", func(t *testing.T) {
		e.SetStatus(t, "harvest-masters", "registration_open")
		res := admin.Post(t, "/admin/tournaments/harvest-masters/registrations", url.Values{"platformId": {"Grace"}})
		require.Equal(t, http.StatusSeeOther, res.Status, "one player is called Grace: %s", res.Body)
		res = admin.Post(t, "/admin/tournaments/harvest-masters/registrations", url.Values{"platformId": {"e"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, "Many players match: type more of the name.")
		res = admin.Post(t, "/admin/tournaments/harvest-masters/registrations", url.Values{"platformId": {"Nobody Called This"}})
		assert.Contains(t, res.Body, "No player of this arena has a name containing that.")
		res = admin.Post(t, "/admin/tournaments/harvest-masters/registrations", url.Values{"platformId": {"lam"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, "Several players match: choose one below.")
		assert.Contains(t, res.Body, `value="76561198000000008"`, "Hedy Lamarr")
		assert.Contains(t, res.Body, `value="76561198000000012"`, "Leslie Lamport")
		res = admin.Post(t, "/admin/tournaments/harvest-masters/registrations", url.Values{"platformId": {"lam"}, "choice": {"76561198000000012"}})
		require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
		full := e.API(t, "GET", "/api/v1/tournaments/harvest-masters", "", nil, http.StatusOK)
		names := []any{}
		for _, p := range full["players"].([]any) {
			names = append(names, p.(map[string]any)["personaName"])
		}
		assert.Equal(t, []any{"Grace Hopper", "Leslie Lamport"}, names)
	})
}

func TestBroadcastViews(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	b := e.Browser(t)
	t.Run("OpenStagesAsScenes", func(t *testing.T) {
		page := b.Get(t, "/tournaments/autumn-masters/broadcast")
		require.Equal(t, http.StatusOK, page.Status)
		assert.Regexp(t, `<body class="broadcast" data-cycle="12" data-recheck="20" data-live-stream="/api/v1/tournaments/autumn-masters/live\?after=\d+" data-live-events="match\.ready match\.live [a-z._ ]+">`, page.Body)
		assert.NotContains(t, page.Body, `<header class="site">`, "no site chrome")
		assert.Equal(t, 2, strings.Count(page.Body, `class="broadcast-scene"`), "one scene per group with matches left")
		assert.Contains(t, page.Body, `aria-label="Group A"`)
		assert.Equal(t, 2, strings.Count(page.Body, `<span class="bm-round">Decider match</span>`), "the deciders left")
		assert.Equal(t, "frame-ancestors *", page.Header.Get("Content-Security-Policy"))
	})
	t.Run("Transparent", func(t *testing.T) {
		page := b.Get(t, "/tournaments/autumn-masters/broadcast?transparent=1")
		assert.Contains(t, page.Body, `<body class="broadcast transparent"`)
	})
	t.Run("AfterTheLastMatchThePodium", func(t *testing.T) {
		page := b.Get(t, "/tournaments/autumn-open/broadcast")
		assert.Contains(t, page.Body, `aria-label="Podium"`)
		assert.Equal(t, 1, strings.Count(page.Body, `class="broadcast-scene"`))
		assert.Contains(t, page.Body, `data-live-stream=""`, "a finished tournament follows no stream")
	})
	t.Run("BeforeTheDrawWhoIsIn", func(t *testing.T) {
		page := b.Get(t, "/tournaments/harvest-cup/broadcast")
		assert.Contains(t, page.Body, `aria-label="Players"`)
		assert.Contains(t, page.Body, "<li><bdi>Ada Lovelace</bdi></li>")
	})
	t.Run("OneMatch", func(t *testing.T) {
		m := e.Playable(t, "winter-cup")[0]
		page := b.Get(t, m.Path("broadcast"))
		require.Equal(t, http.StatusOK, page.Status)
		assert.Regexp(t, fmt.Sprintf(`data-live-stream="/api/v1/matches/%d/live\?after=\d+"`, m.ID), page.Body)
		assert.Contains(t, page.Body, `class="broadcast-versus"`)
		assert.Contains(t, page.Body, "Winter Cup")
		assert.Equal(t, http.StatusNotFound, b.Get(t, "/matches/999999/broadcast").Status)
	})
	t.Run("TimesAndGSLTables", func(t *testing.T) {
		page := b.Get(t, "/tournaments/autumn-masters/broadcast")
		assert.Regexp(t, `<span class="bm-when">open until <time datetime="[0-9T:Z-]+" data-format="clock">\d\d:\d\d UTC</time></span>`, page.Body,
			"a match still to play says until when it is open")
		assert.NotContains(t, page.Body, `<th class="num">Pts</th>`, "GSL groups: no points column")
		assert.Contains(t, b.Get(t, "/tournaments/winter-cup/broadcast").Body, `<th class="num">Pts</th>`, "round-robin groups keep theirs")
	})
	t.Run("SwissRounds", func(t *testing.T) {
		e.OpenCup(t, arenatest.Cup{Slug: "swiss-night", Format: "swiss", MaxPlayers: 5, Players: arenatest.CupPlayers(5), Seeded: true,
			Fields: map[string]any{"smallFinal": false, "swissRounds": 3}})
		e.SetStatus(t, "swiss-night", "registration_closed", "group_stage")
		e.ResolveScheduled(t, "swiss-night", -1) // round 1; round 2 is paired
		page := b.Get(t, "/tournaments/swiss-night/broadcast")
		require.Equal(t, http.StatusOK, page.Status)
		assert.Contains(t, page.Body, `aria-label="Swiss · Round 2 of 3"`, "the latest round")
		assert.Contains(t, page.Body, `aria-label="Swiss standings"`, "then the standings")
		assert.Equal(t, 5, strings.Count(page.Body, `<td class="name"><bdi>`), "every side in the standings")
		assert.Equal(t, 2, strings.Count(page.Body, `<span class="bm-round">`), "round 2's two matches, the bye left out")
		pinned := b.Get(t, "/tournaments/swiss-night/broadcast?round=round%201")
		require.Equal(t, http.StatusOK, pinned.Status)
		assert.Contains(t, pinned.Body, `aria-label="Swiss · Round 1 of 3"`, "?round= pins a Swiss round")
		assert.Equal(t, 2, strings.Count(pinned.Body, `<span class="bm-round">`), "its decided matches too")
		assert.Equal(t, http.StatusNotFound, b.Get(t, "/tournaments/swiss-night/broadcast?round=Round%203").Status, "not paired yet")
	})
	t.Run("DraftsAreNotShown", func(t *testing.T) {
		e.Admin(t, "POST", "/api/v1/admin/tournaments", map[string]any{"name": "Secret Cup", "format": "playoffs_only", "maxPlayers": 4,
			"registrationOpensAt": e.Now.Format(time.RFC3339), "registrationClosesAt": e.Now.Add(time.Hour).Format(time.RFC3339),
			"startsAt": e.Now.Add(2 * time.Hour).Format(time.RFC3339)}, http.StatusCreated)
		assert.Equal(t, http.StatusNotFound, b.Get(t, "/tournaments/secret-cup/broadcast").Status)
	})
}

func TestNextStepsAskForCheckIn(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	blaise := e.SignedIn(t, arenatest.Blaise) // in the demo's Harvest Cup, not checked in
	home := blaise.Get(t, "/")
	require.Equal(t, http.StatusOK, home.Status)
	assert.Contains(t, home.Body, `action="/tournaments/harvest-cup/check-in"`)
	blaise.PostOK(t, "/tournaments/harvest-cup/check-in", nil)
	assert.NotContains(t, blaise.Get(t, "/").Body, `action="/tournaments/harvest-cup/check-in"`, "checked in: nothing to do")
	ada := e.SignedIn(t, arenatest.Ada) // checked in already
	assert.NotContains(t, ada.Get(t, "/").Body, `action="/tournaments/harvest-cup/check-in"`)
}

func TestGSLGroupsOnThePage(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	page := e.Browser(t).Get(t, "/tournaments/autumn-masters")
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, "GSL groups: the opening matches")
	assert.NotContains(t, page.Body, "Points first (a win is 3)", "points do not place GSL sides")
	assert.Equal(t, 2, strings.Count(page.Body, `title="Above the next row on the group&#39;s matches"`), "each group's winner is placed; the deciders are open")
	for _, round := range []string{"Opening match", "Winners&#39; match", "Elimination match", "Decider match"} {
		assert.Contains(t, page.Body, round)
	}
	// The deciders are open: in each group one side is through (two
	// wins), one is out (two losses), two are still playing; no points.
	assert.Equal(t, 2, strings.Count(page.Body, `<tr class="gsl-through advances">`))
	assert.Equal(t, 2, strings.Count(page.Body, "(through to the playoffs)"))
	assert.Equal(t, 2, strings.Count(page.Body, `<tr class="gsl-out">`))
	assert.Equal(t, 2, strings.Count(page.Body, "(out)</span>"))
	assert.Equal(t, 4, strings.Count(page.Body, "(still playing)"))
	assert.NotContains(t, page.Body, "in a qualifying place so far", "a GSL side is through or not")
	assert.NotContains(t, page.Body, `<abbr title="Points">Pts</abbr>`, "no points column in GSL groups")
}
