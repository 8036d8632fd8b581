package server_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
	store "arena/sql"
)

// segment builds segment seq of the live match's recording.
func (e *recordingEnv) segment(t *testing.T, scope string, seq int64, mut func(*client.ReplayHeader)) []byte {
	t.Helper()
	w := client.NewReplayWriter()
	require.NoError(t, w.Append(seq*1000, "turn_started", map[string]any{"actor": 1}))
	h := client.ReplayHeader{MatchID: e.matchID(), SessionNonce: e.live["sessionNonce"].(string), Scope: scope}.Segment(seq, seq*1000)
	if mut != nil {
		mut(&h)
	}
	file, err := w.Finish(h)
	require.NoError(t, err)
	return file
}

// sendSegment inits, uploads and finalizes a segment; it returns the
// finalize's status and answer.
func (e *recordingEnv) sendSegment(t *testing.T, id int64, account string, seq int64, file []byte) (int, map[string]any) {
	t.Helper()
	status, init := e.game(t, "POST", fmt.Sprintf("/api/v1/recordings/%d/segments/init", id), account, map[string]any{"seq": seq}, "")
	require.Equal(t, 200, status, init)
	require.Equal(t, 204, e.put(t, init["upload"].(map[string]any)["url"].(string), file, "application/gzip"))
	return e.game(t, "POST", fmt.Sprintf("/api/v1/recordings/%d/segments/%d/finalize", id, seq), account, nil, "")
}

// feed lists the released segments as account.
func (e *recordingEnv) feed(t *testing.T, id int64, account, query string) (string, []int64) {
	t.Helper()
	status, out := e.game(t, "GET", fmt.Sprintf("/api/v1/recordings/%d/segments%s", id, query), account, nil, "")
	require.Equal(t, 200, status, out)
	var seqs []int64
	for _, s := range out["segments"].([]any) {
		seg := s.(map[string]any)
		require.NotEmpty(t, seg["url"])
		seqs = append(seqs, int64(seg["seq"].(float64)))
	}
	return out["state"].(string), seqs
}

// TestSegments: near-live segments of a full-scope recording in a
// delayed (120 s) cup: the uploader only, idempotent per seq, validated
// like a recording, each released 120 s after its own upload, the feed
// live until the recording is finalized.
func TestSegments(t *testing.T) {
	e := newRecordingEnv(t)
	init := e.initRecording(t, e.p1, "full")
	id := int64(init["recordingId"].(float64))
	segInit := fmt.Sprintf("/api/v1/recordings/%d/segments/init", id)

	status, out := e.game(t, "POST", segInit, e.p2, map[string]any{"seq": 0}, "")
	assert.Equal(t, 403, status)
	assert.Equal(t, "not_uploader", out["error"])
	for _, bad := range []any{map[string]any{}, map[string]any{"seq": -1}, map[string]any{"seq": "1"}, map[string]any{"seq": 100001}} {
		status, out = e.game(t, "POST", segInit, e.p1, bad, "")
		assert.Equal(t, 422, status, "%v: %v", bad, out)
	}
	status, first := e.game(t, "POST", segInit, e.p1, map[string]any{"seq": 0}, "")
	require.Equal(t, 200, status, first)
	status, again := e.game(t, "POST", segInit, e.p1, map[string]any{"seq": 0}, "")
	require.Equal(t, 200, status)
	assert.Equal(t, first["upload"], again["upload"], "idempotent per seq")

	status, out = e.sendSegment(t, id, e.p1, 0, e.segment(t, "full", 1, nil))
	assert.Equal(t, 422, status)
	assert.Equal(t, "header_mismatch", out["error"], "segmentSeq is not the segment's")
	status, out = e.sendSegment(t, id, e.p1, 0, e.replay(t, "full", nil))
	assert.Equal(t, 422, status)
	assert.Equal(t, "invalid_recording", out["error"], "a segment's header carries segmentSeq and baseTMs")
	status, out = e.game(t, "POST", fmt.Sprintf("/api/v1/recordings/%d/segments/7/finalize", id), e.p1, nil, "")
	assert.Equal(t, 404, status)
	assert.Equal(t, "segment_not_found", out["error"])

	status, out = e.sendSegment(t, id, e.p1, 0, e.segment(t, "full", 0, nil))
	require.Equal(t, 200, status, out)
	assert.Equal(t, map[string]any{"seq": float64(0), "state": "ready", "byteSize": out["byteSize"], "baseTMs": float64(0)}, out)
	e.Now = e.Now.Add(time.Minute)
	status, out = e.sendSegment(t, id, e.p1, 1, e.segment(t, "full", 1, nil))
	require.Equal(t, 200, status, out)

	state, seqs := e.feed(t, id, e.p2, "")
	assert.Equal(t, "live", state)
	assert.Empty(t, seqs, "nothing released yet")
	_, seqs = e.feed(t, id, e.p1, "")
	assert.Empty(t, seqs, "the gate holds for the uploader too")
	e.Now = e.Now.Add(time.Minute)
	_, seqs = e.feed(t, id, e.p2, "")
	assert.Equal(t, []int64{0}, seqs, "segment 0 was uploaded 120 s ago, segment 1 60 s ago")
	_, seqs = e.feed(t, id, e.p1, "")
	assert.Equal(t, []int64{0}, seqs, "the uploader's own, released as everyone's")
	e.Now = e.Now.Add(time.Minute)
	_, seqs = e.feed(t, id, e.p2, "")
	assert.Equal(t, []int64{0, 1}, seqs)
	_, seqs = e.feed(t, id, e.p2, "?after=0")
	assert.Equal(t, []int64{1}, seqs)
	status, out = e.game(t, "GET", fmt.Sprintf("/api/v1/recordings/%d/segments?after=x", id), e.p2, nil, "")
	assert.Equal(t, 422, status, out)
	status, out = e.game(t, "GET", fmt.Sprintf("/api/v1/recordings/%d/segments?after=0", id), "", nil, "")
	assert.Equal(t, 401, status, "no ticket, no token: %v", out)
	assert.Equal(t, "missing_ticket", out["error"])

	// Finalizing the recording ends the feed.
	require.Equal(t, 204, e.put(t, init["upload"].(map[string]any)["url"].(string), e.replay(t, "full", nil), "application/gzip"))
	status, out = e.game(t, "POST", fmt.Sprintf("/api/v1/recordings/%d/finalize", id), e.p1, nil, "")
	require.Equal(t, 200, status, out)
	state, _ = e.feed(t, id, e.p2, "")
	assert.Equal(t, "ended", state)
	status, out = e.game(t, "POST", segInit, e.p1, map[string]any{"seq": 2}, "")
	assert.Equal(t, 409, status)
	assert.Equal(t, "recording_ended", out["error"])
}

