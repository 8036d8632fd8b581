//go:build !js

package e2e

import (
	"context"
	"fmt"
	"net/url"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestOrganizerTools runs the demo arena's admin, Ada, through the
// organizer's pages at a desktop's and a phone's width, reading times in
// Tokyo: the matches table says who a match waits for (cards on a phone);
// a match page has no debug nonce, warns her off deciding her own match,
// carries a dispute's reason with a button accepting the reported result,
// and moves a window typed in her zone; she disqualifies a player during
// the event (their matches forfeited) and removes one before it, edits a
// description and schedule after registration opened, creates and edits a
// season; the settings page leaves the plan to the operator and explains
// the placement points by format.
func TestOrganizerTools(t *testing.T) {
	t.Parallel()
	widths(t, func(t *testing.T, open func(t *testing.T) context.Context) {
		a := arenatest.New(t, arenatest.Options{})
		waiting := winterMatch(t, a, hedy)
		a.SignedIn(t, hedy).PostOK(t, waiting.Path("ready"), nil)
		disputed := winterMatch(t, a, frances)
		fr, bl := a.SignedIn(t, frances), a.SignedIn(t, arenatest.Blaise)
		fr.PostOK(t, disputed.Path("ready"), nil)
		bl.PostOK(t, disputed.Path("ready"), nil)
		fr.PostOK(t, disputed.Path("report"), url.Values{"winner": {frances}, "score_p1": {"3"}, "score_p2": {"0"}})
		bl.PostOK(t, disputed.Path("report/dispute"), url.Values{"reason": {"Frances left before the last round."}})

		ctx := open(t)
		inZone(t, ctx, "Asia/Tokyo")
		signIn(t, ctx, a.URL, arenatest.Ada)

		t.Run("Matches", func(t *testing.T) {
			openPage(t, ctx, a.URL+"/admin/tournaments/winter-cup")
			row := fmt.Sprintf(`table.admin-matches tr:has(a[href="/admin/matches/%d"])`, waiting.ID)
			assert.Equal(t, "Open now", text(t, ctx, row+" .badge"))
			assert.Equal(t, "Hedy Lamarr ready · waiting for Dorothy Vaughan", text(t, ctx, row+" .ready-line"))
			assert.Equal(t, isPhone(t), cardsShown(t, ctx, "table.admin-matches"))
			for _, cell := range []string{".am-status", ".am-when"} {
				assert.True(t, shown(t, ctx, row+" "+cell), cell)
			}
			assert.True(t, fitsTheScreen(t, ctx))
			screenshot(t, ctx)
		})

		t.Run("OwnMatch", func(t *testing.T) {
			own := winterMatch(t, a, arenatest.Ada)
			openPage(t, ctx, a.URL+fmt.Sprintf("/admin/matches/%d", own.ID))
			assert.Contains(t, text(t, ctx, `#decision .notice.error[role="alert"]`), "You play in this match.")
			assert.NotContains(t, eval[string](t, ctx, `document.body.innerText.toLowerCase()`), "nonce", "no debug nonce")
		})

		t.Run("Dispute", func(t *testing.T) {
			openPage(t, ctx, a.URL+fmt.Sprintf("/admin/matches/%d", disputed.ID))
			assert.Equal(t, "Frances left before the last round.", text(t, ctx, "dd.prewrap"))
			accept := fmt.Sprintf("/admin/matches/%d/accept-report", disputed.ID)
			within(t, ctx, chromedp.Click(chromedp.CSS(`a[href="`+accept+`"]`)), chromedp.WaitVisible(chromedp.CSS(`form[action="`+accept+`"]`)))
			assert.Contains(t, text(t, ctx, "ul.admin-effects"), "Only reopening the match takes it back, and only until a match it feeds starts.", "asked first")
			assert.Equal(t, "disputed", a.Match(t, disputed.ID).Status)
			assert.Equal(t, "Match resolved.", click(t, ctx, accept))
			got := a.Match(t, disputed.ID)
			assert.Equal(t, "confirmed", got.Status)
			require.NotNil(t, got.Winner)
			assert.Equal(t, frances, *got.Winner)
			assert.Equal(t, "player_report", *got.ResultSource)
			assert.Equal(t, 3, got.Score.P1)
		})

		t.Run("Reschedule", func(t *testing.T) {
			openPage(t, ctx, a.URL+fmt.Sprintf("/admin/matches/%d", waiting.ID))
			assert.Equal(t, "2026-11-20T21:00", eval[string](t, ctx, `document.querySelector("#opensAt").value`), "12:00 UTC in Tokyo")
			assert.Equal(t, "Asia/Tokyo (UTC+09:00)", text(t, ctx, "#decision [data-zone-hint]"))
			within(t, ctx,
				chromedp.SetValue(chromedp.CSS("#opensAt"), "2026-11-21T09:00"),
				chromedp.SetValue(chromedp.CSS("#closesAt"), "2026-11-21T11:30"),
			)
			assert.Contains(t, click(t, ctx, fmt.Sprintf("/admin/matches/%d/window", waiting.ID)), "window")
			got := a.Match(t, waiting.ID)
			assert.Equal(t, "2026-11-21T00:00:00Z", got.OpensAt, "typed in Tokyo")
			assert.Equal(t, "2026-11-21T02:30:00Z", got.ClosesAt)
			screenshot(t, ctx)
		})

		t.Run("Disqualify", func(t *testing.T) {
			openPage(t, ctx, a.URL+"/admin/tournaments/winter-cup")
			within(t, ctx, chromedp.Click(chromedp.CSS(`a[href="/admin/tournaments/winter-cup/registrations/`+grace+`/remove"]`)))
			waitText(t, ctx, "main h1", "Disqualify Grace Hopper from Winter Cup?", seen)
			assert.Regexp(t, `forfeited to their opponent now \(2 with a known opponent\)`, text(t, ctx, ".admin-effects"))
			screenshot(t, ctx)
			click(t, ctx, "/admin/tournaments/winter-cup/registrations/"+grace+"/remove")
			for _, m := range a.Matches(t, "winter-cup") {
				if m.P1 != nil && m.P2 != nil && (*m.P1 == grace || *m.P2 == grace) && m.Round != "Round 1" {
					assert.Equal(t, "forfeited", m.Status, "match %d", m.ID)
					require.NotNil(t, m.Winner)
					assert.NotEqual(t, grace, *m.Winner)
				}
			}
		})

		t.Run("BeforeTheEvent", func(t *testing.T) {
			openPage(t, ctx, a.URL+"/admin/tournaments/spring-invitational")
			within(t, ctx, chromedp.Click(chromedp.CSS(`a[href="/admin/tournaments/spring-invitational/registrations/`+edsger+`/remove"]`)))
			waitText(t, ctx, "main h1", "Remove Edsger Dijkstra from Spring Invitational?", seen)
			click(t, ctx, "/admin/tournaments/spring-invitational/registrations/"+edsger+"/remove")
			assert.Equal(t, 4, a.Tournament(t, "spring-invitational").PlayerCount)

			// Registration is open: the description and the schedule still
			// change, times in her zone.
			assert.Equal(t, "2026-11-27T21:00", eval[string](t, ctx, `document.querySelector("#detailsStartsAt").value`))
			within(t, ctx,
				chromedp.SetValue(chromedp.CSS("#detailsDescription"), "Sixteen places. Bring a friend."),
				chromedp.SetValue(chromedp.CSS("#detailsStartsAt"), "2026-11-28T20:00"),
			)
			click(t, ctx, "/admin/tournaments/spring-invitational/details")
			openPage(t, ctx, a.URL+"/tournaments/spring-invitational")
			assert.Equal(t, "Sixteen places. Bring a friend.", text(t, ctx, "p.description"))
			assert.Equal(t, "2026-11-28T11:00:00Z", attr(t, ctx, "dl.facts div:nth-child(3) time", "datetime"))
		})

		t.Run("Seasons", func(t *testing.T) {
			openPage(t, ctx, a.URL+"/admin/seasons")
			within(t, ctx,
				chromedp.SetValue(chromedp.CSS("#slug"), "season-2"),
				chromedp.SetValue(chromedp.CSS("#name"), "Season 2"),
				chromedp.SetValue(chromedp.CSS("#startsAt"), "2027-01-01T00:00"),
				chromedp.SetValue(chromedp.CSS("#endsAt"), "2027-03-01T00:00"),
			)
			click(t, ctx, "/admin/seasons")
			assert.Contains(t, texts(t, ctx, "main table td:first-child"), "Season 2 season-2")
			openPage(t, ctx, a.URL+"/admin/seasons/season-2")
			assert.Equal(t, "2027-01-01T00:00", eval[string](t, ctx, `document.querySelector("#startsAt").value`), "as typed, in her zone")
			within(t, ctx, chromedp.SetValue(chromedp.CSS("#name"), "Winter Season"))
			click(t, ctx, "/admin/seasons/season-2")
			openPage(t, ctx, a.URL+"/admin/seasons")
			assert.Contains(t, texts(t, ctx, "main table td:first-child"), "Winter Season season-2")
			assert.Equal(t, "2026-12-31T15:00:00Z", attr(t, ctx, `main table tr:has(a[href="/admin/seasons/season-2"]) time`, "datetime"))
			assert.True(t, fitsTheScreen(t, ctx))
			screenshot(t, ctx)
		})

		t.Run("Settings", func(t *testing.T) {
			openPage(t, ctx, a.URL+"/admin/settings")
			assert.Regexp(t, `^Plan: \S+ \(set by the operator\)$`, text(t, ctx, `fieldset:first-of-type p.muted`))
			assert.Zero(t, count(t, ctx, `[name="plan"]`), "no plan field")
			placement := text(t, ctx, `fieldset:has(.admin-tiers)`)
			assert.Contains(t, placement, "in every format with one")
			assert.Contains(t, placement, "In groups then playoffs, a side knocked out in the group stage has no place")
			assert.NotContains(t, eval[string](t, ctx, `document.body.innerText.toLowerCase()`), "nonce")
		})

		t.Run("NewTournamentForm", func(t *testing.T) {
			openPage(t, ctx, a.URL+"/admin/tournaments/new")
			labels := texts(t, ctx, `label[for$="At"]`)
			assert.Equal(t, []string{"Registration opens", "Registration closes", "Starts (the first matches open then)"}, labels)
			for _, hint := range texts(t, ctx, "[data-zone-hint]") {
				assert.Equal(t, "Asia/Tokyo (UTC+09:00)", hint)
			}
			assert.True(t, fitsTheScreen(t, ctx))
			screenshot(t, ctx)
		})
	})
}
