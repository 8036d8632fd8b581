package server_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
	"arena/worker/objects"
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
}

// keyOf is the object key an upload URL names.
func keyOf(t testing.TB, target string) string {
	t.Helper()
	u, err := url.Parse(target)
	require.NoError(t, err)
	return strings.TrimPrefix(u.Path, objects.RoutePath)
}

// confirm has both players submit the same result: the match ends.
func (e *recordingEnv) confirm(t *testing.T) {
	t.Helper()
	res, hash := result(e.live, e.p1, "")
	for _, p := range []string{e.p1, e.p2} {
		status, out := e.game(t, "POST", matchPath(e.match, "result"), p, submission(res, hash), "")
		require.Equal(t, 200, status, out)
	}
}

func TestRecordingInitRules(t *testing.T) {
	e := newRecordingEnv(t)
	body := map[string]any{"scope": "full", "gameBuild": "1.2.3", "durationMs": 30}
	for name, tc := range map[string]struct {
		path, account string
		body          any
		status        int
		code          string
	}{
		"NoTicket":       {matchPath(e.match, "recording/init"), "", body, 401, "missing_ticket"},
		"NoMatch":        {"/api/v1/matches/999/recording/init", e.p1, body, 404, "match_not_found"},
		"NotAMatchID":    {"/api/v1/matches/x/recording/init", e.p1, body, 404, "match_not_found"},
		"BadScope":       {matchPath(e.match, "recording/init"), e.p1, map[string]any{"scope": "hands"}, 422, "invalid_field"},
		"UnknownField":   {matchPath(e.match, "recording/init"), e.p1, map[string]any{"scope": "full", "bytes": 5}, 422, "unknown_field"},
		"NotJSON":        {matchPath(e.match, "recording/init"), e.p1, "{", 400, "invalid_json"},
		"NotParticipant": {matchPath(e.match, "recording/init"), playerID(3), body, 403, "not_participant"},
	} {
		t.Run(name, func(t *testing.T) {
			status, out := e.game(t, "POST", tc.path, tc.account, tc.body, "")
			assert.Equal(t, tc.status, status, out)
			assert.Equal(t, tc.code, out["error"])
		})
	}
	t.Run("NeverLive", func(t *testing.T) {
		scheduled := e.bracket(t, "later", "demo", 2)[0]
		status, out := e.game(t, "POST", matchPath(scheduled, "recording/init"), playerID(1), body, "")
		assert.Equal(t, 409, status)
		assert.Equal(t, "not_live", out["error"])
	})
	t.Run("IdempotentWithAFreshURL", func(t *testing.T) {
		first := e.initRecording(t, e.p1, "full")
		e.Now = e.Now.Add(time.Second)
		second := e.initRecording(t, e.p1, "public")
		assert.Equal(t, first["recordingId"], second["recordingId"])
		assert.NotEqual(t, first["upload"], second["upload"], "a fresh URL")
		assert.Equal(t, keyOf(t, first["upload"].(map[string]any)["url"].(string)), keyOf(t, second["upload"].(map[string]any)["url"].(string)), "the same object")
		other := e.initRecording(t, e.p2, "full")
		assert.NotEqual(t, first["recordingId"], other["recordingId"], "one recording per uploader")
		// The re-init's scope counts: a full file no longer matches.
		_, status, out := e.upload(t, e.p1, "public", e.replay(t, "full", nil))
		assert.Equal(t, 422, status)
		assert.Equal(t, "header_mismatch", out["error"])
	})
}

