package server_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func playerID(i int) string { return fmt.Sprintf("765611980000%05d", i) }

// tournamentBody is a valid tournament creation body, registration open
// around the test clock.
func (e *testEnv) tournamentBody(slug, format string, max int) map[string]any {
	return map[string]any{
		"slug": slug, "name": "Cup " + slug, "description": "A test cup", "format": format, "maxPlayers": max,
		"registrationOpensAt":  e.Now.Add(-time.Hour).Format(time.RFC3339),
		"registrationClosesAt": e.Now.Add(24 * time.Hour).Format(time.RFC3339),
		"startsAt":             e.Now.Add(48 * time.Hour).Format(time.RFC3339),
		"environment":          "demo", "groupCount": 2, "advancePerGroup": 2, "smallFinal": true,
		"matchWindowMinutes": 30, "cast": map[string]any{"handMode": "delayed", "delaySeconds": 120},
	}
}

func (e *testEnv) mustDo(t *testing.T, method, path, token string, body any, want int) map[string]any {
	t.Helper()
	status, out := e.do(t, method, "alpha.test", path, token, body)
	require.Equal(t, want, status, "%s %s: %v", method, path, out)
	return out
}

// runCup plays an 8-player groups_playoffs cup to completion through the
// admin API; the lower account id wins every match.
func runCup(t *testing.T, e *testEnv, admin, slug string) {
	e.mustDo(t, "POST", "/api/v1/admin/tournaments", admin, e.tournamentBody(slug, "groups_playoffs", 8), 201)
	base := "/api/v1/admin/tournaments/" + slug
	e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "registration_open"}, 200)
	for i := 1; i <= 8; i++ {
		e.mustDo(t, "POST", base+"/registrations", admin, map[string]any{"platformId": playerID(i), "personaName": fmt.Sprintf("Player %d", i), "seed": i}, 201)
	}
	e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "registration_closed"}, 200)
	e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "group_stage"}, 200)
	resolveAll(t, e, admin, slug)
	e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "playoffs"}, 200)
	for range 3 { // semifinals, then final and small final
		resolveAll(t, e, admin, slug)
	}
}

func resolveAll(t *testing.T, e *testEnv, admin, slug string) {
	t.Helper()
	list := e.mustDo(t, "GET", "/api/v1/admin/tournaments/"+slug+"/matches", admin, nil, 200)
	for _, raw := range list["matches"].([]any) {
		m := raw.(map[string]any)
		if m["status"] != "scheduled" || m["p1PlatformId"] == nil || m["p2PlatformId"] == nil {
			continue
		}
		winner := min(m["p1PlatformId"].(string), m["p2PlatformId"].(string))
		e.mustDo(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%.0f/resolve", m["id"]), admin,
			map[string]any{"winner": winner, "score": map[string]any{"p1": 3, "p2": 1}}, 200)
	}
}

