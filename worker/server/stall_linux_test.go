package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/openapi/openapitest"
	"arena/sql/libsqltest"
	"arena/worker/arenatest"
	"arena/worker/server"
)

// stallDeadline is the database deadline of the stall tests
// (store.Opener.Timeout), short to keep them quick; stallSlack is what an
// answer may take beyond it on a busy machine.
const (
	stallDeadline = time.Second
	stallSlack    = 750 * time.Millisecond
)

// stallEnv is the service with the website, two arenas on real libSQL
// servers (stalled.test, whose server the test pauses or kills, and
// healthy.test) and, in each, a two-player bracket whose match is live
// with player 1's result acknowledged.
type stallEnv struct {
	*arenatest.Arena
	stalled, healthy *libsqltest.Server
	admins           map[string]string         // host -> admin token
	matches          map[string]float64        // host -> its cup's match
	live             map[string]map[string]any // host -> the match's live-match object
	// signedIn is player 1's browser, signed in on the stalled arena (nil
	// without the site).
	signedIn *arenatest.Browser
	// longest is the longest answer the stalled arena gave.
	mu      sync.Mutex
	longest time.Duration
}

func newStallEnv(t *testing.T, o arenatest.Options) *stallEnv {
	t.Helper()
	o.NoDemo, o.OperatorToken, o.DBTimeout = true, operatorToken, stallDeadline
	o.Now = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	e := &stallEnv{Arena: arenatest.New(t, o), stalled: libsqltest.StartServer(t), healthy: libsqltest.StartServer(t),
		admins: map[string]string{}, matches: map[string]float64{}, live: map[string]map[string]any{}}
	e.Handler = conforming(t, e.Server)
	for host, db := range map[string]*libsqltest.Server{"stalled.test": e.stalled, "healthy.test": e.healthy} {
		req := map[string]any{"slug": strings.TrimSuffix(host, ".test"), "name": "Arena " + host, "hosts": []string{host},
			"plan": "indie", "appIds": []string{"480"}, "gracePeriodSeconds": 60, "databaseUrl": db.URL}
		status, body := e.Do(t, "POST", "http://ops.test/api/v1/operator/arenas", "Bearer "+operatorToken, req)
		require.Equal(t, http.StatusCreated, status, body)
		e.admins[host] = body["adminToken"].(string)
		e.liveMatch(t, host)
	}
	if !o.NoSite {
		e.signedIn = e.Browser(t)
		e.signedIn.SignInAt(t, "http://stalled.test", playerID(1))
	}
	return e
}

// conforming checks every API answer of h against the OpenAPI document
// (the 503s included); the site's pages are not in it.
func conforming(t *testing.T, h http.Handler) http.Handler {
	rec := openapitest.NewRecorder(t)
	rec.AllowUndocumented()
	return rec.Handler(h)
}

// admin calls host's admin API, requiring the status.
func (e *stallEnv) admin(t *testing.T, method, host, path string, body any, want int) map[string]any {
	t.Helper()
	status, out := e.Do(t, method, "http://"+host+path, "Bearer "+e.admins[host], body)
	require.Equal(t, want, status, "%s %s%s: %v", method, host, path, out)
	return out
}

// liveMatch creates host's cup of players 1 and 2, makes its match live
// and has player 1 submit the result (player 1 wins): acknowledged.
func (e *stallEnv) liveMatch(t *testing.T, host string) {
	t.Helper()
	body := (&testEnv{e.Arena}).tournamentBody("cup", "playoffs_only", 2)
	delete(body, "groupCount")
	delete(body, "advancePerGroup")
	e.admin(t, "POST", host, "/api/v1/admin/tournaments", body, 201)
	base := "/api/v1/admin/tournaments/cup"
	e.admin(t, "POST", host, base+"/status", map[string]any{"status": "registration_open"}, 200)
	for i := 1; i <= 2; i++ {
		e.admin(t, "POST", host, base+"/registrations", map[string]any{"platformId": playerID(i), "seed": i}, 201)
	}
	for _, status := range []string{"registration_closed", "playoffs"} {
		e.admin(t, "POST", host, base+"/status", map[string]any{"status": status}, 200)
	}
	m := e.admin(t, "GET", host, base+"/matches", nil, 200)["matches"].([]any)[0].(map[string]any)
	e.matches[host] = m["id"].(float64)
	for i := 1; i <= 2; i++ {
		e.game(t, "POST", host, e.matchPath(host, "ready"), i, nil, 200)
	}
	e.live[host] = e.game(t, "GET", host, "/api/v1/me/live-match", 1, nil, 200)
	out := e.game(t, "POST", host, e.matchPath(host, "result"), 1, e.submission(host), 200)
	require.Equal(t, "awaiting_result", out["matchStatus"], out)
}

