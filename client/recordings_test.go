package client_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
	"arena/worker/arenatest"
)

// lines returns a replay file's lines, inflated as one gzip stream.
func lines(t *testing.T, file []byte) []string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(file))
	require.NoError(t, err)
	var out []string
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	require.NoError(t, sc.Err())
	return out
}

func TestReplayWriter(t *testing.T) {
	w := client.NewReplayWriter()
	require.NoError(t, w.Append(0, "match_started", nil))
	require.NoError(t, w.Append(1500, "public_action", map[string]any{"actor": 2, "action": "play", "target": "board", "tMs": 9}))
	require.NoError(t, w.Append(1600, "hand", map[string]any{"cards": []any{"Ah"}}))
	assert.Error(t, w.Append(-1, "x", nil))
	assert.Error(t, w.Append(5, "", nil))
	assert.Equal(t, 3, w.Events())
	m := &client.LiveMatch{MatchID: 12, SessionNonce: "n0nce"}
	file, err := w.Finish(client.MatchHeader(m, client.ScopeFull, "2.0", 1600))
	require.NoError(t, err)
	assert.Equal(t, []string{
		`{"durationMs":1600,"format":"game.replay.v1","gameBuild":"2.0","matchId":12,"scope":"full","sessionNonce":"n0nce"}`,
		`{"tMs":0,"type":"match_started"}`,
		`{"action":"play","actor":2,"tMs":1500,"target":"board","type":"public_action"}`,
		`{"cards":["Ah"],"tMs":1600,"type":"hand"}`,
	}, lines(t, file), "header first, then one canonical event per line; tMs and type are the writer's")
	assert.Error(t, w.Append(1700, "late", nil), "no events after Finish")

	h, err := client.ReadReplayHeader(file)
	require.NoError(t, err)
	assert.Equal(t, client.ReplayHeader{MatchID: 12, SessionNonce: "n0nce", Scope: "full", GameBuild: "2.0", DurationMs: 1600}, h)

	seg, err := client.NewReplayWriter().Finish(client.ReplayHeader{Scope: client.ScopePublic}.Segment(3, 4500))
	require.NoError(t, err)
	assert.Equal(t, []string{`{"baseTMs":4500,"durationMs":0,"format":"game.replay.v1","gameBuild":"","scope":"public","segmentSeq":3}`}, lines(t, seg),
		"a casual segment: no match, segmentSeq and baseTMs")
	_, err = client.ReadReplayHeader([]byte("plain"))
	assert.Error(t, err)
}

// arenaClient is a reference client of the demo arena at a.URL, playing as id.
func arenaClient(t *testing.T, base, id string) *client.Client {
	t.Helper()
	s := client.NewSettings(base)
	s.MockSteamID = id
	s.MaxSubmitAttempts = 1
	c, err := client.New(s, client.Deps{Sleep: func(context.Context, time.Duration) error { return nil }})
	require.NoError(t, err)
	return c
}

func casualFile(t *testing.T, header client.ReplayHeader) []byte {
	t.Helper()
	w := client.NewReplayWriter()
	require.NoError(t, w.Append(0, "match_started", nil))
	file, err := w.Finish(header)
	require.NoError(t, err)
	return file
}

// TestCasualRecordingAgainstTheArena submits, lists, fetches and
// downloads a casual recording on a served arena (mock tickets).
func TestCasualRecordingAgainstTheArena(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{NoSite: true})
	c := arenaClient(t, a.URL, arenatest.Blaise)
	ctx := context.Background()
	file := casualFile(t, client.ReplayHeader{Scope: client.ScopePublic, GameBuild: "0.9", DurationMs: 42})
	rec, err := c.SubmitRecording(ctx, file)
	require.NoError(t, err)
	assert.Nil(t, rec.MatchID)
	assert.Equal(t, "ready", rec.State)
	assert.Equal(t, "0.9", rec.GameBuild)
	assert.Equal(t, int64(42), rec.DurationMs)

	mine, err := c.MyRecordings(ctx)
	require.NoError(t, err)
	require.Len(t, mine, 1)
	url, err := c.FetchRecording(ctx, rec.ID, "")
	require.NoError(t, err)
	got, err := c.Download(ctx, url)
	require.NoError(t, err)
	assert.Equal(t, file, got)

	_, err = arenaClient(t, a.URL, arenatest.Charles).FetchRecording(ctx, rec.ID, "")
	var apiErr *client.APIError
	require.True(t, errors.As(err, &apiErr))
	assert.Equal(t, 404, apiErr.Status, "casual recordings are private")

	_, err = c.SubmitRecording(ctx, []byte("not a replay"))
	assert.ErrorIs(t, err, client.ErrNotReplay)
}

