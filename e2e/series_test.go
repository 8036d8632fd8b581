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

// The demo's Spring Showdown: semifinals best of 3 (2-1, 2-0), the final
// best of 5 between Vera Molnár and Wesley Clark at 1-1, game 3 open.
const (
	showdown = "spring-showdown"
	vera     = "76561198000000021"
)

// decideGame decides the game being played of the match through the
// admin API, as a game's confirmed result would.
func decideGame(t *testing.T, a *arenatest.Arena, m arenatest.AdminMatch, game int, winner string) {
	t.Helper()
	a.Admin(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%d/resolve", m.ID), map[string]any{"game": game, "winner": winner}, http.StatusOK)
}

// TestSeriesInTheBrowser follows the Showdown's final at both widths: the
// match page lists its games and the series' score, and an open page
// follows the next game's decision on its own; the bracket marks each
// series' length and the final's score in games; Vera's next steps say
// she leads; the broadcast view names the game.
func TestSeriesInTheBrowser(t *testing.T) {
	t.Parallel()
	widths(t, func(t *testing.T, open func(t *testing.T) context.Context) {
		a := newArena(t)
		final := a.MatchBySlot(t, showdown, "FINAL")
		ctx := open(t)
		recordPolicyViolations(t, ctx)

		t.Run("MatchPage", func(t *testing.T) {
			openPage(t, ctx, a.URL+final.Path(""))
			assert.Equal(t, "Best of 5", text(t, ctx, "#series-heading"))
			assert.Equal(t, "Game 3 of 5 · 1–1", text(t, ctx, "#match-live .series-state"))
			assert.Equal(t, []string{"Game 1", "Game 2"}, texts(t, ctx, "#match-live .game-number"))
			assert.Equal(t, []string{"Wesley Clark won", "Vera Molnár won"}, texts(t, ctx, "#match-live .game-result"))
			assert.Equal(t, "Games won: 1–1 · first to 3 wins", text(t, ctx, "#match-live .series-score"))
			assert.True(t, fitsTheScreen(t, ctx))
			screenshot(t, ctx)

			decideGame(t, a, final, 3, vera)
			waitText(t, ctx, "#match-live .series-state", "Game 4 of 5 · 2–1", 15*time.Second)
			assert.Equal(t, []string{"Wesley Clark won", "Vera Molnár won", "Vera Molnár won"}, texts(t, ctx, "#match-live .game-result"), "the decided game, without a reload")
			assert.Equal(t, []string{"2", "1"}, texts(t, ctx, "#match-live .scoreline span:not(.sr-only):not([aria-hidden])"))
			assert.Empty(t, policyViolations(t, ctx))
		})

		t.Run("Bracket", func(t *testing.T) {
			openPage(t, ctx, a.URL+"/tournaments/"+showdown)
			assert.ElementsMatch(t, []string{"Bo3", "Bo3", "Bo5"}, texts(t, ctx, ".bm .bm-bo"))
			box := fmt.Sprintf(`a.bm[href="/matches/%d"]`, final.ID)
			assert.Equal(t, []string{"2", "1"}, texts(t, ctx, box+" .bm-score"), "the final's games won")
			assert.Contains(t, text(t, ctx, box), "best of 5")
			assert.True(t, fitsTheScreen(t, ctx))
			screenshot(t, ctx)
		})

		t.Run("NextSteps", func(t *testing.T) {
			signIn(t, ctx, a.URL, vera)
			openPage(t, ctx, a.URL+"/tournaments/"+showdown)
			assert.Equal(t, "Game 4 of 5, you lead 2–1", text(t, ctx, "#next-actions .series-state"))
			assert.True(t, fitsTheScreen(t, ctx))
		})

		t.Run("Broadcast", func(t *testing.T) {
			within(t, ctx, chromedp.Navigate(a.URL+final.Path("broadcast")), chromedp.WaitVisible(chromedp.CSS(".bm-series")))
			assert.Equal(t, "Best of 5 · Game 4", text(t, ctx, ".bm-series"))
			assert.Equal(t, "2–1", text(t, ctx, ".broadcast-versus .bm-score"))
		})
	})
}

// TestSeriesReportForm: a player of a live series reports the games each
// side won.
func TestSeriesReportForm(t *testing.T) {
	t.Parallel()
	widths(t, func(t *testing.T, open func(t *testing.T) context.Context) {
		a := newArena(t)
		final := a.MatchBySlot(t, showdown, "FINAL")
		a.ReadyBoth(t, final)
		ctx := open(t)
		signIn(t, ctx, a.URL, vera)
		openPage(t, ctx, a.URL+final.Path(""))
		assert.Equal(t, "Report the series", text(t, ctx, "#match-live .report-form legend"))
		assert.Equal(t, []string{"Games Vera Molnár won", "Games Wesley Clark won"}, texts(t, ctx, "#match-live .report-scores label"))
		assert.True(t, fitsTheScreen(t, ctx))
		screenshot(t, ctx)
	})
}

// TestSeriesOrganizer runs Ada through the series' admin buttons at both
// widths: she decides game 3 of the Showdown's final, is refused (and
// told why) when she reopens a semifinal whose final has started, opens
// a cup's final now, and finds the series' settings in the tournament
// form.
func TestSeriesOrganizer(t *testing.T) {
	t.Parallel()
	widths(t, func(t *testing.T, open func(t *testing.T) context.Context) {
		a := newArena(t)
		final, sf1 := a.MatchBySlot(t, showdown, "FINAL"), a.MatchBySlot(t, showdown, "SF1")
		ctx := open(t)
		signIn(t, ctx, a.URL, arenatest.Ada)

		t.Run("DecideAGame", func(t *testing.T) {
			page := fmt.Sprintf("/admin/matches/%d", final.ID)
			openPage(t, ctx, a.URL+page)
			assert.Equal(t, "Game 3 of 5", text(t, ctx, ".game-form h3"))
			assert.True(t, fitsTheScreen(t, ctx))
			screenshot(t, ctx)
			within(t, ctx,
				chromedp.Click(chromedp.CSS(`.game-form input[name="winner"][value="`+vera+`"]`)),
				chromedp.SendKeys(chromedp.CSS("#gameScoreP1"), "16"),
				chromedp.SendKeys(chromedp.CSS("#gameScoreP2"), "9"))
			markPage(t, ctx)
			within(t, ctx, chromedp.Click(chromedp.CSS(`.game-form button[type="submit"]`)))
			waitFor(t, ctx, "the game decided", `window.arenaTestMark !== true && !!document.querySelector('.notice[role="status"]')`, 15*time.Second)
			assert.Equal(t, "Game decided.", text(t, ctx, `.notice[role="status"]`))
			assert.Equal(t, "Game 4 of 5", text(t, ctx, ".game-form h3"))
			assert.Contains(t, texts(t, ctx, ".admin-games li")[2], "Vera Molnár won (16–9)")
		})

		t.Run("ReopenRefused", func(t *testing.T) {
			page := fmt.Sprintf("/admin/matches/%d", sf1.ID)
			openPage(t, ctx, a.URL+page)
			within(t, ctx, chromedp.Click(chromedp.CSS(`a[href="`+page+`/reopen"]`)), chromedp.WaitVisible(chromedp.CSS(`form[action="`+page+`/reopen"]`)))
			assert.Contains(t, text(t, ctx, "ul.admin-effects"), "fresh window from now", "asked first")
			markPage(t, ctx)
			within(t, ctx, chromedp.Click(chromedp.CSS(`form[action="`+page+`/reopen"] button[type="submit"]`)))
			waitFor(t, ctx, "the refusal", `window.arenaTestMark !== true && !!document.querySelector('.notice[role="alert"]')`, 15*time.Second)
			assert.Contains(t, text(t, ctx, `.notice[role="alert"]`), "This match cannot be reopened: a match it fed has started")
			assert.Equal(t, "confirmed", a.Match(t, sf1.ID).Status, "nothing changed")
			assert.True(t, fitsTheScreen(t, ctx))
		})

		t.Run("OpenRoundNow", func(t *testing.T) {
			a.OpenCup(t, arenatest.Cup{Slug: "later", MaxPlayers: 4, Players: arenatest.CupPlayers(4), Seeded: true})
			a.SetStatus(t, "later", "registration_closed", "playoffs")
			for _, slot := range []string{"SF1", "SF2"} {
				m := a.MatchBySlot(t, "later", slot)
				a.Admin(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%d/resolve", m.ID), map[string]any{"winner": *m.P1}, http.StatusOK)
			}
			openPage(t, ctx, a.URL+"/admin/tournaments/later")
			assert.Equal(t, []string{"Open Final now", "Open Small final now"}, texts(t, ctx, ".open-rounds button"))
			assert.True(t, fitsTheScreen(t, ctx))
			screenshot(t, ctx)
			markPage(t, ctx)
			within(t, ctx, chromedp.Click(chromedp.CSS(`.open-rounds form:first-child button`)))
			waitFor(t, ctx, "the round opened", `window.arenaTestMark !== true && !!document.querySelector('.notice[role="status"]')`, 15*time.Second)
			assert.Equal(t, "The round's matches are open now.", text(t, ctx, `.notice[role="status"]`))
			assert.Equal(t, []string{"Open Small final now"}, texts(t, ctx, ".open-rounds button"))
			fin := a.MatchBySlot(t, "later", "FINAL")
			opens, err := time.Parse(time.RFC3339, fin.OpensAt)
			require.NoError(t, err)
			assert.False(t, opens.After(a.ServiceNow(t)), "the final's window is open")
		})

		t.Run("SeriesSettings", func(t *testing.T) {
			openPage(t, ctx, a.URL+"/admin/tournaments/new")
			assert.Equal(t, []string{"1", "3", "5", "7", "9"}, eval[[]string](t, ctx, `Array.from(document.querySelectorAll("#bestOf option"), o => o.value)`))
			assert.Equal(t, []string{"scheduled", "asap"}, eval[[]string](t, ctx, `Array.from(document.querySelectorAll("#pacing option"), o => o.value)`))
			assert.Equal(t, "", eval[string](t, ctx, `document.querySelector("#finalBestOf").value`), "the final as the playoffs by default")
			assert.True(t, fitsTheScreen(t, ctx))
		})
	})
}
