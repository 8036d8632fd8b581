//go:build !js

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	adminPlayer = "76561198000000001" // the demo arena's first admin
	playerA     = "76561198000000002" // Blaise Pascal
	playerB     = "76561198000000003" // Charles Babbage
)

// adminAPI calls the arena admin API with the demo admin token.
func (a *arena) adminAPI(t *testing.T, method, path string, body any) map[string]any {
	t.Helper()
	var buf bytes.Buffer
	if body != nil {
		require.NoError(t, json.NewEncoder(&buf).Encode(body))
	}
	req, err := http.NewRequest(method, a.URL+path, &buf)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+a.AdminToken)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	require.Less(t, resp.StatusCode, 300, "%s %s: %v", method, path, out)
	return out
}

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

// click presses the button of the form posting to action on a freshly
// loaded page and waits for the page the site answers with: its success
// notice.
func click(t *testing.T, ctx context.Context, action string) {
	t.Helper()
	within(t, ctx,
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`form[action=%q] button[type="submit"]`, action))),
		chromedp.WaitVisible(chromedp.CSS(`.notice[role="status"]`)),
	)
}

func matchBySlot(t *testing.T, a *arena, slug, slot string) map[string]any {
	t.Helper()
	for _, raw := range a.adminAPI(t, "GET", "/api/v1/admin/tournaments/"+slug+"/matches", nil)["matches"].([]any) {
		if m := raw.(map[string]any); m["bracketSlot"] == slot {
			return m
		}
	}
	t.Fatalf("no %s in %s", slot, slug)
	return nil
}

// TestTournamentInTheBrowser plays the story: two players sign in
// and register, the admin advances the tournament on the admin pages, both
// players press ready, one reports and the other confirms, and the bracket
// shows the winner advanced.
func TestTournamentInTheBrowser(t *testing.T) {
	a := startArena(t)
	now := time.Now().UTC()
	a.adminAPI(t, "POST", "/api/v1/admin/tournaments", map[string]any{
		"slug": "browser-cup", "name": "Browser Cup", "description": "Four players, one afternoon.",
		"format": "playoffs_only", "maxPlayers": 4, "smallFinal": false,
		"registrationOpensAt": now.Add(-time.Hour).Format(time.RFC3339), "registrationClosesAt": now.Add(time.Hour).Format(time.RFC3339),
		"startsAt": now.Add(time.Hour).Format(time.RFC3339), "matchWindowMinutes": 120,
	})
	a.adminAPI(t, "POST", "/api/v1/admin/tournaments/browser-cup/status", map[string]any{"status": "registration_open"})

	alice, bob, admin := browser(t), browser(t), browser(t)
	tournamentPage := a.URL + "/tournaments/browser-cup"

	// Player A registers first, two players through the API, B last: seeds
	// by registration order put A (1) against B (4) in the first semifinal.
	signIn(t, alice, a.URL, playerA)
	within(t, alice, chromedp.Navigate(tournamentPage))
	click(t, alice, "/tournaments/browser-cup/register")
	for _, id := range []string{"76561198000000011", "76561198000000012"} {
		a.adminAPI(t, "POST", "/api/v1/admin/tournaments/browser-cup/registrations", map[string]any{"platformId": id})
	}
	signIn(t, bob, a.URL, playerB)
	within(t, bob, chromedp.Navigate(tournamentPage))
	click(t, bob, "/tournaments/browser-cup/register")

	// The admin closes registration and starts the playoffs, confirming each step.
	signIn(t, admin, a.URL, adminPlayer)
	for _, step := range []string{"registration_closed", "playoffs"} {
		within(t, admin, chromedp.Navigate(a.URL+"/admin/tournaments/browser-cup/status?to="+step))
		click(t, admin, "/admin/tournaments/browser-cup/status")
	}
	assert.Equal(t, "playoffs", a.adminAPI(t, "GET", "/api/v1/admin/tournaments/browser-cup", nil)["status"])

	sf1 := matchBySlot(t, a, "browser-cup", "SF1")
	require.Equal(t, playerA, sf1["p1PlatformId"])
	require.Equal(t, playerB, sf1["p2PlatformId"])
	matchPage := fmt.Sprintf("%s/matches/%.0f", a.URL, sf1["id"])
	ready := fmt.Sprintf("/matches/%.0f/ready", sf1["id"])
	report := fmt.Sprintf("/matches/%.0f/report", sf1["id"])

	// Both press ready: the match goes live.
	within(t, alice, chromedp.Navigate(matchPage))
	click(t, alice, ready)
	within(t, bob, chromedp.Navigate(matchPage))
	click(t, bob, ready)
	assert.Equal(t, "live", matchBySlot(t, a, "browser-cup", "SF1")["status"])

	// A reports a win 3-1; B confirms it.
	within(t, alice, chromedp.Navigate(matchPage),
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`input[name="winner"][value=%q]`, playerA))),
		chromedp.SetValue(chromedp.CSS("#score_p1"), "3"),
		chromedp.SetValue(chromedp.CSS("#score_p2"), "1"),
	)
	click(t, alice, report)
	within(t, bob, chromedp.Navigate(matchPage))
	click(t, bob, report+"/confirm")

	done := matchBySlot(t, a, "browser-cup", "SF1")
	assert.Equal(t, "confirmed", done["status"])
	assert.Equal(t, "player_report", done["resultSource"])
	final := matchBySlot(t, a, "browser-cup", "FINAL")
	assert.Equal(t, playerA, final["p1PlatformId"], "the winner advanced")

	// The bracket picture shows it: the semifinal's winner marked, and the
	// winner's name in the final's box.
	within(t, bob, chromedp.Navigate(tournamentPage), chromedp.WaitVisible(chromedp.CSS(".bracket")))
	winner := text(t, bob, fmt.Sprintf(`a[href="/matches/%.0f"] .bm-seat.win`, sf1["id"]))
	assert.Contains(t, winner, "Blaise Pascal")
	assert.Contains(t, text(t, bob, fmt.Sprintf(`a[href="/matches/%.0f"]`, final["id"])), "Blaise Pascal")
	screenshot(t, bob)
}
