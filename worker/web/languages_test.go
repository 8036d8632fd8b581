package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"arena/i18n"
	"arena/worker/arenatest"
)

// TestPagesHoldNoLiteralText ("Done when"): every page of the demo arena
// a visitor, a player and its admin reach by following links, rendered in
// the pseudo-locale (every catalog text between ⟦ and ⟧, its letters
// accented), holds no English outside those brackets: no text node and no
// attribute people read (aria-label, title, placeholder, alt, content of
// a description) but what a user typed (isolated in <bdi>), codes and
// numbers.
func TestPagesHoldNoLiteralText(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	for _, who := range []string{"", arenatest.Ada} {
		b := e.Browser(t)
		if who != "" {
			b.SignIn(t, who)
		}
		b.SetCookie("", "lang", i18n.Pseudo)
		seen := map[string]bool{}
		queue := []string{"/"}
		if who != "" {
			queue = append(queue, "/admin", "/account", "/alerts")
		}
		pages := 0
		for len(queue) > 0 && pages < 400 {
			path := queue[0]
			queue = queue[1:]
			if seen[path] {
				continue
			}
			seen[path] = true
			p := b.Get(t, path)
			if p.Status != http.StatusOK || !strings.HasPrefix(p.Header.Get("Content-Type"), "text/html") {
				continue
			}
			pages++
			doc, err := html.Parse(strings.NewReader(p.Body))
			require.NoError(t, err, path)
			for _, found := range literalText(doc) {
				t.Errorf("%s (as %q): %q is not from a catalog", path, who, found)
			}
			for _, link := range links(doc) {
				if !seen[link] {
					queue = append(queue, link)
				}
			}
		}
		t.Logf("as %q: %d pages read", who, pages)
		assert.Greater(t, pages, 20, "the crawl reached the pages")
	}
}

// TestPageLanguage: a page reads in the picker's language (cookie lang),
// else the best of Accept-Language Arena speaks, else the arena's
// defaultLocale; it says which in <html lang dir> and varies by
// Accept-Language. The picker keeps the choice and goes back; a language
// Arena does not speak is refused (422) and changes nothing.
func TestPageLanguage(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	b := e.Browser(t)
	for _, c := range []struct{ accept, want string }{
		{"", `<html lang="en" dir="ltr">`},
		{"de-AT,de;q=0.9", `<html lang="de" dir="ltr">`},
		{"ar-EG", `<html lang="ar" dir="rtl">`},
		{"zh-CN,zh;q=0.8", `<html lang="zh-Hans" dir="ltr">`},
		{"sv-SE", `<html lang="en" dir="ltr">`},
	} {
		p := b.Send(t, http.MethodGet, "/", nil, "Accept-Language", c.accept)
		require.Equal(t, http.StatusOK, p.Status)
		assert.Contains(t, p.Body, c.want, c.accept)
		assert.Contains(t, p.Header.Values("Vary"), "Accept-Language")
	}
	assert.Contains(t, b.Send(t, http.MethodGet, "/", nil, "Accept-Language", "de").Body, ">Turniere<")
	for _, c := range []struct{ accept, want string }{{"en", `lang="en"`}, {"ar", `lang="ar" dir="rtl"`}, {"de", `lang="de"`}} {
		assert.Contains(t, b.Send(t, http.MethodGet, "/tournaments", nil, "Accept-Language", c.accept).Body, "<html "+c.want, "/tournaments in %s", c.accept)
	}

	refused := b.Post(t, "/lang", url.Values{"lang": {"xx"}, "next": {"/tournaments"}})
	assert.Equal(t, http.StatusUnprocessableEntity, refused.Status)
	assert.Empty(t, refused.Cookies)
	chosen := b.Post(t, "/lang", url.Values{"lang": {"ja"}, "next": {"/tournaments"}})
	assert.Equal(t, http.StatusSeeOther, chosen.Status)
	assert.Equal(t, "/tournaments", chosen.Location)
	assert.Contains(t, b.Send(t, http.MethodGet, "/", nil, "Accept-Language", "de").Body, `<html lang="ja" dir="ltr">`, "the picker over the browser")
	away := b.Post(t, "/lang", url.Values{"lang": {"ko"}, "next": {"https://evil.example/"}})
	assert.Equal(t, "/", away.Location, "the picker never leaves the arena")

	e.Admin(t, "PUT", "/api/v1/admin/settings", map[string]any{"defaultLocale": "fr"}, 200)
	visitor := e.Browser(t)
	assert.Contains(t, visitor.Get(t, "/").Body, `<html lang="fr" dir="ltr">`, "the arena's defaultLocale")
	assert.Contains(t, visitor.Send(t, http.MethodGet, "/", nil, "Accept-Language", "es").Body, `<html lang="es" dir="ltr">`)
}

