package server_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
)

// TestRecordingsEndToEnd: two reference clients play a match of a
// delayed (120 s) cup over real HTTP: both trace it for the referee
// (agreeing), stream near-live segments while playing and upload their
// full-scope recordings at the end; a third account, not in the match,
// follows the segments and fetches a recording through its share link
// once the delay has passed.
func TestRecordingsEndToEnd(t *testing.T) {
	e := newTestEnv(t, false)
	httpSrv := httptest.NewServer(e.Server)
	defer httpSrv.Close()
	status, body := e.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, map[string]any{
		"slug": "e2e", "name": "E2E", "hosts": []string{"alpha.test", "127.0.0.1"}, "plan": "indie", "appIds": []string{"480"},
		"refereeEnabled": true})
	require.Equal(t, 201, status, body)
	p := &protocolEnv{testEnv: e, admin: body["adminToken"].(string)}
	m := p.bracket(t, "vod", "demo", 2)[0]
	matchID := int64(m["id"].(float64))
	ctx := context.Background()

	newClient := func(id string) *client.Client {
		s := client.NewSettings(httpSrv.URL)
		s.MockSteamID, s.EnableReferee = id, true
		c, err := client.New(s, client.Deps{HTTP: httpSrv.Client(), Now: func() time.Time { return e.Now }})
		require.NoError(t, err)
		return c
	}
	players := []*client.Client{newClient(playerID(1)), newClient(playerID(2))}
	viewer := newClient(playerID(3))
	for _, c := range players {
		require.NoError(t, c.SetRefereeConsent(ctx, true))
	}
	_, err := players[0].Ready(ctx, matchID)
	require.NoError(t, err)
	_, err = players[1].Ready(ctx, matchID)
	require.NoError(t, err)

	type side struct {
		live     *client.LiveMatch
		writer   *client.ReplayWriter
		trace    *client.TraceRecorder
		recordID int64
		file     []byte
	}
	var gameTime time.Duration // the game's own clock, the same on both machines
	sides := make([]*side, 2)
	for i, c := range players {
		live, err := c.WaitForLiveMatch(ctx)
		require.NoError(t, err)
		require.Equal(t, matchID, live.MatchID)
		require.True(t, c.RefereeActive(live), "referee on, both consented")
		init, err := c.InitRecording(ctx, matchID, client.ScopeFull, "1.0.0", 0)
		require.NoError(t, err)
		s := &side{live: live, writer: client.NewReplayWriter(), trace: c.NewTraceRecorder(live, func() time.Duration { return gameTime }), recordID: init.RecordingID}
		s.trace.Begin()
		require.NoError(t, s.writer.Append(0, "match_started", nil))
		sides[i] = s
	}

	// Play: two turns, each side flushing a segment after its turn.
	for turn := int64(0); turn < 2; turn++ {
		gameTime = time.Duration(turn+1) * time.Second
		actor := int(turn%2) + 1
		for i, s := range sides {
			s.trace.TurnStarted(actor)
			s.trace.PublicAction(actor, "play", client.TargetBoard)
			require.NoError(t, s.writer.Append(gameTime.Milliseconds(), "turn_started", map[string]any{"actor": actor}))
			require.NoError(t, s.writer.Append(gameTime.Milliseconds(), "hand", map[string]any{"slot": s.live.Slot, "cards": []any{"Ah", "Kd"}}))
			seg := client.NewReplayWriter()
			require.NoError(t, seg.Append(gameTime.Milliseconds(), "turn_started", map[string]any{"actor": actor}))
			file, err := seg.Finish(client.MatchHeader(s.live, client.ScopeFull, "1.0.0", 0).Segment(turn, gameTime.Milliseconds()))
			require.NoError(t, err)
			require.NoError(t, players[i].SubmitSegment(ctx, s.recordID, turn, file))
		}
		e.Now = e.Now.Add(time.Minute)
	}

	feed, err := viewer.Segments(ctx, sides[0].recordID, -1, "")
	require.NoError(t, err)
	assert.True(t, feed.Live())
	require.Len(t, feed.Segments, 1, "segment 0 was uploaded 120 s ago, segment 1 only 60 s ago")
	seg0, err := viewer.Download(ctx, feed.Segments[0].URL)
	require.NoError(t, err)
	h, err := client.ReadReplayHeader(seg0)
	require.NoError(t, err)
	assert.Equal(t, int64(0), *h.SegmentSeq)

	// The end: results, traces, recordings.
	gameTime = 3 * time.Second
	for i, c := range players {
		s := sides[i]
		sub, err := c.Submit(ctx, playerID(i+1), playerID(2-i), map[string]any{"score": []any{2, 0}}, playerID(1))
		require.NoError(t, err)
		assert.NotEmpty(t, sub.Status)
		out, err := s.trace.EndAndSubmit(ctx, 1, client.EndNormal)
		require.NoError(t, err)
		if i == 1 {
			assert.Equal(t, &client.TraceOutcome{Status: "agreed", Training: "usable"}, out, "both clients traced the same match")
		}
		require.NoError(t, s.writer.Append(gameTime.Milliseconds(), "match_ended", map[string]any{"winnerSlot": 1, "reason": "normal"}))
		s.file, err = s.writer.Finish(client.MatchHeader(s.live, client.ScopeFull, "1.0.0", gameTime.Milliseconds()))
		require.NoError(t, err)
		rec, err := c.SubmitRecording(ctx, s.file)
		require.NoError(t, err)
		assert.Equal(t, s.recordID, rec.ID, "init is idempotent: the segments' recording")
		assert.Equal(t, "ready", rec.State)
		assert.Equal(t, int64(len(s.file)), rec.ByteSize)
	}
	feed, err = viewer.Segments(ctx, sides[0].recordID, 0, "")
	require.NoError(t, err)
	assert.Equal(t, "ended", feed.State)

	share, err := players[0].ShareRecording(ctx, sides[0].recordID)
	require.NoError(t, err)
	_, err = viewer.FetchRecording(ctx, sides[0].recordID, share.Token)
	var apiErr *client.APIError
	require.True(t, errors.As(err, &apiErr), "%v", err)
	assert.Equal(t, "recording_not_released", apiErr.Code, "the delay gate applies to links")

	e.Now = e.Now.Add(2 * time.Minute)
	url, err := viewer.FetchRecording(ctx, sides[0].recordID, share.Token)
	require.NoError(t, err)
	got, err := viewer.Download(ctx, url)
	require.NoError(t, err)
	assert.Equal(t, sides[0].file, got, "the third account has the recording, byte for byte")

	// A link is a link: no ticket needed.
	resp, err := httpSrv.Client().Get(httpSrv.URL + share.Path)
	require.NoError(t, err)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	mine, err := players[1].MyRecordings(ctx)
	require.NoError(t, err)
	assert.Len(t, mine, 1, "player 2's own; player 1's is link-only now")
}
