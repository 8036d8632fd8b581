//go:build !js

package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// Demo players of the Winter Cup (groups A: 1, 4, 5, 8 and B: 2, 3, 6, 7)
// besides arenatest's Ada, Blaise and Charles.
const (
	dorothy = "76561198000000004" // Dorothy Vaughan
	edsger  = "76561198000000005" // Edsger Dijkstra
	frances = "76561198000000006" // Frances Allen
	grace   = "76561198000000007" // Grace Hopper
	hedy    = "76561198000000008" // Hedy Lamarr
)

// seen is how long a change may take to reach an open page: a few of the
// tests' live polls (liveEvery).
const seen = 6 * liveEvery

// winterMatch is the demo Winter Cup's second-round match of the player:
// its window is open at the arena's start.
func winterMatch(t *testing.T, a *arenatest.Arena, player string) arenatest.AdminMatch {
	t.Helper()
	for _, m := range a.Matches(t, "winter-cup") {
		if m.Round == "Round 2" && m.P1 != nil && m.P2 != nil && (*m.P1 == player || *m.P2 == player) {
			require.Equal(t, "scheduled", m.Status)
			return m
		}
	}
	t.Fatalf("the winter cup has no second-round match of %s", player)
	return arenatest.AdminMatch{}
}

// TestReadyUpAcrossBrowsers plays a match between two players in two
// browsers, each page left open: Grace on her home page (desktop) and
// Charles on the match page (phone), a visitor on the tournament page
// (phone). Every step of one player reaches the other's open page by its
// live region, never by a reload: the opponent's ready, the match going
// live (an onlooker's home page moves it to "Live matches"), the report
// to confirm, and the confirmed result, which the visitor's group table
// counts too.
func TestReadyUpAcrossBrowsers(t *testing.T) {
	t.Parallel()
	a := newArena(t)
	m := winterMatch(t, a, grace)
	require.Equal(t, []string{grace, arenatest.Charles}, []string{*m.P1, *m.P2})
	matchCard := fmt.Sprintf(`#next-actions .next-match:has(a[href=%q])`, m.Path(""))

	gracePage, charlesPage, visitor, onlooker := browser(t), phone(t), phone(t), phone(t)
	signIn(t, gracePage, a.URL, grace)
	signIn(t, charlesPage, a.URL, arenatest.Charles)

	// Grace's home: her next steps, the open match first with its ready
	// button and the time left, then a registration open to her.
	within(t, gracePage, chromedp.Navigate(a.URL+"/"), chromedp.WaitVisible(chromedp.CSS(matchCard)))
	assert.Equal(t, "Your next steps", text(t, gracePage, "#next-heading"))
	assert.Equal(t, "Your match against Charles Babbage", attr(t, gracePage, "#next-actions .next-match", "aria-label"), "the open match comes first")
	assert.Contains(t, attr(t, gracePage, matchCard, "class"), "your-turn")
	card := text(t, gracePage, matchCard)
	assert.Contains(t, card, "Winter Cup")
	assert.Contains(t, card, "Open now")
	assert.Contains(t, card, "The match goes live when both of you are ready.")
	assert.Regexp(t, `[12] h \d+ min left to ready up`, card, "the countdown to the window's close")
	assert.Equal(t, "I'm ready", text(t, gracePage, matchCard+" .ready-form button"))
	entry := text(t, gracePage, `#next-actions .next-entry`)
	assert.Contains(t, entry, "Spring Invitational")
	assert.Contains(t, entry, "places left")
	assert.Equal(t, "Register", text(t, gracePage, `#next-actions .next-entry button`))
	assert.Regexp(t, `^/api/v1/live\?after=\d+$`, attr(t, gracePage, "#next-actions", "data-live-stream"), "the panel follows the arena's event stream")

	// Charles's home on his phone: the same match, and his registration.
	within(t, charlesPage, chromedp.Navigate(a.URL+"/"), chromedp.WaitVisible(chromedp.CSS(matchCard)))
	assert.Equal(t, "Your match against Grace Hopper", attr(t, charlesPage, "#next-actions .next-match", "aria-label"))
	assert.Regexp(t, `You are registered\.\s+It starts .+ \(in \d+ d \d+ h\)\.`, text(t, charlesPage, "#next-actions .next-entry"))
	assert.True(t, fitsTheScreen(t, charlesPage))
	screenshot(t, charlesPage, "home")

	// Then his match page, left open.
	within(t, charlesPage, chromedp.Navigate(a.URL+m.Path("")), chromedp.WaitVisible(chromedp.CSS("#match-live .ready-form")))
	assert.Equal(t, "Neither of you is ready yet", text(t, charlesPage, "#match-live .ready-line"))
	assert.Equal(t, "Open now", text(t, charlesPage, "#match-live .match-state .badge"))
	assert.Equal(t, []string{"not ready", "not ready"}, texts(t, charlesPage, "#match-live .side-ready"))
	markPage(t, charlesPage)

	// The visitor watches the tournament: Grace has played one match.
	graceRow := `#tournament-results table.standings tr:has(a[href="/players/` + grace + `"])`
	within(t, visitor, chromedp.Navigate(a.URL+"/tournaments/winter-cup"), chromedp.WaitVisible(chromedp.CSS(graceRow)))
	assert.Equal(t, "1", eval[string](t, visitor, `document.querySelector(`+jsString(t, graceRow)+`).querySelectorAll("td.num")[1].innerText`))
	groupB := `#tournament-results .group[aria-label="Group B"] .group-matches`
	fixture := groupB + fmt.Sprintf(` tr:has(a[href=%q]) .score`, m.Path(""))
	assert.True(t, eval[bool](t, visitor, `document.querySelector(`+jsString(t, groupB)+`).open`), "a group being played shows its matches")
	assert.Equal(t, "vs", text(t, visitor, fixture))
	markPage(t, visitor)

	// An onlooker's home page: the match is open now, not yet live.
	livePlaying := fmt.Sprintf(`#now-playing section[aria-labelledby="live-heading"] a[href=%q]`, m.Path(""))
	openPlaying := fmt.Sprintf(`#now-playing section[aria-labelledby="open-heading"] a[href=%q]`, m.Path(""))
	within(t, onlooker, chromedp.Navigate(a.URL+"/"), chromedp.WaitVisible(chromedp.CSS(openPlaying)))
	assert.Zero(t, count(t, onlooker, livePlaying))
	markPage(t, onlooker)

	// Grace readies on her home page: her card says so, once.
	within(t, gracePage, chromedp.Click(chromedp.CSS(matchCard+" .ready-form button")), chromedp.WaitVisible(chromedp.CSS(matchCard+` .notice[role="status"]`)))
	assert.Equal(t, []string{"You are ready — waiting for your opponent."}, texts(t, gracePage, ".notice"), "one confirmation")

	// Charles's open page turns: his opponent is ready.
	waitText(t, charlesPage, "#match-live .ready-line", "Your opponent is ready — waiting for you", seen)
	assert.Equal(t, "Your opponent is ready — waiting for you.", text(t, charlesPage, "#match-live .opponent-ready"))
	assert.Equal(t, []string{"✓ ready", "not ready"}, texts(t, charlesPage, "#match-live .side-ready"))
	assert.True(t, stillTheSamePage(t, charlesPage), "the page changed without a reload")
	screenshot(t, charlesPage, "opponent-ready")

	// Charles readies too: the match is live. Grace's home page, left
	// open, offers the report.
	markPage(t, gracePage)
	assert.Equal(t, "Both sides are ready: the match is live. Good luck!", click(t, charlesPage, m.Path("ready")))
	markPage(t, charlesPage)
	waitText(t, gracePage, matchCard, "The match is live.", seen)
	waitFor(t, onlooker, "the match among the live ones", `document.querySelector(`+jsString(t, livePlaying)+`) !== null`, seen)
	assert.Zero(t, count(t, onlooker, openPlaying))
	assert.True(t, stillTheSamePage(t, onlooker))
	assert.True(t, stillTheSamePage(t, gracePage))
	assert.Equal(t, 1, count(t, gracePage, matchCard+` form[action=`+jsString(t, m.Path("report"))+`]`))

	// Grace reports from her match page, and keeps it open.
	within(t, gracePage, chromedp.Navigate(a.URL+m.Path("")),
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`#match-live input[name="winner"][value=%q]`, grace))),
		chromedp.SetValue(chromedp.CSS(fmt.Sprintf("#score_p1-%d", m.ID)), "3"),
		chromedp.SetValue(chromedp.CSS(fmt.Sprintf("#score_p2-%d", m.ID)), "1"),
		chromedp.Click(chromedp.CSS(`#match-live .report-form button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#match-live .notice[role="status"]`)),
	)
	assert.Equal(t, "Your side reported: Grace Hopper won (3–1). Waiting for your opponent to confirm.", text(t, gracePage, `.notice[role="status"]`))
	markPage(t, gracePage)

	// Charles's page, still the one he opened, asks him to confirm.
	waitText(t, charlesPage, "#match-live .opponent-ready", "Your opponent reported: Grace Hopper won", seen)
	assert.True(t, stillTheSamePage(t, charlesPage))
	screenshot(t, charlesPage, "confirm")
	assert.Equal(t, "You confirmed the result.", click(t, charlesPage, m.Path("report/confirm")))

	// Grace's match page shows the result, and stops asking; the
	// visitor's table counts the match.
	waitText(t, gracePage, "#match-live .match-state", "Confirmed", seen)
	assert.True(t, stillTheSamePage(t, gracePage))
	assert.Equal(t, []string{"3", "–", "1"}, texts(t, gracePage, "#match-live .scoreline > span:not(.sr-only)"))
	assert.Contains(t, text(t, gracePage, "#match-live .score-side.winner"), "Grace Hopper")
	assert.Empty(t, attr(t, gracePage, "#match-live", "data-live-stream"), "a decided match no longer follows a stream")
	screenshot(t, gracePage, "result")
	waitFor(t, visitor, "Grace's second match in the table", `document.querySelector(`+jsString(t, graceRow)+`).querySelectorAll("td.num")[1].innerText === "2"`, seen)
	assert.True(t, stillTheSamePage(t, visitor))
	assert.Equal(t, "3–1", text(t, visitor, fixture), "the group's matches stayed open, with the result")
	screenshot(t, visitor, "table")
	assert.Equal(t, "confirmed", a.Match(t, m.ID).Status)
}

