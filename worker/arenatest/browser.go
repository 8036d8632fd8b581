package arenatest

import (
	"context"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// SessionCookie is the website's session cookie.
const SessionCookie = "arena_session"

// Browser is a person's browser on the served arenas: cookies kept per
// host, redirects not followed (each answer is looked at), and any host
// name reaching the test server (http://real.test/... goes to the arena
// with that host). Targets are as for Do.
type Browser struct {
	Client *http.Client
	arena  *Arena
}

// Browser opens a new browser: a visitor.
func (a *Arena) Browser(tb testing.TB) *Browser {
	tb.Helper()
	require.NotEmpty(tb, a.URL, "arenatest: an InProcess arena has no network address for browsers")
	jar, err := cookiejar.New(nil)
	require.NoError(tb, err)
	addr := strings.TrimPrefix(a.URL, "http://")
	dial := &net.Dialer{}
	return &Browser{arena: a, Client: &http.Client{
		Jar: jar,
		Transport: &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return dial.DialContext(ctx, network, addr)
		}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// SignedIn opens a browser signed in on the demo arena as the account.
func (a *Arena) SignedIn(tb testing.TB, platformID string) *Browser {
	tb.Helper()
	b := a.Browser(tb)
	b.SignIn(tb, platformID)
	return b
}

// Page is an answer with its body read.
type Page struct {
	Status int
	// Location is where a redirect goes ("" otherwise).
	Location string
	Body     string
	Header   http.Header
	Cookies  []*http.Cookie
}

// Cookie returns the cookie the answer sets (or clears) by name, or nil.
func (p Page) Cookie(name string) *http.Cookie {
	for _, c := range p.Cookies {
		if c.Name == name {
			return c
		}
	}
	return nil
}

var (
	noticePattern = regexp.MustCompile(`<p class="notice[^"]*"[^>]*>(.*?)</p>`)
	tagPattern    = regexp.MustCompile(`<[^>]*>`)
)

// Notices returns the page's notices (what a form did, or why not) as
// text, joined by " | ".
func (p Page) Notices() string {
	var out []string
	for _, m := range noticePattern.FindAllStringSubmatch(p.Body, -1) {
		out = append(out, html.UnescapeString(tagPattern.ReplaceAllString(m[1], "")))
	}
	return strings.Join(out, " | ")
}

// url resolves a target to an absolute URL.
func (b *Browser) url(to string) string {
	if strings.HasPrefix(to, "/") {
		return b.arena.URL + to
	}
	return to
}

// Send makes a request: form (when not nil) is the urlencoded body,
// header pairs are added.
func (b *Browser) Send(tb testing.TB, method, to string, form url.Values, header ...string) Page {
	tb.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, b.url(to), body)
	require.NoError(tb, err)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := b.Client.Do(req)
	require.NoError(tb, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(tb, err)
	return Page{Status: resp.StatusCode, Location: resp.Header.Get("Location"), Body: string(raw), Header: resp.Header, Cookies: resp.Cookies()}
}

// Get loads a page.
func (b *Browser) Get(tb testing.TB, to string) Page {
	tb.Helper()
	return b.Send(tb, http.MethodGet, to, nil)
}

// Post submits a form from the page's own site, as a browser marks it
// (Origin and Sec-Fetch-Site), so the cross-site check lets it through.
func (b *Browser) Post(tb testing.TB, to string, form url.Values) Page {
	tb.Helper()
	if form == nil {
		form = url.Values{}
	}
	u, err := url.Parse(b.url(to))
	require.NoError(tb, err)
	return b.Send(tb, http.MethodPost, to, form, "Origin", u.Scheme+"://"+u.Host, "Sec-Fetch-Site", "same-origin")
}

// PostOK submits a form that must succeed with a redirect (303) and
// returns where it goes.
func (b *Browser) PostOK(tb testing.TB, to string, form url.Values) string {
	tb.Helper()
	p := b.Post(tb, to, form)
	require.Equal(tb, http.StatusSeeOther, p.Status, "%s: %s", to, p.Notices())
	return p.Location
}

// PostCrossSite submits a form from another site.
func (b *Browser) PostCrossSite(tb testing.TB, to string, form url.Values) Page {
	tb.Helper()
	if form == nil {
		form = url.Values{}
	}
	return b.Send(tb, http.MethodPost, to, form, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")
}

// SignIn signs the browser in on the demo arena with the mock form.
func (b *Browser) SignIn(tb testing.TB, platformID string) {
	tb.Helper()
	b.SignInAt(tb, "", platformID)
}

// SignInAt signs the browser in with the mock form on the arena at base
// (a scheme and host; "" for the demo arena).
func (b *Browser) SignInAt(tb testing.TB, base, platformID string) {
	tb.Helper()
	p := b.Post(tb, base+"/auth/mock", url.Values{"platformId": {platformID}})
	require.Equal(tb, http.StatusSeeOther, p.Status, p.Body)
}

// SignedInAs returns the name the sign-in page greets the browser with on
// the arena at base ("" for the demo arena), or "" for a visitor (the
// name as typed, out of the <bdi> that isolates it).
func (b *Browser) SignedInAs(tb testing.TB, base string) string {
	tb.Helper()
	p := b.Get(tb, base+"/signin")
	require.Equal(tb, http.StatusOK, p.Status)
	_, rest, ok := strings.Cut(p.Body, "Signed in as <strong>")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "</strong>")
	return strings.TrimSuffix(strings.TrimPrefix(name, "<bdi>"), "</bdi>")
}

// Cookies returns the browser's cookies for the arena at base ("" for the
// demo arena).
func (b *Browser) Cookies(base string) []*http.Cookie {
	return b.Client.Jar.Cookies(b.mustURL(base + "/"))
}

// SetCookie puts a cookie in the browser for the arena at base ("" for the
// demo arena), as if the arena had set it.
func (b *Browser) SetCookie(base, name, value string) {
	b.Client.Jar.SetCookies(b.mustURL(base+"/"), []*http.Cookie{{Name: name, Value: value, Path: "/"}})
}

func (b *Browser) mustURL(to string) *url.URL {
	u, err := url.Parse(b.url(to))
	if err != nil {
		panic(err)
	}
	return u
}

// ReadyBoth signs both sides of the match in and presses ready for each
// on the website: the match goes live. It returns their browsers.
func (a *Arena) ReadyBoth(tb testing.TB, m AdminMatch) (p1, p2 *Browser) {
	tb.Helper()
	p1, p2 = a.SignedIn(tb, *m.P1), a.SignedIn(tb, *m.P2)
	for _, b := range []*Browser{p1, p2} {
		p := b.Post(tb, m.Path("ready"), nil)
		require.Equal(tb, http.StatusSeeOther, p.Status, p.Body)
	}
	require.Equal(tb, "live", a.Match(tb, m.ID).Status)
	return p1, p2
}

// Report reports the match's result on the website; score is empty or
// the two sides' scores.
func (b *Browser) Report(tb testing.TB, m AdminMatch, winner string, score ...string) Page {
	tb.Helper()
	form := url.Values{"winner": {winner}}
	if len(score) == 2 {
		form.Set("score_p1", score[0])
		form.Set("score_p2", score[1])
	}
	return b.Post(tb, m.Path("report"), form)
}
