package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/openapi/openapitest"
	"arena/worker/arenatest"
	"arena/worker/discord/discordtest"
)

// TestOpenAPIConformance drives every implemented operation, successes and
// errors, through the OpenAPI harness: each response must match the
// document, so the document cannot drift from the server.
func TestOpenAPIConformance(t *testing.T) {
	o := testOptions()
	o.NoSite = false // the website's routes that automation drives are documented too
	e := &testEnv{arenatest.New(t, o)}
	rec := openapitest.NewRecorder(t)
	e.Handler = rec.Handler(e.Server)

	e.do(t, "GET", "x.test", "/healthz", "", nil)
	e.do(t, "GET", "x.test", "/api/v1/openapi.json", "", nil)
	admin := e.createArena(t, "alpha", "alpha.test")
	e.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, arenaRequest("alpha", "alpha.test"))
	e.do(t, "POST", "ops.test", "/api/v1/operator/arenas", "", arenaRequest("beta", "beta.test"))
	e.do(t, "GET", "ops.test", "/api/v1/operator/arenas", operatorToken, nil)
	e.do(t, "GET", "nosuch.test", "/api/v1", "", nil)
	e.mustDo(t, "PUT", "/api/v1/admin/settings", admin, map[string]any{"name": "Alpha", "placementPoints": map[string]any{"tiers": []any{map[string]any{"through": 1, "points": 10}}, "played": 1}}, 200)
	e.mustDo(t, "PUT", "/api/v1/admin/settings", admin, map[string]any{"plan": "gold"}, 403)
	e.mustDo(t, "PUT", "/api/v1/admin/settings", admin, map[string]any{"gracePeriodSeconds": -1}, 422)
	e.mustDo(t, "PUT", "/api/v1/admin/settings", "", map[string]any{"name": "x"}, 401)
	e.mustDo(t, "POST", "/api/v1/admin/seasons", admin, map[string]any{"slug": "s1", "name": "S1", "startsAt": "2026-10-01T00:00:00Z", "endsAt": "2027-01-01T00:00:00Z"}, 201)
	e.mustDo(t, "POST", "/api/v1/admin/seasons", admin, map[string]any{"slug": "s1", "name": "S1", "startsAt": "2026-10-01T00:00:00Z", "endsAt": "2027-01-01T00:00:00Z"}, 409)
	e.mustDo(t, "GET", "/api/v1/admin/seasons", admin, nil, 200)
	e.mustDo(t, "PATCH", "/api/v1/admin/seasons/s1", admin, map[string]any{"name": "Season One"}, 200)
	e.mustDo(t, "PATCH", "/api/v1/admin/seasons/s1", admin, map[string]any{"endsAt": "2000-01-01T00:00:00Z"}, 422)
	e.mustDo(t, "PATCH", "/api/v1/admin/seasons/nope", admin, map[string]any{"name": "x"}, 404)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments", admin, map[string]any{"slug": "x"}, 422)
	e.mustDo(t, "GET", "/api/v1/admin/tournaments/none", admin, nil, 404)
	runCup(t, e, admin, "cup")
	e.mustDo(t, "GET", "/api/v1/admin/tournaments/cup", admin, nil, 200)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/cup/status", admin, map[string]any{"status": "cancelled"}, 409)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/cup/registrations", admin, map[string]any{"platformId": playerID(50)}, 409)
	matches := e.mustDo(t, "GET", "/api/v1/admin/tournaments/cup/matches", admin, nil, 200)["matches"].([]any)
	first := fmt.Sprintf("%.0f", matches[0].(map[string]any)["id"])
	e.mustDo(t, "PATCH", "/api/v1/admin/matches/"+first, admin, map[string]any{"opensAt": "2026-12-01T00:00:00Z"}, 409)
	e.mustDo(t, "POST", "/api/v1/admin/matches/"+first+"/resolve", admin, map[string]any{"winner": playerID(1)}, 409)

	e.mustDo(t, "POST", "/api/v1/admin/tournaments", admin, e.tournamentBody("open", "playoffs_only", 4), 422)
	body := e.tournamentBody("open", "playoffs_only", 4)
	delete(body, "groupCount")
	delete(body, "advancePerGroup")
	e.mustDo(t, "POST", "/api/v1/admin/tournaments", admin, body, 201)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/open/status", admin, map[string]any{"status": "registration_open"}, 200)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/open/registrations", admin, map[string]any{"platformId": playerID(1)}, 201)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/open/registrations", admin, map[string]any{"platformId": "1"}, 400)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/open/registrations", admin, map[string]any{"platformId": playerID(2)}, 201)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/open/registrations", admin, map[string]any{"registrations": []any{map[string]any{"platformId": playerID(3)}, map[string]any{"platformId": playerID(4), "seed": 4}}}, 201)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/open/registrations", admin, map[string]any{"registrations": []any{map[string]any{"platformId": playerID(5)}, map[string]any{"platformId": "5"}}}, 400)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/open/status", admin, map[string]any{"status": "registration_closed"}, 200)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/open/status", admin, map[string]any{"status": "playoffs"}, 200)
	final := e.mustDo(t, "GET", "/api/v1/admin/tournaments/open/matches", admin, nil, 200)["matches"].([]any)[0].(map[string]any)
	id := fmt.Sprintf("%.0f", final["id"])
	e.mustDo(t, "PATCH", "/api/v1/admin/matches/"+id, admin, map[string]any{"closesAt": e.Now.Add(72 * time.Hour).Format(time.RFC3339)}, 200)
	e.mustDo(t, "PATCH", "/api/v1/admin/matches/"+id, admin, map[string]any{"closesAt": "2000-01-01T00:00:00Z"}, 422)
	e.mustDo(t, "POST", "/api/v1/admin/matches/"+id+"/resolve", admin, map[string]any{"winner": playerID(9)}, 422)
	e.mustDo(t, "POST", "/api/v1/admin/matches/0/resolve", admin, map[string]any{"winner": playerID(9)}, 404)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/open/open-round", admin, map[string]any{"round": "Final"}, 200)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/open/open-round", admin, map[string]any{"round": "Round 7"}, 404)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/open/open-round", admin, map[string]any{}, 422)
	e.mustDo(t, "POST", "/api/v1/admin/matches/"+id+"/reopen", admin, nil, 409)

	// Check-in the organizer controls, and a start that withdraws a side.
	night := e.tournamentBody("night", "playoffs_only", 4)
	delete(night, "groupCount")
	delete(night, "advancePerGroup")
	night["registrationClosesAt"], night["startsAt"], night["checkInMinutes"] = e.Now.Add(10*time.Minute).Format(time.RFC3339), e.Now.Add(30*time.Minute).Format(time.RFC3339), 60
	e.mustDo(t, "POST", "/api/v1/admin/tournaments", admin, night, 201)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/night/status", admin, map[string]any{"status": "registration_open"}, 200)
	for i := 1; i <= 3; i++ {
		e.mustDo(t, "POST", "/api/v1/admin/tournaments/night/registrations", admin, map[string]any{"platformId": playerID(i)}, 201)
	}
	for i := 1; i <= 2; i++ {
		e.mustDo(t, "POST", "/api/v1/admin/tournaments/night/check-in", admin, map[string]any{"platformId": playerID(i), "checkedIn": true}, 200)
	}
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/night/check-in", admin, map[string]any{"platformId": playerID(3), "checkedIn": false}, 200)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/night/check-in", admin, map[string]any{"platformId": playerID(9), "checkedIn": true}, 403)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/night/check-in", admin, map[string]any{"platformId": "1", "checkedIn": true}, 400)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/night/check-in", admin, map[string]any{"platformId": playerID(1)}, 422)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/night/status", admin, map[string]any{"status": "registration_closed"}, 200)
	started := e.mustDo(t, "POST", "/api/v1/admin/tournaments/night/status", admin, map[string]any{"status": "playoffs"}, 200)
	assert.Equal(t, []any{playerID(3)}, started["withdrawn"])
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/night/check-in", admin, map[string]any{"platformId": playerID(1), "checkedIn": true}, 409)
	e.mustDo(t, "POST", "/api/v1/admin/matches/0/reopen", admin, nil, 404)
	e.mustDo(t, "PATCH", "/api/v1/admin/tournaments/open", admin, map[string]any{"description": "Two players."}, 200)
	e.mustDo(t, "PATCH", "/api/v1/admin/tournaments/open", admin, map[string]any{"startsAt": "2027-01-01T00:00:00Z"}, 409)
	e.mustDo(t, "PATCH", "/api/v1/admin/tournaments/open", admin, map[string]any{"name": " "}, 422)
	e.mustDo(t, "PATCH", "/api/v1/admin/tournaments/none", admin, map[string]any{"name": "x"}, 404)
	e.mustDo(t, "POST", "/api/v1/admin/matches/"+id+"/accept-report", admin, nil, 409)
	e.mustDo(t, "POST", "/api/v1/admin/matches/0/accept-report", admin, nil, 404)
	e.mustDo(t, "DELETE", "/api/v1/admin/tournaments/open/registrations/abc", admin, nil, 400)
	e.mustDo(t, "DELETE", "/api/v1/admin/tournaments/none/registrations/"+playerID(2), admin, nil, 404)
	e.mustDo(t, "DELETE", "/api/v1/admin/tournaments/open/registrations/"+playerID(7), admin, nil, 403)
	e.playoffCup(t, admin, "dq", 2)
	e.mustDo(t, "DELETE", "/api/v1/admin/tournaments/dq/registrations/"+playerID(2), admin, nil, 200)

	key := e.mustDo(t, "POST", "/api/v1/admin/api-keys", admin, map[string]any{"label": "k"}, 201)
	e.mustDo(t, "GET", "/api/v1/admin/api-keys", admin, nil, 200)
	e.mustDo(t, "GET", "/api/v1", key["key"].(string), nil, 200)
	e.mustDo(t, "DELETE", "/api/v1/admin/api-keys/"+key["id"].(string), admin, nil, 204)
	e.mustDo(t, "DELETE", "/api/v1/admin/api-keys/00000000", admin, nil, 404)
	minted := e.mustDo(t, "POST", "/api/v1/admin/admin-tokens", admin, map[string]any{"label": "ci"}, 201)
	e.mustDo(t, "POST", "/api/v1/admin/admin-tokens", admin, map[string]any{"label": strings.Repeat("x", 101)}, 422)
	e.mustDo(t, "GET", "/api/v1/admin/admin-tokens", minted["token"].(string), nil, 200)
	e.mustDo(t, "DELETE", "/api/v1/admin/admin-tokens/"+minted["id"].(string), admin, nil, 204)
	e.mustDo(t, "DELETE", "/api/v1/admin/admin-tokens/"+strings.Split(admin, "_")[1], admin, nil, 409)
	e.mustDo(t, "DELETE", "/api/v1/admin/admin-tokens/00000000", admin, nil, 404)

	e.mustDo(t, "POST", "/api/v1/admin/domains", admin, map[string]any{"hostname": "play.alpha.example"}, 201)
	e.mustDo(t, "POST", "/api/v1/admin/domains", admin, map[string]any{"hostname": "alpha.test"}, 409)
	e.mustDo(t, "POST", "/api/v1/admin/domains", admin, map[string]any{"hostname": "10.0.0.1"}, 422)
	e.mustDo(t, "GET", "/api/v1/admin/domains", admin, nil, 200)
	e.mustDo(t, "DELETE", "/api/v1/admin/domains/play.alpha.example", admin, nil, 204)
	e.mustDo(t, "DELETE", "/api/v1/admin/domains/play.alpha.example", admin, nil, 404)
	webhookFlows(t, e, admin)
	discordFlows(t, e, admin)

	e.mustDo(t, "GET", "/api/v1/tournaments", "", nil, 200)
	e.mustDo(t, "GET", "/api/v1/tournaments/cup", "", nil, 200)
	e.mustDo(t, "GET", "/api/v1/tournaments/open", "", nil, 200)
	e.mustDo(t, "GET", "/api/v1/tournaments/none", "", nil, 404)
	e.mustDo(t, "GET", "/api/v1/ladder?season=all", "", nil, 200)
	e.mustDo(t, "GET", "/api/v1/players/"+playerID(1), "", nil, 200)
	e.mustDo(t, "GET", "/api/v1/players/"+playerID(60), "", nil, 404)
	e.mustDo(t, "GET", "/api/v1/players/abc", "", nil, 400)
	e.mustDo(t, "GET", "/api/v1/matches/"+first, "", nil, 200)
	e.mustDo(t, "GET", "/api/v1/matches/"+id, "", nil, 200)
	e.mustDo(t, "GET", "/api/v1/matches/99999", "", nil, 404)
	e.mustDo(t, "GET", "/api/v1/matches/abc", "", nil, 404)
	e.mustDo(t, "GET", "/api/v1/events", "", nil, 200)
	e.mustDo(t, "GET", "/api/v1/events?after=2&limit=3", "", nil, 200)
	e.mustDo(t, "GET", "/api/v1/events?limit=1001", "", nil, 422)
	e.mustDo(t, "GET", "/api/v1/events?after=x", "", nil, 422)
	e.mustDo(t, "GET", "/api/v1/events/head", "", nil, 200)
	e.mustDo(t, "GET", "/api/v1/push/key", "", nil, 200)
	e.do(t, "GET", "nosuch.test", "/api/v1/push/key", "", nil)
	for path, want := range map[string]int{"/api/v1/matches/" + first + "/receipt": 200, "/log/checkpoint": 200,
		"/log/tile/0/000.p/3": 200, "/log/tile/entries/000.p/3": 200, "/log/tile/0/000": 404, "/log/tile/0/x/0": 404} {
		assert.Equal(t, want, rawGet(e, path).Code, path)
	}
	e.mustDo(t, "GET", "/api/v1/matches/"+id+"/receipt", "", nil, 404)
	e.do(t, "GET", "nosuch.test", "/api/v1/events", "", nil)
	e.do(t, "GET", "nosuch.test", "/api/v1/events/head", "", nil)
	liveFor(t, e, "/api/v1/live?after=0")
	liveFor(t, e, "/api/v1/tournaments/cup/live", "Last-Event-ID", "3")
	liveFor(t, e, "/api/v1/matches/"+first+"/live")
	e.mustDo(t, "GET", "/api/v1/tournaments/none/live", "", nil, 404)
	e.mustDo(t, "GET", "/api/v1/matches/99999/live", "", nil, 404)
	e.mustDo(t, "GET", "/api/v1/live?after=x", "", nil, 422)
	e.mustDo(t, "GET", "/api/v1/live?after=99999", "", nil, 422)
	e.mustDo(t, "PUT", "/api/v1/admin/settings", admin, map[string]any{"rateLimits": map[string]any{"anonymousPerMinute": 0, "keyPerMinute": 0}}, 200)
	liveOverCap(t, e) // its streams ask again: no read limit meanwhile
	e.do(t, "GET", "nosuch.test", "/api/v1/live", "", nil)
	e.mustDo(t, "PUT", "/api/v1/admin/settings", admin, map[string]any{"rateLimits": map[string]any{"anonymousPerMinute": 1, "keyPerMinute": 1}}, 200)
	e.Now = e.Now.Add(time.Minute) // a fresh rate window
	e.mustDo(t, "GET", "/api/v1/ladder", "", nil, 200)
	e.mustDo(t, "GET", "/api/v1/ladder", "", nil, 429)

	e.do(t, "POST", "x.test", "/__dev/clock", "", map[string]any{"advanceSeconds": 60})
	e.do(t, "POST", "x.test", "/__dev/tick", "", nil)
	e.do(t, "POST", "x.test", "/__dev/stream-live", "", map[string]any{"logins": []string{"a"}})

	assert.Equal(t, 403, signInForm(t, e, playerID(1)), "real mode: no mock sign-in")
	gameClientFlows(t, &protocolEnv{testEnv: e, admin: admin}) // switches the arena to mock mode
	titleFlows(t, &protocolEnv{testEnv: e, admin: admin})
	recordingFlows(t, &protocolEnv{testEnv: e, admin: admin})
	assert.Equal(t, 303, signInForm(t, e, playerID(1)))
	assert.Equal(t, 422, signInForm(t, e, "123"))
	streamFlows(t, e, admin)
	formatFlows(t, e, admin)
	organizerFlows(t, &protocolEnv{testEnv: e, admin: admin})

	assert.Empty(t, rec.Uncovered(), "every documented operation was exercised")
}

