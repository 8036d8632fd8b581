package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// createTitle creates a title through the admin API and returns its id.
func (p *protocolEnv) createTitle(t *testing.T, slug string, extra map[string]any) string {
	t.Helper()
	body := map[string]any{"slug": slug, "name": "Title " + slug}
	for k, v := range extra {
		body[k] = v
	}
	out := p.mustDo(t, "POST", "/api/v1/admin/titles", p.admin, body, http.StatusCreated)
	return fmt.Sprintf("%.0f", out["id"])
}

// title reads a title from the ticket list as account sees it.
func (p *protocolEnv) title(t *testing.T, id, account string) map[string]any {
	t.Helper()
	status, out := p.game(t, "GET", "/api/v1/titles", account, nil, "")
	require.Equal(t, http.StatusOK, status, out)
	for _, raw := range out["titles"].([]any) {
		if title := raw.(map[string]any); fmt.Sprintf("%.0f", title["id"]) == id {
			return title
		}
	}
	t.Fatalf("no title %s", id)
	return nil
}

// playTitleMatch plays the title's open match through two game clients
// (ready both, agreeing results) for winner.
func (p *protocolEnv) playTitleMatch(t *testing.T, id, winner string) {
	t.Helper()
	m := p.title(t, id, winner)["match"].(map[string]any)
	match := map[string]any{"id": m["id"], "p1PlatformId": player(m["player1"]), "p2PlatformId": player(m["player2"])}
	live := p.goLive(t, match)
	assert.Equal(t, p.title(t, id, winner)["slug"], live["tournament"].(map[string]any)["slug"], "live-match names the title")
	assert.NotZero(t, live["gameSeed"], "an organized match")
	res, hash := result(live, winner, "")
	for _, side := range []string{match["p1PlatformId"].(string), match["p2PlatformId"].(string)} {
		status, out := p.game(t, "POST", matchPath(match, "result"), side, submission(res, hash), "")
		require.Equal(t, http.StatusOK, status, out)
	}
}

func player(v any) string { return v.(map[string]any)["platformId"].(string) }

