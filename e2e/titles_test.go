//go:build !js

package e2e

import (
	"fmt"
	"net/http"
	"regexp"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// demoTitles reads the demo's titles through the public API.
func demoTitles(t *testing.T, a *arenatest.Arena) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, raw := range a.API(t, http.MethodGet, "/api/v1/public/titles", "", nil, http.StatusOK)["titles"].([]any) {
		out = append(out, raw.(map[string]any))
	}
	require.Len(t, out, 2)
	return out
}

func name(v any) string { return v.(map[string]any)["personaName"].(string) }

// TestTitlesInTheBrowser opens the titles page: the Arena Champion's
// holder, the clock counting down on the service clock, the open
// challenge and the lineage as a timeline, all as the API has them. Then
// a player volunteers for the Rookie Belt and the holder accepts the
// challenge, each with the page's buttons, and the page shows the matches
// that came of it.
func TestTitlesInTheBrowser(t *testing.T) {
	t.Parallel()
	a := arenatest.New(t, arenatest.Options{})
	champion := demoTitles(t, a)[0]
	lineage := champion["lineage"].([]any)
	require.Len(t, lineage, 2)

	visitor := browser(t)
	within(t, visitor, chromedp.Navigate(a.URL+"/titles"), chromedp.WaitVisible(chromedp.CSS("#title-arena-champion")))
	assert.Equal(t, "Arena Champion", text(t, visitor, "#title-arena-champion h2"))
	assert.Contains(t, text(t, visitor, "#title-arena-champion .title-holder"), name(champion["holder"]))
	// The clock runs out 28 hours after the service clock's now.
	assert.Regexp(t, regexp.MustCompile(`^1 d [34] h left$`), text(t, visitor, "#title-arena-champion .title-clock time"))
	assert.Contains(t, text(t, visitor, "#title-arena-champion .title-challenge"), name(champion["pendingChallenge"].(map[string]any)["challenger"]))
	reigns := texts(t, visitor, "#title-arena-champion .timeline li")
	require.Len(t, reigns, len(lineage))
	for i, r := range lineage {
		assert.Contains(t, reigns[i], name(r.(map[string]any)["player"]))
	}
	assert.Contains(t, reigns[0], "lost in a title match")
	assert.Contains(t, reigns[1], "current holder")
	assert.Equal(t, []string{"reign lost", "reign current"}, run(t, visitor, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll("#title-arena-champion .timeline li"), n => n.className)`)))
	assert.Equal(t, "Sign in to take part", text(t, visitor, "#title-rookie-belt .title-actions a"))
	screenshot(t, visitor)

	// Blaise volunteers for the Rookie Belt: the coronation against Charles.
	blaise := browser(t)
	signIn(t, blaise, a.URL, arenatest.Blaise)
	within(t, blaise, chromedp.Navigate(a.URL+"/titles"))
	assert.Contains(t, click(t, blaise, "/titles/2/volunteer"), "the coronation match is on")
	rookie := demoTitles(t, a)[1]
	require.NotNil(t, rookie["match"])
	assert.Contains(t, text(t, blaise, "#title-rookie-belt .title-match"), "Coronation: Charles Babbage vs Blaise Pascal")
	assert.Equal(t, "Your title match: ready up", text(t, blaise, "#title-rookie-belt .title-actions a"))

	// Grace, the holder, accepts Margaret's challenge.
	grace := browser(t)
	signIn(t, grace, a.URL, "76561198000000007")
	within(t, grace, chromedp.Navigate(a.URL+"/titles"))
	challenge := fmt.Sprintf("%.0f", champion["pendingChallenge"].(map[string]any)["id"])
	assert.Contains(t, click(t, grace, "/title-challenges/"+challenge+"/accept"), "Challenge accepted")
	assert.Contains(t, text(t, grace, "#title-arena-champion .title-match"), "Title match: Grace Hopper vs Margaret Hamilton")
	match := demoTitles(t, a)[0]["match"].(map[string]any)
	assert.Equal(t, "challenge", match["kind"])
	assert.Equal(t, "Margaret Hamilton", name(match["player2"]))
	screenshot(t, grace, "accepted")
}
