package server_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sse "github.com/tmaxmax/go-sse"

	"arena/core"
	"arena/worker/arenatest"
	"arena/worker/server"
)

// BenchmarkLiveFanout: how long a decided match takes to reach every
// watcher of its tournament's live stream, natively, measured from the
// second submission's answer to each watcher's receipt of
// match.confirmed. Each op decides one match. The watchers
// (ARENA_BENCH_WATCHERS, default 1000) hold real connections to the
// served arena; the reference line is the same with one watcher. Budget:
// p99 within 1 s at 1,000 watchers.
func BenchmarkLiveFanout(b *testing.B) {
	n := 1000
	if v, err := strconv.Atoi(os.Getenv("ARENA_BENCH_WATCHERS")); err == nil && v > 0 {
		n = v
	}
	for _, watchers := range []int{1, n} {
		b.Run(fmt.Sprintf("watchers=%d", watchers), func(b *testing.B) { liveFanout(b, watchers) })
	}
}

// benchIPHeader carries each benchmark client's IP (server.Config
// ClientIPHeader), so that many streams keep within the caps per IP.
const benchIPHeader = "X-Bench-Ip"

// benchIP is the i-th benchmark client IP.
func benchIP(i int) string { return fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255) }

// benchArena is the demo arena served over a real listener, client IPs
// taken from benchIPHeader, no read limits.
func benchArena(b *testing.B) (*arenatest.Arena, *httptest.Server) {
	a := arenatest.New(b, arenatest.Options{NoSite: true, InProcess: true, NoRateLimits: true,
		Config: func(c *server.Config) { c.ClientIPHeader = benchIPHeader }})
	srv := httptest.NewServer(server.Compress(a.Handler))
	b.Cleanup(srv.Close)
	return a, srv
}

func liveFanout(b *testing.B, watchers int) {
	a, srv := benchArena(b)
	host := arenatest.DemoHost

	size := 2
	for size < 2*b.N {
		size *= 2
	}
	players := make([]string, size)
	for i := range players {
		players[i] = fmt.Sprintf("76561190%09d", i)
	}
	a.OpenCup(b, arenatest.Cup{Slug: "fan", MaxPlayers: size, Players: players, Fields: map[string]any{"matchWindowMinutes": 600}})
	a.SetStatus(b, "fan", "registration_closed", "playoffs")
	type live struct {
		id            int64
		p1, p2, nonce string
	}
	var matches []live
	for _, m := range a.Playable(b, "fan") {
		a.Game(b, http.MethodPost, fmt.Sprintf("/api/v1/matches/%d/ready", m.ID), *m.P1, nil, http.StatusOK)
		a.Game(b, http.MethodPost, fmt.Sprintf("/api/v1/matches/%d/ready", m.ID), *m.P2, nil, http.StatusOK)
	}
	for _, m := range a.Matches(b, "fan") {
		if m.SessionNonce != "" && m.Status == "live" {
			matches = append(matches, live{m.ID, *m.P1, *m.P2, m.SessionNonce})
		}
	}
	if len(matches) < b.N {
		b.Fatalf("%d live matches for %d ops", len(matches), b.N)
	}

	// The watchers: each reports when it saw each match confirmed.
	type seen struct {
		match int64
		at    time.Time
	}
	got := make(chan seen, watchers*4)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: watchers, DisableCompression: true}}
	var ready sync.WaitGroup
	for w := range watchers {
		ready.Add(1)
		go func() {
			req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/v1/tournaments/fan/live", nil)
			req.Host = host
			req.Header.Set(benchIPHeader, benchIP(w))
			resp, err := client.Do(req)
			ready.Done()
			if err != nil {
				return
			}
			defer resp.Body.Close()
			for e, err := range sse.Read(resp.Body, nil) {
				if err != nil {
					return
				}
				if e.Type != "match.confirmed" {
					continue
				}
				at := time.Now()
				var ev struct {
					MatchID int64 `json:"matchId"`
				}
				if json.Unmarshal([]byte(e.Data), &ev) == nil {
					got <- seen{ev.MatchID, at}
				}
			}
		}()
	}
	ready.Wait()
	time.Sleep(100 * time.Millisecond) // every watcher has joined the feed

	var lat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		m := matches[i]
		res := fmt.Sprintf(`{"matchId":%d,"score":[3,1],"sessionNonce":%q,"winner":%q}`, m.id, m.nonce, m.p1)
		sum := sha256.Sum256([]byte(res))
		body := map[string]any{"protocol": "svc.result.v3", "result": res, "resultHash": hex.EncodeToString(sum[:]), "clientRole": "host"}
		path := fmt.Sprintf("/api/v1/matches/%d/result", m.id)
		a.Game(b, http.MethodPost, path, m.p1, body, http.StatusOK)
		a.Game(b, http.MethodPost, path, m.p2, body, http.StatusOK)
		answered := time.Now()
		deadline := time.After(10 * time.Second)
		for k := 0; k < watchers; {
			select {
			case s := <-got:
				if s.match == m.id {
					lat = append(lat, s.at.Sub(answered))
					k++
				}
			case <-deadline:
				b.Fatalf("match %d reached %d of %d watchers in 10 s", m.id, k, watchers)
			}
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.5), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(watchers), "watchers")
}

