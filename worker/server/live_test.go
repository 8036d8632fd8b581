package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sse "github.com/tmaxmax/go-sse"

	"arena/worker/server"
)

// liveStream is an open event stream, read with a third-party SSE
// parser (github.com/tmaxmax/go-sse), not with our own code.
type liveStream struct {
	resp   *http.Response
	events chan sse.Event
	cancel context.CancelFunc
}

// openLive opens path on alpha.test over a real connection; header holds
// extra header name/value pairs (Last-Event-ID).
func openLive(t *testing.T, base, path string, header ...string) *liveStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", base+path, nil)
	require.NoError(t, err)
	req.Host = "alpha.test"
	req.Header.Set("Accept", "text/event-stream")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	s := &liveStream{resp: resp, events: make(chan sse.Event, 100), cancel: cancel}
	t.Cleanup(s.close)
	if resp.StatusCode != http.StatusOK {
		return s
	}
	go func() {
		defer close(s.events)
		for e, err := range sse.Read(resp.Body, nil) {
			if err != nil {
				return
			}
			s.events <- e
		}
	}()
	return s
}

func (s *liveStream) close() {
	s.cancel()
	_ = s.resp.Body.Close()
}

// next returns the stream's next event, failing after a few seconds.
func (s *liveStream) next(t *testing.T) (sse.Event, map[string]any) {
	t.Helper()
	select {
	case e, ok := <-s.events:
		require.True(t, ok, "the stream ended")
		var body map[string]any
		require.NoError(t, json.Unmarshal([]byte(e.Data), &body), e.Data)
		return e, body
	case <-time.After(5 * time.Second):
		t.Fatal("no event within 5 s")
	}
	return sse.Event{}, nil
}

// quiet checks that the stream shows nothing for a moment.
func (s *liveStream) quiet(t *testing.T) {
	t.Helper()
	select {
	case e := <-s.events:
		t.Fatalf("unexpected event %s %s", e.Type, e.Data)
	case <-time.After(200 * time.Millisecond):
	}
}