// gameClientFlows exercises the ticket-authenticated endpoints: answers and
// errors.
func gameClientFlows(t *testing.T, p *protocolEnv) {
	p.game(t, "GET", "/api/v1/me/live-match", playerID(1), nil, "") // real mode: MOCK is refused
	p.mustDo(t, "PUT", "/api/v1/admin/settings", p.admin, map[string]any{"refereeEnabled": true, "publisherKey": "",
		"rateLimits": map[string]any{"anonymousPerMinute": 0, "keyPerMinute": 0}}, 200)
	a := playerID(1)
	p.game(t, "GET", "/api/v1/me/live-match", "", nil, "")
	p.game(t, "GET", "/api/v1/me/live-match", a, nil, "")
	p.game(t, "GET", "/api/v1/me/upcoming-match", a, nil, "")
	m := p.bracket(t, "game", "rec", 2)[0] // two AppIDs: rec shows to the primary
	p.game(t, "GET", "/api/v1/me/upcoming-match", a, nil, "")
	p.game(t, "POST", matchPath(m, "ready"), playerID(9), nil, "")
	p.game(t, "POST", "/api/v1/matches/x/ready", a, nil, "")
	live := p.goLive(t, m)
	p.game(t, "POST", matchPath(m, "ready"), a, nil, "")
	p.game(t, "POST", "/api/v1/me/referee-consent", a, map[string]any{"granted": true}, "")
	p.game(t, "POST", "/api/v1/me/referee-consent", a, map[string]any{}, "")
	p.game(t, "GET", "/api/v1/me/live-match", a, nil, "")
	res, hash := result(live, a, "")
	p.game(t, "POST", matchPath(m, "result"), a, map[string]any{"protocol": "x"}, "")
	p.game(t, "POST", matchPath(m, "result"), a, "{", "")
	p.game(t, "POST", matchPath(m, "result"), playerID(9), submission(res, hash), "")
	p.game(t, "POST", matchPath(m, "result"), a, submission(res, hash), "")
	p.game(t, "POST", matchPath(m, "result"), a, submission(res, hash), "")
	p.game(t, "POST", matchPath(m, "result"), playerID(2), submission(res, hash), "")
	p.game(t, "POST", matchPath(m, "result"), playerID(2), submission(res, hash), "")
	p.game(t, "POST", "/api/v1/matches/999/result", a, submission(res, hash), "")
	p.mustDo(t, "GET", fmt.Sprintf("/api/v1/admin/matches/%.0f", m["id"]), p.admin, nil, 200)
	p.mustDo(t, "GET", "/api/v1/admin/matches/abc", p.admin, nil, 404)
	p.mustDo(t, "GET", "/api/v1/admin/queue", p.admin, nil, 200)
}