func TestFinalizeRules(t *testing.T) {
	e := newRecordingEnv(t)
	gzipOf := func(s string) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		_, _ = w.Write([]byte(s))
		_ = w.Close()
		return b.Bytes()
	}
	nonce := e.live["sessionNonce"].(string)
	for name, tc := range map[string]struct {
		file   []byte
		status int
		code   string
		reason string
	}{
		"NotGzip":       {[]byte("hello"), 422, "invalid_recording", "not_gzip"},
		"NoHeaderLine":  {gzipOf(strings.Repeat("x", 70<<10)), 422, "invalid_recording", "no_header"},
		"WrongFormat":   {gzipOf(`{"format":"game.replay.v0","scope":"full"}` + "\n"), 422, "invalid_recording", "format"},
		"OtherMatch":    {e.replay(t, "full", func(h *client.ReplayHeader) { h.MatchID = 999 }), 422, "header_mismatch", ""},
		"OtherNonce":    {e.replay(t, "full", func(h *client.ReplayHeader) { h.SessionNonce = nonce + "x" }), 422, "header_mismatch", ""},
		"OtherScope":    {e.replay(t, "public", nil), 422, "header_mismatch", ""},
		"TruncatedFile": {e.replay(t, "full", nil)[:40], 422, "invalid_recording", "truncated"},
		"GzipBomb":      {gzipBomb(t, e.replay(t, "full", nil), 4<<30), 422, "invalid_recording", "inflates_too_far"},
	} {
		t.Run(name, func(t *testing.T) {
			_, status, out := e.upload(t, e.p1, "full", tc.file)
			assert.Equal(t, tc.status, status, out)
			assert.Equal(t, tc.code, out["error"])
			if tc.reason != "" {
				assert.Equal(t, tc.reason, out["reason"])
			}
		})
	}

	init := e.initRecording(t, e.p2, "full")
	id := int64(init["recordingId"].(float64))
	finalize := fmt.Sprintf("/api/v1/recordings/%d/finalize", id)
	t.Run("UploadMissing", func(t *testing.T) {
		status, out := e.game(t, "POST", finalize, e.p2, nil, "")
		assert.Equal(t, 422, status)
		assert.Equal(t, "upload_missing", out["error"])
	})
	t.Run("NotTheUploader", func(t *testing.T) {
		status, out := e.game(t, "POST", finalize, e.p1, nil, "")
		assert.Equal(t, 403, status)
		assert.Equal(t, "not_uploader", out["error"])
		status, out = e.game(t, "POST", "/api/v1/recordings/424242/finalize", e.p1, nil, "")
		assert.Equal(t, 404, status)
		assert.Equal(t, "recording_not_found", out["error"])
	})
	t.Run("OverTheCeilingIsDeleted", func(t *testing.T) {
		// A store reached directly (S3) takes any size; finalize is the guard.
		store := objects.Local{Dir: filepath.Join(e.DataDir, "objects")}
		key := keyOf(t, init["upload"].(map[string]any)["url"].(string))
		_, err := store.Write(context.Background(), key, "application/gzip", io.LimitReader(zeros{}, 16<<20+1), 32<<20)
		require.NoError(t, err)
		status, out := e.game(t, "POST", finalize, e.p2, nil, "")
		assert.Equal(t, 413, status)
		assert.Equal(t, "recording_too_large", out["error"])
		info, err := store.Stat(context.Background(), key)
		require.NoError(t, err)
		assert.False(t, info.Found, "the parked object is deleted")
		status, out = e.game(t, "POST", finalize, e.p2, nil, "")
		assert.Equal(t, "upload_missing", out["error"], "%d", status)
	})
	t.Run("FinalizeTwice", func(t *testing.T) {
		require.Equal(t, 204, e.put(t, init["upload"].(map[string]any)["url"].(string), e.replay(t, "full", nil), "application/gzip"))
		status, first := e.game(t, "POST", finalize, e.p2, nil, "")
		require.Equal(t, 200, status, first)
		status, again := e.game(t, "POST", finalize, e.p2, nil, "")
		require.Equal(t, 200, status)
		assert.Equal(t, first, again, "a finalized recording answers as it is")
	})
}

// gzipBomb is file followed by gzip members of zeros inflating to size
// bytes (a 4 GiB bomb is about 4 MB: one 1 MiB member, repeated).
func gzipBomb(t *testing.T, file []byte, size int64) []byte {
	t.Helper()
	var member bytes.Buffer
	w, err := gzip.NewWriterLevel(&member, gzip.BestCompression)
	require.NoError(t, err)
	_, err = w.Write(make([]byte, 1<<20))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	out := append([]byte{}, file...)
	for n := int64(0); n < size; n += 1 << 20 {
		out = append(out, member.Bytes()...)
	}
	return out
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestObjectRoute(t *testing.T) {
	e := newRecordingEnv(t)
	init := e.initRecording(t, e.p1, "full")
	target := init["upload"].(map[string]any)["url"].(string)
	file := e.replay(t, "full", nil)
	t.Run("WrongContentType", func(t *testing.T) {
		assert.Equal(t, 403, e.put(t, target, file, "application/octet-stream"))
		assert.Equal(t, 403, e.put(t, target, file, ""))
	})
	t.Run("Tampered", func(t *testing.T) {
		assert.Equal(t, 403, e.put(t, strings.Replace(target, "expires=", "expires=1", 1), file, "application/gzip"))
		key := keyOf(t, target)
		other := strings.Replace(target, key, strings.Replace(key, "/rec/", "/rec/0", 1), 1)
		assert.Equal(t, 403, e.put(t, other, file, "application/gzip"))
	})
	t.Run("AnotherArenasHost", func(t *testing.T) {
		e.createArena(t, "beta", "beta.test")
		assert.Equal(t, 404, e.put(t, strings.Replace(target, "alpha.test", "beta.test", 1), file, "application/gzip"))
	})
	t.Run("OverTheCeiling", func(t *testing.T) {
		u, err := url.Parse(target)
		require.NoError(t, err)
		req := httptest.NewRequest(http.MethodPut, u.RequestURI(), io.LimitReader(zeros{}, 16<<20+1))
		req.Host = u.Host
		req.Header.Set("Content-Type", "application/gzip")
		rec := httptest.NewRecorder()
		e.Handler.ServeHTTP(rec, req)
		assert.Equal(t, 413, rec.Code, "streamed past the ceiling, without a length")
		assert.Contains(t, rec.Body.String(), "recording_too_large")
	})
	t.Run("Expired", func(t *testing.T) {
		later := e.Now
		e.Now = e.Now.Add(16 * time.Minute)
		defer func() { e.Now = later }()
		assert.Equal(t, 403, e.put(t, target, file, "application/gzip"))
	})
	require.Equal(t, 204, e.put(t, target, file, "application/gzip"))
	require.Equal(t, 204, e.put(t, target, file, "application/gzip"), "the URL takes the upload again until it expires")
	t.Run("GetNeedsItsOwnSignature", func(t *testing.T) {
		status, _ := e.get(t, target)
		assert.Equal(t, 403, status, "an upload URL is no download URL")
	})
}
