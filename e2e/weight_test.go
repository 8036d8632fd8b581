//go:build !js

package e2e

import (
	"compress/gzip"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// hashedAsset is a static asset's address under its content-hashed name.
var hashedAsset = regexp.MustCompile(`^/static/[a-z]+(\.min)?\.[0-9a-z]+\.(css|js|svg)$`)

// TestLightPagesAtBothWidths loads the public pages at both widths: the
// site's one script is all they load, a live region follows its stream
// with it (no library), the page policy refuses nothing on them, every
// asset is named by its content, and the browser received the page and
// its style sheet gzip-compressed.
func TestLightPagesAtBothWidths(t *testing.T) {
	t.Parallel()
	a := arenatest.New(t, arenatest.Options{})
	final, _ := autumnFinal(t, a)
	open := winterMatch(t, a, arenatest.Ada)
	pages := []struct {
		name, path string
		live       bool
	}{
		{"Home", "/", true}, // the matches being played follow the arena's stream
		{"Ladder", "/ladder", false},
		{"CompletedCup", "/tournaments/autumn-open", false},
		{"DecidedMatch", fmt.Sprintf("/matches/%d", final.ID), false},
		{"RunningCup", "/tournaments/winter-cup", true},
		{"OpenMatch", open.Path(""), true},
		{"SeriesCup", "/tournaments/spring-showdown", true},
		{"SeriesMatch", a.MatchBySlot(t, "spring-showdown", "FINAL").Path(""), true},
	}
	widths(t, func(t *testing.T, openBrowser func(t *testing.T) context.Context) {
		ctx := openBrowser(t)
		recordPolicyViolations(t, ctx)
		for _, p := range pages {
			openPage(t, ctx, a.URL+p.path)
			scripts := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("script[src]"), s => s.getAttribute("src"))`)
			require.Len(t, scripts, 1, "%s: the site's one script", p.name)
			assert.Regexp(t, `^/static/app\.[0-9a-z]+\.js$`, scripts[0])
			if p.live {
				assert.Positive(t, count(t, ctx, ".live-region[data-live-stream]"), p.name)
			} else {
				assert.Zero(t, count(t, ctx, "[data-live-stream]"), p.name)
			}
			assert.Empty(t, policyViolations(t, ctx), "%s: the page policy refused nothing", p.name)
			assets := append(scripts, eval[[]string](t, ctx, `Array.from(document.querySelectorAll("link[href]"), l => l.getAttribute("href"))`)...)
			require.NotEmpty(t, assets)
			for _, src := range assets {
				assert.Regexp(t, hashedAsset, src, "%s: named by its content", p.name)
			}
			// What the browser received: the page and its style sheet
			// compressed.
			nav := eval[map[string]float64](t, ctx, `(() => { const n = performance.getEntriesByType("navigation")[0]; return {enc: n.encodedBodySize, dec: n.decodedBodySize} })()`)
			assert.Less(t, nav["enc"], nav["dec"]/2, "%s: the page came gzip-compressed", p.name)
			css := eval[map[string]float64](t, ctx, `(() => { const n = performance.getEntriesByType("resource").find(r => r.name.includes("/static/app.") && r.name.endsWith(".css")); return n ? {enc: n.encodedBodySize, dec: n.decodedBodySize} : {} })()`)
			if css["dec"] > 0 { // zero when the memory cache served it
				assert.Less(t, css["enc"], css["dec"]/2, "%s: the style sheet came gzip-compressed", p.name)
			}
		}
	})
}

// TestEmbedsAtBothWidths: the embed shows the page's bracket and tables
// without the site's navigation, and may be framed by any site, while
// the page itself refuses to be framed; the bracket picture is a
// standalone SVG of the same boxes.
func TestEmbedsAtBothWidths(t *testing.T) {
	t.Parallel()
	a := arenatest.New(t, arenatest.Options{})
	final, podium := autumnFinal(t, a)
	widths(t, func(t *testing.T, open func(t *testing.T) context.Context) {
		ctx := open(t)
		openPage(t, ctx, a.URL+"/tournaments/autumn-open")
		pageBoxes := eval[[]string](t, ctx, `Array.from(document.querySelectorAll(".bm"), b => b.getAttribute("href"))`)
		require.Len(t, pageBoxes, 8)

		within(t, ctx, chromedp.Navigate(a.URL+"/tournaments/autumn-open/embed"), chromedp.WaitVisible(chromedp.CSS(".bracket")))
		assert.Equal(t, pageBoxes, eval[[]string](t, ctx, `Array.from(document.querySelectorAll(".bm"), b => b.getAttribute("href"))`), "the page's boxes")
		assert.Zero(t, count(t, ctx, "header.site, nav[aria-label=Main], footer.site"), "no navigation chrome")
		assert.Equal(t, "_blank", attr(t, ctx, "base", "target"), "links open the arena in a new tab")
		assert.Contains(t, text(t, ctx, "ol.podium li"), podium[0])
		assert.Equal(t, "Autumn Open", text(t, ctx, ".embed-head h1"))
		assert.Equal(t, 4, count(t, ctx, "table.standings"))
		assert.Zero(t, boxesOffScreen(t, ctx))
		assert.True(t, fitsTheScreen(t, ctx))
		screenshot(t, ctx, "embed")

		// Framed, as a forum would show it: the embed loads, the page does
		// not.
		openPage(t, ctx, a.URL+"/ladder")
		within(t, ctx, chromedp.Evaluate[chromedp.Void](`(() => {
			document.body.innerHTML = "";
			for (const [id, src] of [["embed", "/tournaments/autumn-open/embed"], ["page", "/tournaments/autumn-open"]]) {
				const f = document.createElement("iframe");
				f.id = id; f.src = src; f.style.width = "100%"; f.style.height = "600px";
				f.onload = () => { f.dataset.loaded = "yes" };
				document.body.append(f);
			}
		})()`))
		waitFor(t, ctx, "both frames to load", `document.querySelector("#embed").dataset.loaded === "yes" && document.querySelector("#page").dataset.loaded === "yes"`, seen)
		waitFor(t, ctx, "the embed's bracket in its frame", `document.querySelector("#embed").contentDocument?.querySelectorAll(".bm").length === 8`, seen)
		assert.True(t, eval[bool](t, ctx, `(() => { const d = document.querySelector("#page").contentDocument; return !d || !d.querySelector("main") })()`), "the page refuses to be framed")
		screenshot(t, ctx, "framed")

		// The picture: the same eight matches, the final's players named.
		within(t, ctx, chromedp.Navigate(a.URL+"/tournaments/autumn-open/bracket.svg"))
		waitFor(t, ctx, "the picture", `document.documentElement.tagName === "svg"`, seen)
		assert.Equal(t, 8, count(t, ctx, "svg > g > title"))
		assert.Equal(t, "Autumn Open", text(t, ctx, "svg > title"))
		names := eval[string](t, ctx, `Array.from(document.querySelectorAll("text"), n => n.textContent).join("|")`)
		assert.Contains(t, names, final.Player1.PersonaName)
		assert.Contains(t, names, final.Player2.PersonaName)
		screenshot(t, ctx, "svg")
	})
}

// get fetches a path from the served arena as a client would, asking for
// gzip or not; the body comes decompressed.
func get(t *testing.T, a *arenatest.Arena, path string, gz bool) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, a.URL+path, nil)
	require.NoError(t, err)
	if gz {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var body io.Reader = resp.Body
	if resp.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(resp.Body)
		require.NoError(t, err)
		body = zr
	}
	b, err := io.ReadAll(body)
	require.NoError(t, err)
	return resp, string(b)
}

// TestServedLightAndShareable checks over HTTP what the browser tests
// cannot see: every kind of text the site serves is compressed for a
// client that asks (and only then), hashed assets are kept for a year,
// the calendars carry the match windows, the bracket picture is
// well-formed SVG (none before a bracket exists), and the favicon is
// served.
func TestServedLightAndShareable(t *testing.T) {
	t.Parallel()
	a := arenatest.New(t, arenatest.Options{})
	match := winterMatch(t, a, arenatest.Ada)

	t.Run("Compression", func(t *testing.T) {
		for _, c := range []struct{ path, contentType string }{
			{"/", "text/html"},
			{"/api/v1/tournaments", "application/json"},
			{"/static/app.css", "text/css"},
			{"/static/app.js", "text/javascript"},
			{"/tournaments/autumn-open/bracket.svg", "image/svg+xml"},
			{"/tournaments/winter-cup/calendar.ics", "text/calendar"},
		} {
			zipped, body := get(t, a, c.path, true)
			assert.Equal(t, "gzip", zipped.Header.Get("Content-Encoding"), c.path)
			assert.Contains(t, zipped.Header.Values("Vary"), "Accept-Encoding", c.path)
			assert.Contains(t, zipped.Header.Get("Content-Type"), c.contentType, c.path)
			plain, same := get(t, a, c.path, false)
			assert.Empty(t, plain.Header.Get("Content-Encoding"), c.path)
			assert.Equal(t, same, body, "%s: the same content either way", c.path)
		}
	})

	t.Run("AssetLifetimes", func(t *testing.T) {
		page, body := get(t, a, "/", true)
		require.Equal(t, http.StatusOK, page.StatusCode)
		css := regexp.MustCompile(`href="(/static/app\.[0-9a-z]+\.css)"`).FindStringSubmatch(body)
		require.NotNil(t, css)
		resp, _ := get(t, a, css[1], true)
		assert.Equal(t, "public, max-age=31536000, immutable", resp.Header.Get("Cache-Control"))
		resp, _ = get(t, a, "/static/app.css", true)
		assert.Equal(t, "public, max-age=3600", resp.Header.Get("Cache-Control"), "the plain name for an hour")
		icon, _ := get(t, a, "/favicon.ico", false)
		assert.Equal(t, http.StatusOK, icon.StatusCode)
		assert.Equal(t, "image/x-icon", icon.Header.Get("Content-Type"))
	})

	t.Run("PlayerCalendar", func(t *testing.T) {
		resp, ics := get(t, a, "/players/"+arenatest.Ada+"/calendar.ics", true)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "text/calendar; charset=utf-8", resp.Header.Get("Content-Type"))
		assert.True(t, strings.HasPrefix(ics, "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
		assert.True(t, strings.HasSuffix(ics, "END:VCALENDAR\r\n"))
		for _, line := range strings.Split(strings.TrimSuffix(ics, "\r\n"), "\r\n") {
			assert.LessOrEqual(t, len(line), 75, "folded: %q", line)
		}
		unfolded := strings.ReplaceAll(ics, "\r\n ", "")
		event := fmt.Sprintf("UID:match-%d@%s\r\n", match.ID, arenatest.DemoHost)
		require.Contains(t, unfolded, event)
		ev := unfolded[strings.Index(unfolded, event):]
		ev = ev[:strings.Index(ev, "END:VEVENT")]
		assert.Contains(t, ev, "DTSTART:20261120T120000Z\r\n")
		assert.Contains(t, ev, "DTEND:20261120T140000Z\r\n")
		assert.Contains(t, ev, `SUMMARY:Winter Cup: Edsger Dijkstra vs Ada Lovelace`)
		assert.Contains(t, ev, fmt.Sprintf("URL:%s/matches/%d\r\n", a.URL, match.ID))
	})

	t.Run("TournamentCalendar", func(t *testing.T) {
		resp, ics := get(t, a, "/tournaments/winter-cup/calendar.ics", false)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, 1+len(a.Matches(t, "winter-cup")), strings.Count(ics, "BEGIN:VEVENT"), "its start and every match")
		assert.Contains(t, ics, "SUMMARY:Winter Cup starts\r\n")
	})

	t.Run("BracketPicture", func(t *testing.T) {
		resp, svg := get(t, a, "/tournaments/autumn-open/bracket.svg", true)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "image/svg+xml", resp.Header.Get("Content-Type"))
		dec := xml.NewDecoder(strings.NewReader(svg))
		for {
			_, err := dec.Token()
			if err == io.EOF {
				break
			}
			require.NoError(t, err, "well-formed XML")
		}
		none, _ := get(t, a, "/tournaments/winter-cup/bracket.svg", false)
		assert.Equal(t, http.StatusNotFound, none.StatusCode, "no bracket before the playoffs")
	})
}
