// Command loadgen measures the game-client protocol against a running
// server (make bench starts one, with the dev routes on): full matches
// (ready, ready, discovery, submit, submit) per second; then result
// submissions in a groups tournament (1024 players in 32 groups by
// default): round by round, the round's windows are opened by moving the
// dev clock, both sides ready beforehand, then both sides of every match
// submit (the timed part), and every match is read back and checked
// against what was submitted; then GET /healthz in the same run as the
// reference line, printed with the ratio. It creates its own tournaments
// through the admin API.
//
//	loadgen -base http://127.0.0.1:8787 -admin <admin token> [-matches 2000] [-c 32]
//	        [-players 1024] [-groups 32] [-rounds 0 (all)] [-pid <server pid>]
//
// With -pid (Linux), the submissions line is followed by the CPU time the
// server and the load generator spent during the timed part, per
// submission: where a rate limit on a machine of two cores comes from.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	base := flag.String("base", "http://127.0.0.1:8787", "server origin (host picks the arena)")
	admin := flag.String("admin", "", "the arena's admin token")
	matches := flag.Int("matches", 2000, "matches per phase")
	conc := flag.Int("c", 32, "concurrent clients")
	players := flag.Int("players", 1024, "players of the groups tournament (0 skips it)")
	groups := flag.Int("groups", 32, "groups of the groups tournament")
	rounds := flag.Int("rounds", 0, "group rounds to play (0: all)")
	pid := flag.Int("pid", 0, "the server's process id: report its CPU time per submission (/proc/PID/stat)")
	flag.Parse()
	if *admin == "" {
		fmt.Fprintln(os.Stderr, "loadgen: -admin is required")
		os.Exit(2)
	}
	g := &gen{base: *base, admin: *admin, pid: *pid, http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *conc * 2}}}
	start := time.Now()
	full := g.setup("bench-full", *matches)
	fmt.Printf("loadgen: set up %d matches in %s\n", *matches, time.Since(start).Round(time.Millisecond))

	// Phase 1: full matches.
	lat, elapsed := g.run(full, *conc, func(m match, rec func(time.Duration)) {
		g.ready(m, m.p1, rec)
		g.ready(m, m.p2, rec)
		nonce := g.nonce(m.p1, rec)
		res, hash := result(m.id, nonce, m.p1, [2]int{3, 1})
		g.submit(m, m.p1, res, hash, "pending", rec)
		g.submit(m, m.p2, res, hash, "confirmed", rec)
	})
	report("full matches", len(full), elapsed, lat, 5)

	// Phase 2: submissions in a groups tournament, every match read back.
	var submitRate float64
	if *players > 0 {
		submitRate = g.groupsScenario(*players, *groups, *rounds, *conc)
	}

	// Reference: the cheapest request the server answers.
	refs := make([]match, max(*matches*2, 40000))
	lat, elapsed = g.run(refs, *conc, func(_ match, rec func(time.Duration)) {
		g.call("GET", "/healthz", "", nil, 200, rec)
	})
	healthRate := report("GET /healthz", len(refs), elapsed, lat, 1)
	if submitRate > 0 {
		fmt.Printf("ratio submissions/healthz: %.3f (submissions %.0f/s, healthz %.0f req/s, same run)\n", submitRate/healthRate, submitRate, healthRate)
	}
	if n := g.failures.Load(); n > 0 {
		fmt.Fprintf(os.Stderr, "loadgen: %d requests failed\n", n)
		os.Exit(1)
	}
}

type match struct {
	id     int64
	p1, p2 string
	nonce  string
}

type gen struct {
	base, admin string
	pid         int
	http        *http.Client
	failures    atomic.Int64
	seq         atomic.Int64
}

// setup creates a playoffs_only tournament whose first round has n
// matches (2n players) and starts its playoffs; windows open now.
func (g *gen) setup(slug string, n int) []match {
	var out []match
	for part := 0; len(out) < n; part++ {
		size := min(n-len(out), 512)
		s := fmt.Sprintf("%s-%d", slug, part)
		now := time.Now().UTC()
		g.admincall("POST", "/api/v1/admin/tournaments", map[string]any{
			"slug": s, "name": s, "format": "playoffs_only", "maxPlayers": 2 * size,
			"registrationOpensAt": now.Add(-time.Hour).Format(time.RFC3339), "registrationClosesAt": now.Add(time.Hour).Format(time.RFC3339),
			"startsAt": now.Add(time.Hour).Format(time.RFC3339), "matchWindowMinutes": 600,
		}, nil)
		g.admincall("POST", "/api/v1/admin/tournaments/"+s+"/status", map[string]any{"status": "registration_open"}, nil)
		for i := 0; i < 2*size; i++ {
			id := fmt.Sprintf("7656119%010d", g.seq.Add(1))
			g.admincall("POST", "/api/v1/admin/tournaments/"+s+"/registrations", map[string]any{"platformId": id, "seed": i + 1}, nil)
		}
		g.admincall("POST", "/api/v1/admin/tournaments/"+s+"/status", map[string]any{"status": "registration_closed"}, nil)
		g.admincall("POST", "/api/v1/admin/tournaments/"+s+"/status", map[string]any{"status": "playoffs"}, nil)
		var list struct {
			Matches []struct {
				ID           int64   `json:"id"`
				P1PlatformID *string `json:"p1PlatformId"`
				P2PlatformID *string `json:"p2PlatformId"`
			} `json:"matches"`
		}
		g.admincall("GET", "/api/v1/admin/tournaments/"+s+"/matches", nil, &list)
		for _, m := range list.Matches {
			if m.P1PlatformID != nil && m.P2PlatformID != nil && len(out) < n {
				out = append(out, match{id: m.ID, p1: *m.P1PlatformID, p2: *m.P2PlatformID})
			}
		}
	}
	return out
}

