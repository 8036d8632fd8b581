package web_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
	"arena/worker/server"
)

// TestTournamentReadCost counts the round trips each view of a tournament
// makes to an arena database reached over HTTP (a real libSQL server, as
// on the edge): the API's full tournament, the organizer's, the page, its
// results poll, the embed, the bracket picture, the broadcast view and
// the calendar all read the tournament through one read model
// (tournamentview), and none reads more than it did before, built from
// the database on every request (Cold: no Memo, no cached API bodies) or
// by the native server (Memo). Every public view of a draft is the 404.
func TestTournamentReadCost(t *testing.T) {
	for _, sole := range []bool{false, true} {
		t.Run(map[bool]string{false: "Cold", true: "Memo"}[sole], func(t *testing.T) { tournamentReadCost(t, sole) })
	}
}

func tournamentReadCost(t *testing.T, sole bool) {
	e := arenatest.New(t, arenatest.Options{NoRateLimits: true, InProcess: true, Config: func(c *server.Config) { c.SoleWriter = sole }})
	backend := arenatest.StartCountingLibSQL(t)
	admin := "Bearer " + e.CreateArena(t, "remote", "remote.test", "", map[string]any{
		"databaseUrl": backend.URL, "adminPlatformIds": []string{arenatest.Ada},
	})
	const arena = "http://remote.test"
	api := arena + "/api/v1/admin/tournaments"
	e.API(t, http.MethodPost, api, admin, map[string]any{
		"slug": "cup", "name": "Cup", "format": "groups_playoffs", "maxPlayers": 8, "groupCount": 2, "advancePerGroup": 2,
		"registrationOpensAt": e.Now.Add(-time.Hour).Format(time.RFC3339), "registrationClosesAt": e.Now.Add(time.Hour).Format(time.RFC3339),
		"startsAt": e.Now.Add(2 * time.Hour).Format(time.RFC3339), "smallFinal": true,
	}, http.StatusCreated)
	status := func(s string) {
		e.API(t, http.MethodPost, api+"/cup/status", admin, map[string]any{"status": s}, http.StatusOK)
	}
	resolveAll := func() {
		var out struct{ Matches []arenatest.AdminMatch }
		arenatest.Decode(t, e.API(t, http.MethodGet, api+"/cup/matches", admin, nil, http.StatusOK), &out)
		for _, m := range out.Matches {
			if m.Status != "scheduled" || m.P1 == nil || m.P2 == nil {
				continue
			}
			e.API(t, http.MethodPost, arena+"/api/v1/admin/matches/"+strconv.FormatInt(m.ID, 10)+"/resolve", admin,
				map[string]any{"winner": min(*m.P1, *m.P2), "score": map[string]any{"p1": 3, "p2": 1}}, http.StatusOK)
		}
	}
	e.API(t, http.MethodPost, api, admin, map[string]any{
		"slug": "secret", "name": "Secret Draft", "format": "playoffs_only", "maxPlayers": 8,
		"registrationOpensAt": e.Now.Add(-time.Hour).Format(time.RFC3339), "registrationClosesAt": e.Now.Add(time.Hour).Format(time.RFC3339),
		"startsAt": e.Now.Add(2 * time.Hour).Format(time.RFC3339),
	}, http.StatusCreated)
	for _, path := range []string{"/api/v1/tournaments/secret", "/tournaments/secret", "/tournaments/secret/live", "/tournaments/secret/embed",
		"/tournaments/secret/bracket.svg", "/tournaments/secret/broadcast", "/tournaments/secret/calendar.ics"} {
		req := httptest.NewRequest(http.MethodGet, arena+path, nil)
		w := httptest.NewRecorder()
		e.Handler.ServeHTTP(w, req)
		assert.Equal(t, http.StatusNotFound, w.Code, path)
		assert.NotContains(t, w.Body.String(), "Secret Draft", path)
	}
	status("registration_open")
	for _, id := range arenatest.CupPlayers(8) {
		e.API(t, http.MethodPost, api+"/cup/registrations", admin, map[string]any{"platformId": id}, http.StatusCreated)
	}
	status("registration_closed")
	status("group_stage")
	resolveAll()
	status("playoffs")

	cost := func(path string) int {
		t.Helper()
		get := func() int {
			req := httptest.NewRequest(http.MethodGet, arena+path, nil)
			if strings.Contains(path, "/admin/") {
				req.Header.Set("Authorization", admin)
			}
			w := httptest.NewRecorder()
			e.Handler.ServeHTTP(w, req)
			require.Equal(t, http.StatusOK, w.Code, path)
			return backend.Count()
		}
		get()
		backend.Reset()
		return get()
	}
	// The most round trips each view may make, as measured when the views
	// came to share the read model: with the podium read once completed;
	// with Memo the pages reuse what the last one built and the API its
	// cached body. The calendar reads the tournament, its matches and the
	// names of their sides; the admin's view is never cached.
	type budget struct{ playoffs, completed int }
	cold := map[string]budget{
		"/api/v1/tournaments/cup": {6, 7}, "/api/v1/admin/tournaments/cup": {5, 6},
		"/tournaments/cup": {4, 5}, "/tournaments/cup/live": {4, 5}, "/tournaments/cup/embed": {4, 5},
		"/tournaments/cup/bracket.svg": {4, 5}, "/tournaments/cup/broadcast": {4, 5}, "/tournaments/cup/calendar.ics": {3, 3},
	}
	memo := map[string]budget{
		"/api/v1/tournaments/cup": {0, 0}, "/api/v1/admin/tournaments/cup": {5, 6},
		"/tournaments/cup": {0, 0}, "/tournaments/cup/live": {0, 0}, "/tournaments/cup/embed": {0, 0},
		"/tournaments/cup/bracket.svg": {0, 0}, "/tournaments/cup/broadcast": {0, 0}, "/tournaments/cup/calendar.ics": {3, 3},
	}
	budgets := map[bool]map[string]budget{false: cold, true: memo}[sole]
	check := func(stage string, most func(budget) int) {
		for path, b := range budgets {
			n := cost(path)
			t.Logf("%s %s: %d round trips", stage, path, n)
			assert.LessOrEqual(t, n, most(b), "%s %s", stage, path)
		}
	}
	check("playoffs", func(b budget) int { return b.playoffs })
	// A match's page and its broadcast view read the log's last seq in the
	// statement that reads the match (where their stream starts), not in
	// a round trip of its own: 5 and 3 round trips (6 and 4 when the seq
	// was read first, alone).
	var matches struct{ Matches []arenatest.AdminMatch }
	arenatest.Decode(t, e.API(t, http.MethodGet, api+"/cup/matches", admin, nil, http.StatusOK), &matches)
	var open int64
	for _, m := range matches.Matches {
		if m.Status == "scheduled" && m.P1 != nil && m.P2 != nil {
			open = m.ID
		}
	}
	require.NotZero(t, open, "a playoff match with both sides")
	for path, most := range map[string]int{"/matches/%d": 5, "/matches/%d/broadcast": 3} {
		path = fmt.Sprintf(path, open)
		n := cost(path)
		t.Logf("match %s: %d round trips", path, n)
		assert.LessOrEqual(t, n, most, path)
	}
	for range 4 {
		resolveAll()
	}
	var out struct{ Status string }
	arenatest.Decode(t, e.API(t, http.MethodGet, arena+"/api/v1/tournaments/cup", "", nil, http.StatusOK), &out)
	require.Equal(t, "completed", out.Status)
	check("completed", func(b budget) int { return b.completed })
}
