package web_test

import (
	"context"
	"crypto/rand"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	store "arena/sql"
	_ "arena/sql/sqlitedriver"
	"arena/worker/platform"
	"arena/worker/server"
	"arena/worker/web"
)

// siteEnv is a native server with the site, serving the demo arena (seeded
// like `make dev`) at an httptest address; the demo arena answers on
// 127.0.0.1.
type siteEnv struct {
	srv        *server.Server
	http       *httptest.Server
	adminToken string // the demo arena's admin API token
	now        time.Time
	dev        *server.DevControls
}

func newSiteEnv(t *testing.T) *siteEnv {
	t.Helper()
	e, _ := buildSiteEnv(t, siteOptions{})
	return e
}

// siteOptions vary the test server.
type siteOptions struct {
	cfg          web.Config // the site's configuration; a test session key when empty
	noRateLimits bool       // benchmarks ask for pages far beyond the public limits
	inProcess    bool       // no listening server: requests go to e.srv directly
	server       func(*server.Config)
}

// buildSiteEnv builds the native server with the site and the seeded demo
// arena.
func buildSiteEnv(tb testing.TB, o siteOptions) (*siteEnv, *web.Site) {
	tb.Helper()
	dir := tb.TempDir()
	open := store.OpenIn(dir)
	dirDB, err := open("file:directory.db", "")
	require.NoError(tb, err)
	_, err = store.Migrate(context.Background(), dirDB, store.DirectoryMigrations)
	require.NoError(tb, err)
	e := &siteEnv{now: time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC), dev: server.NewDevControls()}
	cfg := server.Config{
		Directory: dirDB, OperatorToken: "operator", Provisioner: store.LocalProvisioner{Dir: dir},
		OpenDB: open, Clock: func() time.Time { return e.now }, Random: rand.Reader,
		Logger: slog.New(slog.DiscardHandler), SoleWriter: true, Tickets: &platform.Verifier{}, Dev: e.dev,
	}
	if !o.noRateLimits {
		cfg.RateLimiter = server.NewMemoryRateLimiter()
	}
	if o.server != nil {
		o.server(&cfg)
	}
	e.srv = server.New(cfg)
	if o.cfg.SessionKey == nil {
		o.cfg.SessionKey = []byte("test-session-key")
	}
	site := web.Register(e.srv, o.cfg)
	e.adminToken, err = e.srv.SeedDemo(context.Background())
	require.NoError(tb, err)
	if !o.inProcess {
		e.http = httptest.NewServer(e.srv)
	}
	tb.Cleanup(func() {
		if e.http != nil {
			e.http.Close()
		}
		e.srv.Close()
		dirDB.Close()
	})
	return e, site
}

// browser is an HTTP client with a cookie jar that does not follow
// redirects, like a person's browser session.
func (e *siteEnv) browser(t *testing.T) *http.Client {
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// get fetches a page and returns its status and body.
func (e *siteEnv) get(t *testing.T, c *http.Client, path string) (int, string) {
	t.Helper()
	resp, err := c.Get(e.http.URL + path)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// post submits a form from the site itself (same-origin).
func (e *siteEnv) post(t *testing.T, c *http.Client, path string, form url.Values) *http.Response {
	t.Helper()
	req, err := http.NewRequest("POST", e.http.URL+path, strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", e.http.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := c.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}
