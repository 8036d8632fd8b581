//go:build !js

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// signIn signs the browser in with the mock form.
func signIn(t *testing.T, ctx context.Context, base, platformID string) {
	t.Helper()
	within(t, ctx,
		chromedp.Navigate(base+"/signin"),
		chromedp.SetValue(chromedp.CSS("#platformId"), platformID),
		chromedp.Submit(chromedp.CSS(`form[action="/auth/mock"]`)),
		chromedp.WaitVisible(chromedp.CSS(`form[action="/signout"]`)),
	)
}

// click presses the button of the form posting to action and waits for
// the page the site answers with (a new page, not the one clicked on): its
// success notice, which it returns.
func click(t *testing.T, ctx context.Context, action string) string {
	t.Helper()
	markPage(t, ctx)
	within(t, ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`form[action=%q] button[type="submit"]`, action))))
	waitFor(t, ctx, "the answer to "+action, `window.arenaTestMark !== true && document.readyState !== "loading" && !!document.querySelector('.notice[role="status"]')`, 15*time.Second)
	return text(t, ctx, `.notice[role="status"]`)
}

// TestTournamentInTheBrowser plays the story: two players sign in
// and register, the admin advances the tournament on the admin pages, both
// players press ready, one reports and the other confirms, and the bracket
// shows the winner advanced.
func TestTournamentInTheBrowser(t *testing.T) {
	t.Parallel()
	a := arenatest.New(t, arenatest.Options{})
	a.OpenCup(t, arenatest.Cup{Slug: "browser-cup", Name: "Browser Cup", MaxPlayers: 4,
		Fields: map[string]any{"smallFinal": false, "matchWindowMinutes": 120}})
	playerA, playerB := arenatest.Blaise, arenatest.Charles

	alice, bob, admin := browser(t), phone(t), browser(t)
	tournamentPage := a.URL + "/tournaments/browser-cup"

	// Player A registers first, two players through the API, B last: seeds
	// by registration order put A (1) against B (4) in the first semifinal.
	signIn(t, alice, a.URL, playerA)
	within(t, alice, chromedp.Navigate(tournamentPage))
	assert.Equal(t, "You are registered.", click(t, alice, "/tournaments/browser-cup/register"))
	for _, id := range []string{"76561198000000011", "76561198000000012"} {
		a.Admin(t, http.MethodPost, "/api/v1/admin/tournaments/browser-cup/registrations", map[string]any{"platformId": id}, http.StatusCreated)
	}
	signIn(t, bob, a.URL, playerB)
	within(t, bob, chromedp.Navigate(tournamentPage))
	click(t, bob, "/tournaments/browser-cup/register")
	assert.Contains(t, text(t, bob, "main"), "All 4 places are taken.")

	// The admin closes registration and starts the playoffs, confirming each step.
	signIn(t, admin, a.URL, arenatest.Ada)
	for _, step := range []string{"registration_closed", "playoffs"} {
		within(t, admin, chromedp.Navigate(a.URL+"/admin/tournaments/browser-cup/status?to="+step))
		assert.Equal(t, "The tournament moved to its next step.", click(t, admin, "/admin/tournaments/browser-cup/status"))
	}
	assert.Equal(t, "playoffs", a.Admin(t, http.MethodGet, "/api/v1/admin/tournaments/browser-cup", nil, http.StatusOK)["status"])

	sf1 := a.MatchBySlot(t, "browser-cup", "SF1")
	require.Equal(t, playerA, *sf1.P1)
	require.Equal(t, playerB, *sf1.P2)
	matchPage := a.URL + sf1.Path("")

	// Both press ready: the match goes live.
	within(t, alice, chromedp.Navigate(matchPage))
	click(t, alice, sf1.Path("ready"))
	within(t, bob, chromedp.Navigate(matchPage))
	assert.Contains(t, click(t, bob, sf1.Path("ready")), "the match is live")
	assert.Equal(t, "live", a.Match(t, sf1.ID).Status)

	// A reports a win 3-1; B confirms it.
	within(t, alice, chromedp.Navigate(matchPage),
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`input[name="winner"][value=%q]`, playerA))),
		chromedp.SetValue(chromedp.CSS(fmt.Sprintf("#score_p1-%d", sf1.ID)), "3"),
		chromedp.SetValue(chromedp.CSS(fmt.Sprintf("#score_p2-%d", sf1.ID)), "1"),
	)
	assert.Equal(t, "Your side reported: Blaise Pascal won (3–1). Waiting for your opponent to confirm.", click(t, alice, sf1.Path("report")))
	within(t, bob, chromedp.Navigate(matchPage))
	assert.Equal(t, "You confirmed the result.", click(t, bob, sf1.Path("report/confirm")))

	done := a.Match(t, sf1.ID)
	assert.Equal(t, "confirmed", done.Status)
	require.NotNil(t, done.ResultSource)
	assert.Equal(t, "player_report", *done.ResultSource)
	final := a.MatchBySlot(t, "browser-cup", "FINAL")
	require.NotNil(t, final.P1)
	assert.Equal(t, playerA, *final.P1, "the winner advanced")

	// The bracket picture shows it: the semifinal's winner marked, and the
	// winner's name in the final's box.
	within(t, bob, chromedp.Navigate(tournamentPage), chromedp.WaitVisible(chromedp.CSS(".bracket")))
	assert.Contains(t, text(t, bob, fmt.Sprintf(`a[href=%q] .bm-seat.win`, sf1.Path(""))), "Blaise Pascal")
	assert.Contains(t, text(t, bob, fmt.Sprintf(`a[href=%q]`, final.Path(""))), "Blaise Pascal")
	screenshot(t, bob)
}
