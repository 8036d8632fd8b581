//go:build !js

package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
)

// TestVisitorSeesTheDemoArena opens the front page as a new visitor.
func TestVisitorSeesTheDemoArena(t *testing.T) {
	a := startArena(t)
	ctx := browser(t)
	within(t, ctx, chromedp.Navigate(a.URL+"/"), chromedp.WaitVisible(chromedp.CSS("header.site")))
	assert.Contains(t, text(t, ctx, "header.site .brand"), "Demo Arena")
	screenshot(t, ctx)
}

// TestCompletedCupOnAPhone opens the completed demo cup at a phone's width:
// the bracket scrolls sideways in its own region, the podium and the group
// tables are there.
func TestCompletedCupOnAPhone(t *testing.T) {
	a := startArena(t)
	ctx := browser(t)
	within(t, ctx,
		chromedp.EmulateViewport(390, 844),
		chromedp.Navigate(a.URL+"/tournaments/autumn-open"),
		chromedp.WaitVisible(chromedp.CSS(`.bracket-scroll[role="region"]`)),
	)
	page := text(t, ctx, "main")
	assert.Contains(t, page, "Final")
	assert.Contains(t, page, "Group A")
	assert.Contains(t, text(t, ctx, `a[href^="/matches/"] .bm-seat.win`), "")
	screenshot(t, ctx)
}

// TestDesktopPages saves the main public pages at desktop width.
func TestDesktopPages(t *testing.T) {
	a := startArena(t)
	ctx := browser(t)
	for _, p := range []struct{ path, wait string }{
		{"/", "main h1"}, {"/tournaments/autumn-open", ".bracket"}, {"/ladder", "main table"},
		{"/players/76561198000000001", "main h1"},
	} {
		within(t, ctx, chromedp.Navigate(a.URL+p.path), chromedp.WaitVisible(chromedp.CSS(p.wait)))
	}
	within(t, ctx, chromedp.Navigate(a.URL+"/tournaments/autumn-open"), chromedp.WaitVisible(chromedp.CSS(".bracket")))
	screenshot(t, ctx)
}