// trace is a gameplay-trace body of the live game for the slot, made by
// the reference client's recorder; extra adds a score event.
func (e *recordingEnv) trace(t *testing.T, slot int, live map[string]any, extra bool) map[string]any {
	t.Helper()
	settings := client.NewSettings("http://unused")
	settings.EnableReferee, settings.MockSteamID = true, e.p1
	c, err := client.New(settings, client.Deps{})
	require.NoError(t, err)
	lm := &client.LiveMatch{MatchID: int64(live["matchId"].(float64)), SessionNonce: live["sessionNonce"].(string), Slot: slot,
		RefereeM0: &client.RefereeM0{Enabled: true, ConsentComplete: true}}
	var clock time.Duration
	rec := c.NewTraceRecorder(lm, func() time.Duration { return clock })
	rec.Begin()
	clock = 5 * time.Millisecond
	rec.TurnStarted(1)
	rec.PublicAction(1, "play", client.TargetBoard)
	if extra {
		rec.ScoreChanged(2, 0, 1)
	}
	clock = 9 * time.Millisecond
	tr, hash, err := rec.End(1, client.EndNormal)
	require.NoError(t, err)
	return map[string]any{"protocol": "svc.gameplay.v1", "slot": slot, "trace": tr, "traceHash": hash}
}

