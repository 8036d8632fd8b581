package server_test

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
	"arena/worker/arenatest"
)

// fetch asks for a recording as account ("" for nobody) with a token.
func (e *recordingEnv) fetch(t *testing.T, id int64, account, token string) (int, map[string]any) {
	t.Helper()
	path := fmt.Sprintf("/api/v1/recordings/%d", id)
	if token != "" {
		path += "?token=" + token
	}
	return e.game(t, "GET", path, account, nil, "")
}

// TestFetchDelayGate: a full-scope recording of a delayed (120 s) cup is
// served 120 s after the match ended, to everyone the uploader included,
// and to nobody while it never ended.
func TestFetchDelayGate(t *testing.T) {
	e := newRecordingEnv(t)
	id, status, out := e.upload(t, e.p1, "full", e.replay(t, "full", nil))
	require.Equal(t, 200, status, out)

	status, out = e.fetch(t, id, e.p1, "")
	assert.Equal(t, 409, status, "the uploader, while the match is live")
	assert.Equal(t, "recording_not_released", out["error"])
	e.Now = e.Now.Add(time.Hour)
	status, out = e.fetch(t, id, e.p2, "")
	assert.Equal(t, 409, status, "the match has not ended")
	assert.Equal(t, "recording_not_released", out["error"])

	e.confirm(t)
	e.Now = e.Now.Add(119 * time.Second)
	status, _ = e.fetch(t, id, e.p2, "")
	assert.Equal(t, 409, status, "119 s after the end")
	status, out = e.fetch(t, id, e.p1, "")
	assert.Equal(t, 409, status, "the uploader too, 119 s after the end")
	assert.Equal(t, "recording_not_released", out["error"])
	e.Now = e.Now.Add(time.Second)
	status, out = e.fetch(t, id, e.p2, "")
	assert.Equal(t, 200, status, out)
	status, out = e.fetch(t, id, e.p1, "")
	assert.Equal(t, 200, status, "the uploader, released: %v", out)
	status, out = e.fetch(t, id, playerID(7), "")
	assert.Equal(t, 200, status, "any arena member with a ticket: %v", out)
	status, out = e.fetch(t, id, "", "")
	assert.Equal(t, 401, status, "no ticket and no token")
	assert.Equal(t, "missing_ticket", out["error"])
	status, out = e.fetch(t, 424242, "", "")
	assert.Equal(t, 401, status, "the ticket first, before the recording is looked up: %v", out)
	assert.Equal(t, "missing_ticket", out["error"])
	status, out = e.Do(t, "GET", fmt.Sprintf("http://alpha.test/api/v1/recordings/%d", id), "Platform MOCK:123", nil)
	assert.Equal(t, 401, status, "a malformed ticket is refused, not ignored")
	assert.Equal(t, "missing_ticket", out["error"])

	t.Run("PublicScopeIsNotGated", func(t *testing.T) {
		m := e.bracket(t, "open-cup", "demo", 2)[0]
		live := e.goLive(t, m)
		o := &recordingEnv{protocolEnv: e.protocolEnv, match: m, live: live, p1: e.p1, p2: e.p2}
		id, status, out := o.upload(t, e.p2, "public", o.replay(t, "public", nil))
		require.Equal(t, 200, status, out)
		status, _ = o.fetch(t, id, e.p1, "")
		assert.Equal(t, 200, status, "live match, public scope")
	})
}