// run hands the items to conc workers and returns every recorded latency
// and the wall time.
func (g *gen) run(items []match, conc int, work func(match, func(time.Duration))) ([]time.Duration, time.Duration) {
	var mu sync.Mutex
	var lat []time.Duration
	next := atomic.Int64{}
	start := time.Now()
	var wg sync.WaitGroup
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			rec := func(d time.Duration) { mine = append(mine, d) }
			for {
				i := int(next.Add(1)) - 1
				if i >= len(items) {
					break
				}
				work(items[i], rec)
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return lat, time.Since(start)
}

func (g *gen) ready(m match, who string, rec func(time.Duration)) {
	g.call("POST", fmt.Sprintf("/api/v1/matches/%d/ready", m.id), who, nil, 200, rec)
}

func (g *gen) nonce(who string, rec func(time.Duration)) string {
	var live struct {
		SessionNonce string `json:"sessionNonce"`
	}
	body := g.call("GET", "/api/v1/me/live-match", who, nil, 200, rec)
	_ = json.Unmarshal(body, &live)
	return live.SessionNonce
}

func (g *gen) submit(m match, who, res, hash, want string, rec func(time.Duration)) {
	body := g.call("POST", fmt.Sprintf("/api/v1/matches/%d/result", m.id), who,
		map[string]any{"protocol": "svc.result.v3", "result": res, "resultHash": hash, "clientRole": "host"}, 200, rec)
	var out struct{ Status string }
	if json.Unmarshal(body, &out) != nil || out.Status != want {
		g.failures.Add(1)
	}
}

// result is a canonical svc.result.v3 result and its hash.
func result(id int64, nonce, winner string, score [2]int) (string, string) {
	s := fmt.Sprintf(`{"matchId":%d,"score":[%d,%d],"sessionNonce":%q,"winner":%q}`, id, score[0], score[1], nonce, winner)
	sum := sha256.Sum256([]byte(s))
	return s, hex.EncodeToString(sum[:])
}

// call sends one request (as the account, with a mock ticket, when who is
// set) and records its latency; a status other than want counts a failure.
func (g *gen) call(method, path, who string, body any, want int, rec func(time.Duration)) []byte {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, g.base+path, rd)
	if who != "" {
		req.Header.Set("Authorization", "Platform MOCK:"+who)
	}
	start := time.Now()
	resp, err := g.http.Do(req)
	if err != nil {
		g.failures.Add(1)
		return nil
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	rec(time.Since(start))
	if resp.StatusCode != want {
		g.failures.Add(1)
		fmt.Fprintf(os.Stderr, "loadgen: %s %s: %d %s\n", method, path, resp.StatusCode, out)
	}
	return out
}

func (g *gen) admincall(method, path string, body, out any) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, g.base+path, rd)
	req.Header.Set("Authorization", "Bearer "+g.admin)
	resp, err := g.http.Do(req)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		fmt.Fprintf(os.Stderr, "loadgen: %s %s: %d %s\n", method, path, resp.StatusCode, raw)
		os.Exit(1)
	}
	if out != nil {
		_ = json.Unmarshal(raw, out)
	}
}

// report prints a phase's rate and latencies and returns the rate.
func report(name string, n int, elapsed time.Duration, lat []time.Duration, perItem int) float64 {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[int(p*float64(len(lat)-1))]
	}
	fmt.Printf("%-14s %7d in %8s = %9.0f/s   request p50 %8s  p99 %8s  (%d requests each)\n",
		name, n, elapsed.Round(time.Millisecond), float64(n)/elapsed.Seconds(),
		pct(0.50).Round(10*time.Microsecond), pct(0.99).Round(10*time.Microsecond), perItem)
	return float64(n) / elapsed.Seconds()
}
