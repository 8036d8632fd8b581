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
