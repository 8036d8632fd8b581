//go:build !js

package e2e

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"arena/worker/arenatest"
)

// The walk-through of issue 25, point by point, in the browser.

// TestTimesInOneShape: every time a page shows reads in the viewer's
// zone in the service's one shape, the zone named ("20 Nov 2026, 13:00
// CET"), on the public pages and the admin's alike; a same-day window
// names it once, at its end.
func TestTimesInOneShape(t *testing.T) {
	a := newArena(t)
	widths(t, func(t *testing.T, open func(t *testing.T) context.Context) {
		ctx := open(t)
		zone := viewerZones[isPhone(t)]
		inZone(t, ctx, zone.zone)
		named := `(CET|EST|GMT[+−-]\d+)`

		openPage(t, ctx, a.URL+"/")
		window := texts(t, ctx, `section[aria-labelledby="upcoming-heading"] .range time`)[:2]
		assert.Regexp(t, `^\d{1,2} [A-Z][a-z]{2} 2026, \d\d:\d\d$`, window[0], "the start: its day, the zone left for the end")
		assert.Regexp(t, `^\d\d:\d\d `+named+`$`, window[1], "the end names the zone")
		assert.Regexp(t, `^\d{1,2} [A-Z][a-z]{2} 2026, \d\d:\d\d `+named+`$`, text(t, ctx, `.tournament-card dl.facts time`))

		signIn(t, ctx, a.URL, arenatest.Ada)
		openPage(t, ctx, a.URL+"/admin")
		assert.Regexp(t, `^\d{1,2} [A-Z][a-z]{2} 2026, \d\d:\d\d `+named+`$`, text(t, ctx, `main table time`), "the admin's pages: the same shape")
	})
}