func TestTournamentAPI(t *testing.T) {
	e := newTestEnv(t, false)
	admin := e.createArena(t, "alpha", "alpha.test")
	e.mustDo(t, "POST", "/api/v1/admin/seasons", admin, map[string]any{"slug": "s1", "name": "Season 1",
		"startsAt": "2026-10-01T00:00:00Z", "endsAt": "2026-12-31T00:00:00Z"}, 201)
	body := e.tournamentBody("cup", "groups_playoffs", 8)
	body["season"] = "s1"
	created := e.mustDo(t, "POST", "/api/v1/admin/tournaments", admin, body, 201)
	assert.Equal(t, "draft", created["status"])
	assert.Equal(t, "s1", created["season"])
	assert.Equal(t, map[string]any{"handMode": "delayed", "delaySeconds": float64(120)}, created["cast"])

	t.Run("DraftIsNotPublic", func(t *testing.T) {
		status, out := e.do(t, "GET", "alpha.test", "/api/v1/tournaments/cup", "", nil)
		assert.Equal(t, 404, status)
		assert.Equal(t, "tournament_not_found", out["error"])
		list := e.mustDo(t, "GET", "/api/v1/tournaments", "", nil, 200)
		assert.Empty(t, list["tournaments"])
	})

	base := "/api/v1/admin/tournaments/cup"
	e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "registration_open"}, 200)
	for i := 1; i <= 8; i++ {
		e.mustDo(t, "POST", base+"/registrations", admin, map[string]any{"platformId": playerID(i), "personaName": fmt.Sprintf("Player %d", i), "seed": i}, 201)
	}
	t.Run("RegistrationErrors", func(t *testing.T) {
		cases := []struct {
			name   string
			body   map[string]any
			status int
			code   string
		}{
			{"InvalidSteamID", map[string]any{"platformId": "123"}, 400, "invalid_steam_id"},
			{"Full", map[string]any{"platformId": playerID(9)}, 409, "tournament_full"},
			{"AlreadyRegistered", map[string]any{"platformId": playerID(1)}, 409, "already_registered"},
			{"RosterInOneVOne", map[string]any{"platformId": playerID(10), "roster": []string{playerID(11)}}, 422, "invalid_roster"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				out := e.mustDo(t, "POST", base+"/registrations", admin, tc.body, tc.status)
				assert.Equal(t, tc.code, out["error"])
			})
		}
		out := e.mustDo(t, "POST", "/api/v1/admin/tournaments/nope/registrations", admin, map[string]any{"platformId": playerID(1)}, 404)
		assert.Equal(t, "tournament_not_found", out["error"])
	})
	t.Run("InvalidTransition", func(t *testing.T) {
		out := e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "playoffs"}, 409)
		assert.Equal(t, "invalid_transition", out["error"])
		out = e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "draft"}, 422)
		assert.Equal(t, "status", out["field"])
	})
	e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "registration_closed"}, 200)
	t.Run("ClosedRegistration", func(t *testing.T) {
		out := e.mustDo(t, "POST", base+"/registrations", admin, map[string]any{"platformId": playerID(20)}, 409)
		assert.Equal(t, "registration_closed", out["error"])
	})
	e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "group_stage"}, 200)

	t.Run("GroupStageIsPublic", func(t *testing.T) {
		full := e.mustDo(t, "GET", "/api/v1/tournaments/cup", "", nil, 200)
		assert.Equal(t, "group_stage", full["status"])
		assert.Equal(t, float64(8), full["playerCount"])
		groups := full["groups"].([]any)
		require.Len(t, groups, 2)
		g := groups[0].(map[string]any)
		assert.Equal(t, "A", g["name"])
		assert.Len(t, g["standings"], 4)
		assert.Len(t, g["matches"], 6)
		m := g["matches"].([]any)[0].(map[string]any)
		for _, field := range []string{"id", "stage", "round", "bracketSlot", "status", "opensAt", "closesAt", "player1", "player2", "winner", "score", "resultSource"} {
			assert.Contains(t, m, field)
		}
		assert.Equal(t, "group", m["stage"])
		assert.Nil(t, m["bracketSlot"])
		assert.Nil(t, m["winner"])
		assert.Empty(t, full["bracket"])
	})
	t.Run("ResolveErrors", func(t *testing.T) {
		list := e.mustDo(t, "GET", base+"/matches", admin, nil, 200)
		m := list["matches"].([]any)[0].(map[string]any)
		path := fmt.Sprintf("/api/v1/admin/matches/%.0f/resolve", m["id"])
		out := e.mustDo(t, "POST", path, admin, map[string]any{"winner": playerID(99)}, 422)
		assert.Equal(t, "invalid_winner", out["error"])
		out = e.mustDo(t, "POST", "/api/v1/admin/matches/abc/resolve", admin, map[string]any{"winner": playerID(1)}, 404)
		assert.Equal(t, "match_not_found", out["error"])
		out = e.mustDo(t, "POST", "/api/v1/admin/matches/999999/resolve", admin, map[string]any{"winner": playerID(1)}, 404)
		assert.Equal(t, "match_not_found", out["error"])
		e.mustDo(t, "POST", path, admin, map[string]any{"winner": m["p1PlatformId"], "forfeit": true}, 200)
		out = e.mustDo(t, "POST", path, admin, map[string]any{"winner": m["p2PlatformId"]}, 409)
		assert.Equal(t, "already_resolved", out["error"])
	})
	resolveAll(t, e, admin, "cup")
	e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "playoffs"}, 200)
	for range 2 {
		resolveAll(t, e, admin, "cup")
	}

	full := e.mustDo(t, "GET", "/api/v1/tournaments/cup", "", nil, 200)
	t.Run("SameStatusChangesNothing", func(t *testing.T) {
		// The final's result completed the tournament; an admin's script
		// that completes it afterwards gets 200 and changes nothing.
		out := e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "completed"}, 200)
		assert.Equal(t, "completed", out["status"])
		assert.Equal(t, full["podium"], out["podium"])
		out = e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "registration_open"}, 409)
		assert.Equal(t, "invalid_transition", out["error"])
	})
	t.Run("CompletedWithPodium", func(t *testing.T) {
		assert.Equal(t, "completed", full["status"])
		podium := full["podium"].([]any)
		require.Len(t, podium, 4)
		first := podium[0].(map[string]any)
		assert.Equal(t, float64(1), first["rank"])
		assert.Equal(t, map[string]any{"platformId": playerID(1), "personaName": "Player 1", "avatarUrl": ""}, first["player"])
	})
	t.Run("BracketColumns", func(t *testing.T) {
		bracket := full["bracket"].([]any)
		require.Len(t, bracket, 4)
		var sides, labels []any
		for _, c := range bracket {
			sides = append(sides, c.(map[string]any)["side"])
			labels = append(labels, c.(map[string]any)["label"])
		}
		assert.Equal(t, []any{"left", "center", "center", "right"}, sides)
		assert.Equal(t, []any{"Semifinals", "Final", "Small final", "Semifinals"}, labels)
		final := bracket[1].(map[string]any)["matches"].([]any)[0].(map[string]any)
		assert.Equal(t, "FINAL", final["bracketSlot"])
		assert.Equal(t, "final", final["stage"])
		assert.Equal(t, "admin", final["resultSource"])
		assert.Equal(t, map[string]any{"p1": float64(3), "p2": float64(1)}, final["score"])
		assert.Equal(t, playerID(1), final["winner"].(map[string]any)["platformId"])
	})
	t.Run("Ladder", func(t *testing.T) {
		for _, q := range []string{"", "?season=s1", "?season=unknown"} {
			out := e.mustDo(t, "GET", "/api/v1/ladder"+q, "", nil, 200)
			assert.Equal(t, "s1", out["season"].(map[string]any)["slug"], q)
			ladder := out["ladder"].([]any)
			require.Len(t, ladder, 8)
			top := ladder[0].(map[string]any)
			assert.Equal(t, float64(1), top["rank"])
			assert.Equal(t, float64(100), top["points"])
			assert.Equal(t, float64(1), top["tournaments"])
		}
		all := e.mustDo(t, "GET", "/api/v1/ladder?season=all", "", nil, 200)
		assert.Equal(t, "all", all["season"].(map[string]any)["slug"])
		assert.Len(t, all["seasons"], 1)
	})
	t.Run("PlayerProfile", func(t *testing.T) {
		out := e.mustDo(t, "GET", "/api/v1/players/"+playerID(1), "", nil, 200)
		stats := out["stats"].(map[string]any)
		assert.Equal(t, float64(5), stats["matchesPlayed"])
		assert.Equal(t, float64(5), stats["wins"])
		assert.Equal(t, float64(0), stats["losses"])
		assert.Equal(t, float64(100), stats["winRate"])
		trophy := stats["trophies"].([]any)[0].(map[string]any)
		assert.Equal(t, float64(1), trophy["rank"])
		assert.Equal(t, created["id"], trophy["tournamentId"])

		loser := e.mustDo(t, "GET", "/api/v1/players/"+playerID(8), "", nil, 200)["stats"].(map[string]any)
		assert.Equal(t, float64(3), loser["matchesPlayed"])
		assert.Equal(t, float64(0), loser["wins"])
		assert.Equal(t, float64(0), loser["winRate"])

		status, bad := e.do(t, "GET", "alpha.test", "/api/v1/players/12345", "", nil)
		assert.Equal(t, 400, status)
		assert.Equal(t, "invalid_steam_id", bad["error"])
		status, missing := e.do(t, "GET", "alpha.test", "/api/v1/players/"+playerID(77), "", nil)
		assert.Equal(t, 404, status)
		assert.Equal(t, "player_not_found", missing["error"])
	})
}