// TestTitleAPI walks the title rules over the API in order, every title
// code with its status: a table of requests, with the matches played
// between them.
func TestTitleAPI(t *testing.T) {
	p := newProtocolEnv(t)
	a, b, c, d := playerID(1), playerID(2), playerID(3), playerID(4)
	id := p.createTitle(t, "world", nil)
	var challenge string
	titlePath := func(action string) func() string {
		return func() string { return "/api/v1/titles/" + id + "/" + action }
	}
	respondPath := func() string { return "/api/v1/title-challenges/" + challenge + "/respond" }
	fixed := func(path string) func() string { return func() string { return path } }
	type step struct {
		name    string
		who     string
		method  string
		path    func() string
		body    any
		status  int
		code    string
		then    func(t *testing.T, out map[string]any)
		between func(t *testing.T) // runs before the request
	}
	accept := map[string]any{"accept": true}
	steps := []step{
		{name: "ErrMissingTicket", method: "GET", path: fixed("/api/v1/titles"), status: 401, code: "missing_ticket"},
		{name: "ListsTheVacantTitle", who: a, method: "GET", path: fixed("/api/v1/titles"), status: 200, then: func(t *testing.T, out map[string]any) {
			title := out["titles"].([]any)[0].(map[string]any)
			assert.Nil(t, title["holder"])
			assert.Nil(t, title["clockExpiresAt"], "vacant: no clock")
			assert.Equal(t, []any{}, title["lineage"])
		}},
		{name: "ErrTitleNotFound", who: a, method: "POST", path: fixed("/api/v1/titles/999/volunteer"), status: 404, code: "title_not_found"},
		{name: "ErrTitleIDMalformed", who: a, method: "POST", path: fixed("/api/v1/titles/x1/challenge"), status: 404, code: "title_not_found"},
		{name: "ErrTitleVacantUseCoronation", who: a, method: "POST", path: titlePath("challenge"), status: 409, code: "title_vacant_use_coronation"},
		{name: "VolunteerFirst", who: a, method: "POST", path: titlePath("volunteer"), status: 201, then: func(t *testing.T, out map[string]any) {
			assert.Equal(t, float64(1), out["position"])
			assert.Nil(t, out["matchId"])
			assert.Equal(t, a, player(out["volunteer"]))
		}},
		{name: "ErrAlreadyVolunteered", who: a, method: "POST", path: titlePath("volunteer"), status: 409, code: "already_volunteered"},
		{name: "VolunteerSecondTriggersTheCoronation", who: b, method: "POST", path: titlePath("volunteer"), status: 201, then: func(t *testing.T, out map[string]any) {
			assert.Equal(t, float64(2), out["position"])
			require.NotNil(t, out["matchId"])
			status, up := p.game(t, "GET", "/api/v1/me/upcoming-match", a, nil, "")
			require.Equal(t, 200, status)
			assert.Equal(t, out["matchId"], up["matchId"], "upcoming-match finds the coronation")
			assert.Equal(t, map[string]any{"slug": "world", "name": "Title world"}, up["tournament"])
			assert.Equal(t, p.Now.Add(48*time.Hour).Format(time.RFC3339), up["windowClosesAt"])
		}},
		{name: "ErrCoronationPending", who: c, method: "POST", path: titlePath("volunteer"), status: 409, code: "coronation_pending"},
		{name: "ErrTitleAlreadyHeld", who: c, method: "POST", path: titlePath("volunteer"), status: 409, code: "title_already_held",
			between: func(t *testing.T) { p.playTitleMatch(t, id, a) }},
		{name: "ErrCannotChallengeSelf", who: a, method: "POST", path: titlePath("challenge"), status: 409, code: "cannot_challenge_self"},
		{name: "Challenge", who: c, method: "POST", path: titlePath("challenge"), status: 201, then: func(t *testing.T, out map[string]any) {
			assert.Equal(t, "pending", out["status"])
			assert.Equal(t, c, player(out["challenger"]))
			assert.Equal(t, a, player(out["holder"]))
			assert.Equal(t, id, fmt.Sprintf("%.0f", out["titleId"]))
			challenge = fmt.Sprintf("%.0f", out["id"])
		}},
		{name: "ErrChallengePending", who: d, method: "POST", path: titlePath("challenge"), status: 409, code: "challenge_pending"},
		{name: "ErrChallengeNotFound", who: a, method: "POST", path: fixed("/api/v1/title-challenges/999/respond"), body: accept, status: 404, code: "challenge_not_found"},
		{name: "ErrNotHolder", who: c, method: "POST", path: respondPath, body: accept, status: 403, code: "not_holder"},
		{name: "ErrAcceptMissing", who: a, method: "POST", path: respondPath, body: map[string]any{}, status: 422, code: "invalid_field"},
		{name: "ErrUnknownField", who: a, method: "POST", path: respondPath, body: map[string]any{"accept": true, "when": "now"}, status: 422, code: "unknown_field"},
		{name: "ErrNotJSON", who: a, method: "POST", path: respondPath, body: "yes", status: 400, code: "invalid_json"},
		{name: "Accept", who: a, method: "POST", path: respondPath, body: accept, status: 200, then: func(t *testing.T, out map[string]any) {
			assert.Equal(t, "accepted", out["status"])
			require.NotNil(t, out["matchId"])
			status, up := p.game(t, "GET", "/api/v1/me/upcoming-match", c, nil, "")
			require.Equal(t, 200, status)
			assert.Equal(t, out["matchId"], up["matchId"], "the challenger finds the title match")
			assert.Equal(t, float64(2), up["slot"], "the holder plays in slot 1")
		}},
		{name: "ErrChallengeNotPending", who: a, method: "POST", path: respondPath, body: map[string]any{"accept": false}, status: 409, code: "challenge_not_pending"},
		{name: "ErrChallengeWhileTitleMatch", who: d, method: "POST", path: titlePath("challenge"), status: 409, code: "challenge_pending"},
		{name: "ChallengeTheNewHolder", who: a, method: "POST", path: titlePath("challenge"), status: 201,
			between: func(t *testing.T) { p.playTitleMatch(t, id, c) },
			then: func(t *testing.T, out map[string]any) {
				challenge = fmt.Sprintf("%.0f", out["id"])
				title := p.title(t, id, a)
				assert.Equal(t, c, player(title["holder"]), "the challenger won the title")
				lineage := title["lineage"].([]any)
				require.Len(t, lineage, 2)
				assert.Equal(t, "lost", lineage[0].(map[string]any)["ended"])
				assert.Equal(t, map[string]any{"id": out["id"], "challenger": out["challenger"], "at": out["at"], "status": "pending"}, title["pendingChallenge"])
			}},
		{name: "ErrTitleClockExpired", who: c, method: "POST", path: respondPath, body: accept, status: 409, code: "title_clock_expired",
			between: func(t *testing.T) { p.Now = p.Now.Add(49 * time.Hour) }},
		{name: "DeclineStillAnswers", who: c, method: "POST", path: respondPath, body: map[string]any{"accept": false}, status: 200, then: func(t *testing.T, out map[string]any) {
			assert.Equal(t, "declined", out["status"])
			assert.Nil(t, out["matchId"])
		}},
		{name: "ErrRespondAfterStripped", who: c, method: "POST", path: respondPath, body: map[string]any{"accept": false}, status: 403, code: "not_holder",
			between: func(t *testing.T) {
				p.Tick(t)
				title := p.title(t, id, a)
				assert.Nil(t, title["holder"], "stripped")
				assert.Equal(t, a, player(title["volunteers"].([]any)[0].(map[string]any)["player"]), "the challenger volunteers first")
			}},
		{name: "ErrTitleRetired", who: b, method: "POST", path: titlePath("volunteer"), status: 409, code: "title_retired",
			between: func(t *testing.T) {
				out := p.mustDo(t, "POST", "/api/v1/admin/titles/"+id+"/retire", p.admin, nil, http.StatusOK)
				assert.NotNil(t, out["retiredAt"])
				assert.Equal(t, []any{}, out["volunteers"])
			}},
		{name: "ErrChallengeRetired", who: b, method: "POST", path: titlePath("challenge"), status: 409, code: "title_retired"},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			if s.between != nil {
				s.between(t)
			}
			status, out := p.game(t, s.method, s.path(), s.who, s.body, "")
			require.Equal(t, s.status, status, "%v", out)
			if s.code != "" {
				assert.Equal(t, s.code, out["error"])
			}
			if s.then != nil {
				s.then(t, out)
			}
		})
	}
}

