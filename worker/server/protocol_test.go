package server_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// protocolEnv is an arena in mock ticket mode with a tournament whose
// matches are open now.
type protocolEnv struct {
	*testEnv
	admin string
}

func newProtocolEnv(t *testing.T, appIDs ...string) *protocolEnv {
	t.Helper()
	e := newTestEnv(t, true)
	if len(appIDs) == 0 {
		appIDs = []string{"480"}
	}
	req := map[string]any{"slug": "alpha", "name": "Alpha", "hosts": []string{"alpha.test"}, "plan": "indie",
		"appIds": appIDs, "gracePeriodSeconds": 3600}
	status, body := e.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, req)
	require.Equal(t, http.StatusCreated, status, body)
	return &protocolEnv{testEnv: e, admin: body["adminToken"].(string)}
}

// bracket creates a playoffs_only tournament of the given players (ids
// 1..n, seeded in order) in environment env and starts its playoffs: the
// first round's windows open now.
func (p *protocolEnv) bracket(t *testing.T, slug, env string, n int) []map[string]any {
	t.Helper()
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i + 1
	}
	return p.bracketOf(t, slug, env, ids)
}

// bracketOf is bracket of the players with the ids, seeded in order.
func (p *protocolEnv) bracketOf(t *testing.T, slug, env string, ids []int) []map[string]any {
	t.Helper()
	n := len(ids)
	body := p.tournamentBody(slug, "playoffs_only", n)
	delete(body, "groupCount")
	delete(body, "advancePerGroup")
	body["environment"] = env
	p.mustDo(t, "POST", "/api/v1/admin/tournaments", p.admin, body, 201)
	base := "/api/v1/admin/tournaments/" + slug
	p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "registration_open"}, 200)
	for i, id := range ids {
		p.mustDo(t, "POST", base+"/registrations", p.admin, map[string]any{"platformId": playerID(id), "seed": i + 1}, 201)
	}
	p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "registration_closed"}, 200)
	p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "playoffs"}, 200)
	list := p.mustDo(t, "GET", base+"/matches", p.admin, nil, 200)["matches"].([]any)
	out := make([]map[string]any, len(list))
	for i, m := range list {
		out[i] = m.(map[string]any)
	}
	return out
}

// game sends a ticket-authenticated request as the account (none: "")
// to the alpha arena, from the AppID when not "".
func (p *protocolEnv) game(t *testing.T, method, path, account string, body any, appID string) (int, map[string]any) {
	t.Helper()
	auth, header := "", []string{}
	if account != "" {
		auth = "Platform MOCK:" + account
	}
	if appID != "" {
		header = append(header, "X-Platform-AppId", appID)
	}
	return p.Do(t, method, "http://alpha.test"+path, auth, body, header...)
}

func matchPath(m map[string]any, action string) string {
	return fmt.Sprintf("/api/v1/matches/%.0f/%s", m["id"], action)
}

// goLive readies both sides of the match and returns its live-match object.
func (p *protocolEnv) goLive(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	a, b := m["p1PlatformId"].(string), m["p2PlatformId"].(string)
	status, out := p.game(t, "POST", matchPath(m, "ready"), a, nil, "")
	require.Equal(t, 200, status, out)
	assert.Equal(t, map[string]any{"status": "scheduled", "live": false, "opponentReady": false}, out)
	status, out = p.game(t, "POST", matchPath(m, "ready"), b, nil, "")
	require.Equal(t, 200, status, out)
	assert.Equal(t, map[string]any{"status": "live", "live": true, "opponentReady": true}, out)
	status, live := p.game(t, "GET", "/api/v1/me/live-match", a, nil, "")
	require.Equal(t, 200, status)
	return live
}

// result builds a canonical result string for the live match and its hash.
func result(live map[string]any, winner string, extra string) (string, string) {
	s := fmt.Sprintf(`{"matchId":%.0f,%s"sessionNonce":%q,"winner":%q}`, live["matchId"], extra, live["sessionNonce"], winner)
	sum := sha256.Sum256([]byte(s))
	return s, hex.EncodeToString(sum[:])
}

func submission(res, hash string) map[string]any {
	return map[string]any{"protocol": "svc.result.v3", "result": res, "resultHash": hash, "clientRole": "host", "endedAt": "2026-11-01T12:30:00Z"}
}