// signInForm posts the website's mock sign-in form.
func signInForm(t *testing.T, e *testEnv, platformID string) int {
	t.Helper()
	req := httptest.NewRequest("POST", "/auth/mock", strings.NewReader(url.Values{"platformId": {platformID}}.Encode()))
	req.Host = "alpha.test"
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	e.Handler.ServeHTTP(rec, req)
	return rec.Code
}

// streamFlows exercises the streams routes: the mock link form, the
// caster directory, the admin's official caster and the alert settings.
func streamFlows(t *testing.T, e *testEnv, admin string) {
	cookie := sessionCookie(t, e, playerID(7))
	link := func(login string, cookies ...*http.Cookie) int {
		t.Helper()
		req := httptest.NewRequest("POST", "/stream-provider/link", strings.NewReader(url.Values{"login": {login}}.Encode()))
		req.Host = "alpha.test"
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for _, c := range cookies {
			req.AddCookie(c)
		}
		rec := httptest.NewRecorder()
		e.Handler.ServeHTTP(rec, req)
		return rec.Code
	}
	assert.Equal(t, 303, link("Caster_Seven", cookie))
	assert.Equal(t, 422, link("no way", cookie))
	assert.Equal(t, 303, link("anyone"), "a visitor is sent to sign in")

	open := e.mustDo(t, "GET", "/api/v1/admin/tournaments/open/matches", admin, nil, 200)["matches"].([]any)[0].(map[string]any)
	decided := e.mustDo(t, "GET", "/api/v1/admin/tournaments/game/matches", admin, nil, 200)["matches"].([]any)[0].(map[string]any)
	casters := func(m map[string]any) string { return fmt.Sprintf("/api/v1/admin/matches/%.0f/casters", m["id"]) }
	e.mustDo(t, "POST", casters(open), admin, map[string]any{"streamLogin": "Alpha_Official"}, 201)
	e.mustDo(t, "POST", casters(open), admin, map[string]any{"streamLogin": "a b"}, 422)
	e.mustDo(t, "POST", casters(open), admin, "{", 400)
	e.mustDo(t, "POST", casters(open), "", map[string]any{"streamLogin": "alpha_official"}, 401)
	e.mustDo(t, "POST", casters(decided), admin, map[string]any{"streamLogin": "alpha_official"}, 409)
	e.mustDo(t, "POST", "/api/v1/admin/matches/0/casters", admin, map[string]any{"streamLogin": "alpha_official"}, 404)
	e.mustDo(t, "GET", "/api/v1/casters", "", nil, 200)
	e.do(t, "GET", "nosuch.test", "/api/v1/casters", "", nil)
	e.mustDo(t, "PUT", "/api/v1/admin/settings", admin, map[string]any{"webhookUrl": "https://hooks.example.com/alpha", "upcomingAlertMinutes": 60}, 200)
	e.mustDo(t, "PUT", "/api/v1/admin/settings", admin, map[string]any{"webhookUrl": "http://hooks.example.com/alpha"}, 422)
}

