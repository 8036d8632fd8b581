//go:build !js

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// isPhone tells whether a subtest of widths runs at the phone's width.
func isPhone(t *testing.T) bool {
	return strings.Contains(t.Name(), "/phone")
}

// viewerZones are the time zones the two widths read the pages in; each
// keeps the demo's windows (12:00 to 16:00 UTC) within one local day.
var viewerZones = map[bool]struct{ zone, footer string }{
	false: {"Europe/Paris", "Times are shown in Europe/Paris (UTC+01:00)."},
	true:  {"America/New_York", "Times are shown in America/New_York (UTC−05:00)."},
}

// openPage loads a page and waits for its main heading.
func openPage(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	within(t, ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("main h1")))
}

// boxesOffScreen counts the bracket's match boxes that stick out of the
// screen sideways.
func boxesOffScreen(t *testing.T, ctx context.Context) int {
	t.Helper()
	return eval[int](t, ctx, `Array.from(document.querySelectorAll('.bm')).filter(b => { const r = b.getBoundingClientRect(); return r.left < 0 || r.right > window.innerWidth }).length`)
}

// cardsShown reports whether the rows of the table are laid out as cards
// (a phone) rather than table rows.
func cardsShown(t *testing.T, ctx context.Context, table string) bool {
	t.Helper()
	return eval[bool](t, ctx, `getComputedStyle(document.querySelector(`+jsString(t, table+" tbody tr")+`)).display === "grid"`)
}