func TestLiveMatchDiscovery(t *testing.T) {
	p := newProtocolEnv(t)
	m := p.bracket(t, "duo", "demo", 2)[0]
	a, b := playerID(1), playerID(2)

	status, _ := p.game(t, "GET", "/api/v1/me/live-match", a, nil, "")
	assert.Equal(t, http.StatusNoContent, status, "scheduled is not live")
	status, up := p.game(t, "GET", "/api/v1/me/upcoming-match", a, nil, "")
	require.Equal(t, 200, status)
	assert.Equal(t, m["id"], up["matchId"])
	assert.Equal(t, float64(1), up["slot"])
	assert.Equal(t, b, up["opponentPlatformId"])
	assert.Equal(t, "Player 0002", up["opponentName"])
	assert.Equal(t, true, up["windowOpen"])
	assert.Equal(t, false, up["selfReady"])

	live := p.goLive(t, m)
	assert.Equal(t, m["id"], live["matchId"])
	assert.Equal(t, float64(1), live["slot"])
	assert.Equal(t, a, live["p1PlatformId"])
	assert.Equal(t, b, live["p2PlatformId"])
	assert.Equal(t, b, live["opponentPlatformId"])
	assert.Equal(t, map[string]any{"slug": "duo", "name": "Cup duo"}, live["tournament"])
	assert.Equal(t, map[string]any{"handMode": "delayed", "delaySeconds": float64(120)}, live["cast"])
	assert.Equal(t, []any{}, live["casters"])
	assert.Contains(t, live, "casterPlatformId")
	assert.Nil(t, live["casterPlatformId"])
	assert.Nil(t, live["streamUrl"])
	assert.Equal(t, []any{a}, live["p1Roster"])
	assert.Equal(t, []any{b}, live["p2Roster"])
	assert.Equal(t, float64(1), live["teamMaxPlayers"])
	assert.Equal(t, "svc.result.v3", live["resultProtocol"])
	assert.Equal(t, true, live["allowSpectators"])
	assert.NotContains(t, live, "refereeM0", "the arena runs no referee")
	assert.Regexp(t, `^[A-Za-z0-9_-]{22,}$`, live["sessionNonce"], "at least 128 bits, URL-safe")
	seed := live["gameSeed"].(float64)
	assert.True(t, seed > 0 && seed < 1<<32, "a 32-bit organized seed")

	status, other := p.game(t, "GET", "/api/v1/me/live-match", b, nil, "")
	require.Equal(t, 200, status)
	assert.Equal(t, float64(2), other["slot"])
	assert.Equal(t, live["sessionNonce"], other["sessionNonce"], "both clients get the same nonce")
	assert.Equal(t, a, other["opponentPlatformId"])

	status, _ = p.game(t, "GET", "/api/v1/me/live-match", playerID(50), nil, "")
	assert.Equal(t, http.StatusNoContent, status)

	t.Run("RefereeWhenEnabled", func(t *testing.T) {
		p.mustDo(t, "PUT", "/api/v1/admin/settings", p.admin, map[string]any{"refereeEnabled": true}, 200)
		_, live := p.game(t, "GET", "/api/v1/me/live-match", a, nil, "")
		assert.Equal(t, map[string]any{"enabled": true, "consentComplete": false, "traceProtocol": "svc.gameplay.v1", "captureProtocol": "svc.capture.v1"}, live["refereeM0"])
		for _, id := range []string{a, b} {
			status, _ := p.game(t, "POST", "/api/v1/me/referee-consent", id, map[string]any{"granted": true}, "")
			require.Equal(t, 200, status)
		}
		_, live = p.game(t, "GET", "/api/v1/me/live-match", a, nil, "")
		assert.Equal(t, true, live["refereeM0"].(map[string]any)["consentComplete"])
	})
}

func TestTicketRequired(t *testing.T) {
	p := newProtocolEnv(t)
	for _, ep := range []struct{ method, path string }{
		{"GET", "/api/v1/me/live-match"}, {"GET", "/api/v1/me/upcoming-match"},
		{"POST", "/api/v1/matches/1/ready"}, {"POST", "/api/v1/matches/1/result"}, {"POST", "/api/v1/me/referee-consent"},
	} {
		for name, header := range map[string]string{"Missing": "", "Bearer": "Bearer abc", "ShortMock": "Platform MOCK:123", "NotHex": "Platform xyz!"} {
			t.Run(ep.path+"/"+name, func(t *testing.T) {
				req := httptest.NewRequest(ep.method, ep.path, nil)
				req.Host = "alpha.test"
				if header != "" {
					req.Header.Set("Authorization", header)
				}
				rec := httptest.NewRecorder()
				p.Server.ServeHTTP(rec, req)
				assert.Equal(t, 401, rec.Code)
				assert.JSONEq(t, `{"error":"missing_ticket"}`, rec.Body.String())
			})
		}
	}
	t.Run("HexTicketInMockMode", func(t *testing.T) {
		req := httptest.NewRequest("GET", "/api/v1/me/live-match", nil)
		req.Host = "alpha.test"
		req.Header.Set("Authorization", "Platform 14000000abcdef")
		rec := httptest.NewRecorder()
		p.Server.ServeHTTP(rec, req)
		assert.Equal(t, 401, rec.Code)
		assert.JSONEq(t, `{"error":"missing_ticket","reason":"invalid_ticket"}`, rec.Body.String())
	})
}

