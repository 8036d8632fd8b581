//go:build !js

package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestOrganizerDay runs the organizer's day in the browser on the demo
// arena: Blaise checks in to the Harvest Cup from its page; Ada sees who
// is in, seeds by rating after seeing the order, finds Cancel apart from
// the next step, sees a stale match flagged in her queue, and fills the
// new-tournament form, which shows the chosen format's settings only
// and makes the slug of the name.
func TestOrganizerDay(t *testing.T) {
	t.Parallel()
	a := arenatest.New(t, arenatest.Options{})
	stale := winterMatch(t, a, hedy)
	a.ReadyBoth(t, stale)
	a.Advance(t, 25*time.Minute)

	t.Run("PlayerChecksIn", func(t *testing.T) {
		ctx := browser(t)
		signIn(t, ctx, a.URL, arenatest.Blaise)
		openPage(t, ctx, a.URL+"/tournaments/harvest-cup")
		assert.Contains(t, text(t, ctx, "#check-in"), "Check in before the start")
		assert.Equal(t, "You are checked in. The tournament starts at its start time.", click(t, ctx, "/tournaments/harvest-cup/check-in"))
		assert.Equal(t, "Your side is checked in.", text(t, ctx, "#check-in p"))
		screenshot(t, ctx)
	})

	ctx := browser(t)
	signIn(t, ctx, a.URL, arenatest.Ada)
	t.Run("WhoIsIn", func(t *testing.T) {
		openPage(t, ctx, a.URL+"/admin/tournaments/harvest-cup")
		assert.Equal(t, "· 5 checked in", text(t, ctx, "#checked-in-count"))
		assert.Equal(t, 5, count(t, ctx, "td.checked-in .badge"))
		steps := texts(t, ctx, ".admin-steps a")
		assert.Equal(t, []string{"Start the playoffs"}, steps, "the next step alone")
		assert.Contains(t, text(t, ctx, ".admin-danger"), "This cannot be undone.")
		assert.True(t, fitsTheScreen(t, ctx))
		screenshot(t, ctx)
	})
	t.Run("SeedByRating", func(t *testing.T) {
		within(t, ctx, chromedp.Click(chromedp.CSS(`a[href="/admin/tournaments/harvest-cup/seeds/rating"]`)),
			chromedp.WaitVisible(chromedp.CSS("table.admin-rating-seeds")))
		assert.Equal(t, 6, count(t, ctx, "table.admin-rating-seeds tbody tr"))
		order := texts(t, ctx, "table.admin-rating-seeds tbody td:first-child")
		assert.Equal(t, []string{"1", "2", "3", "4", "5", "6"}, order)
		screenshot(t, ctx)
		assert.Equal(t, "Every side is seeded by rating. You can still change any seed until the draw.",
			click(t, ctx, "/admin/tournaments/harvest-cup/seeds/rating"))
		seeds := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("input.seed"), i => i.value).sort((a, b) => a - b)`)
		assert.Equal(t, []string{"1", "2", "3", "4", "5", "6"}, seeds)
	})
	t.Run("StaleMatchInTheQueue", func(t *testing.T) {
		openPage(t, ctx, a.URL+"/admin")
		row := fmt.Sprintf(`table.admin-queue tr:has(a[href="/admin/matches/%d"])`, stale.ID)
		assert.Contains(t, text(t, ctx, row), "No result yet")
	})
	t.Run("FormFollowsTheFormat", func(t *testing.T) {
		openPage(t, ctx, a.URL+"/admin/tournaments/new")
		visible := func(name string) bool {
			return eval[bool](t, ctx, `(() => { const f = document.querySelector('[name="`+name+`"]'); return !f.disabled && f.closest("[hidden]") === null })()`)
		}
		assert.True(t, visible("groupCount"), "groups then playoffs is the default")
		assert.False(t, visible("swissRounds"))
		assert.False(t, visible("grandFinalReset"))
		within(t, ctx, chromedp.SetValue(chromedp.CSS("#format"), "swiss"))
		eval[bool](t, ctx, `document.querySelector("#format").dispatchEvent(new Event("change"))`)
		assert.True(t, visible("swissRounds"))
		assert.True(t, visible("topCut"))
		assert.False(t, visible("groupCount"))
		assert.False(t, visible("groupFormat"))
		// The slug is the server's to make of the name (core.SlugFromName);
		// the field says so and no script copies the rule.
		within(t, ctx, chromedp.SendKeys(chromedp.CSS("#name"), "Harvest Masters 2027"))
		assert.Equal(t, "", eval[string](t, ctx, `document.querySelector("#slug").value`))
		assert.Equal(t, "made from the name", eval[string](t, ctx, `document.querySelector("#slug").placeholder`))
		screenshot(t, ctx)
	})
	t.Run("GSLGroups", func(t *testing.T) {
		openPage(t, ctx, a.URL+"/tournaments/autumn-masters")
		assert.Contains(t, text(t, ctx, ".tiebreak-legend"), "GSL groups: the opening matches")
		groups := count(t, ctx, ".groups .group, .groups > *")
		assert.GreaterOrEqual(t, groups, 2)
		assert.Contains(t, eval[string](t, ctx, `document.body.textContent`), "Decider match", "in each group's matches")
		assert.True(t, fitsTheScreen(t, ctx))
		screenshot(t, ctx)
	})
	t.Run("FormWithoutScripts", func(t *testing.T) {
		plain := browser(t)
		withoutScripts(t, plain)
		signIn(t, plain, a.URL, arenatest.Ada)
		openPage(t, plain, a.URL+"/admin/tournaments/new")
		for _, name := range []string{"groupCount", "swissRounds", "grandFinalReset", "topCut"} {
			assert.True(t, shown(t, plain, `[name="`+name+`"]`), "%s shows without the script", name)
		}
	})
}

// TestBroadcastView shows the Autumn Masters as a stream's 1920x1080
// browser source: one scene at a time in large type, the next after the
// cycle, a transparent background on request.
func TestBroadcastView(t *testing.T) {
	t.Parallel()
	a := arenatest.New(t, arenatest.Options{})
	ctx := browser(t)
	within(t, ctx, chromedp.EmulateViewport(1920, 1080))
	openPage(t, ctx, a.URL+"/tournaments/autumn-masters/broadcast")
	scene := func() string {
		return eval[string](t, ctx, `Array.from(document.querySelectorAll("[data-scene]")).filter(s => !s.hidden).map(s => s.getAttribute("aria-label")).join(",")`)
	}
	assert.Equal(t, "Group A", scene(), "one scene at a time")
	assert.True(t, fitsTheScreen(t, ctx))
	assert.GreaterOrEqual(t, eval[float64](t, ctx, `parseFloat(getComputedStyle(document.querySelector("h1")).fontSize)`), 60.0, "large type")
	assert.Equal(t, [2]float64{1920, 1080}, eval[[2]float64](t, ctx, `[document.body.offsetWidth, document.body.offsetHeight]`))
	assert.Zero(t, count(t, ctx, "header.site, nav"), "no site chrome")
	screenshot(t, ctx)
	waitFor(t, ctx, "the next scene", `Array.from(document.querySelectorAll("[data-scene]")).some(s => !s.hidden && s.getAttribute("aria-label") === "Group B")`, 20*time.Second)

	openPage(t, ctx, a.URL+"/tournaments/autumn-masters/broadcast?transparent=1")
	require.Equal(t, "rgba(0, 0, 0, 0)", eval[string](t, ctx, `getComputedStyle(document.body).backgroundColor`))

	// Times in the viewer's zone, and a Swiss night's standings and round,
	// within the canvas.
	openPage(t, ctx, a.URL+"/tournaments/autumn-masters/broadcast")
	when := eval[string](t, ctx, `document.querySelector(".bm-when time").textContent`)
	assert.Regexp(t, `^\d\d:\d\d \S+$`, when, "a time of the day, the zone named")
	a.OpenCup(t, arenatest.Cup{Slug: "swiss-night", Format: "swiss", MaxPlayers: 8, Players: arenatest.CupPlayers(8), Seeded: true,
		Fields: map[string]any{"smallFinal": false, "swissRounds": 3}})
	a.SetStatus(t, "swiss-night", "registration_closed", "group_stage")
	openPage(t, ctx, a.URL+"/tournaments/swiss-night/broadcast")
	assert.Equal(t, "Swiss · Round 1 of 3", scene())
	assert.Equal(t, 4, count(t, ctx, ".broadcast-matches li"), "the round's matches")
	fits := func(what string) {
		assert.True(t, fitsTheScreen(t, ctx), "%s: within the 1920 px canvas", what)
		bottom := eval[float64](t, ctx, `Math.max(...Array.from(document.querySelectorAll("[data-scene]")).filter(s => !s.hidden).map(s => s.getBoundingClientRect().bottom))`)
		assert.LessOrEqual(t, bottom, 1080.0, "%s: within the 1080 px canvas", what)
	}
	fits("the round")
	waitFor(t, ctx, "the standings", `Array.from(document.querySelectorAll("[data-scene]")).some(s => !s.hidden && s.getAttribute("aria-label") === "Swiss standings")`, 20*time.Second)
	assert.Equal(t, 8, count(t, ctx, `[aria-label="Swiss standings"] .broadcast-table tbody tr`))
	fits("the standings")
}
