package server_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	sse "github.com/tmaxmax/go-sse"

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

func liveFanout(b *testing.B, watchers int) {
	a := arenatest.New(b, arenatest.Options{NoSite: true, InProcess: true, NoRateLimits: true})
	srv := httptest.NewServer(server.Compress(a.Handler))
	b.Cleanup(srv.Close)
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
	for range watchers {
		ready.Add(1)
		go func() {
			req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/v1/tournaments/fan/live", nil)
			req.Host = host
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