// TestShareLink: the uploader shares by link; the token (128 bits or
// more) is the same on every call, opens the recording to anyone, and
// the delay gate still applies.
func TestShareLink(t *testing.T) {
	e := newRecordingEnv(t)
	id, status, out := e.upload(t, e.p1, "full", e.replay(t, "full", nil))
	require.Equal(t, 200, status, out)
	share := fmt.Sprintf("/api/v1/recordings/%d/share", id)
	status, out = e.game(t, "POST", share, e.p2, nil, "")
	assert.Equal(t, 403, status)
	assert.Equal(t, "not_uploader", out["error"])

	status, link := e.game(t, "POST", share, e.p1, nil, "")
	require.Equal(t, 200, status, link)
	token := link["token"].(string)
	assert.GreaterOrEqual(t, len(token)*6, 128, "at least 128 bits")
	assert.Equal(t, fmt.Sprintf("/api/v1/recordings/%d?token=%s", id, token), link["path"])
	_, again := e.game(t, "POST", share, e.p1, nil, "")
	assert.Equal(t, link, again, "sharing again keeps the link")

	e.confirm(t)
	status, out = e.fetch(t, id, "", token)
	assert.Equal(t, 409, status, "the delay gate applies to links: %v", out)
	e.Now = e.Now.Add(2 * time.Minute)
	status, out = e.fetch(t, id, "", token)
	assert.Equal(t, 200, status, out)
	status, _ = e.fetch(t, id, "", token+"x")
	assert.Equal(t, 404, status, "another token")
	status, _ = e.fetch(t, id, e.p2, "")
	assert.Equal(t, 404, status, "link-only: no token, no recording")
	status, _ = e.fetch(t, id, e.p1, "")
	assert.Equal(t, 200, status, "the uploader still")
}

// bigReplay is a valid replay of about size compressed bytes (random,
// incompressible payload).
func (e *recordingEnv) bigReplay(t *testing.T, scope string, size int) []byte {
	t.Helper()
	w := client.NewReplayWriter()
	blob := make([]byte, 64<<10)
	for n := 0; n < size; n += len(blob) {
		_, err := rand.Read(blob)
		require.NoError(t, err)
		require.NoError(t, w.Append(int64(n), "pointer", map[string]any{"noise": hex.EncodeToString(blob)}))
	}
	file, err := w.Finish(client.ReplayHeader{MatchID: e.matchID(), SessionNonce: e.live["sessionNonce"].(string), Scope: scope, GameBuild: "1.2.3"})
	require.NoError(t, err)
	return file
}

// TestPlanWindow: on the free plan (2 MB) a 3 MB recording finalizes, is
// served for 24 hours, then answers 402 until the operator's upgrade,
// which restores it at once.
func TestPlanWindow(t *testing.T) {
	e := newRecordingEnv(t)
	status, out := e.do(t, "PATCH", "ops.test", "/api/v1/operator/arenas/alpha", operatorToken, map[string]any{"plan": "free"})
	require.Equal(t, 200, status, out)
	init := e.initRecording(t, e.p1, "public")
	assert.Equal(t, float64(2<<20), init["maxBytes"], "init answers the plan's size")
	file := e.bigReplay(t, "public", 3<<20)
	require.Greater(t, len(file), 2<<20)
	id, status, out := e.upload(t, e.p1, "public", file)
	require.Equal(t, 200, status, out)
	assert.Equal(t, float64(len(file)), out["byteSize"])

	status, _ = e.fetch(t, id, e.p2, "")
	assert.Equal(t, 200, status, "served during the event window")
	e.Now = e.Now.Add(24 * time.Hour)
	status, out = e.fetch(t, id, e.p2, "")
	assert.Equal(t, 402, status)
	assert.Equal(t, "plan_size_exceeded", out["error"])
	status, _ = e.fetch(t, id, e.p1, "")
	assert.Equal(t, 402, status, "the uploader too")

	status, out = e.do(t, "PATCH", "ops.test", "/api/v1/operator/arenas/alpha", operatorToken, map[string]any{"plan": "indie"})
	require.Equal(t, 200, status, out)
	assert.Equal(t, "indie", out["plan"])
	status, out = e.fetch(t, id, e.p2, "")
	assert.Equal(t, 200, status, "the upgrade restores access at once: %v", out)
}