func TestCreateTournamentBadInput(t *testing.T) {
	e := newTestEnv(t, false)
	admin := e.createArena(t, "alpha", "alpha.test")
	e.mustDo(t, "POST", "/api/v1/admin/tournaments", admin, e.tournamentBody("taken", "playoffs_only", 8), 422) // groupCount with playoffs_only
	ok := e.tournamentBody("taken", "groups_playoffs", 8)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments", admin, ok, 201)
	made := e.tournamentBody("", "groups_playoffs", 8)
	delete(made, "slug")
	made["name"] = "Autumn Cup 2026"
	assert.Equal(t, "autumn-cup-2026", e.mustDo(t, "POST", "/api/v1/admin/tournaments", admin, made, 201)["slug"], "made of the name")
	with := func(key string, v any) map[string]any {
		b := e.tournamentBody("fresh", "groups_playoffs", 8)
		if v == nil {
			delete(b, key)
		} else {
			b[key] = v
		}
		return b
	}
	cases := []struct {
		name, field, code string
		body              map[string]any
		status            int
	}{
		{"MissingSlugAndNoneFromTheName", "slug", "invalid_field", func() map[string]any { b := with("slug", nil); b["name"] = "¡¿!"; return b }(), 422},
		{"DuplicateSlug", "slug", "slug_taken", with("slug", "taken"), 409},
		{"BadFormat", "format", "invalid_field", with("format", "knockout"), 422},
		{"MaxPlayersTooSmall", "maxPlayers", "invalid_field", with("maxPlayers", 1), 422},
		{"MaxPlayersNotNumber", "maxPlayers", "invalid_field", with("maxPlayers", "x"), 422},
		{"BadDate", "startsAt", "invalid_field", with("startsAt", "tomorrow"), 422},
		{"ClosesBeforeOpens", "registrationClosesAt", "invalid_field", with("registrationClosesAt", "2020-01-01T00:00:00Z"), 422},
		{"StartsBeforeClose", "startsAt", "invalid_field", with("startsAt", e.Now.Format(time.RFC3339)), 422},
		{"BadEnvironment", "environment", "invalid_field", with("environment", "prod"), 422},
		{"UnknownSeason", "season", "season_not_found", with("season", "s9"), 422},
		{"TooManyGroups", "groupCount", "invalid_field", with("groupCount", 5), 422},
		{"BadHandMode", "cast", "invalid_field", with("cast", map[string]any{"handMode": "peek"}), 422},
		{"TeamMaxBelowMin", "teamMaxPlayers", "invalid_field", func() map[string]any { b := with("teamMinPlayers", 3); b["teamMaxPlayers"] = 2; return b }(), 422},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := e.mustDo(t, "POST", "/api/v1/admin/tournaments", admin, tc.body, tc.status)
			assert.Equal(t, tc.code, out["error"])
			assert.Contains(t, out["field"], tc.field)
		})
	}
}

