//go:build !js

package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"

	"arena/worker/arenatest"
)

// pressButton presses the button the selector finds (a form post, no
// script needed) and returns the notice of the page that answers.
func pressButton(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	markPage(t, ctx)
	within(t, ctx, chromedp.Click(chromedp.CSS(sel)))
	waitFor(t, ctx, "the answer to "+sel, `window.arenaTestMark !== true && document.readyState !== "loading" && !!document.querySelector('.notice[role="status"]')`, 15*time.Second)
	return text(t, ctx, `.notice[role="status"]`)
}

// TestOrganizerChecksIn: on the demo's Harvest Cup (check-in open; Blaise
// and Hedy not checked in), Ada checks Blaise in and Frances out from the
// registrations, with scripts off; the confirmation of the start names
// the two sides it will withdraw before the click, and the start does.
func TestOrganizerChecksIn(t *testing.T) {
	t.Parallel()
	a := arenatest.New(t, arenatest.Options{})
	ctx := browser(t)
	withoutScripts(t, ctx)
	signIn(t, ctx, a.URL, arenatest.Ada)
	openPage(t, ctx, a.URL+"/admin/tournaments/harvest-cup")
	assert.Contains(t, text(t, ctx, "h1"), "Check-in open")
	assert.Equal(t, 4, count(t, ctx, "td.checked-in .badge"))

	assert.Equal(t, "Check-in saved.", pressButton(t, ctx, `button[aria-label="Check in Blaise Pascal"]`))
	assert.Equal(t, 5, count(t, ctx, "td.checked-in .badge"))
	assert.Equal(t, "Check-in saved.", pressButton(t, ctx, `button[aria-label="Check out Frances Allen"]`))
	assert.Equal(t, 4, count(t, ctx, "td.checked-in .badge"))
	assert.Equal(t, "· 4 checked in", text(t, ctx, "#checked-in-count"))
	screenshot(t, ctx)

	openPage(t, ctx, a.URL+"/admin/tournaments/harvest-cup/status?to=playoffs")
	assert.Contains(t, text(t, ctx, "main"), "First withdraws the 2 sides that have not checked in: Frances Allen, Hedy Lamarr.")
	screenshot(t, ctx, "confirm")
	assert.Equal(t, "The tournament moved to its next step.", click(t, ctx, "/admin/tournaments/harvest-cup/status"))
	names := texts(t, ctx, "table.admin-registrations tbody tr td:first-child")
	assert.Len(t, names, 4)
	for _, n := range names {
		assert.NotContains(t, n, "Frances Allen")
		assert.NotContains(t, n, "Hedy Lamarr")
	}
}