func TestAdminTitles(t *testing.T) {
	p := newProtocolEnv(t)
	cases := []struct {
		name   string
		token  string
		body   any
		status int
		code   string
		field  string
	}{
		{"Created", p.admin, map[string]any{"slug": "world", "name": "World Title"}, 201, "", ""},
		{"CreatedInAnEnvironment", p.admin, map[string]any{"slug": "beta-belt", "name": "Beta Belt", "environment": "beta"}, 201, "", ""},
		{"ErrUnauthorized", "", map[string]any{"slug": "x", "name": "X"}, 401, "unauthorized", ""},
		{"ErrSlugTaken", p.admin, map[string]any{"slug": "world", "name": "Again"}, 409, "slug_taken", "slug"},
		{"ErrSlug", p.admin, map[string]any{"slug": "World Title", "name": "X"}, 422, "invalid_field", "slug"},
		{"ErrName", p.admin, map[string]any{"slug": "x"}, 422, "invalid_field", "name"},
		{"ErrEnvironment", p.admin, map[string]any{"slug": "x", "name": "X", "environment": "prod"}, 422, "invalid_field", "environment"},
		{"ErrUnknownField", p.admin, map[string]any{"slug": "x", "name": "X", "holder": "me"}, 422, "unknown_field", "holder"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := p.mustDo(t, "POST", "/api/v1/admin/titles", tc.token, tc.body, tc.status)
			if tc.code != "" {
				assert.Equal(t, tc.code, out["error"])
				if tc.field != "" {
					assert.Equal(t, tc.field, out["field"])
				}
				return
			}
			body := tc.body.(map[string]any)
			assert.Equal(t, body["slug"], out["slug"])
			assert.Nil(t, out["holder"])
			assert.Nil(t, out["reign"])
			assert.Nil(t, out["pendingChallenge"])
		})
	}
	t.Run("TitleSlugIsNoTournament", func(t *testing.T) {
		body := p.tournamentBody("world", "playoffs_only", 4)
		delete(body, "groupCount")
		delete(body, "advancePerGroup")
		assert.Equal(t, "slug_taken", p.mustDo(t, "POST", "/api/v1/admin/tournaments", p.admin, body, 409)["error"])
		p.mustDo(t, "GET", "/api/v1/tournaments/world", "", nil, 404)
		p.mustDo(t, "GET", "/api/v1/admin/tournaments/world", p.admin, nil, 404)
		p.mustDo(t, "POST", "/api/v1/admin/tournaments/world/status", p.admin, map[string]any{"status": "cancelled"}, 404)
		assert.Equal(t, []any{}, p.mustDo(t, "GET", "/api/v1/tournaments", "", nil, 200)["tournaments"])
	})
	t.Run("Retire", func(t *testing.T) {
		out := p.mustDo(t, "POST", "/api/v1/admin/titles/1/retire", p.admin, nil, 200)
		first := out["retiredAt"]
		require.NotNil(t, first)
		p.Now = p.Now.Add(time.Hour)
		assert.Equal(t, first, p.mustDo(t, "POST", "/api/v1/admin/titles/1/retire", p.admin, nil, 200)["retiredAt"], "retiring twice changes nothing")
		assert.Equal(t, "title_not_found", p.mustDo(t, "POST", "/api/v1/admin/titles/99/retire", p.admin, nil, 404)["error"])
		assert.Equal(t, "title_not_found", p.mustDo(t, "POST", "/api/v1/admin/titles/x/retire", p.admin, nil, 404)["error"])
		p.mustDo(t, "POST", "/api/v1/admin/titles/1/retire", "", nil, 401)
	})
}