func TestAPIKeys(t *testing.T) {
	e := newTestEnv(t, false)
	admin := e.createArena(t, "alpha", "alpha.test")
	betaAdmin := e.createArena(t, "beta", "beta.test")
	minted := e.mustDo(t, "POST", "/api/v1/admin/api-keys", admin, map[string]any{"label": "bot"}, 201)
	key := minted["key"].(string)
	assert.Regexp(t, `^apikey_[0-9a-f]{8}_[A-Za-z0-9_-]+$`, key)
	_, betaKey := e.do(t, "POST", "beta.test", "/api/v1/admin/api-keys", betaAdmin, map[string]any{"label": "other"})

	authenticated := func(token string) bool {
		out := e.mustDo(t, "GET", "/api/v1", token, nil, 200)
		return out["authenticated"].(bool)
	}
	assert.True(t, authenticated(key))
	assert.False(t, authenticated(""))
	assert.False(t, authenticated(key+"x"), "wrong secret is anonymous, not rejected")
	assert.False(t, authenticated("apikey_zz_bad"), "malformed is anonymous")
	assert.False(t, authenticated(betaKey["key"].(string)), "another arena's key is anonymous here")

	list := e.mustDo(t, "GET", "/api/v1/admin/api-keys", admin, nil, 200)
	assert.NotContains(t, fmt.Sprint(list), key)
	e.mustDo(t, "DELETE", "/api/v1/admin/api-keys/"+minted["id"].(string), admin, nil, 204)
	assert.False(t, authenticated(key), "a revoked key is anonymous")
	e.mustDo(t, "DELETE", "/api/v1/admin/api-keys/ffffffff", admin, nil, 404)
}