// TestReadyUpWithoutScripts plays Blaise's side of a match on a phone
// with JavaScript off: the forms work, times read in UTC as the footer
// says, nothing polls, and each reload shows where the match stands after
// his opponent's steps.
func TestReadyUpWithoutScripts(t *testing.T) {
	t.Parallel()
	a := newArena(t)
	m := winterMatch(t, a, arenatest.Blaise)
	require.Equal(t, []string{frances, arenatest.Blaise}, []string{*m.P1, *m.P2})
	opponent := a.SignedIn(t, frances)

	ctx := phone(t)
	withoutScripts(t, ctx)
	signIn(t, ctx, a.URL, arenatest.Blaise)
	within(t, ctx, chromedp.Navigate(a.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#next-actions .ready-form")))
	assert.Equal(t, "Times are shown in UTC.", text(t, ctx, "footer.site p"))
	assert.Regexp(t, `^2 h 0 min left to ready up \(the window closes 20 Nov 2026, 14:00 UTC\)\.$`, text(t, ctx, "#next-actions .ready-state .muted"), "the server's words for the countdown and the time")
	assert.Regexp(t, `^\[20 Nov 2026, \d\d:00 \d\d:00 UTC\]$`, fmt.Sprint(texts(t, ctx, `section[aria-labelledby="upcoming-heading"] .range time`)[:2]), "a same-day window names its date once")
	assert.True(t, fitsTheScreen(t, ctx))
	screenshot(t, ctx, "home")

	// Ready from the home page; the opponent readies elsewhere: this page
	// does not change by itself, a reload shows the match live.
	assert.Equal(t, "You are ready — waiting for your opponent.", click(t, ctx, m.Path("ready")))
	opponent.PostOK(t, m.Path("ready"), nil)
	assert.NotContains(t, text(t, ctx, "#next-actions"), "The match is live.", "nothing runs without scripts")
	within(t, ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#next-actions .report-form")))
	assert.Contains(t, text(t, ctx, "#next-actions"), "The match is live.")

	// He reports from his match page; his opponent confirms; a reload shows
	// the result.
	within(t, ctx, chromedp.Navigate(a.URL+m.Path("")),
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`input[name="winner"][value=%q]`, arenatest.Blaise))),
		chromedp.SetValue(chromedp.CSS(fmt.Sprintf("#score_p1-%d", m.ID)), "2"),
		chromedp.SetValue(chromedp.CSS(fmt.Sprintf("#score_p2-%d", m.ID)), "3"),
	)
	assert.Equal(t, "Your side reported: Blaise Pascal won (2–3). Waiting for your opponent to confirm.", click(t, ctx, m.Path("report")))
	opponent.PostOK(t, m.Path("report/confirm"), nil)
	within(t, ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#match-live .scoreboard")))
	assert.Equal(t, "Confirmed", text(t, ctx, "#match-live .match-state .badge"))
	assert.Contains(t, text(t, ctx, "#match-live .score-side.winner"), "Blaise Pascal")
	assert.Zero(t, count(t, ctx, "#match-live form"), "nothing left to do")
	assert.True(t, fitsTheScreen(t, ctx))
	screenshot(t, ctx, "result")
}