func (e *stallEnv) matchPath(host, action string) string {
	return fmt.Sprintf("/api/v1/matches/%.0f/%s", e.matches[host], action)
}

// submission is host's match result as both players send it.
func (e *stallEnv) submission(host string) map[string]any {
	res, hash := result(e.live[host], playerID(1), "")
	return submission(res, hash)
}

// game calls host's game API as player i, requiring the status.
func (e *stallEnv) game(t *testing.T, method, host, path string, i int, body any, want int) map[string]any {
	t.Helper()
	status, out := e.Do(t, method, "http://"+host+path, "Platform MOCK:"+playerID(i), body)
	require.Equal(t, want, status, "%s %s%s: %v", method, host, path, out)
	return out
}

// answer is one request's answer and how long it took.
type answer struct {
	status int
	header http.Header
	body   string
	took   time.Duration
}

// call sends one request in process, timed.
func (e *stallEnv) call(method, host, path, auth string, body any) answer {
	var raw []byte
	if body != nil {
		raw, _ = json.Marshal(body)
	}
	req := httptest.NewRequest(method, path, bytes.NewReader(raw))
	req.Host = host
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	rec := httptest.NewRecorder()
	start := time.Now()
	e.Handler.ServeHTTP(rec, req)
	return answer{status: rec.Code, header: rec.Header(), body: rec.Body.String(), took: time.Since(start)}
}

// routeKinds are one route of each kind on host: the public API, the
// admin API, a ticketed game route (a read and a write) and a page.
func (e *stallEnv) routeKinds(host string) []struct {
	name, method, path, auth string
	body                     any
	page                     bool
} {
	return []struct {
		name, method, path, auth string
		body                     any
		page                     bool
	}{
		{name: "PublicAPI", method: "GET", path: "/api/v1/tournaments/cup"},
		// Reads the live set, shows nobody live when it cannot, then reads
		// on: one deadline all the same (store.FailFast).
		{name: "PublicAPIAfterAFallback", method: "GET", path: "/api/v1/casters"},
		{name: "Admin", method: "GET", path: "/api/v1/admin/tournaments/cup/matches", auth: "Bearer " + e.admins[host]},
		{name: "GameRead", method: "GET", path: "/api/v1/me/live-match", auth: "Platform MOCK:" + playerID(2)},
		{name: "GameWrite", method: "POST", path: e.matchPath(host, "result"), auth: "Platform MOCK:" + playerID(2), body: e.submission(host)},
		{name: "Page", method: "GET", path: "/tournaments/cup", page: true},
		{name: "PageAfterAFallback", method: "GET", path: "/casters", page: true},
	}
}

// assertUnavailable requests every route kind of the stalled arena, all
// at once, and requires 503 database_unavailable with Retry-After (the
// site: its error page) within the deadline.
func (e *stallEnv) assertUnavailable(t *testing.T) {
	t.Helper()
	var wg sync.WaitGroup
	for _, r := range e.routeKinds("stalled.test") {
		wg.Go(func() {
			a := e.call(r.method, "stalled.test", r.path, r.auth, r.body)
			e.record(a.took)
			assert.Equal(t, http.StatusServiceUnavailable, a.status, "%s: %s", r.name, a.body)
			assert.NotEmpty(t, a.header.Get("Retry-After"), r.name)
			assert.Less(t, a.took, stallDeadline+stallSlack, "%s answered within the deadline", r.name)
			if r.page {
				assert.Contains(t, a.header.Get("Content-Type"), "text/html", r.name)
				assert.Contains(t, a.body, "not answering", "the site's error page")
				assert.Contains(t, a.body, "Arena stalled.test", "branded: the arena's frame")
			} else {
				assert.JSONEq(t, `{"error":"database_unavailable"}`, a.body, r.name)
			}
		})
	}
	// A signed-in player's page that needs the session: not sent to sign
	// in again.
	wg.Go(func() {
		start := time.Now()
		p := e.signedIn.Get(t, "http://stalled.test/account")
		took := time.Since(start)
		e.record(took)
		assert.Equal(t, http.StatusServiceUnavailable, p.Status, "signed-in page: %s %s", p.Location, p.Body)
		assert.NotEmpty(t, p.Header.Get("Retry-After"))
		assert.Less(t, took, stallDeadline+stallSlack, "signed-in page answered within the deadline")
	})
	wg.Wait()
}