// links are the page's links to other pages of the site (not its static
// files, feeds, images or API).
func links(doc *html.Node) []string {
	var out []string
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode || n.Data != "a" {
			continue
		}
		for _, a := range n.Attr {
			if a.Key != "href" {
				continue
			}
			u, err := url.Parse(a.Val)
			if err != nil || u.Host != "" || !strings.HasPrefix(u.Path, "/") {
				continue
			}
			skip := false
			for _, p := range []string{"/static/", "/api/", "/__dev", "/auth/", "/signout", "/avatars/", "/discord/"} {
				skip = skip || strings.HasPrefix(u.Path, p)
			}
			for _, s := range []string{".ics", ".svg", ".json", ".png", "/live", "/embed", "/export"} {
				skip = skip || strings.HasSuffix(u.Path, s)
			}
			if !skip {
				u.Fragment = ""
				out = append(out, u.String())
			}
		}
	}
	return out
}

// readAttrs are the attributes people read (or hear).
var readAttrs = []string{"aria-label", "title", "placeholder", "alt", "aria-description"}

// english finds runs of Latin letters outside the pseudo-locale's
// brackets; a bracket slot's code ("SF1", "QF4", "W2M1") is not English,
// and neither is a series' "Bo3", which players of every language say.
var (
	english  = regexp.MustCompile(`[A-Za-z][A-Za-z0-9]+`)
	slotCode = regexp.MustCompile(`^([A-Z]{1,3}[0-9]*([A-Z][0-9]+)?|Bo[0-9]+)$`)
)

// allowed are the words a page may show untranslated: names of products,
// standards and the arena's own codes.
var allowed = []string{"Arena", "UTC", "API", "JSON", "iCal", "Discord", "Web", "Push", "OK", "vs", "ID", "URL", "HTTPS", "BO", "TBD"}

// literalText returns the English a page holds outside catalogs: text and
// read attributes outside ⟦⟧, <bdi> (what a user typed), <code>, <pre>,
// <kbd>, <samp>, <script>, <style>, and elements marked translate="no",
// class "mono", dir="auto" (what a user typed, where <bdi> cannot go: an
// <option>) or with a lang of their own.
func literalText(doc *html.Node) []string {
	var out []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "bdi", "code", "pre", "kbd", "samp", "script", "style", "textarea", "title":
				return
			}
			for _, a := range n.Attr {
				if (a.Key == "translate" && a.Val == "no") || (a.Key == "class" && slices.Contains(strings.Fields(a.Val), "mono")) ||
					(a.Key == "lang" && n.Data != "html") || (a.Key == "dir" && a.Val == "auto") {
					return // a code, text in a language of its own (the picker's names), what a user typed
				}
				if slices.Contains(readAttrs, a.Key) && !namesItsName(n, a.Val) {
					out = append(out, unbracketed(a.Val)...)
				}
				if n.Data == "meta" && a.Key == "content" && slices.ContainsFunc(n.Attr, func(m html.Attribute) bool {
					return m.Key == "name" && m.Val == "description"
				}) {
					out = append(out, unbracketed(a.Val)...)
				}
			}
		}
		if n.Type == html.TextNode {
			out = append(out, unbracketed(n.Data)...)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

// namesItsName reports whether an attribute's value is the name the
// element shows in a <bdi> (a bracket seat's title holding the whole of a
// long name): what a user typed.
func namesItsName(n *html.Node, val string) bool {
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && d.Data == "bdi" && d.FirstChild != nil && d.FirstChild.Data == val {
			return true
		}
	}
	return false
}

// unbracketed returns the English words of s outside ⟦⟧.
func unbracketed(s string) []string {
	var out []string
	depth := 0
	var b strings.Builder
	flush := func() {
		for _, w := range english.FindAllString(b.String(), -1) {
			if !slices.Contains(allowed, w) && !slotCode.MatchString(w) {
				out = append(out, strings.TrimSpace(b.String()))
				break
			}
		}
		b.Reset()
	}
	for _, r := range s {
		switch r {
		case '⟦':
			if depth == 0 {
				flush()
			}
			depth++
		case '⟧':
			depth--
		default:
			if depth == 0 {
				b.WriteRune(r)
			}
		}
	}
	flush()
	return out
}