// sessionCookie signs a player in on alpha.test with the mock form.
func sessionCookie(t *testing.T, e *testEnv, platformID string) *http.Cookie {
	t.Helper()
	req := httptest.NewRequest("POST", "/auth/mock", strings.NewReader(url.Values{"platformId": {platformID}}.Encode()))
	req.Host = "alpha.test"
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	e.Handler.ServeHTTP(rec, req)
	require.Equal(t, 303, rec.Code)
	for _, c := range rec.Result().Cookies() {
		if c.Name == "arena_session" {
			return c
		}
	}
	t.Fatal("no session cookie")
	return nil
}

// liveFor holds a live stream of the alpha arena open for a moment, in
// process (the recorder checks its answer), and checks it began with the
// retry field.
func liveFor(t *testing.T, e *testEnv, path string, header ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req := httptest.NewRequestWithContext(ctx, "GET", path, nil)
	req.Host = "alpha.test"
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	e.Handler.ServeHTTP(rec, req)
	require.Equal(t, 200, rec.Code, rec.Body.String())
	assert.True(t, strings.HasPrefix(rec.Body.String(), "retry: "), rec.Body.String())
}

// liveOverCap holds as many streams as one anonymous caller may, in
// process (past the recorder), and checks the next is 429
// too_many_streams, through the recorder.
func liveOverCap(t *testing.T, e *testEnv) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var held sync.WaitGroup
	defer held.Wait()
	defer cancel()
	stream := func(ctx context.Context, h http.Handler) *httptest.ResponseRecorder {
		req := httptest.NewRequestWithContext(ctx, "GET", "/api/v1/live", nil)
		req.Host = "alpha.test"
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	overCap := func(rec *httptest.ResponseRecorder) bool {
		return rec.Code == http.StatusTooManyRequests && strings.Contains(rec.Body.String(), `"too_many_streams"`)
	}
	// Each holder asks again while the probes take its slot for a moment,
	// and keeps its stream once it has one.
	for range core.LiveMaxStreamsAnonymous {
		held.Add(1)
		go func() {
			defer held.Done()
			for ctx.Err() == nil && stream(ctx, e.Server).Code == http.StatusTooManyRequests {
				time.Sleep(time.Millisecond)
			}
		}()
	}
	// The probes go past the recorder: one whose deadline passes before
	// the handler wrote anything (a loaded machine) gets no answer at all,
	// which the recorder would take for an empty 200.
	require.Eventually(t, func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
		defer cancel()
		return overCap(stream(ctx, e.Server))
	}, 5*time.Second, 20*time.Millisecond)
	// Every holder now keeps its stream: the next is refused, recorded.
	probe, cancelProbe := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancelProbe()
	rec := stream(probe, e.Handler)
	assert.True(t, overCap(rec), "%d %s", rec.Code, rec.Body.String())
}

