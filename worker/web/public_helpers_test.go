package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// pubDemoHost is the host the demo arena answers on.
const pubDemoHost = "127.0.0.1"

// pubServe sends a request straight to the server (no network) for the demo
// arena and returns the recorder.
func (e *siteEnv) pubServe(method, path, auth string, body any) *httptest.ResponseRecorder {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			panic(err)
		}
		rd = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, path, rd)
	req.Host = pubDemoHost
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	return rec
}

// pubAPI calls a JSON endpoint, requires the status and decodes the answer.
func (e *siteEnv) pubAPI(tb testing.TB, method, path, auth string, body any, want int) map[string]any {
	tb.Helper()
	rec := e.pubServe(method, path, auth, body)
	require.Equal(tb, want, rec.Code, "%s %s: %s", method, path, rec.Body.String())
	var out map[string]any
	if rec.Body.Len() > 0 {
		require.NoError(tb, json.Unmarshal(rec.Body.Bytes(), &out), rec.Body.String())
	}
	return out
}

// pubAdmin calls the demo arena's admin API.
func (e *siteEnv) pubAdmin(tb testing.TB, method, path string, body any, want int) map[string]any {
	tb.Helper()
	return e.pubAPI(tb, method, path, "Bearer "+e.adminToken, body, want)
}

// pubCupPlayer is the account id of test player i (not a demo player).
func pubCupPlayer(i int) string { return fmt.Sprintf("765611980001%05d", i) }

// pubCreateCup creates a tournament through the admin API with registration
// open now and n players registered (seeded in order), and returns its
// admin path. groups and advance apply to groups_playoffs (0 otherwise).
func (e *siteEnv) pubCreateCup(tb testing.TB, slug, name, format string, max, groups, advance, n int) string {
	tb.Helper()
	body := map[string]any{
		"slug": slug, "name": name, "description": "A test cup.", "format": format, "maxPlayers": max,
		"registrationOpensAt":  e.now.Add(-time.Hour).Format(time.RFC3339),
		"registrationClosesAt": e.now.Add(24 * time.Hour).Format(time.RFC3339),
		"startsAt":             e.now.Add(48 * time.Hour).Format(time.RFC3339),
		"smallFinal":           true, "matchWindowMinutes": 60,
	}
	if groups > 0 {
		body["groupCount"], body["advancePerGroup"] = groups, advance
	}
	e.pubAdmin(tb, "POST", "/api/v1/admin/tournaments", body, http.StatusCreated)
	base := "/api/v1/admin/tournaments/" + slug
	e.pubAdmin(tb, "POST", base+"/status", map[string]any{"status": "registration_open"}, http.StatusOK)
	for i := 1; i <= n; i++ {
		e.pubAdmin(tb, "POST", base+"/registrations", map[string]any{
			"platformId": pubCupPlayer(i), "personaName": fmt.Sprintf("Cup Player %d", i), "seed": i,
		}, http.StatusCreated)
	}
	return base
}

// pubSetStatus moves a tournament through the given statuses.
func (e *siteEnv) pubSetStatus(tb testing.TB, base string, statuses ...string) {
	tb.Helper()
	for _, s := range statuses {
		e.pubAdmin(tb, "POST", base+"/status", map[string]any{"status": s}, http.StatusOK)
	}
}

// pubResolve resolves up to limit (-1: all) scheduled matches with
// both sides known, the lower account id winning 3-1, and returns how
// many it resolved.
func (e *siteEnv) pubResolve(tb testing.TB, base string, limit int) int {
	tb.Helper()
	list := e.pubAdmin(tb, "GET", base+"/matches", nil, http.StatusOK)
	done := 0
	for _, raw := range list["matches"].([]any) {
		m := raw.(map[string]any)
		if m["status"] != "scheduled" || m["p1PlatformId"] == nil || m["p2PlatformId"] == nil || done == limit {
			continue
		}
		p1, p2 := m["p1PlatformId"].(string), m["p2PlatformId"].(string)
		score := map[string]any{"p1": 3, "p2": 1}
		if p2 < p1 {
			score = map[string]any{"p1": 1, "p2": 3}
		}
		e.pubAdmin(tb, "POST", fmt.Sprintf("/api/v1/admin/matches/%.0f/resolve", m["id"]), map[string]any{
			"winner": min(p1, p2), "score": score,
		}, http.StatusOK)
		done++
	}
	return done
}

// pubSeedBigCup plays a 64-player groups_playoffs cup (8 groups of 8, the top
// 4 of each into a bracket of 32) up to the middle of the playoffs: the
// groups and the first round decided, half of the round of 16 too.
func (e *siteEnv) pubSeedBigCup(tb testing.TB, slug string) string {
	tb.Helper()
	base := e.pubCreateCup(tb, slug, "Big Cup", "groups_playoffs", 64, 8, 4, 64)
	e.pubSetStatus(tb, base, "registration_closed", "group_stage")
	e.pubResolve(tb, base, -1)
	e.pubSetStatus(tb, base, "playoffs")
	e.pubResolve(tb, base, 16)
	e.pubResolve(tb, base, 4)
	return base
}