func TestEnvironmentGate(t *testing.T) {
	p := newProtocolEnv(t, "480", "481")
	demo := p.bracket(t, "demo-cup", "demo", 2)[0]
	rec := p.bracket(t, "rec-cup", "rec", 4)
	a := playerID(1)

	// Player 1 plays in both. The primary AppID sees only rec; others only demo.
	_, up := p.game(t, "GET", "/api/v1/me/upcoming-match", a, nil, "480")
	assert.Equal(t, "rec-cup", up["tournament"].(map[string]any)["slug"])
	_, up = p.game(t, "GET", "/api/v1/me/upcoming-match", a, nil, "481")
	assert.Equal(t, "demo-cup", up["tournament"].(map[string]any)["slug"])
	_, up = p.game(t, "GET", "/api/v1/me/upcoming-match", a, nil, "999")
	assert.Equal(t, "rec-cup", up["tournament"].(map[string]any)["slug"], "an unaccepted AppID hint is ignored: the primary")

	status, out := p.game(t, "POST", matchPath(demo, "ready"), a, nil, "480")
	assert.Equal(t, 404, status)
	assert.Equal(t, "match_not_found", out["error"], "hidden from the wrong build")
	status, _ = p.game(t, "POST", matchPath(rec[0], "ready"), a, nil, "481")
	assert.Equal(t, 404, status)

	for _, id := range []string{a, playerID(2)} {
		status, _ := p.game(t, "POST", matchPath(demo, "ready"), id, nil, "481")
		require.Equal(t, 200, status)
	}
	status, _ = p.game(t, "GET", "/api/v1/me/live-match", a, nil, "480")
	assert.Equal(t, http.StatusNoContent, status, "the demo match is live but hidden from the primary build")
	status, live := p.game(t, "GET", "/api/v1/me/live-match", a, nil, "481")
	assert.Equal(t, 200, status)
	assert.Equal(t, demo["id"], live["matchId"])
}

func TestReadyErrors(t *testing.T) {
	p := newProtocolEnv(t)
	matches := p.bracket(t, "four", "demo", 3) // SF1 is a bye, SF2 2v3, final undecided
	var sf2, final map[string]any
	for _, m := range matches {
		switch m["bracketSlot"] {
		case "SF2":
			sf2 = m
		case "FINAL":
			final = m
		}
	}
	cases := []struct {
		name, path, account string
		status              int
		code                string
	}{
		{"NotAnInteger", "/api/v1/matches/abc/ready", playerID(2), 404, "match_not_found"},
		{"NoSuchMatch", "/api/v1/matches/9999/ready", playerID(2), 404, "match_not_found"},
		{"NotParticipant", matchPath(sf2, "ready"), playerID(1), 403, "not_participant"},
		{"OpponentUndecided", matchPath(final, "ready"), playerID(1), 409, "opponent_undecided"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, out := p.game(t, "POST", tc.path, tc.account, nil, "")
			assert.Equal(t, tc.status, status)
			assert.Equal(t, tc.code, out["error"])
		})
	}
	t.Run("WindowNotOpen", func(t *testing.T) {
		p.mustDo(t, "PATCH", fmt.Sprintf("/api/v1/admin/matches/%.0f", sf2["id"]), p.admin,
			map[string]any{"opensAt": p.Now.Add(time.Hour).Format(time.RFC3339), "closesAt": p.Now.Add(2 * time.Hour).Format(time.RFC3339)}, 200)
		status, out := p.game(t, "POST", matchPath(sf2, "ready"), playerID(2), nil, "")
		assert.Equal(t, 409, status)
		assert.Equal(t, "window_not_open", out["error"])
	})
	t.Run("WindowClosed", func(t *testing.T) {
		p.mustDo(t, "PATCH", fmt.Sprintf("/api/v1/admin/matches/%.0f", sf2["id"]), p.admin,
			map[string]any{"opensAt": p.Now.Add(-2 * time.Hour).Format(time.RFC3339), "closesAt": p.Now.Format(time.RFC3339)}, 200)
		status, out := p.game(t, "POST", matchPath(sf2, "ready"), playerID(2), nil, "")
		assert.Equal(t, 409, status)
		assert.Equal(t, "window_closed", out["error"])
	})
	t.Run("PastReadyPhase", func(t *testing.T) {
		p.mustDo(t, "PATCH", fmt.Sprintf("/api/v1/admin/matches/%.0f", sf2["id"]), p.admin,
			map[string]any{"closesAt": p.Now.Add(time.Hour).Format(time.RFC3339)}, 200)
		p.goLive(t, sf2)
		status, out := p.game(t, "POST", matchPath(sf2, "ready"), playerID(2), nil, "")
		assert.Equal(t, 409, status)
		assert.Equal(t, "past_ready_phase", out["error"])
	})
}

