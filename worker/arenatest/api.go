package arenatest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Targets: a path ("/api/v1") is on the demo arena's host; an absolute
// URL ("http://real.test/api/v1") names the host it goes to.

// target splits a target into the request's host and path with query.
func target(t string) (host, path string) {
	if strings.HasPrefix(t, "/") {
		return DemoHost, t
	}
	u, err := url.Parse(t)
	if err != nil || u.Host == "" {
		panic("arenatest: a target is a path or an absolute URL: " + t)
	}
	return u.Host, u.RequestURI()
}

// Do sends one JSON API request in process (no network) and returns the
// status and the decoded answer (nil when the body is empty). auth is the
// Authorization header's value ("Bearer <token>", "Platform MOCK:<id>")
// or ""; body is nil, a string sent as it is, or a value sent as JSON;
// header pairs are added. An answer with a body must be JSON.
func (a *Arena) Do(tb testing.TB, method, to, auth string, body any, header ...string) (int, map[string]any) {
	tb.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		require.NoError(tb, err)
		rd = bytes.NewReader(raw)
	}
	host, path := target(to)
	req := httptest.NewRequest(method, path, rd)
	req.Host = host
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	a.Handler.ServeHTTP(rec, req)
	var out map[string]any
	if rec.Body.Len() > 0 {
		assert.Equal(tb, "application/json", rec.Header().Get("Content-Type"), "%s %s", method, to)
		require.NoError(tb, json.Unmarshal(rec.Body.Bytes(), &out), rec.Body.String())
	}
	return rec.Code, out
}

// API is Do requiring the answer's status.
func (a *Arena) API(tb testing.TB, method, to, auth string, body any, want int) map[string]any {
	tb.Helper()
	status, out := a.Do(tb, method, to, auth, body)
	require.Equal(tb, want, status, "%s %s: %v", method, to, out)
	return out
}

// Admin calls the demo arena's admin API with its admin token.
func (a *Arena) Admin(tb testing.TB, method, path string, body any, want int) map[string]any {
	tb.Helper()
	return a.API(tb, method, path, "Bearer "+a.AdminToken, body, want)
}

// Game calls the game-client API as account, with a mock platform ticket.
func (a *Arena) Game(tb testing.TB, method, path, account string, body any, want int) map[string]any {
	tb.Helper()
	return a.API(tb, method, path, "Platform MOCK:"+account, body, want)
}

// Decode reads an API answer into a typed value.
func Decode(tb testing.TB, answer map[string]any, into any) {
	tb.Helper()
	raw, err := json.Marshal(answer)
	require.NoError(tb, err)
	require.NoError(tb, json.Unmarshal(raw, into))
}

// CreateArena creates another arena through the operator API, answering
// on host, and returns its admin token. A publisher key puts it in real
// mode (platform tickets and sign-in); extra fields are added to the
// request.
func (a *Arena) CreateArena(tb testing.TB, slug, host, publisherKey string, extra map[string]any) string {
	tb.Helper()
	req := map[string]any{
		"slug": slug, "name": "Arena " + slug, "hosts": []string{host}, "plan": "free",
		"appIds": []string{"480"}, "publisherKey": publisherKey,
	}
	for k, v := range extra {
		req[k] = v
	}
	out := a.API(tb, http.MethodPost, "/api/v1/operator/arenas", "Bearer "+a.OperatorToken, req, http.StatusCreated)
	return out["adminToken"].(string)
}

// Advance moves the service clock forward through /__dev/clock.
func (a *Arena) Advance(tb testing.TB, d time.Duration) {
	tb.Helper()
	a.API(tb, http.MethodPost, "/__dev/clock", "", map[string]any{"advanceSeconds": int64(d.Seconds())}, http.StatusOK)
}

// ServiceNow is the service clock: Now with the dev clock's offset.
func (a *Arena) ServiceNow(tb testing.TB) time.Time {
	tb.Helper()
	out := a.API(tb, http.MethodPost, "/__dev/clock", "", map[string]any{"advanceSeconds": 0}, http.StatusOK)
	now, err := time.Parse(time.RFC3339, out["now"].(string))
	require.NoError(tb, err)
	return now
}

// Tick runs every scheduled job once.
func (a *Arena) Tick(tb testing.TB) {
	tb.Helper()
	a.API(tb, http.MethodPost, "/__dev/tick", "", nil, http.StatusOK)
}