// webhookFlows exercises the integrator webhook routes: answers and
// errors (deliveries themselves: TestWebhookSubscriptions).
func webhookFlows(t *testing.T, e *testEnv, admin string) {
	rc := startReceiver(t)
	hook := e.mustDo(t, "POST", "/api/v1/admin/webhooks", admin, map[string]any{"url": rc.URL + "/hook", "events": []string{"match.confirmed"}}, 201)
	id := hook["id"].(string)
	e.mustDo(t, "POST", "/api/v1/admin/webhooks", admin, map[string]any{"url": "https://10.0.0.1/", "events": []string{"match.confirmed"}}, 422)
	e.mustDo(t, "POST", "/api/v1/admin/webhooks", admin, map[string]any{"url": "https://hooks.example.com/"}, 422)
	e.mustDo(t, "POST", "/api/v1/admin/webhooks", "", map[string]any{"url": "https://hooks.example.com/"}, 401)
	e.mustDo(t, "PUT", "/api/v1/admin/settings", admin, map[string]any{"webhookUrl": rc.URL + "/alerts"}, 200)
	e.mustDo(t, "GET", "/api/v1/admin/webhooks", admin, nil, 200)
	e.mustDo(t, "GET", "/api/v1/admin/webhooks/"+id, admin, nil, 200)
	e.mustDo(t, "GET", "/api/v1/admin/webhooks/arena-alerts", admin, nil, 200)
	e.mustDo(t, "GET", "/api/v1/admin/webhooks/wh_none", admin, nil, 404)
	e.mustDo(t, "PATCH", "/api/v1/admin/webhooks/"+id, admin, map[string]any{"paused": true}, 200)
	e.mustDo(t, "PATCH", "/api/v1/admin/webhooks/"+id, admin, map[string]any{"events": []string{"match.nope"}}, 422)
	e.mustDo(t, "PATCH", "/api/v1/admin/webhooks/wh_none", admin, map[string]any{"paused": true}, 404)
	e.mustDo(t, "PATCH", "/api/v1/admin/webhooks/"+id, admin, map[string]any{"paused": false}, 200)
	e.playoffCup(t, admin, "hooked", 2)
	resolveAll(t, e, admin, "hooked")
	e.do(t, "POST", "x.test", "/__dev/tick", "", nil)
	deliveries := e.mustDo(t, "GET", "/api/v1/admin/webhooks/"+id+"/deliveries", admin, nil, 200)["deliveries"].([]any)
	require.Len(t, deliveries, 1)
	e.mustDo(t, "GET", "/api/v1/admin/webhooks/wh_none/deliveries", admin, nil, 404)
	e.mustDo(t, "GET", "/api/v1/admin/webhooks/arena-alerts/deliveries", admin, nil, 422)
	e.mustDo(t, "POST", "/api/v1/admin/webhooks/"+id+"/replay", admin, map[string]any{"after": 0}, 202)
	e.mustDo(t, "POST", "/api/v1/admin/webhooks/"+id+"/replay", admin, map[string]any{"after": -1}, 422)
	e.mustDo(t, "POST", "/api/v1/admin/webhooks/wh_none/replay", admin, map[string]any{"after": 0}, 404)
	e.mustDo(t, "POST", "/api/v1/admin/webhooks/"+id+"/test", admin, nil, 200)
	e.mustDo(t, "POST", "/api/v1/admin/webhooks/wh_none/test", admin, nil, 404)
	e.mustDo(t, "POST", "/api/v1/admin/webhooks/arena-alerts/test", admin, nil, 422)
	delivery := fmt.Sprintf("%.0f", deliveries[0].(map[string]any)["id"])
	e.mustDo(t, "POST", "/api/v1/admin/webhooks/"+id+"/deliveries/"+delivery+"/replay", admin, nil, 202)
	e.mustDo(t, "POST", "/api/v1/admin/webhooks/"+id+"/deliveries/0/replay", admin, nil, 404)
	e.mustDo(t, "POST", "/api/v1/admin/webhooks/arena-alerts/deliveries/1/replay", admin, nil, 422)
	e.mustDo(t, "DELETE", "/api/v1/admin/webhooks/"+id, admin, nil, 204)
	e.mustDo(t, "DELETE", "/api/v1/admin/webhooks/"+id, admin, nil, 404)
	e.mustDo(t, "DELETE", "/api/v1/admin/webhooks/arena-alerts", admin, nil, 204)
}