// record keeps the longest answer of the stalled arena.
func (e *stallEnv) record(took time.Duration) {
	e.mu.Lock()
	e.longest = max(e.longest, took)
	e.mu.Unlock()
}

// assertHealthy requests the read routes of host and requires normal
// answers, each well within the deadline.
func (e *stallEnv) assertHealthy(t *testing.T, host string) {
	t.Helper()
	for _, r := range e.routeKinds(host) {
		if r.method != "GET" {
			continue
		}
		a := e.call(r.method, host, r.path, r.auth, nil)
		assert.Equal(t, http.StatusOK, a.status, "%s %s: %s", host, r.name, a.body)
		assert.Less(t, a.took, stallDeadline, "%s %s", host, r.name)
	}
	if host == "stalled.test" {
		p := e.signedIn.Get(t, "http://stalled.test/account")
		assert.Equal(t, http.StatusOK, p.Status, "signed-in page: %s", p.Location)
	}
}

// TestStalledArenaDatabase: an arena whose libSQL server is paused
// (SIGSTOP) or killed answers every route kind with 503
// database_unavailable and Retry-After within the deadline, while another
// arena answers normally; once the server is back, normal answers come
// within a second, nothing acknowledged before is lost, and the write
// refused meanwhile is safe to send again.
func TestStalledArenaDatabase(t *testing.T) {
	for _, mode := range []struct {
		name        string
		stop, start func(*libsqltest.Server)
	}{
		{"Paused", (*libsqltest.Server).Pause, (*libsqltest.Server).Resume},
		{"Killed", (*libsqltest.Server).Kill, (*libsqltest.Server).Restart},
	} {
		t.Run(mode.name, func(t *testing.T) {
			e := newStallEnv(t, arenatest.Options{})
			mode.stop(e.stalled)
			stopped := true
			defer func() {
				if stopped {
					mode.start(e.stalled)
				}
			}()

			e.assertUnavailable(t)
			e.assertHealthy(t, "healthy.test")
			e.assertUnavailable(t) // again: the first failures left nothing stuck

			mode.start(e.stalled)
			stopped = false
			back := time.Now()
			e.assertHealthy(t, "stalled.test")
			recovery := time.Since(back)
			assert.Less(t, recovery, time.Second, "normal answers within a second of the server's return")
			t.Logf("%s: deadline %v, longest answer while stalled %v, every read route answering normally %v after the server's return",
				mode.name, stallDeadline, e.longest.Round(10*time.Microsecond), recovery.Round(time.Millisecond))

			// Acknowledged before the stall: the tournament, its players and
			// player 1's submission.
			adminMatch := e.admin(t, "GET", "stalled.test", fmt.Sprintf("/api/v1/admin/matches/%.0f", e.matches["stalled.test"]), nil, 200)
			subs, _ := adminMatch["submissions"].([]any)
			require.NotEmpty(t, subs, "player 1's acknowledged submission: %v", adminMatch)
			// Player 2's submission met the stall: its outcome was unknown
			// (a paused server may run it once it resumes). Sending it
			// again is safe: the match ends confirmed once, for the
			// result both sent.
			status, out := e.Do(t, "POST", "http://stalled.test"+e.matchPath("stalled.test", "result"), "Platform MOCK:"+playerID(2), e.submission("stalled.test"))
			if status == http.StatusOK {
				assert.Equal(t, "confirmed", out["matchStatus"], out)
			} else {
				assert.Equal(t, http.StatusConflict, status, out)
				assert.Equal(t, "already_resolved", out["error"], "the stalled request ran once the server resumed")
			}
			m := e.admin(t, "GET", "stalled.test", fmt.Sprintf("/api/v1/admin/matches/%.0f", e.matches["stalled.test"]), nil, 200)
			assert.Equal(t, "confirmed", m["status"], m)
			assert.Equal(t, playerID(1), m["winner"], m)
		})
	}
}