// TestPublicPagesAtBothWidths reads the public pages as a visitor at a
// desktop's and a phone's width, each in its own time zone: the
// footer names the zone and times read in it (a same-day window with its
// date once); open matches say "Open now"; on the phone the brackets stand
// round by round with tabs, the wide tables are cards that keep the result
// and the time, and nothing pans sideways; group tables explain their
// tie-breakers and mark qualifying places as provisional until the group
// is decided; labels say Started and Ended; the ladder shares ranks on
// equal points; a profile shows initials, current registrations, the
// ladder place and the calendar link; history pages past 20 matches; the
// 404 page has the arena's frame; pages carry link-preview tags and the
// favicon.
func TestPublicPagesAtBothWidths(t *testing.T) {
	t.Parallel()
	a := arenatest.New(t, arenatest.Options{})
	// Three round-robin leagues of the same eight players: 21 decided
	// matches each, a history of two pages.
	for i := 1; i <= 3; i++ {
		slug := fmt.Sprintf("league-%d", i)
		a.OpenCup(t, arenatest.Cup{Slug: slug, Format: "round_robin", MaxPlayers: 8, Players: arenatest.CupPlayers(8), Seeded: true,
			Fields: map[string]any{"smallFinal": false}})
		a.SetStatus(t, slug, "registration_closed", "group_stage")
		a.ResolveScheduled(t, slug, -1)
	}

	widths(t, func(t *testing.T, open func(t *testing.T) context.Context) {
		ctx := open(t)
		phone := isPhone(t)
		zone := viewerZones[phone]
		inZone(t, ctx, zone.zone)

		t.Run("Home", func(t *testing.T) {
			openPage(t, ctx, a.URL+"/")
			assert.Equal(t, zone.footer, text(t, ctx, "footer.site p"))
			open := `section[aria-labelledby="open-heading"]`
			badges := texts(t, ctx, open+" .match-item .badge")
			require.GreaterOrEqual(t, len(badges), 4, "the winter cup's second round, and more")
			for _, b := range badges {
				assert.Equal(t, "Open now", b, "a match whose window is open is not Scheduled")
			}
			assert.Regexp(t, `^[12] h \d+ min left to ready up`, text(t, ctx, open+" .match-when"))
			window := texts(t, ctx, `section[aria-labelledby="upcoming-heading"] .range time`)[:2]
			assert.Contains(t, window[0], "2026", "the start with its date")
			assert.NotContains(t, window[1], "2026", "the end of a same-day window without it")
			assert.Regexp(t, `^\d{1,2}:\d\d`, window[1])
			assert.Equal(t, "2026-11-20T14:00:00.000Z", attr(t, ctx, `section[aria-labelledby="upcoming-heading"] .range time`, "title"))
			assert.True(t, fitsTheScreen(t, ctx))
			screenshot(t, ctx)
		})

		t.Run("Tournaments", func(t *testing.T) {
			openPage(t, ctx, a.URL+"/tournaments")
			assert.Equal(t, phone, cardsShown(t, ctx, "table.tournament-table"), "cards on a phone")
			assert.Equal(t, phone, shown(t, ctx, `td[data-label="Ended"] .when-label`), "each card says what its time is")
			assert.Equal(t, "Ended", attr(t, ctx, `tr:has(a[href="/tournaments/autumn-open"]) td:last-child`, "data-label"))
			assert.Equal(t, "Started", attr(t, ctx, `tr:has(a[href="/tournaments/winter-cup"]) td:last-child`, "data-label"))
			assert.True(t, fitsTheScreen(t, ctx))
			screenshot(t, ctx)
		})

		t.Run("CompletedCup", func(t *testing.T) {
			openPage(t, ctx, a.URL+"/tournaments/autumn-open")
			assert.Contains(t, texts(t, ctx, "dl.facts dt"), "Ended")
			assert.Equal(t, 8, count(t, ctx, ".bracket .bm"))
			tabs := texts(t, ctx, ".round-tabs a")
			assert.Equal(t, []string{"Quarterfinals", "Semifinals", "Final", "Small final"}, tabs)
			assert.Equal(t, phone, shown(t, ctx, ".round-tabs"), "round tabs on a phone only")
			assert.Zero(t, boxesOffScreen(t, ctx), "every match box is on the screen")
			columns := eval[int](t, ctx, `new Set(Array.from(document.querySelectorAll('.bracket .bm'), b => Math.round(b.getBoundingClientRect().left))).size`)
			if phone {
				assert.Equal(t, 1, columns, "one round under the other")
				within(t, ctx, chromedp.Click(chromedp.CSS(`.round-tabs a[href="#round-final"]`)))
				waitFor(t, ctx, "the final's round in view", `(() => { const r = document.querySelector("#round-final").getBoundingClientRect(); return window.scrollY > 0 && r.top >= 0 && r.top < window.innerHeight / 2 })()`, seen)
				screenshot(t, ctx, "final")
			} else {
				assert.GreaterOrEqual(t, columns, 5, "the rounds side by side")
			}
			// Decided groups: every qualifying place is final; the legend
			// explains the tie-breakers and marked rows name theirs.
			assert.Equal(t, 8, count(t, ctx, ".groups .adv-mark"))
			assert.Zero(t, count(t, ctx, ".groups .adv-mark.provisional"))
			assert.Contains(t, text(t, ctx, ".tiebreak-legend"), "head-to-head points (h2h)")
			marks := count(t, ctx, ".groups .tb")
			assert.Positive(t, marks, "some rows were separated by a tie-breaker")
			assert.Regexp(t, `^Above the next row on `, attr(t, ctx, ".groups .tb", "title"))
			assert.Equal(t, "Autumn Open", attr(t, ctx, `meta[property="og:title"]`, "content"))
			assert.Equal(t, a.URL+"/tournaments/autumn-open", attr(t, ctx, `meta[property="og:url"]`, "content"))
			assert.Equal(t, "summary", attr(t, ctx, `meta[name="twitter:card"]`, "content"))
			assert.Regexp(t, `^/static/favicon\.[0-9a-z]+\.svg$`, attr(t, ctx, `link[rel="icon"]`, "href"))
			assert.True(t, fitsTheScreen(t, ctx))
			within(t, ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
			screenshot(t, ctx)
		})

		t.Run("GroupStage", func(t *testing.T) {
			openPage(t, ctx, a.URL+"/tournaments/winter-cup")
			assert.Contains(t, texts(t, ctx, "dl.facts dt"), "Started")
			assert.Equal(t, 4, count(t, ctx, ".groups .adv-mark.provisional"), "two qualifying places a group, both open")
			assert.Contains(t, text(t, ctx, ".groups + .legend"), "is in a qualifying place while the group is still being played")
			// A group's matches, opened: cards on a phone, each with its
			// score or state and its time.
			within(t, ctx, chromedp.Click(chromedp.CSS(".group-matches summary")))
			assert.Equal(t, phone, cardsShown(t, ctx, ".group-matches table.fixtures"))
			for _, cell := range []string{".score", ".fx-status", ".fx-when"} {
				assert.True(t, shown(t, ctx, ".group-matches[open] tbody tr "+cell), cell)
			}
			assert.True(t, fitsTheScreen(t, ctx))
			screenshot(t, ctx)
		})

		t.Run("DoubleElimination", func(t *testing.T) {
			openPage(t, ctx, a.URL+"/tournaments/summer-double")
			assert.Equal(t, []string{"Winners' bracket", "Losers' bracket", "Grand final"}, texts(t, ctx, ".round-tabs a"))
			assert.Equal(t, phone, shown(t, ctx, ".round-tabs"))
			assert.Zero(t, boxesOffScreen(t, ctx))
			assert.True(t, fitsTheScreen(t, ctx))
			screenshot(t, ctx)
		})

		t.Run("OpenMatch", func(t *testing.T) {
			m := winterMatch(t, a, arenatest.Ada)
			openPage(t, ctx, a.URL+m.Path(""))
			assert.Equal(t, "Open now", text(t, ctx, "#match-live .match-state .badge"))
			assert.Regexp(t, `^[12] h \d+ min left to ready up`, text(t, ctx, "#match-live .match-state .muted"))
			assert.Equal(t, "Nobody is ready yet", text(t, ctx, "#match-live .ready-line"))
			assert.Equal(t, "Edsger Dijkstra vs Ada Lovelace", attr(t, ctx, `meta[property="og:title"]`, "content"))
			assert.NotEmpty(t, attr(t, ctx, `meta[property="og:description"]`, "content"))
			assert.Equal(t, []string{"ED", "AL"}, texts(t, ctx, "#match-live .avatar"), "placeholder avatars show initials")
			assert.True(t, fitsTheScreen(t, ctx))
			screenshot(t, ctx)
		})

		t.Run("Ladder", func(t *testing.T) {
			openPage(t, ctx, a.URL+"/ladder")
			rows := eval[[][]string](t, ctx, `Array.from(document.querySelectorAll("main table tbody tr"), r => [r.cells[0].innerText, r.cells[2].innerText])`)
			require.NotEmpty(t, rows)
			shared := 0
			for i := 1; i < len(rows); i++ {
				if rows[i][1] == rows[i-1][1] {
					assert.Equal(t, rows[i-1][0], rows[i][0], "equal points share a rank: %v", rows[i])
					shared++
				} else {
					assert.Equal(t, fmt.Sprint(i+1), rows[i][0], "the next rank after a tie counts the tied")
				}
			}
			assert.Positive(t, shared, "the demo ladder has ties")
			assert.True(t, fitsTheScreen(t, ctx))
			screenshot(t, ctx)
		})

		t.Run("Profile", func(t *testing.T) {
			openPage(t, ctx, a.URL+"/players/"+arenatest.Ada)
			assert.Equal(t, "AL", text(t, ctx, ".page-head .avatar.initials"))
			assert.Equal(t, "=9", text(t, ctx, ".ladder-place dd"), "a rank shared with equal points")
			assert.Equal(t, "Shared with players on the same points", attr(t, ctx, ".ladder-place abbr", "title"))
			entries := texts(t, ctx, ".entries li a")
			assert.Subset(t, entries, []string{"Spring Invitational", "Winter Cup"}, "current registrations")
			assert.NotContains(t, entries, "Autumn Open", "not a finished one")
			assert.Regexp(t, `^\d+%$`, text(t, ctx, ".win-rate"))
			assert.Equal(t, "webcal://"+strings.TrimPrefix(a.URL, "http://")+"/players/"+arenatest.Ada+"/calendar.ics", attr(t, ctx, `.share-links a`, "href"))
			assert.Equal(t, "/players/"+arenatest.Ada+"/calendar.ics", attr(t, ctx, `.share-links a:nth-of-type(2)`, "href"))
			assert.Regexp(t, `^Subscribe to the match calendar \(iCal file\): add it to your calendar app`, text(t, ctx, ".share-links"))
			assert.Equal(t, "profile", attr(t, ctx, `meta[property="og:type"]`, "content"))
			assert.Equal(t, phone, cardsShown(t, ctx, "table.results"))
			for _, cell := range []string{".rs-result", ".rs-date", ".rs-opponent"} {
				assert.True(t, shown(t, ctx, "table.results tbody tr "+cell), cell)
			}
			assert.True(t, fitsTheScreen(t, ctx))
			screenshot(t, ctx)
		})

		t.Run("HistoryPages", func(t *testing.T) {
			openPage(t, ctx, a.URL+"/players/"+arenatest.CupPlayer(1))
			assert.Equal(t, "Recent matches", text(t, ctx, "#recent-heading"))
			assert.Equal(t, 20, count(t, ctx, "table.results tbody tr"))
			assert.Zero(t, count(t, ctx, `.pager a[rel="prev"]`))
			within(t, ctx, chromedp.Click(chromedp.CSS(`.pager a[rel="next"]`)))
			waitText(t, ctx, "#recent-heading", "Earlier matches (page 2)", seen)
			assert.Equal(t, 1, count(t, ctx, "table.results tbody tr"), "21 matches in all")
			assert.Equal(t, "← Newer matches", text(t, ctx, `.pager a[rel="prev"]`))
			assert.Zero(t, count(t, ctx, `.pager a[rel="next"]`))
			screenshot(t, ctx)
		})

		t.Run("NotFound", func(t *testing.T) {
			resp := run(t, ctx, chromedp.NavigateResponse(a.URL+"/no-such-page"))
			assert.Equal(t, int64(http.StatusNotFound), resp.Status)
			assert.Equal(t, "Not found", text(t, ctx, "main h1"))
			assert.Equal(t, "Demo Arena", text(t, ctx, "header.site .brand"))
			assert.Equal(t, "Sign in", text(t, ctx, "header.site .account a"))
			screenshot(t, ctx)
		})
	})
}

// TestProfileAndName: a newcomer signs in (the arena is in mock mode) and
// finds an empty profile (the win rate "—"), names themself on the
// account page, and sees the name and its initials in the header and on
// their profile; the confirmation shows once.
func TestProfileAndName(t *testing.T) {
	t.Parallel()
	a := arenatest.New(t, arenatest.Options{})
	ids := map[bool]string{false: "76561198000000091", true: "76561198000000092"}
	widths(t, func(t *testing.T, open func(t *testing.T) context.Context) {
		ctx := open(t)
		id := ids[isPhone(t)]
		signIn(t, ctx, a.URL, id)
		openPage(t, ctx, a.URL+"/players/"+id)
		assert.Equal(t, "—", text(t, ctx, ".win-rate"), "no match played: no rate")
		assert.Equal(t, "0", text(t, ctx, "dl.stats div:first-child dd"))
		assert.Equal(t, "No match played yet.", text(t, ctx, "#history p.muted"))

		openPage(t, ctx, a.URL+"/account")
		within(t, ctx, chromedp.SetValue(chromedp.CSS("#personaName"), "Grace Tester"))
		assert.Equal(t, "Your name is saved.", click(t, ctx, "/account/name"))
		assert.Equal(t, 1, count(t, ctx, ".notice"), "one confirmation")
		assert.Equal(t, "Grace Tester", text(t, ctx, "header.site .me span:not(.avatar)"))
		assert.Equal(t, "GT", text(t, ctx, "header.site .me .avatar"))
		assert.Equal(t, "Grace Tester", text(t, ctx, ".profile-now strong"))
		assert.True(t, fitsTheScreen(t, ctx))
		screenshot(t, ctx, "account")

		openPage(t, ctx, a.URL+"/players/"+id)
		assert.Equal(t, "Grace Tester", text(t, ctx, "main h1"))
		assert.Equal(t, "GT", text(t, ctx, ".page-head .avatar"))
		assert.Equal(t, "Grace Tester", a.PlayerName(t, id), "the API says the same")
		screenshot(t, ctx, "profile")
	})
}