// discordFlows drives the Discord interactions endpoint: before the
// arena has an application, with a bad signature, a PING and a command.
func discordFlows(t *testing.T, e *testEnv, admin string) {
	twin := discordtest.Start()
	t.Cleanup(twin.Close)
	send := func(body map[string]any, bad bool, want int) map[string]any {
		t.Helper()
		raw, err := json.Marshal(body)
		require.NoError(t, err)
		sig, ts := twin.Sign(raw)
		if bad {
			raw = append(raw, ' ')
		}
		status, out := e.Do(t, "POST", "http://alpha.test/discord/interactions", "", string(raw), "Content-Type", "application/json",
			"X-Signature-Ed25519", sig, "X-Signature-Timestamp", ts)
		require.Equal(t, want, status, "%v", out)
		return out
	}
	send(twin.Ping(), false, 409)
	app := twin.App()
	e.mustDo(t, "PUT", "/api/v1/admin/settings", admin, map[string]any{"discordApplicationId": "12", "discordPublicKey": app.PublicKey}, 422)
	e.mustDo(t, "PUT", "/api/v1/admin/settings", admin, map[string]any{"discordApplicationId": app.ApplicationID, "discordPublicKey": app.PublicKey,
		"discordBotToken": app.BotToken, "discordClientSecret": app.ClientSecret}, 200)
	send(twin.Ping(), true, 401)
	assert.Equal(t, float64(1), send(twin.Ping(), false, 200)["type"])
	send(twin.Command(core.DiscordUser{ID: "1240000000000000001", Username: "someone"}, "bracket", "cup"), false, 200)
	e.Do(t, "POST", "http://alpha.test/discord/interactions", "", "not json", "X-Signature-Ed25519", "00", "X-Signature-Timestamp", "1")
}
