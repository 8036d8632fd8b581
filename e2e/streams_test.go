//go:build !js

package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// Demo players of the streams features.
const (
	sophie = "76561198000000018" // her channel sophie_casts casts a Winter Cup match
	blaise = arenatest.Blaise    // follows Sophie
	ursula = "76561198000000020"
)

// castMatchID is the Winter Cup match the demo's caster casts (from the
// caster directory API).
func castMatchID(t *testing.T, a *arenatest.Arena) int64 {
	t.Helper()
	for _, c := range a.API(t, "GET", "/api/v1/casters", "", nil, 200)["casters"].([]any) {
		entry := c.(map[string]any)
		if entry["streamLogin"] == "sophie_casts" {
			matches := entry["matches"].([]any)
			require.Len(t, matches, 1)
			return int64(matches[0].(float64))
		}
	}
	t.Fatal("the demo has no caster")
	return 0
}

// TestCasterAndFollowerInTheBrowser: a new player links a channel on the
// account page and claims a caster seat on a match; the match page lists
// both casters with the live badge once the provider says they stream;
// the follower's header counts the unread alert and the inbox says who is
// streaming; the caster directory shows it all.
func TestCasterAndFollowerInTheBrowser(t *testing.T) {
	t.Parallel()
	a := arenatest.New(t, arenatest.Options{})
	id := castMatchID(t, a)
	matchPage := fmt.Sprintf("%s/matches/%d", a.URL, id)

	caster := browser(t)
	signIn(t, caster, a.URL, ursula)
	within(t, caster,
		chromedp.Navigate(a.URL+"/account"),
		chromedp.SetValue(chromedp.CSS("#login"), "Ursula_TV"),
		chromedp.Submit(chromedp.CSS(`form[action="/stream-provider/link"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.linked-channel`)),
	)
	assert.Equal(t, "Your channel is linked.", text(t, caster, `.notice[role="status"]`))
	assert.Equal(t, "ursula_tv", text(t, caster, ".linked-channel"))
	screenshot(t, caster, "account")

	within(t, caster, chromedp.Navigate(matchPage), chromedp.WaitVisible(chromedp.CSS("#cast-actions")))
	assert.Contains(t, text(t, caster, `form[action$="/cast"] button`), "Cast this match (ursula_tv)")
	assert.Equal(t, "You cast this match: your channel is listed as its caster.", click(t, caster, fmt.Sprintf("/matches/%d/cast", id)))
	watch := texts(t, caster, ".watch-list li")
	require.Len(t, watch, 2)
	assert.Contains(t, watch[0], "sophie_casts")
	assert.Contains(t, watch[1], "ursula_tv")
	assert.NotContains(t, strings.Join(watch, " "), "live now", "nobody streams yet")

	a.API(t, "POST", "/__dev/stream-live", "", map[string]any{"logins": []string{"sophie_casts", "ursula_tv"}}, 200)
	a.Tick(t)
	within(t, caster, chromedp.Navigate(matchPage), chromedp.WaitVisible(chromedp.CSS(".watch-list")))
	assert.Equal(t, []string{"live now", "live now"}, texts(t, caster, ".watch-list .stream-live"))
	screenshot(t, caster, "match")

	follower := browser(t)
	signIn(t, follower, a.URL, blaise)
	within(t, follower, chromedp.Navigate(a.URL+"/"), chromedp.WaitVisible(chromedp.CSS("header.site")))
	unread := text(t, follower, "header.site .unread-count")
	assert.NotEqual(t, "", unread, "the header counts the unread alerts")
	within(t, follower, chromedp.Click(chromedp.CSS("header.site .alerts-link")), chromedp.WaitVisible(chromedp.CSS(".alerts")))
	alerts := texts(t, follower, ".alerts li")
	assert.Contains(t, strings.Join(alerts, "\n"), "Sophie Wilson is streaming now: https://www.twitch.tv/sophie_casts")
	screenshot(t, follower, "alerts")
	within(t, follower,
		chromedp.Click(chromedp.CSS(`form[action="/alerts/read"] button`)),
		chromedp.WaitVisible(chromedp.CSS(`.notice[role="status"]`)),
	)
	assert.Empty(t, texts(t, follower, "header.site .unread-count"), "read alerts are not counted")

	within(t, follower, chromedp.Navigate(a.URL+"/players/"+ursula), chromedp.WaitVisible(chromedp.CSS(".follow")))
	assert.Equal(t, "Followed: you will get this player's alerts.", click(t, follower, "/follow/player/"+ursula), "issue 25 point 10: not \"its alerts\"")
	assert.Contains(t, text(t, follower, ".follow-button"), "Following")
	assert.Contains(t, text(t, follower, ".channel"), "ursula_tv")

	within(t, follower, chromedp.Navigate(a.URL+"/casters"), chromedp.WaitVisible(chromedp.CSS("table.casters")))
	rows := texts(t, follower, "table.casters tr.caster-row")
	require.GreaterOrEqual(t, len(rows), 2)
	assert.Contains(t, rows[0], "live now")
	assert.Contains(t, strings.Join(rows[:2], "\n"), "Edsger Dijkstra vs Ada Lovelace Winter Cup · Group A · Round 2", "the cast match by its players, tournament and round")
	assert.Equal(t, 2, count(t, follower, fmt.Sprintf(`table.casters a[href="/matches/%d"]`, id)))
	screenshot(t, follower, "directory")
}

// TestFollowTournamentInTheBrowser follows a tournament from its page and
// finds it on the account page, where it can be unfollowed.
func TestFollowTournamentInTheBrowser(t *testing.T) {
	t.Parallel()
	a := arenatest.New(t, arenatest.Options{})
	ctx := browser(t)
	signIn(t, ctx, a.URL, ursula)
	within(t, ctx, chromedp.Navigate(a.URL+"/tournaments/winter-cup"), chromedp.WaitVisible(chromedp.CSS(".follow")))
	assert.Equal(t, "Follow", text(t, ctx, ".follow-button"))
	within(t, ctx,
		chromedp.Click(chromedp.CSS(".follow-button")),
		chromedp.WaitVisible(chromedp.CSS(`.notice[role="status"]`)),
	)
	assert.Contains(t, text(t, ctx, ".follow-button"), "Following")
	within(t, ctx, chromedp.Navigate(a.URL+"/account"), chromedp.WaitVisible(chromedp.CSS(".follows")))
	assert.Equal(t, []string{"Winter Cup"}, texts(t, ctx, ".follows li > a"))
	within(t, ctx,
		chromedp.Click(chromedp.CSS(".follows .follow-button")),
		chromedp.WaitVisible(chromedp.CSS(`.notice[role="status"]`)),
	)
	assert.Empty(t, texts(t, ctx, ".follows li"))
}