// liveListener serves the environment over a real connection, as the
// native binary does (compressed).
func liveListener(t *testing.T, p *protocolEnv) string {
	t.Helper()
	srv := httptest.NewServer(server.Compress(p.Handler))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestLiveStreams: a tournament's, a match's and the arena's streams
// show the log's events as they are appended, each with id = seq, event
// = type and data = the event as the log serves it; a stream resumed with
// Last-Event-ID or ?after= misses nothing; bad input is refused.
func TestLiveStreams(t *testing.T) {
	for _, remote := range []bool{false, true} {
		t.Run(map[bool]string{false: "SQLite", true: "LibSQL"}[remote], func(t *testing.T) {
			p := logEnv(t, remote)
			base := liveListener(t, p)
			matches := p.bracket(t, "duo", "demo", 4)
			other := p.bracket(t, "other", "demo", 4)
			m := matches[0]
			mid := fmt.Sprintf("%.0f", m["id"])

			tour := openLive(t, base, "/api/v1/tournaments/duo/live")
			require.Equal(t, 200, tour.resp.StatusCode)
			assert.Equal(t, "text/event-stream", tour.resp.Header.Get("Content-Type"))
			assert.Empty(t, tour.resp.Header.Get("Content-Encoding"), "a stream is never compressed")
			match := openLive(t, base, "/api/v1/matches/"+mid+"/live")
			arena := openLive(t, base, "/api/v1/live")
			tour.quiet(t) // from now: nothing of the past

			// Another tournament's match: only the arena's stream shows it.
			p.goLive(t, other[0])
			live := p.goLive(t, m)
			winner := m["p1PlatformId"].(string)
			res, hash := result(live, winner, "")
			for _, who := range []string{winner, m["p2PlatformId"].(string)} {
				status, out := p.game(t, "POST", matchPath(m, "result"), who, submission(res, hash), "")
				require.Equal(t, 200, status, out)
			}

			log := readLog(t, p, 1000)
			byType := func(typ string, f func(map[string]any) bool) []map[string]any {
				var out []map[string]any
				for _, e := range log {
					if e["type"] == typ && f(e) {
						out = append(out, e)
					}
				}
				return out
			}
			ofMatch := func(e map[string]any) bool { return e["matchId"] == m["id"] }
			var want []map[string]any
			want = append(want, byType("match.ready", ofMatch)...)
			want = append(want, byType("match.live", ofMatch)...)
			want = append(want, byType("match.submission", ofMatch)...)
			want = append(want, byType("match.confirmed", ofMatch)...)
			require.Len(t, want, 5)
			for _, s := range []*liveStream{tour, match} {
				for _, w := range want {
					e, body := s.next(t)
					assert.Equal(t, w["type"], e.Type)
					assert.Equal(t, fmt.Sprintf("%.0f", w["seq"]), e.LastEventID)
					assert.Equal(t, w, body, "the event as the log serves it")
				}
			}
			// The arena's stream shows everything after its start, in order.
			first := -1.0
			for i := 0; i < 7; i++ {
				e, body := arena.next(t)
				if first < 0 {
					first = body["seq"].(float64)
				}
				assert.Equal(t, strconv.Itoa(int(first)+i), e.LastEventID, "no gap")
			}

			// Resuming: Last-Event-ID wins over ?after=, both replay the log.
			resumed := openLive(t, base, "/api/v1/tournaments/duo/live?after=0", "Last-Event-ID", fmt.Sprintf("%.0f", want[1]["seq"]))
			for _, w := range want[2:] {
				e, _ := resumed.next(t)
				assert.Equal(t, fmt.Sprintf("%.0f", w["seq"]), e.LastEventID)
			}
			resumed.quiet(t)
			fromStart := openLive(t, base, "/api/v1/matches/"+mid+"/live?after=0")
			for _, w := range want {
				e, _ := fromStart.next(t)
				assert.Equal(t, w["type"], e.Type)
			}

			for _, bad := range []struct {
				path, header string
				status       int
				field        string
			}{
				{"/api/v1/tournaments/nope/live", "", 404, ""},
				{"/api/v1/matches/99999/live", "", 404, ""},
				{"/api/v1/matches/x/live", "", 404, ""},
				{"/api/v1/live?after=-1", "", 422, "after"},
				{"/api/v1/live?after=x", "", 422, "after"},
				{"/api/v1/live", "x", 422, "Last-Event-ID"},
			} {
				s := openLive(t, base, bad.path, "Last-Event-ID", bad.header)
				assert.Equal(t, bad.status, s.resp.StatusCode, bad.path)
				if bad.field != "" {
					var out map[string]any
					require.NoError(t, json.NewDecoder(s.resp.Body).Decode(&out))
					assert.Equal(t, bad.field, out["field"], bad.path)
				}
			}
		})
	}
}

// TestLiveStreamDraftHidden: a draft tournament has no stream.
func TestLiveStreamDraftHidden(t *testing.T) {
	p := logEnv(t, false)
	base := liveListener(t, p)
	p.mustDo(t, "POST", "/api/v1/admin/tournaments", p.admin, p.tournamentBody("draft", "groups_playoffs", 8), 201)
	s := openLive(t, base, "/api/v1/tournaments/draft/live")
	assert.Equal(t, 404, s.resp.StatusCode)
}

// TestLiveStreamPolled: where the runtime cannot hold a response (the
// edge), a stream's answer is one finite page: the events after the
// cursor, then the retry field; from now it is the retry field alone.
func TestLiveStreamPolled(t *testing.T) {
	p := logEnv(t, false, func(c *server.Config) { c.LivePolled = true })
	matches := p.bracket(t, "duo", "demo", 4)
	p.goLive(t, matches[0])
	log := readLog(t, p, 1000)
	base := liveListener(t, p)

	s := openLive(t, base, "/api/v1/tournaments/duo/live")
	require.Equal(t, 200, s.resp.StatusCode)
	var got []sse.Event
	for e := range s.events {
		got = append(got, e)
	}
	assert.Empty(t, got, "from now: nothing")

	s = openLive(t, base, "/api/v1/tournaments/duo/live", "Last-Event-ID", "0")
	body, err := io.ReadAll(s.resp.Body)
	require.NoError(t, err)
	text := string(body)
	assert.True(t, strings.HasSuffix(text, "retry: 1000\n\n"), text)
	n := 0
	for e, err := range sse.Read(strings.NewReader(text), nil) {
		require.NoError(t, err)
		n++
		assert.NotEmpty(t, e.LastEventID)
	}
	assert.Equal(t, len(log), n, "every event of the tournament")
}

// TestLiveStreamPolledFollowUp: the front's requests for the next pages
// of a stream it holds (server.LiveFollowUp) are not counted against the
// read limits (the stream was, once, when it opened) and carry no retry
// field (the client was told it); a client's own request is counted.
func TestLiveStreamPolledFollowUp(t *testing.T) {
	p := logEnv(t, false, func(c *server.Config) {
		c.LivePolled = true
		c.RateLimiter = server.NewMemoryRateLimiter()
	})
	matches := p.bracket(t, "duo", "demo", 4)
	p.goLive(t, matches[0])
	want := 0
	for _, e := range readLog(t, p, 1000) {
		if e["tournament"] == "duo" {
			want++
		}
	}
	p.mustDo(t, "PUT", "/api/v1/admin/settings", p.admin, map[string]any{"rateLimits": map[string]any{"anonymousPerMinute": 1, "keyPerMinute": 1}}, 200)
	p.Now = p.Now.Add(time.Minute)
	page := func(follow bool) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "http://alpha.test/api/v1/tournaments/duo/live?after=0", nil)
		if follow {
			req = req.WithContext(server.LiveFollowUp(req.Context()))
		}
		rec := httptest.NewRecorder()
		p.Handler.ServeHTTP(rec, req)
		return rec
	}
	first := page(false)
	require.Equal(t, 200, first.Code, first.Body.String())
	assert.True(t, strings.HasSuffix(first.Body.String(), "retry: 1000\n\n"))
	assert.Equal(t, 429, page(false).Code, "a client's second request is counted")
	for range 3 {
		next := page(true)
		require.Equal(t, 200, next.Code, next.Body.String())
		assert.NotContains(t, next.Body.String(), "retry:")
		n := 0
		for _, err := range sse.Read(strings.NewReader(next.Body.String()), nil) {
			require.NoError(t, err)
			n++
		}
		assert.Equal(t, want, n, "every event of the tournament")
	}
}