// rawStream opens a stream over a bare connection (no client buffers, so
// the heap measured is the server's) and returns once its retry field
// came; ip and auth ("" for none) say who asks.
func rawStream(b *testing.B, addr, path, ip, auth string) net.Conn {
	b.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		b.Fatal(err)
	}
	req := "GET " + path + " HTTP/1.1\r\nHost: " + arenatest.DemoHost + "\r\n" + benchIPHeader + ": " + ip + "\r\n"
	if auth != "" {
		req += "Authorization: Bearer " + auth + "\r\n"
	}
	if _, err := io.WriteString(c, req+"\r\n"); err != nil {
		b.Fatal(err)
	}
	var got []byte
	buf := make([]byte, 512)
	for !bytes.Contains(got, []byte("retry: ")) {
		n, err := c.Read(buf)
		if err != nil {
			b.Fatalf("stream %s from %s: %v after %q", path, ip, err, got)
		}
		got = append(got, buf[:n]...)
	}
	if !bytes.HasPrefix(got, []byte("HTTP/1.1 200")) {
		b.Fatalf("stream %s from %s: %q", path, ip, got)
	}
	return c
}

// benchKeys mints n API keys of the demo arena.
func benchKeys(b *testing.B, a *arenatest.Arena, n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = a.Admin(b, http.MethodPost, "/api/v1/admin/api-keys", map[string]any{"label": fmt.Sprintf("bench %d", i)}, http.StatusCreated)["key"].(string)
	}
	return keys
}

// BenchmarkLiveStreamLoad: the memory one held, idle stream costs the
// server, at 1,000 and 5,000 streams (ARENA_BENCH_STREAMS replaces the
// larger). Half the streams are anonymous, 8 per client IP, half keyed,
// 64 per API key: as many as the caps allow each caller. The clients are
// bare connections, so the heap measured is the server's. Run it once:
//
//	go test ./worker/server -run '^$' -bench LiveStreamLoad -benchtime 1x
func BenchmarkLiveStreamLoad(b *testing.B) {
	n := 5000
	if v, err := strconv.Atoi(os.Getenv("ARENA_BENCH_STREAMS")); err == nil && v > 0 {
		n = v
	}
	for _, streams := range []int{1000, n} {
		b.Run(fmt.Sprintf("streams=%d", streams), func(b *testing.B) {
			for range b.N {
				liveStreamLoad(b, streams)
			}
		})
	}
}