// TestSecurityProperties has one test per security property of spec 1.
func TestSecurityProperties(t *testing.T) {
	p := newProtocolEnv(t)
	matches := p.bracket(t, "sec", "demo", 4) // SF1 1v4, SF2 2v3
	sf1, sf2 := matches[0], matches[1]
	live1, live2 := p.goLive(t, sf1), p.goLive(t, sf2)
	a, d := playerID(1), playerID(4)

	t.Run("NonParticipantCannotSubmit", func(t *testing.T) {
		res, hash := result(live1, a, "")
		status, out := p.game(t, "POST", matchPath(sf1, "result"), playerID(2), submission(res, hash), "")
		assert.Equal(t, 403, status)
		assert.Equal(t, "not_participant", out["error"])
	})
	t.Run("ResultCannotBeReplayedOnAnotherMatch", func(t *testing.T) {
		res, hash := result(live1, a, "")
		status, out := p.game(t, "POST", matchPath(sf2, "result"), playerID(2), submission(res, hash), "")
		assert.Equal(t, 422, status)
		assert.Equal(t, "result_not_for_match", out["error"])
		forged, fhash := result(map[string]any{"matchId": live2["matchId"], "sessionNonce": live1["sessionNonce"]}, playerID(2), "")
		status, out = p.game(t, "POST", matchPath(sf2, "result"), playerID(2), submission(forged, fhash), "")
		assert.Equal(t, 422, status)
		assert.Equal(t, "result_not_for_match", out["error"], "another match's nonce")
	})
	t.Run("SingleParticipantCannotDecide", func(t *testing.T) {
		res, hash := result(live1, a, `"score":[3,1],`)
		status, out := p.game(t, "POST", matchPath(sf1, "result"), a, submission(res, hash), "")
		require.Equal(t, 200, status, out)
		assert.Equal(t, map[string]any{"status": "pending", "matchStatus": "awaiting_result"}, out)
		detail := p.mustDo(t, "GET", fmt.Sprintf("/api/v1/admin/matches/%.0f", sf1["id"]), p.admin, nil, 200)
		assert.Equal(t, "awaiting_result", detail["status"])
		assert.Nil(t, detail["winner"])
	})
	t.Run("OneDistinctHashPerSide", func(t *testing.T) {
		res, hash := result(live1, a, `"score":[3,1],`)
		status, out := p.game(t, "POST", matchPath(sf1, "result"), a, submission(res, hash), "")
		assert.Equal(t, 200, status)
		assert.Equal(t, map[string]any{"status": "duplicate", "matchStatus": "awaiting_result"}, out)
		other, ohash := result(live1, a, `"score":[3,2],`)
		status, out = p.game(t, "POST", matchPath(sf1, "result"), a, submission(other, ohash), "")
		assert.Equal(t, 409, status)
		assert.Equal(t, "already_submitted", out["error"])
	})
	t.Run("BothSidesAgreeConfirms", func(t *testing.T) {
		res, hash := result(live1, a, `"score":[3,1],`)
		status, out := p.game(t, "POST", matchPath(sf1, "result"), d, submission(res, hash), "")
		require.Equal(t, 200, status)
		assert.Equal(t, map[string]any{"status": "confirmed", "matchStatus": "confirmed"}, out)
		detail := p.mustDo(t, "GET", fmt.Sprintf("/api/v1/admin/matches/%.0f", sf1["id"]), p.admin, nil, 200)
		assert.Equal(t, a, detail["winner"])
		assert.Equal(t, "game_client", detail["resultSource"])
		subs := detail["submissions"].([]any)
		require.Len(t, subs, 2)
		assert.Equal(t, res, subs[0].(map[string]any)["result"], "stored verbatim")
		assert.Equal(t, "host", subs[0].(map[string]any)["clientRole"])
	})
	t.Run("NotLiveAfterResolution", func(t *testing.T) {
		res, hash := result(live1, a, `"score":[3,1],`)
		status, out := p.game(t, "POST", matchPath(sf1, "result"), d, submission(res, hash), "")
		assert.Equal(t, 409, status)
		assert.Equal(t, "already_resolved", out["error"])
	})
	t.Run("WinnerAdvancesToTheFinal", func(t *testing.T) {
		list := p.mustDo(t, "GET", "/api/v1/admin/tournaments/sec/matches", p.admin, nil, 200)["matches"].([]any)
		for _, raw := range list {
			if m := raw.(map[string]any); m["bracketSlot"] == "FINAL" {
				assert.Equal(t, a, m["p1PlatformId"])
			}
		}
	})
	t.Run("DisagreementDisputes", func(t *testing.T) {
		r2, h2 := result(live2, playerID(2), "")
		r3, h3 := result(live2, playerID(3), "")
		_, out := p.game(t, "POST", matchPath(sf2, "result"), playerID(2), submission(r2, h2), "")
		assert.Equal(t, "pending", out["status"])
		_, out = p.game(t, "POST", matchPath(sf2, "result"), playerID(3), submission(r3, h3), "")
		assert.Equal(t, map[string]any{"status": "disputed", "matchStatus": "disputed"}, out)
		queue := p.mustDo(t, "GET", "/api/v1/admin/queue", p.admin, nil, 200)["matches"].([]any)
		require.Len(t, queue, 1)
		assert.Equal(t, sf2["id"], queue[0].(map[string]any)["id"])
		status, out := p.game(t, "POST", matchPath(sf2, "result"), playerID(3), submission(r3, h3), "")
		assert.Equal(t, 409, status)
		assert.Equal(t, "not_live", out["error"], "a disputed match waits for the admin")
		resolved := p.mustDo(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%.0f/resolve", sf2["id"]), p.admin, map[string]any{"winner": playerID(3)}, 200)
		assert.Equal(t, "admin", resolved["resultSource"])
		p.mustDo(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%.0f/resolve", sf2["id"]), p.admin, map[string]any{"winner": playerID(2)}, 409)
	})
}

// TestSubmitRuleOrder checks each rule's code and that earlier rules win.
func TestSubmitRuleOrder(t *testing.T) {
	p := newProtocolEnv(t)
	matches := p.bracket(t, "rules", "demo", 4)
	sf1, sf2 := matches[0], matches[1]
	live := p.goLive(t, sf1)
	a := playerID(1)
	good, goodHash := result(live, a, "")
	with := func(k string, v any) map[string]any {
		s := submission(good, goodHash)
		if v == nil {
			delete(s, k)
		} else {
			s[k] = v
		}
		return s
	}
	wrongID, wrongIDHash := result(map[string]any{"matchId": float64(999), "sessionNonce": live["sessionNonce"]}, a, "")
	badWinner, badWinnerHash := result(live, playerID(9), "")
	notJSON := "not json"
	noWinner := fmt.Sprintf(`{"matchId":%.0f,"sessionNonce":%q}`, live["matchId"], live["sessionNonce"])
	floatID := fmt.Sprintf(`{"matchId":%.1f,"sessionNonce":%q,"winner":%q}`, live["matchId"], live["sessionNonce"], a)
	hashOf := func(s string) string { sum := sha256.Sum256([]byte(s)); return hex.EncodeToString(sum[:]) }
	// A game parser keeping the first "winner" would read another result
	// from the same attested bytes than one keeping the last (I-JSON).
	dupWinner := fmt.Sprintf(`{"matchId":%.0f,"sessionNonce":%q,"winner":%q,"winner":%q}`, live["matchId"], live["sessionNonce"], playerID(3), a)
	dupDeep := fmt.Sprintf(`{"matchId":%.0f,"sessionNonce":%q,"winner":%q,"log":[{"t":1,"t":2}]}`, live["matchId"], live["sessionNonce"], a)
	lone := fmt.Sprintf(`{"matchId":%.0f,"sessionNonce":%q,"winner":%q,"name":"\ud800"}`, live["matchId"], live["sessionNonce"], a)
	cases := []struct {
		name, path, account string
		body                any
		status              int
		code                string
	}{
		{"MatchNotInteger", "/api/v1/matches/1x/result", a, submission(good, goodHash), 404, "match_not_found"},
		{"NoSuchMatch", "/api/v1/matches/9999/result", a, submission(good, goodHash), 404, "match_not_found"},
		{"MatchBeforeProtocol", "/api/v1/matches/9999/result", a, with("protocol", "v2"), 404, "match_not_found"},
		{"NotJSON", matchPath(sf1, "result"), a, "{", 400, "invalid_json"},
		{"NullBody", matchPath(sf1, "result"), a, "null", 400, "invalid_json"},
		{"ArrayBody", matchPath(sf1, "result"), a, "[]", 400, "invalid_json"},
		{"NumberBody", matchPath(sf1, "result"), a, "7", 400, "invalid_json"},
		{"UnsupportedProtocol", matchPath(sf1, "result"), a, with("protocol", "svc.result.v2"), 422, "unsupported_protocol"},
		{"MissingProtocol", matchPath(sf1, "result"), a, with("protocol", nil), 422, "unsupported_protocol"},
		{"ProtocolBeforeParticipant", matchPath(sf1, "result"), playerID(2), with("protocol", "x"), 422, "unsupported_protocol"},
		{"MissingResult", matchPath(sf1, "result"), a, with("result", nil), 422, "invalid_result"},
		{"EmptyResult", matchPath(sf1, "result"), a, with("result", ""), 422, "invalid_result"},
		{"ResultNotString", matchPath(sf1, "result"), a, with("result", map[string]any{"matchId": 1}), 422, "invalid_result"},
		{"ResultTooLarge", matchPath(sf1, "result"), a, with("result", string(make([]byte, 65537))), 422, "invalid_result"},
		{"BadHashFormat", matchPath(sf1, "result"), a, with("resultHash", "ABC"), 422, "invalid_resultHash"},
		{"UppercaseHash", matchPath(sf1, "result"), a, with("resultHash", "A"+goodHash[1:]), 422, "invalid_resultHash"},
		{"NotParticipant", matchPath(sf1, "result"), playerID(2), submission(good, goodHash), 403, "not_participant"},
		{"NotLiveScheduled", matchPath(sf2, "result"), playerID(2), submission(good, goodHash), 409, "not_live"},
		{"ParticipantBeforeNotLive", matchPath(sf2, "result"), a, submission(good, goodHash), 403, "not_participant"},
		{"HashMismatch", matchPath(sf1, "result"), a, with("resultHash", hashOf("other")), 422, "hash_mismatch"},
		{"ResultNotJSON", matchPath(sf1, "result"), a, submission(notJSON, hashOf(notJSON)), 422, "invalid_result"},
		{"ResultWithoutWinner", matchPath(sf1, "result"), a, submission(noWinner, hashOf(noWinner)), 422, "invalid_result"},
		{"MatchIDNotInteger", matchPath(sf1, "result"), a, submission(floatID, hashOf(floatID)), 422, "invalid_result"},
		{"DuplicateWinnerKey", matchPath(sf1, "result"), a, submission(dupWinner, hashOf(dupWinner)), 422, "invalid_result"},
		{"DuplicateKeyDeep", matchPath(sf1, "result"), a, submission(dupDeep, hashOf(dupDeep)), 422, "invalid_result"},
		{"LoneSurrogate", matchPath(sf1, "result"), a, submission(lone, hashOf(lone)), 422, "invalid_result"},
		{"HashBeforeDuplicateKey", matchPath(sf1, "result"), a, submission(dupWinner, goodHash), 422, "hash_mismatch"},
		{"ResultForAnotherMatch", matchPath(sf1, "result"), a, submission(wrongID, wrongIDHash), 422, "result_not_for_match"},
		{"WinnerOnNeitherSide", matchPath(sf1, "result"), a, submission(badWinner, badWinnerHash), 422, "invalid_winner"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, out := p.game(t, "POST", tc.path, tc.account, tc.body, "")
			assert.Equal(t, tc.status, status, out)
			assert.Equal(t, tc.code, out["error"])
		})
	}
	t.Run("BadMetadataIsDroppedNotRefused", func(t *testing.T) {
		s := submission(good, goodHash)
		s["clientRole"], s["startedAt"], s["endedAt"] = "spectator", "yesterday", 12
		status, out := p.game(t, "POST", matchPath(sf1, "result"), a, s, "")
		require.Equal(t, 200, status, out)
		detail := p.mustDo(t, "GET", fmt.Sprintf("/api/v1/admin/matches/%.0f", sf1["id"]), p.admin, nil, 200)
		sub := detail["submissions"].([]any)[0].(map[string]any)
		assert.NotContains(t, sub, "clientRole")
		assert.NotContains(t, sub, "startedAt")
	})
	t.Run("BodyTooLarge", func(t *testing.T) {
		big := `{"protocol":"svc.result.v3","result":"` + string(bytes.Repeat([]byte("x"), 600<<10)) + `"}`
		status, out := p.game(t, "POST", matchPath(sf1, "result"), a, big, "")
		assert.Equal(t, 413, status)
		assert.Equal(t, "body_too_large", out["error"])
	})
	t.Run("NothingChangedByRefusals", func(t *testing.T) {
		detail := p.mustDo(t, "GET", fmt.Sprintf("/api/v1/admin/matches/%.0f", sf1["id"]), p.admin, nil, 200)
		assert.Len(t, detail["submissions"], 1)
		assert.Equal(t, "awaiting_result", detail["status"])
	})
}

func TestConcurrentSubmissions(t *testing.T) {
	p := newProtocolEnv(t)
	matches := p.bracket(t, "race", "demo", 4)
	sf1, sf2 := matches[0], matches[1]
	live1, live2 := p.goLive(t, sf1), p.goLive(t, sf2)

	t.Run("BothSidesAtOnce", func(t *testing.T) {
		res, hash := result(live1, playerID(1), "")
		var wg sync.WaitGroup
		outs := make([]map[string]any, 2)
		for i, who := range []string{playerID(1), playerID(4)} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, outs[i] = p.game(t, "POST", matchPath(sf1, "result"), who, submission(res, hash), "")
			}()
		}
		wg.Wait()
		statuses := []any{outs[0]["status"], outs[1]["status"]}
		assert.ElementsMatch(t, []any{"pending", "confirmed"}, statuses)
		detail := p.mustDo(t, "GET", fmt.Sprintf("/api/v1/admin/matches/%.0f", sf1["id"]), p.admin, nil, 200)
		assert.Equal(t, "confirmed", detail["status"])
	})
	t.Run("OneSideManyHashes", func(t *testing.T) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		codes := map[string]int{}
		for i := range 12 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, hash := result(live2, playerID(2), fmt.Sprintf(`"n":%d,`, i))
				status, out := p.game(t, "POST", matchPath(sf2, "result"), playerID(2), submission(res, hash), "")
				mu.Lock()
				defer mu.Unlock()
				if status == 200 {
					codes[out["status"].(string)]++
				} else {
					codes[out["error"].(string)]++
				}
			}()
		}
		wg.Wait()
		assert.Equal(t, map[string]int{"pending": 1, "already_submitted": 11}, codes)
		detail := p.mustDo(t, "GET", fmt.Sprintf("/api/v1/admin/matches/%.0f", sf2["id"]), p.admin, nil, 200)
		assert.Len(t, detail["submissions"], 1)
		assert.Equal(t, "awaiting_result", detail["status"])
	})
}

