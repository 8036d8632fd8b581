//go:build !js

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"arena/worker/arenatest"
)

// TestLongAndRightToLeftNames: a 64-character name with no space wraps
// (or is cut with the whole name in its title) on the phone's pages, the
// desktop bracket and the broadcast view, and no page gets wider than
// the screen; a right-to-left name is isolated (<bdi>) where it is
// printed in a table or beside other text.
func TestLongAndRightToLeftNames(t *testing.T) {
	t.Parallel()
	a := newArena(t)
	long := strings.Repeat("W", 64)
	const rtl = "محمد الفارسي"
	players := arenatest.CupPlayers(4)
	base := a.OpenCup(t, arenatest.Cup{Slug: "long-names", MaxPlayers: 4})
	for i, id := range players {
		name := fmt.Sprintf("Player %d", i+1)
		switch i {
		case 0:
			name = long
		case 1:
			name = rtl
		}
		a.Admin(t, http.MethodPost, base+"/registrations", map[string]any{"platformId": id, "seed": i + 1, "personaName": name}, http.StatusCreated)
	}
	a.SetStatus(t, "long-names", "registration_closed", "playoffs")
	match := a.Matches(t, "long-names")[0]

	widths(t, func(t *testing.T, open func(t *testing.T) context.Context) {
		ctx := open(t)
		for _, path := range []string{"/tournaments/long-names", match.Path(""), "/players/" + players[0], "/"} {
			openPage(t, ctx, a.URL+path)
			assert.True(t, fitsTheScreen(t, ctx), "%s: %d px wide on a %d px screen", path,
				eval[int](t, ctx, `document.documentElement.scrollWidth`), eval[int](t, ctx, `window.innerWidth`))
		}
		// The broadcast view is a 1920 x 1080 canvas for streaming software.
		for _, path := range []string{match.Path("broadcast"), "/tournaments/long-names/broadcast"} {
			openPage(t, ctx, a.URL+path)
			assert.LessOrEqual(t, eval[int](t, ctx, `document.documentElement.scrollWidth`), 1920, path)
			assert.Contains(t, texts(t, ctx, "bdi"), long, path)
		}
		openPage(t, ctx, a.URL+"/tournaments/long-names")
		assert.Equal(t, long, attr(t, ctx, `.bm-seat .name[title]`, "title"), "a name cut in the bracket keeps it whole in its title")
		assert.Positive(t, count(t, ctx, "bdi"), "names are isolated")
		assert.Contains(t, texts(t, ctx, "bdi"), rtl)
	})
}
