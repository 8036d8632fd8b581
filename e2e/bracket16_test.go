//go:build !js

package e2e

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"

	"arena/worker/arenatest"
)

// brawlNames are sixteen names of the lengths a Friday night brings.
var brawlNames = []string{
	"Sophie Wilson-Hartley", "Grandmaster Flashbang", "Ludwig Wittgenstein", "Hypatia of Alexandria",
	"Dorothy Vaughan", "Srinivasa Ramanujan", "Évariste Galois", "Emmy Noether",
	"Katherine Johnson", "Margaret Hamilton", "Rosalind Franklin", "Chandrasekhar S.",
	"Barbara Liskov", "Edsger Dijkstra", "Radia Perlman", "Frances E. Allen",
}

// brawl opens a 16-player cup of the format, its sides named brawlNames,
// and starts its playoffs.
func brawl(t *testing.T, a *arenatest.Arena, slug, format string) {
	t.Helper()
	a.OpenCup(t, arenatest.Cup{Slug: slug, Format: format, MaxPlayers: 16, Fields: map[string]any{"smallFinal": false}})
	for i, name := range brawlNames {
		a.Admin(t, http.MethodPost, "/api/v1/admin/tournaments/"+slug+"/registrations",
			map[string]any{"platformId": arenatest.CupPlayer(i + 1), "personaName": name, "seed": i + 1}, http.StatusCreated)
	}
	a.SetStatus(t, slug, "registration_closed", "playoffs")
}

// TestBracketOf16OnALaptop (issue 33, point 6): at 1366x768 the brackets
// of 16 (single and double elimination) cut no name short: the picture
// fits or scrolls sideways inside its own region, the page never does.
func TestBracketOf16OnALaptop(t *testing.T) {
	t.Parallel()
	a := newArena(t)
	brawl(t, a, "brawl-single", "playoffs_only")
	brawl(t, a, "brawl-double", "double_elimination")
	ctx := browser(t)
	within(t, ctx, chromedp.EmulateViewport(1366, 768))
	for _, slug := range []string{"brawl-single", "brawl-double"} {
		openPage(t, ctx, a.URL+"/tournaments/"+slug)
		assert.Equal(t, 15+map[string]int{"brawl-single": 0, "brawl-double": 15}[slug], count(t, ctx, ".bm:not(.ghost)"), slug)
		cut := eval[[]string](t, ctx, `Array.from(document.querySelectorAll(".bm-seat .name")).filter(n => n.scrollWidth > n.clientWidth).map(n => n.textContent)`)
		assert.Empty(t, cut, slug)
		assert.True(t, fitsTheScreen(t, ctx), slug+": the page does not pan sideways")
		reach := eval[bool](t, ctx, `(s => s.scrollWidth <= s.clientWidth || getComputedStyle(s).overflowX === "auto")(document.querySelector(".bracket-scroll"))`)
		assert.True(t, reach, slug+": the picture fits or scrolls")
		screenshot(t, ctx, slug)
	}
}

// TestRoundTabsWhole (issue 33, point 6): on a phone the bracket's round
// tabs show their whole labels ("Grand final") on the screen, with no
// sideways scrolling to find one.
func TestRoundTabsWhole(t *testing.T) {
	t.Parallel()
	a := newArena(t)
	brawl(t, a, "brawl-single", "playoffs_only")
	brawl(t, a, "brawl-double", "double_elimination")
	ctx := phone(t)
	for _, slug := range []string{"brawl-single", "brawl-double", "summer-double"} {
		openPage(t, ctx, a.URL+"/tournaments/"+slug)
		tabs := texts(t, ctx, ".round-tabs a")
		assert.NotEmpty(t, tabs, slug)
		if slug != "brawl-single" {
			assert.Contains(t, tabs, "Grand final", slug)
		}
		hidden := eval[[]string](t, ctx, `Array.from(document.querySelectorAll(".round-tabs a")).filter(a => { const r = a.getBoundingClientRect(); return a.scrollWidth > a.clientWidth || r.left < 0 || r.right > window.innerWidth }).map(a => a.textContent)`)
		assert.Empty(t, hidden, fmt.Sprintf("%s: every tab whole on the screen", slug))
		assert.True(t, fitsTheScreen(t, ctx), slug)
		screenshot(t, ctx, slug)
	}
}