// TestScheduledJobsSkipAStalledArena: the scheduled jobs over two arenas,
// one of whose libSQL server is paused, finish within about the deadline,
// report the stalled arena failed and do the other arena's work (a grace
// period ran out in both); once the server is back, the next run does the
// stalled arena's.
func TestScheduledJobsSkipAStalledArena(t *testing.T) {
	e := newStallEnv(t, arenatest.Options{NoSite: true})
	status := func(host string) string {
		m := e.admin(t, "GET", host, fmt.Sprintf("/api/v1/admin/matches/%.0f", e.matches[host]), nil, 200)
		return m["status"].(string)
	}
	tick := func() (server.ScheduledReport, time.Duration) {
		start := time.Now()
		out := e.API(t, "POST", "/__dev/tick", "", nil, http.StatusOK)
		took := time.Since(start)
		var report server.ScheduledReport
		arenatest.Decode(t, out, &report)
		return report, took
	}

	_, baseline := tick() // nothing due yet: what a run costs with both arenas up

	e.Advance(t, 2*time.Minute) // past both arenas' 60 s grace period
	e.stalled.Pause()
	report, took := tick()
	e.stalled.Resume()
	t.Logf("the run with a stalled arena took %v (deadline %v; %v with both up)", took.Round(time.Millisecond), stallDeadline, baseline.Round(time.Millisecond))
	assert.Less(t, took, stallDeadline+baseline+stallSlack, "about the deadline: the stalled arena is skipped")
	assert.Equal(t, []string{"stalled"}, report.Failed)
	assert.Equal(t, 1, report.Jobs["grace_period"], "the healthy arena's grace period ran out")
	assert.Equal(t, "confirmed", status("healthy.test"))
	assert.Equal(t, "awaiting_result", status("stalled.test"))

	report, _ = tick()
	assert.Empty(t, report.Failed)
	assert.Equal(t, "confirmed", status("stalled.test"), "done once the server is back")
}

// TestStalledDirectory: with the directory's libSQL server paused, every
// host answers 503 database_unavailable with Retry-After within the
// deadline (pages: the site's error page), the operator API too; normal
// answers come back once it resumes.
func TestStalledDirectory(t *testing.T) {
	directory := libsqltest.StartServer(t)
	a := arenatest.New(t, arenatest.Options{NoDemo: true, InProcess: true, OperatorToken: operatorToken,
		DBTimeout: stallDeadline, DirectoryURL: directory.URL})
	a.Handler = conforming(t, a.Server)
	a.CreateArena(t, "north", "north.test", "", nil) // a local arena database
	e := &stallEnv{Arena: a}

	directory.Pause()
	resumed := false
	defer func() {
		if !resumed {
			directory.Resume()
		}
	}()
	var wg sync.WaitGroup
	for _, r := range []struct{ name, host, path, auth string }{
		{"ArenaAPI", "north.test", "/api/v1", ""},
		{"ArenaPage", "north.test", "/", ""},
		{"UnknownHost", "nowhere.test", "/api/v1", ""},
		{"Operator", "ops.test", "/api/v1/operator/arenas", "Bearer " + operatorToken},
	} {
		wg.Go(func() {
			ans := e.call("GET", r.host, r.path, r.auth, nil)
			assert.Equal(t, http.StatusServiceUnavailable, ans.status, "%s: %s", r.name, ans.body)
			assert.NotEmpty(t, ans.header.Get("Retry-After"), r.name)
			assert.Less(t, ans.took, stallDeadline+stallSlack, r.name)
			if r.name == "ArenaPage" {
				assert.Contains(t, ans.header.Get("Content-Type"), "text/html")
				assert.Contains(t, ans.body, "not answering")
			} else {
				assert.JSONEq(t, `{"error":"database_unavailable"}`, ans.body, r.name)
			}
		})
	}
	wg.Wait()

	directory.Resume()
	resumed = true
	back := time.Now()
	ans := e.call("GET", "north.test", "/api/v1", "", nil)
	assert.Equal(t, http.StatusOK, ans.status, ans.body)
	assert.Less(t, time.Since(back), time.Second)
}