func TestTimers(t *testing.T) {
	p := newProtocolEnv(t)
	matches := p.bracket(t, "timers", "demo", 8) // QF1..QF4, windows of 30 minutes
	qf1, qf2, qf3 := matches[0], matches[1], matches[2]
	live := p.goLive(t, qf1)
	res, hash := result(live, playerID(1), "")
	_, out := p.game(t, "POST", matchPath(qf1, "result"), playerID(1), submission(res, hash), "")
	require.Equal(t, "pending", out["status"])
	status, _ := p.game(t, "POST", matchPath(qf2, "ready"), qf2["p1PlatformId"].(string), nil, "")
	require.Equal(t, 200, status)
	p.goLive(t, qf3)

	tick := func() map[string]any {
		status, report := p.do(t, "POST", "x.test", "/__dev/tick", "", nil)
		require.Equal(t, 200, status)
		jobs := report["jobs"].(map[string]any)
		delete(jobs, "alerts") // decisions' alerts: see the streams tests
		return jobs
	}
	t.Run("NothingBeforeTime", func(t *testing.T) {
		assert.Empty(t, tick())
	})
	p.Now = p.Now.Add(31 * time.Minute) // windows closed, grace (1 h) not over
	t.Run("WindowCloseForfeitsToTheReadySide", func(t *testing.T) {
		assert.Equal(t, map[string]any{"window_close": float64(1)}, tick())
		m := p.mustDo(t, "GET", fmt.Sprintf("/api/v1/admin/matches/%.0f", qf2["id"]), p.admin, nil, 200)
		assert.Equal(t, "forfeited", m["status"])
		assert.Equal(t, qf2["p1PlatformId"], m["winner"])
		assert.Equal(t, "admin", m["resultSource"])
		assert.Empty(t, tick(), "idempotent")
	})
	t.Run("NobodyReadyIsLeftForTheAdmin", func(t *testing.T) {
		queue := p.mustDo(t, "GET", "/api/v1/admin/queue", p.admin, nil, 200)["matches"].([]any)
		var ids []any
		for _, m := range queue {
			ids = append(ids, m.(map[string]any)["id"])
		}
		assert.ElementsMatch(t, []any{matches[3]["id"], qf3["id"]}, ids, "QF4 never readied, QF3 live without a report")
	})
	p.Now = p.Now.Add(time.Hour)
	t.Run("GraceConfirmsTheSingleSubmission", func(t *testing.T) {
		assert.Equal(t, map[string]any{"grace_period": float64(1)}, tick())
		m := p.mustDo(t, "GET", fmt.Sprintf("/api/v1/admin/matches/%.0f", qf1["id"]), p.admin, nil, 200)
		assert.Equal(t, "confirmed", m["status"])
		assert.Equal(t, playerID(1), m["winner"])
		assert.Equal(t, "player_report", m["resultSource"])
		assert.Empty(t, tick(), "idempotent")
	})
	t.Run("ConcurrentTicksChangeNothingMore", func(t *testing.T) {
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() { defer wg.Done(); p.do(t, "POST", "x.test", "/__dev/tick", "", nil) }()
		}
		wg.Wait()
		list := p.mustDo(t, "GET", "/api/v1/admin/tournaments/timers/matches", p.admin, nil, 200)["matches"].([]any)
		for _, raw := range list {
			if m := raw.(map[string]any); m["bracketSlot"] == "SF1" {
				assert.Equal(t, playerID(1), m["p1PlatformId"], "the grace winner took the semifinal seat")
				assert.Equal(t, qf2["p1PlatformId"], m["p2PlatformId"], "the forfeit winner too")
			}
		}
	})
}