// TestTraces: the gameplay-trace endpoint with the referee off, with one
// consent, then both; agreement, disagreement and repeats; the match's
// outcome untouched.
func TestTraces(t *testing.T) {
	e := newRecordingEnv(t)
	traceOf := func(t *testing.T, slot int, _ map[string]any, live map[string]any, extra bool) map[string]any {
		return e.trace(t, slot, live, extra)
	}
	post := func(account string, body any) (int, map[string]any) {
		return e.game(t, "POST", matchPath(e.match, "gameplay-trace"), account, body, "")
	}
	status, out := post(e.p1, traceOf(t, 1, e.match, e.live, false))
	assert.Equal(t, 409, status)
	assert.Equal(t, "referee_inactive", out["error"], "the referee is off")

	e.mustDo(t, "PUT", "/api/v1/admin/settings", e.admin, map[string]any{"refereeEnabled": true}, 200)
	e.game(t, "POST", "/api/v1/me/referee-consent", e.p1, map[string]any{"granted": true}, "")
	status, out = post(e.p1, traceOf(t, 1, e.match, e.live, false))
	assert.Equal(t, 409, status)
	assert.Equal(t, "referee_inactive", out["error"], "one consent of two")
	e.game(t, "POST", "/api/v1/me/referee-consent", e.p2, map[string]any{"granted": true}, "")

	for name, tc := range map[string]struct {
		account string
		body    any
		status  int
		code    string
	}{
		"NotParticipant": {playerID(3), traceOf(t, 1, e.match, e.live, false), 403, "not_participant"},
		"Protocol":       {e.p1, map[string]any{"protocol": "svc.result.v3", "slot": 1, "trace": "{}", "traceHash": "x"}, 422, "unsupported_protocol"},
		"OtherSlot":      {e.p1, traceOf(t, 2, e.match, e.live, false), 422, "trace_not_for_match"},
		"Unknown":        {e.p1, map[string]any{"protocol": "svc.gameplay.v1", "extra": 1}, 422, "unknown_field"},
		"NoTrace":        {e.p1, map[string]any{"protocol": "svc.gameplay.v1", "slot": 1}, 422, "invalid_trace"},
	} {
		t.Run(name, func(t *testing.T) {
			status, out := post(tc.account, tc.body)
			assert.Equal(t, tc.status, status, out)
			assert.Equal(t, tc.code, out["error"])
		})
	}
	status, out = post(e.p1, traceOf(t, 1, e.match, e.live, false))
	require.Equal(t, 200, status, out)
	assert.Equal(t, map[string]any{"status": "pending", "training": "pending"}, out)
	status, out = post(e.p1, traceOf(t, 1, e.match, e.live, false))
	assert.Equal(t, map[string]any{"status": "duplicate", "training": "pending"}, out)
	status, out = post(e.p1, traceOf(t, 1, e.match, e.live, true))
	assert.Equal(t, 409, status)
	assert.Equal(t, "already_submitted", out["error"])
	status, out = post(e.p2, traceOf(t, 2, e.match, e.live, false))
	require.Equal(t, 200, status, out)
	assert.Equal(t, map[string]any{"status": "agreed", "training": "usable"}, out, "both sides sent the same trace")

	// Another match: the sides disagree; the match's result is untouched.
	m := e.bracket(t, "other", "demo", 2)[0]
	e.goLive(t, m) // player 1's discovery still shows the first final
	admin := e.mustDo(t, "GET", "/api/v1/admin/tournaments/other/matches", e.admin, nil, 200)["matches"].([]any)[0].(map[string]any)
	live := map[string]any{"matchId": admin["id"], "sessionNonce": admin["sessionNonce"]}
	status, out = e.game(t, "POST", matchPath(m, "gameplay-trace"), e.p1, traceOf(t, 1, m, live, false), "")
	require.Equal(t, 200, status, out)
	status, out = e.game(t, "POST", matchPath(m, "gameplay-trace"), e.p2, traceOf(t, 2, m, live, true), "")
	require.Equal(t, 200, status, out)
	assert.Equal(t, map[string]any{"status": "disagreed", "training": "excluded"}, out)
	matches := e.mustDo(t, "GET", "/api/v1/admin/tournaments/other/matches", e.admin, nil, 200)["matches"].([]any)
	assert.Equal(t, "live", matches[0].(map[string]any)["status"], "a trace never decides a match")
}

// TestDerivedTrace: finalizing a match recording while the referee runs
// and both consented stores the public trace the service derives from
// the recording's public events (the recorder's hand stream left out).
func TestDerivedTrace(t *testing.T) {
	e := newRecordingEnv(t)
	e.mustDo(t, "PUT", "/api/v1/admin/settings", e.admin, map[string]any{"refereeEnabled": true}, 200)
	_, status, out := e.upload(t, e.p1, "full", e.replay(t, "full", nil))
	require.Equal(t, 200, status, out)
	db, err := store.OpenIn(e.DataDir)("file:arenas/alpha.db", "")
	require.NoError(t, err)
	defer db.Close()
	traces, err := store.NewArena(db).Traces(context.Background(), e.matchID(), e.live["sessionNonce"].(string))
	require.NoError(t, err)
	assert.Empty(t, traces, "no consent, no derived trace")

	for _, p := range []string{e.p1, e.p2} {
		e.game(t, "POST", "/api/v1/me/referee-consent", p, map[string]any{"granted": true}, "")
	}
	_, status, out = e.upload(t, e.p2, "full", e.replay(t, "full", nil))
	require.Equal(t, 200, status, out)
	traces, err = store.NewArena(db).Traces(context.Background(), e.matchID(), e.live["sessionNonce"].(string))
	require.NoError(t, err)
	require.Len(t, traces, 1)
	assert.Equal(t, 0, traces[0].Slot, "slot 0: the service's own")
	assert.Contains(t, traces[0].Trace, `"turn_started"`)
	// Quoted: the random session nonce may hold the letters Ah.
	assert.NotContains(t, traces[0].Trace, `"cards"`, "the hand stream stays out")
	assert.NotContains(t, traces[0].Trace, `"Ah"`, "the hand stream stays out")
}