// TestTitleEnvironmentGate: with several AppIDs, a rec title shows to the
// primary build only and a demo title to the others, in the list, the
// actions and the discovery of its matches (spec 5.1.6).
func TestTitleEnvironmentGate(t *testing.T) {
	p := newProtocolEnv(t, "480", "481")
	demo := p.createTitle(t, "demo-belt", nil)
	rec := p.createTitle(t, "rec-belt", map[string]any{"environment": "rec"})
	a, b := playerID(1), playerID(2)
	list := func(appID string) []string {
		status, out := p.game(t, "GET", "/api/v1/titles", a, nil, appID)
		require.Equal(t, 200, status)
		var slugs []string
		for _, raw := range out["titles"].([]any) {
			slugs = append(slugs, raw.(map[string]any)["slug"].(string))
		}
		return slugs
	}
	assert.Equal(t, []string{"rec-belt"}, list("480"))
	assert.Equal(t, []string{"demo-belt"}, list("481"))
	assert.Equal(t, []string{"demo-belt", "rec-belt"}, publicSlugs(t, p), "the public list has every title")

	status, out := p.game(t, "POST", "/api/v1/titles/"+demo+"/volunteer", a, nil, "480")
	assert.Equal(t, 404, status)
	assert.Equal(t, "title_not_found", out["error"])
	for _, who := range []string{a, b} {
		status, out = p.game(t, "POST", "/api/v1/titles/"+rec+"/volunteer", who, nil, "480")
		require.Equal(t, 201, status, out)
	}
	status, _ = p.game(t, "GET", "/api/v1/me/upcoming-match", a, nil, "481")
	assert.Equal(t, 204, status, "the rec coronation is hidden from the other build")
	status, up := p.game(t, "GET", "/api/v1/me/upcoming-match", a, nil, "480")
	require.Equal(t, 200, status)
	assert.Equal(t, "rec-belt", up["tournament"].(map[string]any)["slug"])
	status, out = p.game(t, "POST", fmt.Sprintf("/api/v1/matches/%.0f/ready", up["matchId"]), a, nil, "481")
	assert.Equal(t, 404, status, "ready applies the gate")
	assert.Equal(t, "match_not_found", out["error"])

	// A challenge of a hidden title is not found for the other build.
	p.mustDo(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%.0f/resolve", up["matchId"]), p.admin, map[string]any{"winner": a}, 200)
	status, ch := p.game(t, "POST", "/api/v1/titles/"+rec+"/challenge", b, nil, "480")
	require.Equal(t, 201, status, ch)
	status, out = p.game(t, "POST", fmt.Sprintf("/api/v1/title-challenges/%.0f/respond", ch["id"]), a, map[string]any{"accept": true}, "481")
	assert.Equal(t, 404, status)
	assert.Equal(t, "challenge_not_found", out["error"])
}

func publicSlugs(t *testing.T, p *protocolEnv) []string {
	t.Helper()
	out := p.mustDo(t, "GET", "/api/v1/public/titles", "", nil, 200)
	var slugs []string
	for _, raw := range out["titles"].([]any) {
		slugs = append(slugs, raw.(map[string]any)["slug"].(string))
	}
	return slugs
}

// TestTitleClockExpiry moves the service clock past a holder's 48 h and
// runs the scheduled jobs: without a pending challenge the clock
// restarts; with one the holder is stripped and the challenger becomes
// the first volunteer. Running the jobs again changes nothing.
func TestTitleClockExpiry(t *testing.T) {
	p := newProtocolEnv(t)
	a, b, c := playerID(1), playerID(2), playerID(3)
	id := p.createTitle(t, "world", nil)
	for _, who := range []string{a, b} {
		status, out := p.game(t, "POST", "/api/v1/titles/"+id+"/volunteer", who, nil, "")
		require.Equal(t, 201, status, out)
	}
	p.playTitleMatch(t, id, a)
	crowned := p.Now
	assert.Equal(t, crowned.Add(48*time.Hour).Format(time.RFC3339), p.title(t, id, a)["clockExpiresAt"])

	t.Run("ClockRunningChangesNothing", func(t *testing.T) {
		p.Now = crowned.Add(48*time.Hour - time.Second)
		p.Tick(t)
		assert.Equal(t, crowned.Add(48*time.Hour).Format(time.RFC3339), p.title(t, id, a)["clockExpiresAt"])
	})
	t.Run("WithoutChallengeTheClockRestarts", func(t *testing.T) {
		p.Now = crowned.Add(48 * time.Hour)
		p.Tick(t)
		title := p.title(t, id, a)
		assert.Equal(t, a, player(title["holder"]))
		assert.Equal(t, p.Now.Add(48*time.Hour).Format(time.RFC3339), title["clockExpiresAt"])
		p.Tick(t)
		assert.Equal(t, title, p.title(t, id, a), "a second run changes nothing")
	})
	t.Run("WithPendingChallengeTheHolderIsStripped", func(t *testing.T) {
		restarted := p.Now
		status, ch := p.game(t, "POST", "/api/v1/titles/"+id+"/challenge", c, nil, "")
		require.Equal(t, 201, status, ch)
		p.Now = restarted.Add(48 * time.Hour)
		p.Tick(t)
		title := p.title(t, id, a)
		assert.Nil(t, title["holder"])
		assert.Nil(t, title["reign"])
		assert.Nil(t, title["clockExpiresAt"])
		assert.Nil(t, title["pendingChallenge"])
		lineage := title["lineage"].([]any)
		require.Len(t, lineage, 1)
		assert.Equal(t, "stripped", lineage[0].(map[string]any)["ended"])
		assert.Equal(t, p.Now.Format(time.RFC3339), lineage[0].(map[string]any)["until"])
		require.Len(t, title["volunteers"], 1)
		assert.Equal(t, c, player(title["volunteers"].([]any)[0].(map[string]any)["player"]))
		p.Tick(t)
		assert.Equal(t, title, p.title(t, id, a), "a second run changes nothing")

		status, out := p.game(t, "POST", "/api/v1/titles/"+id+"/volunteer", b, nil, "")
		require.Equal(t, 201, status, out)
		assert.NotNil(t, out["matchId"], "the challenger and the next volunteer play the coronation")
	})
}

// TestPublicTitles: the public read API's list needs no ticket and keeps
// its rules (ETag and 304, rate limits).
func TestPublicTitles(t *testing.T) {
	p := newProtocolEnv(t)
	p.createTitle(t, "world", nil)
	status, out := p.Do(t, "GET", "http://alpha.test/api/v1/titles", "", nil)
	assert.Equal(t, 401, status, "the spec's list is the ticket route")
	assert.Equal(t, "missing_ticket", out["error"])
	assert.Equal(t, []string{"world"}, publicSlugs(t, p))
	meta := p.mustDo(t, "GET", "/api/v1", "", nil, 200)
	assert.Contains(t, meta["endpoints"], "GET /api/v1/public/titles")

	get := func(ifNoneMatch string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/api/v1/public/titles", nil)
		req.Host = "alpha.test"
		if ifNoneMatch != "" {
			req.Header.Set("If-None-Match", ifNoneMatch)
		}
		rec := httptest.NewRecorder()
		p.Handler.ServeHTTP(rec, req)
		return rec
	}
	rec := get("")
	require.Equal(t, 200, rec.Code)
	etag := rec.Header().Get("ETag")
	require.NotEmpty(t, etag)
	assert.Equal(t, 304, get(etag).Code)

	p.mustDo(t, "PUT", "/api/v1/admin/settings", p.admin, map[string]any{"rateLimits": map[string]any{"anonymousPerMinute": 1, "keyPerMinute": 1}}, 200)
	p.Now = p.Now.Add(time.Minute)
	p.mustDo(t, "GET", "/api/v1/public/titles", "", nil, 200)
	assert.Equal(t, "rate_limited", p.mustDo(t, "GET", "/api/v1/public/titles", "", nil, 429)["error"])
}

// titleFlows drives every title operation, answers and errors, for the
// OpenAPI conformance test (the arena is in mock mode with AppIDs 480 and
// 481: a rec title shows to the primary build).
func titleFlows(t *testing.T, p *protocolEnv) {
	a, b, c := playerID(1), playerID(2), playerID(3)
	id := p.createTitle(t, "rec-belt", map[string]any{"environment": "rec"})
	p.mustDo(t, "POST", "/api/v1/admin/titles", p.admin, map[string]any{"slug": "rec-belt", "name": "Again"}, 409)
	p.mustDo(t, "POST", "/api/v1/admin/titles", p.admin, map[string]any{"slug": "x"}, 422)
	p.mustDo(t, "POST", "/api/v1/admin/titles", "", map[string]any{"slug": "x", "name": "X"}, 401)
	game := func(method, path, who string, body any, want int) map[string]any {
		t.Helper()
		status, out := p.game(t, method, path, who, body, "")
		require.Equal(t, want, status, "%s %s: %v", method, path, out)
		return out
	}
	game("GET", "/api/v1/titles", "", nil, 401)
	game("POST", "/api/v1/titles/"+id+"/challenge", a, nil, 409)
	game("POST", "/api/v1/titles/"+id+"/volunteer", a, nil, 201)
	game("POST", "/api/v1/titles/"+id+"/volunteer", a, nil, 409)
	game("POST", "/api/v1/titles/999/volunteer", a, nil, 404)
	coronation := game("POST", "/api/v1/titles/"+id+"/volunteer", b, nil, 201)["matchId"]
	game("GET", "/api/v1/titles", a, nil, 200)
	p.mustDo(t, "GET", "/api/v1/public/titles", "", nil, 200)
	p.mustDo(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%.0f/resolve", coronation), p.admin, map[string]any{"winner": a}, 200)
	challenge := fmt.Sprintf("%.0f", game("POST", "/api/v1/titles/"+id+"/challenge", c, nil, 201)["id"])
	game("POST", "/api/v1/titles/"+id+"/challenge", b, nil, 409)
	game("POST", "/api/v1/titles/x/challenge", b, nil, 404)
	respond := "/api/v1/title-challenges/" + challenge + "/respond"
	game("POST", "/api/v1/title-challenges/999/respond", a, map[string]any{"accept": true}, 404)
	game("POST", respond, c, map[string]any{"accept": true}, 403)
	game("POST", respond, a, map[string]any{}, 422)
	game("POST", respond, a, "{", 400)
	game("POST", respond, a, map[string]any{"accept": true}, 200)
	game("POST", respond, a, map[string]any{"accept": true}, 409)
	p.mustDo(t, "POST", "/api/v1/admin/titles/"+id+"/retire", p.admin, nil, 200)
	p.mustDo(t, "POST", "/api/v1/admin/titles/999/retire", p.admin, nil, 404)
}

// TestDemoTitles: the demo arena shows a held title with a short lineage
// and a pending challenge, and a vacant one with a volunteer; its clock is
// running, so the scheduled jobs leave it as it is.
func TestDemoTitles(t *testing.T) {
	e := newTestEnv(t, true)
	_, err := e.Server.SeedDemo(context.Background())
	require.NoError(t, err)
	list := func() []any {
		_, out := e.do(t, "GET", "localhost", "/api/v1/public/titles", "", nil)
		return out["titles"].([]any)
	}
	titles := list()
	require.Len(t, titles, 2)
	champion, rookie := titles[0].(map[string]any), titles[1].(map[string]any)
	assert.Equal(t, "Grace Hopper", champion["holder"].(map[string]any)["personaName"])
	assert.Equal(t, float64(1), champion["reign"].(map[string]any)["defenses"])
	lineage := champion["lineage"].([]any)
	require.Len(t, lineage, 2)
	assert.Equal(t, "Ada Lovelace", lineage[0].(map[string]any)["player"].(map[string]any)["personaName"])
	assert.Equal(t, "lost", lineage[0].(map[string]any)["ended"])
	require.NotNil(t, champion["pendingChallenge"])
	assert.Equal(t, "pending", champion["pendingChallenge"].(map[string]any)["status"])
	expires, err := time.Parse(time.RFC3339, champion["clockExpiresAt"].(string))
	require.NoError(t, err)
	assert.True(t, expires.After(e.Now.Add(24*time.Hour)), "the holder has a day left to answer")
	assert.Nil(t, rookie["holder"])
	assert.Len(t, rookie["volunteers"], 1)
	e.Tick(t)
	e.Now = e.Now.Add(time.Minute) // a fresh rate window and cache
	assert.Equal(t, titles, list())
}