// TestSubmissionRoundTrips counts the HTTP requests a submission makes to
// a remote arena database (a real libSQL server behind a counting proxy).
func TestSubmissionRoundTrips(t *testing.T) {
	e := newTestEnv(t, false)
	backend := arenatest.StartCountingLibSQL(t)
	req := map[string]any{"slug": "remote", "name": "Remote", "hosts": []string{"alpha.test"}, "plan": "indie",
		"appIds": []string{"480"}, "databaseUrl": backend.URL}
	status, body := e.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, req)
	require.Equal(t, 201, status, body)
	p := &protocolEnv{testEnv: e, admin: body["adminToken"].(string)}
	matches := p.bracket(t, "rt", "demo", 4)
	for _, m := range matches[:2] {
		live := p.goLive(t, m)
		winner := m["p1PlatformId"].(string)
		res, hash := result(live, winner, "")
		for i, who := range []string{winner, m["p2PlatformId"].(string)} {
			backend.Reset()
			status, out := p.game(t, "POST", matchPath(m, "result"), who, submission(res, hash), "")
			require.Equal(t, 200, status, out)
			t.Logf("%s submission %d: %d round trips (%v)", m["bracketSlot"], i+1, backend.Count(), out["status"])
			assert.LessOrEqual(t, backend.Count(), 2, "a submission takes at most 2 database round trips (its match, then the batch that also reads what it did)")
		}
	}
	final := p.mustDo(t, "GET", "/api/v1/admin/tournaments/rt/matches", p.admin, nil, 200)["matches"].([]any)[2].(map[string]any)
	require.Equal(t, "FINAL", final["bracketSlot"])
	assert.Equal(t, playerID(1), final["p1PlatformId"], "seated in the submission's batch")
	assert.Equal(t, playerID(2), final["p2PlatformId"])
}

