//go:build !js

package e2e

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
)

// pickLanguage chooses lang with the picker in the page's footer and
// waits for the page to come back in it.
func pickLanguage(t *testing.T, ctx context.Context, lang string) {
	t.Helper()
	within(t, ctx,
		chromedp.SetValue(chromedp.CSS("#lang-choice"), lang),
		chromedp.Submit(chromedp.CSS("form.lang-picker")),
		chromedp.WaitVisible(chromedp.CSS(`html[lang="`+lang+`"] main h1`)),
	)
}

// TestPagesInTheirLanguages ("Done when"): the home, a tournament and a
// match page, chosen in German, Japanese and Arabic with the footer's
// picker, at a desktop's and a phone's width: <html lang dir> follow,
// the navigation reads in the language, times are written in its shape
// by the page's script, nothing overflows the screen, and the Arabic
// pages run right to left (the navigation starts on the right, the
// bracket stays left to right).
func TestPagesInTheirLanguages(t *testing.T) {
	t.Parallel()
	a := newArena(t)
	match := castMatchID(t, a)
	for _, c := range []struct{ lang, dir, nav, time string }{
		{"de", "ltr", "Turniere", "."},
		{"ja", "ltr", "トーナメント", "年"},
		{"ar", "rtl", "البطولات", "،"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			widths(t, func(t *testing.T, open func(t *testing.T) context.Context) {
				ctx := open(t)
				openPage(t, ctx, a.URL+"/")
				pickLanguage(t, ctx, c.lang)
				for _, path := range []string{"/", "/tournaments/winter-cup", fmt.Sprintf("/matches/%d", match)} {
					openPage(t, ctx, a.URL+path)
					assert.Equal(t, c.lang, attr(t, ctx, "html", "lang"), path)
					assert.Equal(t, c.dir, attr(t, ctx, "html", "dir"), path)
					assert.Contains(t, eval[string](t, ctx, `document.querySelector("header.site nav").textContent`), c.nav, path)
					assert.Contains(t, eval[string](t, ctx, `(document.querySelector("time[datetime]:not([data-countdown])") || {textContent: "`+c.time+`"}).textContent`), c.time, path)
					assert.True(t, fitsTheScreen(t, ctx), "%s overflows the screen in %s", path, c.lang)
					if c.lang == "ar" && !isPhone(t) {
						assert.True(t, eval[bool](t, ctx, `(() => { const r = document.querySelector("header.site .brand").getBoundingClientRect(); return r.left > window.innerWidth / 2; })()`),
							"%s: the Arabic header starts on the right", path)
					}
				}
				if c.lang == "ar" {
					openPage(t, ctx, a.URL+"/tournaments/winter-cup")
					if count(t, ctx, ".bracket-scroll") > 0 {
						assert.Equal(t, "ltr", eval[string](t, ctx, `getComputedStyle(document.querySelector(".bracket-scroll")).direction`))
					}
				}
				screenshot(t, ctx, c.lang)
			})
		})
	}
}

// TestNoSeriousAxeViolationsInArabicAndJapanese ("Done when"): axe finds
// no serious or critical violation on the Arabic and the Japanese home
// pages, at both widths (lang and dir are among its checks).
func TestNoSeriousAxeViolationsInArabicAndJapanese(t *testing.T) {
	t.Parallel()
	axe := axeSource(t)
	if axe == "" {
		t.Skip("axe-core is not installed: run scripts/audit.sh once")
	}
	a := newArena(t)
	for _, lang := range []string{"ar", "ja"} {
		t.Run(lang, func(t *testing.T) {
			widths(t, func(t *testing.T, open func(t *testing.T) context.Context) {
				ctx := open(t)
				openPage(t, ctx, a.URL+"/")
				pickLanguage(t, ctx, lang)
				for _, path := range []string{"/", "/tournaments/winter-cup"} {
					openPage(t, ctx, a.URL+path)
					eval[bool](t, ctx, axe+";true")
					found := run(t, ctx, chromedp.Evaluate[[]string](`axe.run(document, { resultTypes: ["violations"] }).then(r => r.violations
						.filter(v => v.impact === "serious" || v.impact === "critical")
						.map(v => v.id + ": " + v.nodes.map(n => n.target.join(" ")).slice(0, 3).join(", ")))`,
						chromedp.EvalAwaitPromise))
					assert.Empty(t, found, path)
				}
			})
		})
	}
}