// TestCasualRecordings: scope forced public, visibility private, 2 MB,
// no match in the header, and the arena's per-account daily allowance.
func TestCasualRecordings(t *testing.T) {
	e := newRecordingEnv(t)
	casual := func(t *testing.T, account string, body map[string]any) (int, map[string]any) {
		return e.game(t, "POST", "/api/v1/me/recordings/init", account, body, "")
	}
	status, init := casual(t, e.p1, map[string]any{"scope": "full", "gameBuild": "9", "durationMs": 5})
	require.Equal(t, 200, status, init)
	assert.Equal(t, float64(2<<20), init["maxBytes"])
	id := int64(init["recordingId"].(float64))

	w := client.NewReplayWriter()
	require.NoError(t, w.Append(0, "match_started", nil))
	withMatch, err := w.Finish(client.ReplayHeader{MatchID: e.matchID(), SessionNonce: "x", Scope: "public"})
	require.NoError(t, err)
	require.Equal(t, 204, e.put(t, init["upload"].(map[string]any)["url"].(string), withMatch, "application/gzip"))
	status, out := e.game(t, "POST", fmt.Sprintf("/api/v1/recordings/%d/finalize", id), e.p1, nil, "")
	assert.Equal(t, 422, status)
	assert.Equal(t, "header_mismatch", out["error"], "a casual recording names no match")

	file, err := client.NewReplayWriter().Finish(client.ReplayHeader{Scope: "public", GameBuild: "9", DurationMs: 5})
	require.NoError(t, err)
	require.Equal(t, 204, e.put(t, init["upload"].(map[string]any)["url"].(string), file, "application/gzip"))
	status, out = e.game(t, "POST", fmt.Sprintf("/api/v1/recordings/%d/finalize", id), e.p1, nil, "")
	require.Equal(t, 200, status, out)
	assert.Equal(t, "public", out["scope"], "scope forced public")
	assert.Equal(t, "private", out["visibility"])
	assert.Nil(t, out["matchId"])
	status, _ = e.fetch(t, id, e.p2, "")
	assert.Equal(t, 404, status, "private")
	status, _ = e.fetch(t, id, e.p1, "")
	assert.Equal(t, 200, status)

	e.mustDo(t, "PUT", "/api/v1/admin/settings", e.admin, map[string]any{"casualRecordingsPerDay": 2}, 200)
	e.mustDo(t, "PUT", "/api/v1/admin/settings", e.admin, map[string]any{"casualRecordingsPerDay": -1}, 422)
	status, _ = casual(t, e.p1, map[string]any{"scope": "public"})
	assert.Equal(t, 200, status, "the second of two")
	status, out = casual(t, e.p1, map[string]any{"scope": "public"})
	assert.Equal(t, 429, status)
	assert.Equal(t, "casual_quota_exceeded", out["error"])
	status, _ = casual(t, e.p2, map[string]any{"scope": "public"})
	assert.Equal(t, 200, status, "per account")
	e.Now = e.Now.Add(24 * time.Hour)
	status, _ = casual(t, e.p1, map[string]any{"scope": "public"})
	assert.Equal(t, 200, status, "a day later")
	e.mustDo(t, "PUT", "/api/v1/admin/settings", e.admin, map[string]any{"casualRecordingsPerDay": 0}, 200)
	status, _ = casual(t, e.p2, map[string]any{"scope": "public"})
	assert.Equal(t, 429, status, "0 turns casual uploads off")

	status, list := e.game(t, "GET", "/api/v1/me/recordings", e.p1, nil, "")
	require.Equal(t, 200, status)
	assert.Len(t, list["recordings"], 3, "the caller's own uploads")
	status, list = e.game(t, "GET", "/api/v1/me/recordings", e.p2, nil, "")
	require.Equal(t, 200, status)
	assert.Len(t, list["recordings"], 1, "another player's casual recordings stay theirs")
}

