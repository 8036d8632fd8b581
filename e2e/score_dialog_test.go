//go:build !js

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// dialogFor is the Details link of the match on the admin tournament page.
func dialogFor(id int64) string {
	return fmt.Sprintf(`a[data-score-dialog][href="/admin/matches/%d"]`, id)
}

// openDialog clicks the match's Details link and waits for the open
// score dialog; the page stays the same (no load).
func openDialog(t *testing.T, ctx context.Context, id int64) {
	t.Helper()
	markPage(t, ctx)
	within(t, ctx, chromedp.Click(chromedp.CSS(dialogFor(id))), chromedp.WaitVisible(chromedp.CSS("#score-dialog[open] .score-dialog-body")))
	require.True(t, stillTheSamePage(t, ctx), "the dialog opens without a page load")
}

// submitDialog presses the dialog's form's button and waits for the one
// page load it takes: the tournament page again, at the match's row.
func submitDialog(t *testing.T, ctx context.Context, form string, id int64) string {
	t.Helper()
	within(t, ctx, chromedp.Click(chromedp.CSS("#score-dialog "+form+" button[type=submit]")))
	waitFor(t, ctx, "the tournament page again", `window.arenaTestMark !== true && document.readyState !== "loading" && !!document.querySelector('.notice[role="status"]')`, 15*time.Second)
	assert.Equal(t, fmt.Sprintf("#match-%d", id), eval[string](t, ctx, `location.hash`))
	return text(t, ctx, `.notice[role="status"]`)
}

// TestScoreDialog (issue 33, point 4): on the admin tournament page each
// match's Details opens a dialog deciding a game of a series, or the
// whole match (a forfeit here), in one submit that lands back on the
// page: 3 clicks (the match, the winner, the button) and 1 page load per
// score, where the match page took 3 clicks and 2 page loads and left the
// admin on the match page. A disputed match's two reports stand side by
// side in the dialog. Without script, Details is the match page.
func TestScoreDialog(t *testing.T) {
	t.Parallel()
	widths(t, func(t *testing.T, open func(t *testing.T) context.Context) {
		a := newArena(t)
		const slug = "dialog-cup"
		a.OpenCup(t, arenatest.Cup{Slug: slug, MaxPlayers: 4, Players: arenatest.CupPlayers(4), Seeded: true,
			Fields: map[string]any{"smallFinal": false, "bestOf": 3}})
		a.SetStatus(t, slug, "registration_closed", "playoffs")
		sf1, sf2 := a.MatchBySlot(t, slug, "SF1"), a.MatchBySlot(t, slug, "SF2")
		ctx := open(t)
		recordPolicyViolations(t, ctx)
		signIn(t, ctx, a.URL, arenatest.Ada)
		page := a.URL + "/admin/tournaments/" + slug

		t.Run("Game", func(t *testing.T) {
			openPage(t, ctx, page)
			openDialog(t, ctx, sf1.ID)
			assert.Equal(t, "Game 1 of 3", text(t, ctx, "#score-dialog form.game-form h3"))
			within(t, ctx,
				chromedp.Click(chromedp.CSS(fmt.Sprintf(`#score-dialog form.game-form input[name=winner][value="%s"]`, *sf1.P1))),
				chromedp.SetValue(chromedp.CSS("#score-dialog #gameScoreP1"), "16"),
				chromedp.SetValue(chromedp.CSS("#score-dialog #gameScoreP2"), "9"))
			assert.True(t, fitsTheScreen(t, ctx))
			screenshot(t, ctx, "open")
			assert.Equal(t, "Game decided.", submitDialog(t, ctx, "form.game-form", sf1.ID))
			got := a.Admin(t, http.MethodGet, fmt.Sprintf("/api/v1/admin/matches/%d", sf1.ID), nil, http.StatusOK)
			assert.Equal(t, map[string]any{"p1": float64(1), "p2": float64(0)}, got["seriesScore"], "game 1 decided, the series goes on")
			assert.Nil(t, got["winner"])
			assert.Empty(t, policyViolations(t, ctx))
		})

		t.Run("Forfeit", func(t *testing.T) {
			openPage(t, ctx, page)
			openDialog(t, ctx, sf2.ID)
			form := `form:not(.game-form)[action$="/resolve"]`
			within(t, ctx,
				chromedp.Click(chromedp.CSS(fmt.Sprintf(`#score-dialog %s input[name=winner][value="%s"]`, form, *sf2.P2))),
				chromedp.Click(chromedp.CSS("#score-dialog "+form+" input[name=forfeit]")))
			assert.Equal(t, "Match resolved.", submitDialog(t, ctx, form, sf2.ID))
			got := a.Match(t, sf2.ID)
			assert.Equal(t, "forfeited", got.Status)
			require.NotNil(t, got.Winner)
			assert.Equal(t, *sf2.P2, *got.Winner)
			assert.Equal(t, "admin", *got.ResultSource)
		})

		t.Run("Dispute", func(t *testing.T) {
			disputed := winterMatch(t, a, frances)
			fr, bl := a.SignedIn(t, frances), a.SignedIn(t, arenatest.Blaise)
			fr.PostOK(t, disputed.Path("ready"), nil)
			bl.PostOK(t, disputed.Path("ready"), nil)
			fr.PostOK(t, disputed.Path("report"), url.Values{"winner": {frances}, "score_p1": {"3"}, "score_p2": {"0"}})
			bl.PostOK(t, disputed.Path("report/dispute"), url.Values{"reason": {"Frances left before the last round."}})
			openPage(t, ctx, a.URL+"/admin/tournaments/winter-cup")
			openDialog(t, ctx, disputed.ID)
			sides := "#score-dialog .admin-compare > div"
			assert.Equal(t, 2, count(t, ctx, sides), "both sides' reports")
			assert.Contains(t, text(t, ctx, "#score-dialog .admin-compare"), "Frances left before the last round.")
			assert.Equal(t, 1, count(t, ctx, fmt.Sprintf(`#score-dialog a[href="/admin/matches/%d/accept-report"]`, disputed.ID)))
			if !isPhone(t) {
				tops := eval[[]float64](t, ctx, `Array.from(document.querySelectorAll(`+jsString(t, sides)+`)).map(d => d.getBoundingClientRect().top)`)
				assert.Equal(t, tops[0], tops[1], "side by side")
			}
			assert.True(t, fitsTheScreen(t, ctx))
			screenshot(t, ctx, "dispute")
		})

		t.Run("WithoutScript", func(t *testing.T) {
			plain := open(t)
			withoutScripts(t, plain)
			signIn(t, plain, a.URL, arenatest.Ada)
			final := a.MatchBySlot(t, slug, "FINAL")
			openPage(t, plain, page)
			assert.False(t, shown(t, plain, "#score-dialog"), "the dialog stays closed")
			within(t, plain, chromedp.Click(chromedp.CSS(dialogFor(final.ID))), chromedp.WaitVisible(chromedp.CSS("#decision")))
			assert.Equal(t, fmt.Sprintf("/admin/matches/%d", final.ID), eval[string](t, plain, `location.pathname`))
		})
	})
}