// TestResubmitSpool: submitted files leave the spool, files the arena
// refuses for good are set aside, and an unreachable arena leaves
// everything for the next run.
func TestResubmitSpool(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{NoSite: true})
	dir := t.TempDir()
	write := func(name string, b []byte) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), b, 0o644))
	}
	write("a"+client.SpoolSuffix, casualFile(t, client.ReplayHeader{Scope: client.ScopePublic}))
	write("b"+client.SpoolSuffix, casualFile(t, client.ReplayHeader{Scope: client.ScopePublic, MatchID: 999, SessionNonce: "x"}))
	write("c"+client.SpoolSuffix, []byte("garbage"))
	write("notes.txt", []byte("left alone"))

	offline, err := arenaClient(t, "http://127.0.0.1:1", arenatest.Blaise).ResubmitSpool(context.Background(), dir)
	require.NoError(t, err)
	require.Len(t, offline, 3)
	assert.Error(t, offline[0].Err, "unreachable")
	assert.FileExists(t, filepath.Join(dir, "a"+client.SpoolSuffix), "kept for the next run")
	assert.FileExists(t, filepath.Join(dir, "b"+client.SpoolSuffix))
	assert.ErrorIs(t, offline[2].Err, client.ErrNotReplay, "not a replay, wherever it goes")

	results, err := arenaClient(t, a.URL, arenatest.Blaise).ResubmitSpool(context.Background(), dir)
	require.NoError(t, err)
	require.Len(t, results, 2)
	require.NoError(t, results[0].Err)
	assert.Equal(t, "ready", results[0].Recording.State)
	var apiErr *client.APIError
	require.True(t, errors.As(results[1].Err, &apiErr), "%v", results[1].Err)
	assert.Equal(t, 404, apiErr.Status, "a match the arena does not have")
	left, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{"b" + client.SpoolSuffix + ".refused", "c" + client.SpoolSuffix + ".refused", "notes.txt"}, names)
}

func TestTraceRecorder(t *testing.T) {
	settings := client.NewSettings("http://unused")
	settings.MockSteamID, settings.EnableReferee = alice, true
	c, err := client.New(settings, client.Deps{})
	require.NoError(t, err)
	active := &client.LiveMatch{MatchID: 5, SessionNonce: "n", Slot: 2, RefereeM0: &client.RefereeM0{Enabled: true, ConsentComplete: true}}

	t.Run("InactiveRecordsNothing", func(t *testing.T) {
		pending := *active
		pending.RefereeM0 = &client.RefereeM0{Enabled: true}
		r := c.NewTraceRecorder(&pending, nil)
		assert.False(t, r.Active())
		r.Begin()
		_, err := r.EndAndSubmit(context.Background(), 1, client.EndNormal)
		assert.ErrorIs(t, err, client.ErrTraceInactive)
	})
	record := func(clock *time.Duration) *client.TraceRecorder {
		r := c.NewTraceRecorder(active, func() time.Duration { return *clock })
		r.TurnStarted(1) // before Begin: dropped
		r.Begin()
		*clock = 20 * time.Millisecond
		r.RoundStarted(1)
		r.TurnStarted(2)
		r.PublicAction(2, "bet", client.TargetNone)
		*clock = 10 * time.Millisecond // a clock that steps back never makes tMs go back
		r.ScoreChanged(0, 1, 2)
		r.RoundEnded(1, 2, 1, 2)
		return r
	}
	var c1, c2 time.Duration
	r1, r2 := record(&c1), record(&c2)
	tr, hash, err := r1.End(2, client.EndTimeout)
	require.NoError(t, err)
	tr2, hash2, err := r2.End(2, client.EndTimeout)
	require.NoError(t, err)
	assert.Equal(t, tr, tr2, "two recorders of the same match write the same bytes")
	assert.Equal(t, hash, hash2)
	assert.Equal(t, client.ResultHash([]byte(tr)), hash)

	var body struct {
		MatchID int64            `json:"matchId"`
		Ruleset string           `json:"ruleset"`
		Schema  string           `json:"schema"`
		Events  []map[string]any `json:"events"`
	}
	require.NoError(t, json.Unmarshal([]byte(tr), &body))
	assert.Equal(t, int64(5), body.MatchID)
	assert.Equal(t, client.DefaultRefereeTraceSchema, body.Schema)
	assert.Equal(t, client.DefaultRefereeRuleset, body.Ruleset)
	var types []string
	for i, ev := range body.Events {
		types = append(types, ev["type"].(string))
		assert.Equal(t, float64(i+1), ev["seq"])
	}
	assert.Equal(t, []string{"match_started", "round_started", "turn_started", "public_action", "score_changed", "round_ended", "match_ended"}, types)
	assert.Equal(t, float64(20), body.Events[4]["tMs"], "tMs never goes back")
	assert.Equal(t, "timeout", body.Events[6]["reason"])

	again, _, err := r1.End(2, client.EndTimeout)
	require.NoError(t, err)
	assert.Equal(t, tr, again, "ended: nothing more is recorded")
	_, _, err = c.NewTraceRecorder(active, nil).End(1, "rage-quit")
	assert.Error(t, err)
}

// TestSubmitRecordingNamesItsGame: a match recording's init names the
// game by the replay header's session, so a file of game 1 sent while
// game 2 is played is game 1's (each game of a series has its own
// recording); a casual init names none.
func TestSubmitRecordingNamesItsGame(t *testing.T) {
	bodies := map[string]map[string]any{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		bodies[r.URL.Path] = body
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusConflict)
		_, _ = w.Write([]byte(`{"error":"not_live"}`))
	}))
	defer srv.Close()
	c := arenaClient(t, srv.URL, arenatest.Blaise)
	_, err := c.SubmitRecording(context.Background(), casualFile(t, client.ReplayHeader{MatchID: 12, SessionNonce: "game-1", Scope: client.ScopeFull}))
	require.Error(t, err)
	assert.Equal(t, "game-1", bodies["/api/v1/matches/12/recording/init"]["sessionNonce"])
	_, err = c.SubmitRecording(context.Background(), casualFile(t, client.ReplayHeader{Scope: client.ScopePublic}))
	require.Error(t, err)
	require.Contains(t, bodies, "/api/v1/me/recordings/init")
	assert.NotContains(t, bodies["/api/v1/me/recordings/init"], "sessionNonce")
}
