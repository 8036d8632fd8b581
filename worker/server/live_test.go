package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
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
	return openLiveOn(t, base, "alpha.test", path, header...)
}

// requestLive asks host for the stream at path without reading it: the
// caller owns the body.
func requestLive(t *testing.T, base, host, path string, header ...string) *liveStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", base+path, nil)
	require.NoError(t, err)
	req.Host = host
	req.Header.Set("Accept", "text/event-stream")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	s := &liveStream{resp: resp, events: make(chan sse.Event, 100), cancel: cancel}
	t.Cleanup(s.close)
	return s
}

// openLiveOn is openLive on host.
func openLiveOn(t *testing.T, base, host, path string, header ...string) *liveStream {
	t.Helper()
	s := requestLive(t, base, host, path, header...)
	resp := s.resp
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
				// A seq is plain decimal: no sign, no leading zero.
				{"/api/v1/live?after=%2B5", "", 422, "after"},
				{"/api/v1/live?after=05", "", 422, "after"},
				{"/api/v1/live", "+5", 422, "Last-Event-ID"},
				{"/api/v1/live", "-1", 422, "Last-Event-ID"},
				{"/api/v1/live", "005", 422, "Last-Event-ID"},
				// Beyond the log's last event: a cursor of another log.
				{"/api/v1/live?after=" + strconv.Itoa(len(log)+1), "", 422, "after"},
				{"/api/v1/tournaments/duo/live", strconv.Itoa(len(log) + 1), 422, "Last-Event-ID"},
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

// TestLiveCursorAtHead: a cursor at the log's last event is a stream
// from there (nothing to replay); the log's pages take the same seqs and
// refuse the same signed forms.
func TestLiveCursorAtHead(t *testing.T) {
	for _, polled := range []bool{false, true} {
		t.Run(map[bool]string{false: "Held", true: "Polled"}[polled], func(t *testing.T) {
			p := logEnv(t, false, func(c *server.Config) { c.LivePolled = polled })
			p.bracket(t, "duo", "demo", 4)
			head := strconv.Itoa(len(readLog(t, p, 1000)))
			base := liveListener(t, p)
			s := openLive(t, base, "/api/v1/live", "Last-Event-ID", head)
			require.Equal(t, 200, s.resp.StatusCode)
			s = openLive(t, base, "/api/v1/live?after="+head)
			require.Equal(t, 200, s.resp.StatusCode)
			for _, bad := range []string{"1" + head, "%2B1", "-1", "01"} {
				s := openLive(t, base, "/api/v1/live?after="+bad)
				assert.Equal(t, 422, s.resp.StatusCode, bad)
				status, out := p.do(t, "GET", "alpha.test", "/api/v1/events?after="+bad, "", nil)
				if bad == "1"+head {
					assert.Equal(t, 200, status, "a page after the head is empty")
					continue
				}
				assert.Equal(t, 422, status, bad)
				assert.Equal(t, "after", out["field"])
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

	s = requestLive(t, base, "alpha.test", "/api/v1/tournaments/duo/live", "Last-Event-ID", "0")
	require.Equal(t, 200, s.resp.StatusCode)
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

// eventually retries open until it answers want, failing after a few
// seconds; it returns the stream that did.
func eventually(t *testing.T, want int, open func() *liveStream) *liveStream {
	t.Helper()
	// 15 s: under the race detector on a loaded 2-core machine a stream
	// has been seen taking over 5 s to take its slot.
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := open()
		if s.resp.StatusCode == want {
			return s
		}
		s.close()
		if time.Now().After(deadline) {
			t.Fatalf("still %d after 15 s, want %d", s.resp.StatusCode, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// refused checks that s was refused with 429 too_many_streams.
func refused(t *testing.T, s *liveStream, msg string) {
	t.Helper()
	require.Equal(t, http.StatusTooManyRequests, s.resp.StatusCode, msg)
	var out map[string]any
	require.NoError(t, json.NewDecoder(s.resp.Body).Decode(&out))
	assert.Equal(t, "too_many_streams", out["error"], msg)
}

// TestLiveStreamCaps: a caller holds at most 64 streams with an API key
// and 8 per IP without one; the next is 429 too_many_streams, and a
// stream that closes frees its slot at once. Keyed streams take no slot
// of their IPs; another IP has its own 8.
func TestLiveStreamCaps(t *testing.T) {
	p := logEnv(t, false, func(c *server.Config) {
		c.ClientIPHeader = "X-Client-Ip"
		c.RateLimiter = nil
	})
	base := liveListener(t, p)
	auth := "Bearer " + p.mustDo(t, "POST", "/api/v1/admin/api-keys", p.admin, map[string]any{"label": "k"}, 201)["key"].(string)
	keyed := func() *liveStream {
		return openLive(t, base, "/api/v1/live", "Authorization", auth, "X-Client-Ip", "10.0.0.1")
	}
	anonymous := func(ip string) func() *liveStream {
		return func() *liveStream { return openLive(t, base, "/api/v1/live", "X-Client-Ip", ip) }
	}

	var held []*liveStream
	for i := range 64 {
		s := keyed()
		require.Equal(t, 200, s.resp.StatusCode, "keyed stream %d", i+1)
		held = append(held, s)
	}
	refused(t, keyed(), "the 65th keyed stream")
	var anon []*liveStream
	for i := range 8 {
		s := anonymous("10.0.0.1")()
		require.Equal(t, 200, s.resp.StatusCode, "anonymous stream %d", i+1)
		anon = append(anon, s)
	}
	refused(t, anonymous("10.0.0.1")(), "the 9th anonymous stream of one IP")
	other := anonymous("10.0.0.2")()
	assert.Equal(t, 200, other.resp.StatusCode, "another IP has its own streams")

	// A stream that closes frees its slot.
	held[0].close()
	eventually(t, 200, keyed)
	refused(t, keyed(), "the slot was taken again")
	anon[0].close()
	eventually(t, 200, anonymous("10.0.0.1"))
	refused(t, anonymous("10.0.0.1")(), "the slot was taken again")
}

// TestLiveStreamBacklogGrows: a held stream sets nothing aside for events
// it has not been sent: the heap per idle stream (both ends of the
// connection, in this process) stays far below the 1,024 events a
// backlog allocated up front took (about 115 KB).
func TestLiveStreamBacklogGrows(t *testing.T) {
	if raceDetector {
		t.Skip("the race detector's shadow memory skews the heap")
	}
	p := logEnv(t, false, func(c *server.Config) {
		c.ClientIPHeader = "X-Client-Ip"
		c.RateLimiter = nil
	})
	base := liveListener(t, p)
	const n = 200
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	t.Cleanup(client.CloseIdleConnections)
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	open := openLive(t, base, "/api/v1/live") // the feed and the connection pool exist before the count
	require.Equal(t, 200, open.resp.StatusCode)
	before := heap()
	var bodies []io.Closer
	for i := range n {
		req, err := http.NewRequest("GET", base+"/api/v1/live", nil)
		require.NoError(t, err)
		req.Host = "alpha.test"
		req.Header.Set("X-Client-Ip", fmt.Sprintf("10.1.%d.%d", i/250, i%250))
		resp, err := client.Do(req)
		require.NoError(t, err)
		require.Equal(t, 200, resp.StatusCode)
		bodies = append(bodies, resp.Body)
	}
	after := heap()
	perStream := (int64(after) - int64(before)) / n
	t.Logf("heap per idle stream, both ends: %d bytes", perStream)
	assert.Less(t, perStream, int64(48<<10), "a stream allocates no backlog up front")
	for _, b := range bodies {
		_ = b.Close()
	}
}

// TestLiveStreamsDoNotPinArenas: streams on more arenas than
// MaxOpenArenas keep no database open between reads: the pool stays
// within its bound while every stream is held, and each stream still
// shows its arena's next event (its feed wakes when the database opens
// again).
func TestLiveStreamsDoNotPinArenas(t *testing.T) {
	const bound, arenas = 2, 5
	env := newTestEnvWith(t, false, func(c *server.Config) {
		c.MaxOpenArenas = bound
		c.RateLimiter = nil
	})
	srv := httptest.NewServer(server.Compress(env.Handler))
	t.Cleanup(srv.Close)
	admins := make([]string, arenas)
	streams := make([]*liveStream, arenas)
	host := func(i int) string { return fmt.Sprintf("arena-%d.test", i) }
	for i := range arenas {
		admins[i] = env.createArena(t, fmt.Sprintf("arena-%d", i), host(i))
	}
	for i := range arenas {
		streams[i] = openLiveOn(t, srv.URL, host(i), "/api/v1/live")
		require.Equal(t, 200, streams[i].resp.StatusCode)
	}
	assert.Eventually(t, func() bool { return env.Server.OpenArenaDatabases() <= bound }, 5*time.Second, 10*time.Millisecond,
		"held streams keep %d databases open, over the bound of %d", env.Server.OpenArenaDatabases(), bound)
	for i := range arenas {
		status, out := env.do(t, "POST", host(i), "/api/v1/admin/tournaments", admins[i], env.tournamentBody("cup", "groups_playoffs", 8))
		require.Equal(t, 201, status, out)
		status, out = env.do(t, "POST", host(i), "/api/v1/admin/tournaments/cup/status", admins[i], map[string]any{"status": "registration_open"})
		require.Equal(t, 200, status, out)
	}
	for i, s := range streams {
		e, body := s.next(t)
		assert.Equal(t, "tournament.status", e.Type, "arena %d", i)
		assert.Equal(t, "cup", body["tournament"], "arena %d", i)
	}
	assert.Eventually(t, func() bool { return env.Server.OpenArenaDatabases() <= bound }, 5*time.Second, 10*time.Millisecond)
}

// TestLiveEventEncodedOnce: the feed encodes each event once, however
// many watchers it goes to; every watcher gets the same message.
func TestLiveEventEncodedOnce(t *testing.T) {
	p := logEnv(t, false, func(c *server.Config) {
		c.ClientIPHeader = "X-Client-Ip"
		c.RateLimiter = nil
	})
	base := liveListener(t, p)
	p.mustDo(t, "POST", "/api/v1/admin/tournaments", p.admin, p.tournamentBody("enc", "groups_playoffs", 16), 201)
	p.mustDo(t, "POST", "/api/v1/admin/tournaments/enc/status", p.admin, map[string]any{"status": "registration_open"}, 200)
	var watchers []*liveStream
	for i := range 12 {
		path := "/api/v1/live"
		if i%2 == 1 {
			path = "/api/v1/tournaments/enc/live"
		}
		s := openLive(t, base, path, "X-Client-Ip", fmt.Sprintf("10.2.0.%d", i))
		require.Equal(t, 200, s.resp.StatusCode)
		watchers = append(watchers, s)
	}
	before := p.Server.LiveEncodings()
	const events = 5
	for i := 1; i <= events; i++ {
		p.mustDo(t, "POST", "/api/v1/admin/tournaments/enc/registrations", p.admin, map[string]any{"platformId": playerID(i)}, 201)
	}
	var first []string
	for i, s := range watchers {
		for k := range events {
			e, _ := s.next(t)
			if i == 0 {
				first = append(first, e.Data)
			} else {
				assert.Equal(t, first[k], e.Data, "watcher %d event %d", i, k)
			}
		}
	}
	assert.Equal(t, int64(events), p.Server.LiveEncodings()-before, "each event encoded once for %d watchers", len(watchers))
}

// TestLiveClientLeftMidJoin: a client gone while its stream starts is
// logged as leaving, never answered or logged as a failure.
func TestLiveClientLeftMidJoin(t *testing.T) {
	var logs syncBuffer
	p := logEnv(t, false, func(c *server.Config) {
		c.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	p.bracket(t, "duo", "demo", 4)
	for _, path := range []string{"/api/v1/tournaments/duo/live", "/api/v1/live"} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		req := httptest.NewRequestWithContext(ctx, "GET", "http://alpha.test"+path, nil)
		rec := httptest.NewRecorder()
		p.Handler.ServeHTTP(rec, req)
		assert.Less(t, rec.Code, 500, "%s: %s", path, rec.Body.String())
	}
	out := logs.String()
	assert.False(t, strings.Contains(out, `"level":"ERROR"`), "an error was logged")
	assert.False(t, strings.Contains(out, `"status":500`), "a 500 was logged")
	assert.True(t, strings.Contains(out, `"msg":"client left"`), "the client leaving was not logged")
}

// syncBuffer is a bytes.Buffer safe for a logger's concurrent writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
