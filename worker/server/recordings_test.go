package server_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
)

// recordingEnv is a protocolEnv with one live final between players 1
// and 2 of the cup "rec" (cast: delayed 120 s).
type recordingEnv struct {
	*protocolEnv
	match map[string]any // the admin's match object
	live  map[string]any // player 1's live-match object
	p1    string
	p2    string
}

func newRecordingEnv(t *testing.T) *recordingEnv {
	t.Helper()
	p := newProtocolEnv(t)
	m := p.bracket(t, "rec", "demo", 2)[0]
	live := p.goLive(t, m)
	return &recordingEnv{protocolEnv: p, match: m, live: live, p1: playerID(1), p2: playerID(2)}
}

func (e *recordingEnv) matchID() int64 { return int64(e.live["matchId"].(float64)) }

// replay builds a game.replay.v1 file for the live match with the scope
// and n public events.
func (e *recordingEnv) replay(t *testing.T, scope string, h func(*client.ReplayHeader)) []byte {
	t.Helper()
	w := client.NewReplayWriter()
	require.NoError(t, w.Append(0, "match_started", nil))
	require.NoError(t, w.Append(10, "turn_started", map[string]any{"actor": 1}))
	require.NoError(t, w.Append(20, "hand", map[string]any{"cards": []any{"Ah", "Kd"}}))
	require.NoError(t, w.Append(30, "match_ended", map[string]any{"winnerSlot": 1, "reason": "normal"}))
	header := client.ReplayHeader{MatchID: e.matchID(), SessionNonce: e.live["sessionNonce"].(string), Scope: scope, GameBuild: "1.2.3", DurationMs: 30}
	if h != nil {
		h(&header)
	}
	file, err := w.Finish(header)
	require.NoError(t, err)
	return file
}

// put sends an upload to a URL the service handed out (in process).
func (e *recordingEnv) put(t *testing.T, target string, body []byte, contentType string) int {
	t.Helper()
	u, err := url.Parse(target)
	require.NoError(t, err)
	req := httptest.NewRequest(http.MethodPut, u.RequestURI(), bytes.NewReader(body))
	req.Host = u.Host
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	rec := httptest.NewRecorder()
	e.Handler.ServeHTTP(rec, req)
	return rec.Code
}

// get fetches a URL the service handed out (in process).
func (e *recordingEnv) get(t *testing.T, target string) (int, []byte) {
	t.Helper()
	u, err := url.Parse(target)
	require.NoError(t, err)
	req := httptest.NewRequest(http.MethodGet, u.RequestURI(), nil)
	req.Host = u.Host
	rec := httptest.NewRecorder()
	e.Handler.ServeHTTP(rec, req)
	body, _ := io.ReadAll(rec.Body)
	return rec.Code, body
}

// initRecording announces a match recording as account and returns the
// answer.
func (e *recordingEnv) initRecording(t *testing.T, account, scope string) map[string]any {
	t.Helper()
	status, out := e.game(t, "POST", matchPath(e.match, "recording/init"), account,
		map[string]any{"scope": scope, "gameBuild": "1.2.3", "durationMs": 30}, "")
	require.Equal(t, 200, status, out)
	return out
}

// upload inits, PUTs and finalizes a recording as account; it returns
// the recording id and the finalize status and answer.
func (e *recordingEnv) upload(t *testing.T, account, scope string, file []byte) (int64, int, map[string]any) {
	t.Helper()
	init := e.initRecording(t, account, scope)
	up := init["upload"].(map[string]any)
	require.Equal(t, true, up["local"])
	require.Equal(t, 204, e.put(t, up["url"].(string), file, "application/gzip"))
	id := int64(init["recordingId"].(float64))
	status, out := e.game(t, "POST", fmt.Sprintf("/api/v1/recordings/%d/finalize", id), account, nil, "")
	return id, status, out
}

func TestRecordingRoundTrip(t *testing.T) {
	e := newRecordingEnv(t)
	file := e.replay(t, "public", nil)
	init := e.initRecording(t, e.p1, "public")
	assert.Equal(t, float64(4<<20), init["maxBytes"], "indie plan: 4 MB")
	id, status, out := e.upload(t, e.p1, "public", file)
	require.Equal(t, 200, status, out)
	assert.Equal(t, int64(init["recordingId"].(float64)), id, "init is idempotent per match and uploader")
	assert.Equal(t, "ready", out["state"])
	assert.Equal(t, float64(len(file)), out["byteSize"], "the true size, read from the store")

	status, fetched := e.game(t, "GET", fmt.Sprintf("/api/v1/recordings/%d", id), e.p2, nil, "")
	require.Equal(t, 200, status, fetched)
	code, body := e.get(t, fetched["url"].(string))
	require.Equal(t, 200, code)
	assert.Equal(t, file, body)

	status, list := e.game(t, "GET", "/api/v1/me/recordings", e.p2, nil, "")
	require.Equal(t, 200, status)
	require.Len(t, list["recordings"], 1, "the opponent sees the match's arena-visible recording")

	status, again := e.game(t, "POST", matchPath(e.match, "recording/init"), e.p1, map[string]any{"scope": "public"}, "")
	assert.Equal(t, 409, status)
	assert.Equal(t, "recording_ended", again["error"])
	_ = time.Second
}