// TestSubmissionScore: the score metadata of two agreeing submissions is
// the match's score when both sent the same valid one, else the match has
// none; it is never part of the hash and never refuses a submission.
func TestSubmissionScore(t *testing.T) {
	p := newProtocolEnv(t)
	matches := p.bracket(t, "scores", "demo", 8) // four quarter-finals, open now
	score := func(p1, p2 any) map[string]any { return map[string]any{"p1": p1, "p2": p2} }
	cases := []struct {
		name    string
		a, b    any  // each side's score metadata (nil: none sent)
		want    any  // the match's score afterwards
		storedA bool // the first side's score was kept
	}{
		{"BothSame", score(3, 1), score(3, 1), map[string]any{"p1": float64(3), "p2": float64(1)}, true},
		{"Different", score(3, 1), score(3, 2), nil, true},
		{"OneSide", score(3, 1), nil, nil, true},
		{"WinnerLowerDropped", score(1, 3), score(1, 3), nil, false},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := matches[i]
			live := p.goLive(t, m)
			a, b := m["p1PlatformId"].(string), m["p2PlatformId"].(string)
			res, hash := result(live, a, `"score":[3,1],`)
			for _, side := range []struct {
				who   string
				score any
			}{{a, tc.a}, {b, tc.b}} {
				body := submission(res, hash)
				if side.score != nil {
					body["score"] = side.score
				}
				status, out := p.game(t, "POST", matchPath(m, "result"), side.who, body, "")
				require.Equal(t, 200, status, out)
			}
			detail := p.mustDo(t, "GET", fmt.Sprintf("/api/v1/admin/matches/%.0f", m["id"]), p.admin, nil, 200)
			assert.Equal(t, "confirmed", detail["status"])
			assert.Equal(t, tc.want, detail["score"])
			first := detail["submissions"].([]any)[0].(map[string]any)
			_, has := first["score"]
			assert.Equal(t, tc.storedA, has, "the first side's score stored")
			status, pub := p.Do(t, "GET", "http://alpha.test/api/v1/tournaments/scores", "", nil)
			require.Equal(t, 200, status)
			for _, col := range pub["bracket"].([]any) {
				for _, pm := range col.(map[string]any)["matches"].([]any) {
					if pm.(map[string]any)["id"] == m["id"] {
						assert.Equal(t, tc.want, pm.(map[string]any)["score"])
						assert.Equal(t, "game_client", pm.(map[string]any)["resultSource"])
					}
				}
			}
		})
	}
}