func TestRateLimits(t *testing.T) {
	e := newTestEnv(t, false)
	admin := e.createArena(t, "alpha", "alpha.test")
	e.mustDo(t, "PUT", "/api/v1/admin/settings", admin, map[string]any{"rateLimits": map[string]any{"anonymousPerMinute": 3, "keyPerMinute": 5}}, 200)
	key := e.mustDo(t, "POST", "/api/v1/admin/api-keys", admin, map[string]any{"label": "k"}, 201)["key"].(string)
	e.Now = e.Now.Truncate(time.Minute).Add(50 * time.Second)

	get := func(token string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/api/v1/tournaments", nil)
		req.Host = "alpha.test"
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		rec := httptest.NewRecorder()
		e.Server.ServeHTTP(rec, req)
		return rec
	}
	for i := 1; i <= 3; i++ {
		rec := get("")
		require.Equal(t, 200, rec.Code)
		assert.Equal(t, "3", rec.Header().Get("RateLimit-Limit"))
		assert.Equal(t, fmt.Sprint(3-i), rec.Header().Get("RateLimit-Remaining"))
		assert.Equal(t, "10", rec.Header().Get("RateLimit-Reset"))
	}
	rec := get("")
	assert.Equal(t, http.StatusTooManyRequests, rec.Code)
	assert.JSONEq(t, `{"error":"rate_limited"}`, rec.Body.String())
	assert.Equal(t, "10", rec.Header().Get("Retry-After"))

	t.Run("KeyHasItsOwnLimit", func(t *testing.T) {
		for range 5 {
			require.Equal(t, 200, get(key).Code)
		}
		assert.Equal(t, 429, get(key).Code)
		assert.Equal(t, "5", get(key).Header().Get("RateLimit-Limit"))
	})
	t.Run("NextWindowResets", func(t *testing.T) {
		e.Now = e.Now.Add(10 * time.Second)
		assert.Equal(t, 200, get("").Code)
	})
	t.Run("ZeroLiftsTheLimit", func(t *testing.T) {
		e.mustDo(t, "PUT", "/api/v1/admin/settings", admin, map[string]any{"rateLimits": map[string]any{"anonymousPerMinute": 0, "keyPerMinute": 0}}, 200)
		for range 10 {
			require.Equal(t, 200, get("").Code)
		}
	})
	t.Run("ConcurrentRequestsNeverExceed", func(t *testing.T) {
		e.mustDo(t, "PUT", "/api/v1/admin/settings", admin, map[string]any{"rateLimits": map[string]any{"anonymousPerMinute": 7, "keyPerMinute": 7}}, 200)
		e.Now = e.Now.Add(time.Minute)
		var mu sync.Mutex
		codes := map[int]int{}
		var wg sync.WaitGroup
		for range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := get("").Code
				mu.Lock()
				codes[c]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		assert.Equal(t, map[int]int{200: 7, 429: 13}, codes)
	})
}

func TestETag(t *testing.T) {
	e := newTestEnv(t, false)
	e.createArena(t, "alpha", "alpha.test")
	req := httptest.NewRequest("GET", "/api/v1/tournaments", nil)
	req.Host = "alpha.test"
	rec := httptest.NewRecorder()
	e.Server.ServeHTTP(rec, req)
	etag := rec.Header().Get("ETag")
	require.Regexp(t, `^"[0-9a-f]{32}"$`, etag)
	assert.Equal(t, "public, max-age=10", rec.Header().Get("Cache-Control"))

	req.Header.Set("If-None-Match", etag)
	rec = httptest.NewRecorder()
	e.Server.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusNotModified, rec.Code)
	assert.Empty(t, rec.Body.String())

	req.Header.Set("If-None-Match", `"other"`)
	rec = httptest.NewRecorder()
	e.Server.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusOK, rec.Code)
}