func liveStreamLoad(b *testing.B, streams int) {
	a, srv := benchArena(b)
	addr := srv.Listener.Addr().String()
	keyed := streams / 2
	keys := benchKeys(b, a, (keyed+core.LiveMaxStreamsKey-1)/core.LiveMaxStreamsKey)
	heap := func() runtime.MemStats {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m
	}
	first := rawStream(b, addr, "/api/v1/live", benchIP(1<<20), "") // the feed runs before the count
	defer first.Close()
	before := heap()
	conns := make([]net.Conn, 0, streams)
	defer func() {
		for _, c := range conns {
			_ = c.Close()
		}
	}()
	for i := range streams {
		ip, auth := benchIP(i/core.LiveMaxStreamsAnonymous), ""
		if i < keyed {
			ip, auth = benchIP(1<<20+1), keys[i/core.LiveMaxStreamsKey]
		}
		conns = append(conns, rawStream(b, addr, "/api/v1/live", ip, auth))
	}
	after := heap()
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(streams)/1024, "heap-KB/stream")
	b.ReportMetric(float64(after.StackInuse-before.StackInuse)/float64(streams)/1024, "stack-KB/stream")
	b.ReportMetric(float64(after.HeapAlloc)/(1<<20), "heap-MB")
}

// BenchmarkLiveRegistrations: 1,000 registrations, one after the other
// through the admin API, beside 0 and 2,000 watchers of the tournament's
// stream (ARENA_BENCH_WATCHERS replaces 2,000), each reading every event
// over its own connection (250 client IPs, 8 streams each). reg-ms is
// the registrations' time; delivered-ms the time until every watcher had
// the last one. Run it once:
//
//	go test ./worker/server -run '^$' -bench LiveRegistrations -benchtime 1x
func BenchmarkLiveRegistrations(b *testing.B) {
	n := 2000
	if v, err := strconv.Atoi(os.Getenv("ARENA_BENCH_WATCHERS")); err == nil && v > 0 {
		n = v
	}
	for _, watchers := range []int{0, n} {
		b.Run(fmt.Sprintf("watchers=%d", watchers), func(b *testing.B) {
			for range b.N {
				liveRegistrations(b, watchers)
			}
		})
	}
}

func liveRegistrations(b *testing.B, watchers int) {
	const registrations = 1000
	a, srv := benchArena(b)
	addr := srv.Listener.Addr().String()
	a.OpenCup(b, arenatest.Cup{Slug: "reg", MaxPlayers: 1024})
	var last atomic.Int64 // the seq of the last registration, once known
	last.Store(math.MaxInt64)
	var done sync.WaitGroup
	for w := range watchers {
		c := rawStream(b, addr, "/api/v1/tournaments/reg/live", benchIP(w/core.LiveMaxStreamsAnonymous), "")
		defer c.Close()
		done.Add(1)
		go func() {
			defer done.Done()
			lines := bufio.NewScanner(c)
			for lines.Scan() {
				if id, ok := bytes.CutPrefix(lines.Bytes(), []byte("id: ")); ok {
					if seq, err := strconv.ParseInt(string(id), 10, 64); err == nil && seq >= last.Load() {
						return
					}
				}
			}
			b.Error("a watcher's stream ended before the last registration")
		}()
	}
	start := time.Now()
	for i := range registrations {
		a.Admin(b, http.MethodPost, "/api/v1/admin/tournaments/reg/registrations", map[string]any{"platformId": fmt.Sprintf("76561190%09d", i)}, http.StatusCreated)
	}
	registered := time.Since(start)
	page := a.API(b, http.MethodGet, "/api/v1/events/head", "", nil, http.StatusOK)
	last.Store(int64(page["seq"].(float64)))
	finished := make(chan struct{})
	go func() { done.Wait(); close(finished) }()
	if watchers > 0 {
		// One more event: a watcher that read the last registration
		// before its seq was known sees it is past it.
		a.Admin(b, http.MethodPost, "/api/v1/admin/tournaments/reg/registrations", map[string]any{"platformId": "76561190999999999"}, http.StatusCreated)
	}
	select {
	case <-finished:
	case <-time.After(2 * time.Minute):
		b.Fatal("the watchers did not all get the last registration within 2 minutes")
	}
	b.ReportMetric(float64(registered.Milliseconds()), "reg-ms")
	b.ReportMetric(float64(time.Since(start).Milliseconds()), "delivered-ms")
	b.ReportMetric(float64(watchers), "watchers")
}
