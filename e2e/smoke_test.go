//go:build !js

package e2e

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestVisitorSeesTheDemoArena opens the front page as a new visitor: the
// arena's name, the three tournament sections with the demo's cups, and
// a way to sign in.
func TestVisitorSeesTheDemoArena(t *testing.T) {
	t.Parallel()
	a := arenatest.New(t, arenatest.Options{})
	ctx := browser(t)
	within(t, ctx, chromedp.Navigate(a.URL+"/"), chromedp.WaitVisible(chromedp.CSS("header.site")))
	assert.Regexp(t, `^Times are shown in \S+ \(UTC[+−]\d\d:\d\d\)\.$`, text(t, ctx, "footer.site p"), "the footer names the viewer's zone")
	assert.Equal(t, "Demo Arena", text(t, ctx, "header.site .brand"))
	assert.Equal(t, "Demo Arena", text(t, ctx, "main h1"))
	assert.Equal(t, "Sign in", text(t, ctx, "header.site .account a"))
	headings := texts(t, ctx, "main h2")
	assert.Subset(t, headings, []string{"Running now", "Registration open", "Completed"})
	links := texts(t, ctx, `main a[href^="/tournaments/"]`)
	assert.Subset(t, links, []string{"Winter Cup", "Spring Invitational", "Autumn Open"})
	screenshot(t, ctx)
}

// autumnFinal reads the demo's completed cup through the public API: its
// final and its podium, best first.
func autumnFinal(t *testing.T, a *arenatest.Arena) (final arenatest.PublicMatch, podium []string) {
	t.Helper()
	cup := a.Tournament(t, "autumn-open")
	for _, col := range cup.Bracket {
		if col.Label == "Final" {
			final = col.Matches[0]
		}
	}
	require.NotNil(t, final.Winner, "the demo's final is decided")
	for _, p := range cup.Podium {
		podium = append(podium, p.Player.PersonaName)
	}
	require.Len(t, podium, 4)
	return final, podium
}

// TestCompletedCupOnAPhone opens the completed demo cup at a phone's width:
// the podium and the four group tables are there, the final's box marks
// its winner, and the bracket stands round by round: every box fits the
// screen, nothing pans sideways.
func TestCompletedCupOnAPhone(t *testing.T) {
	t.Parallel()
	a := arenatest.New(t, arenatest.Options{})
	final, podium := autumnFinal(t, a)
	ctx := phone(t)
	within(t, ctx,
		chromedp.Navigate(a.URL+"/tournaments/autumn-open"),
		chromedp.WaitVisible(chromedp.CSS(`.bracket-scroll[role="region"]`)),
	)
	assert.Equal(t, "Autumn Open", text(t, ctx, "main h1"))
	places := texts(t, ctx, "ol.podium li")
	require.Len(t, places, 4)
	for i, name := range podium {
		assert.Contains(t, places[i], name, "place %d", i+1)
	}
	assert.Equal(t, []string{"Group A", "Group B", "Group C", "Group D"}, texts(t, ctx, "caption"))
	winner := text(t, ctx, fmt.Sprintf(`a[href="/matches/%d"] .bm-seat.win`, final.ID))
	assert.Contains(t, winner, final.Winner.PersonaName)
	assert.Zero(t, boxesOffScreen(t, ctx), "every match box is on the screen")
	assert.True(t, fitsTheScreen(t, ctx), "the page itself does not scroll sideways")
	screenshot(t, ctx)
}

// TestDesktopPages opens the main public pages at desktop width; each shows
// what the API says it must, and is saved as a screenshot.
func TestDesktopPages(t *testing.T) {
	t.Parallel()
	a := arenatest.New(t, arenatest.Options{})
	final, podium := autumnFinal(t, a)
	ladder := a.API(t, http.MethodGet, "/api/v1/ladder", "", nil, http.StatusOK)["ladder"].([]any)
	require.NotEmpty(t, ladder)
	leader := ladder[0].(map[string]any)["player"].(map[string]any)["personaName"].(string)
	ctx := browser(t)

	t.Run("Home", func(t *testing.T) {
		within(t, ctx, chromedp.Navigate(a.URL+"/"), chromedp.WaitVisible(chromedp.CSS("main h1")))
		assert.Equal(t, "Demo Arena", text(t, ctx, "main h1"))
		assert.Subset(t, texts(t, ctx, "main h2"), []string{"Live matches", "Open now", "Upcoming"})
		screenshot(t, ctx)
	})
	t.Run("CompletedCup", func(t *testing.T) {
		within(t, ctx, chromedp.Navigate(a.URL+"/tournaments/autumn-open"), chromedp.WaitVisible(chromedp.CSS(".bracket")))
		assert.Equal(t, "Autumn Open", text(t, ctx, "main h1"))
		assert.Contains(t, text(t, ctx, "ol.podium li"), podium[0], "the champion first")
		box := text(t, ctx, fmt.Sprintf(`a[href="/matches/%d"]`, final.ID))
		assert.Contains(t, box, final.Player1.PersonaName)
		assert.Contains(t, box, final.Player2.PersonaName)
		screenshot(t, ctx)
	})
	t.Run("Ladder", func(t *testing.T) {
		within(t, ctx, chromedp.Navigate(a.URL+"/ladder"), chromedp.WaitVisible(chromedp.CSS("main table")))
		assert.Equal(t, "Ladder", text(t, ctx, "main h1"))
		rows := texts(t, ctx, `main table th[scope="row"]`)
		assert.Len(t, rows, len(ladder), "one row a player")
		assert.Equal(t, leader, rows[0], "the leader first")
		screenshot(t, ctx)
	})
	t.Run("Player", func(t *testing.T) {
		within(t, ctx, chromedp.Navigate(a.URL+"/players/"+arenatest.Ada), chromedp.WaitVisible(chromedp.CSS("main h1")))
		assert.Equal(t, "Ada Lovelace", text(t, ctx, "main h1"))
		assert.Subset(t, texts(t, ctx, "main h2"), []string{"Trophies", "Upcoming matches", "Recent matches"})
		screenshot(t, ctx)
	})
}