func TestOperatorPatchArena(t *testing.T) {
	e := newRecordingEnv(t)
	path := "/api/v1/operator/arenas/alpha"
	for name, tc := range map[string]struct {
		token  string
		path   string
		body   any
		status int
		code   string
	}{
		"NoToken":   {"", path, map[string]any{"plan": "studio"}, 401, "unauthorized"},
		"NoArena":   {operatorToken, "/api/v1/operator/arenas/nope", map[string]any{"plan": "studio"}, 404, "arena_not_found"},
		"BadPlan":   {operatorToken, path, map[string]any{"plan": "gold"}, 422, "invalid_field"},
		"BadAppID":  {operatorToken, path, map[string]any{"appIds": []any{"x"}}, 422, "invalid_field"},
		"EmptyName": {operatorToken, path, map[string]any{"name": " "}, 422, "invalid_field"},
	} {
		t.Run(name, func(t *testing.T) {
			status, out := e.do(t, "PATCH", "ops.test", tc.path, tc.token, tc.body)
			assert.Equal(t, tc.status, status, out)
			assert.Equal(t, tc.code, out["error"])
		})
	}
	status, out := e.do(t, "PATCH", "ops.test", path, operatorToken, map[string]any{"name": "Alpha Two", "plan": "studio", "appIds": []any{480}, "refereeEnabled": true})
	require.Equal(t, 200, status, out)
	assert.Equal(t, "Alpha Two", out["name"])
	assert.Equal(t, "studio", out["plan"])
	assert.Equal(t, []any{"480"}, out["appIds"], "AppIDs as numbers too")
	assert.Equal(t, true, out["refereeEnabled"])
	assert.NotContains(t, out, "publisherKey")
	status, list := e.do(t, "GET", "ops.test", "/api/v1/operator/arenas", operatorToken, nil)
	require.Equal(t, 200, status)
	assert.Equal(t, "studio", list["arenas"].([]any)[0].(map[string]any)["plan"])
	init := e.initRecording(t, e.p1, "public")
	assert.Equal(t, float64(8<<20), init["maxBytes"], "the new plan's size at once")
}

// TestDemoRecording: the demo arena comes with a public recording of the
// Autumn Open's final that any signed-in member can watch.
func TestDemoRecording(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{NoSite: true, InProcess: true})
	out := a.Game(t, "GET", "/api/v1/recordings/1", arenatest.Charles, nil, 200)
	u, err := url.Parse(out["url"].(string))
	require.NoError(t, err)
	req := httptest.NewRequest("GET", u.RequestURI(), nil)
	req.Host = u.Host
	w := httptest.NewRecorder()
	a.Handler.ServeHTTP(w, req)
	require.Equal(t, 200, w.Code)
	h, err := client.ReadReplayHeader(w.Body.Bytes())
	require.NoError(t, err)
	assert.Equal(t, "public", h.Scope)
	final := a.MatchBySlot(t, "autumn-open", "FINAL")
	assert.Equal(t, final.ID, h.MatchID)
	status, out := a.Do(t, "GET", "/api/v1/recordings/1", "", nil)
	assert.Equal(t, 401, status, "members only")
	assert.Equal(t, "missing_ticket", out["error"])
}

// TestArenaMembersBySession: a signed-in web session makes a member, as
// a ticket does; a signed-out browser is nobody.
func TestArenaMembersBySession(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{})
	assert.Equal(t, 401, a.Browser(t).Get(t, "/api/v1/recordings/1").Status, "a visitor: no ticket, no session, no token")
	assert.Equal(t, 401, a.Browser(t).Get(t, "/api/v1/recordings/1/segments").Status, "a visitor")
	member := a.SignedIn(t, arenatest.Charles)
	page := member.Get(t, "/api/v1/recordings/1")
	require.Equal(t, 200, page.Status, page.Body)
	assert.Contains(t, page.Body, `"url"`)
	feed := member.Get(t, "/api/v1/recordings/1/segments")
	require.Equal(t, 200, feed.Status, feed.Body)
	assert.Contains(t, feed.Body, `"state":"ended"`)
}
