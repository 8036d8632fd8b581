// Command edgebench measures an arena deployment the way game clients and
// readers meet it, checking every answer: GET /healthz, a cached public
// read (the same URL again and again), an uncached public read (a player
// profile under a query nobody asked before), and a result submission (both
// sides of matches made live beforehand). It prints one table row per
// scenario and concurrency, and with -soak a mixed run that must end with
// zero errors and zero wrong answers (exit status 1 otherwise). With -live
// N it measures live streams instead (live.go): N watchers of one
// tournament, the decided match's latency to each, and a resumed watcher.
//
//	edgebench -base http://127.0.0.1:8787 -host arena.test -admin <token> \
//	  -label kept -c 1,16 -d 5s [-tournaments 4] [-soak 60s -soak-c 32]
//
// Matches are prepared through the admin API (tournaments of -players
// players, playoffs, both sides ready) before the measured runs; -setup-base
// sends that preparation to another deployment of the same arena (the kept
// build prepares quickly what the fresh build is then measured on).
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	base := flag.String("base", "http://127.0.0.1:8787", "deployment origin")
	setupBase := flag.String("setup-base", "", "origin to prepare matches through (default -base)")
	host := flag.String("host", "", "the arena's host (Host header)")
	admin := flag.String("admin", "", "the arena's admin token")
	label := flag.String("label", "", "build label for the table")
	conc := flag.String("c", "1,16", "concurrencies, comma-separated")
	dur := flag.Duration("d", 5*time.Second, "duration of each scenario run")
	players := flag.Int("players", 256, "players per prepared tournament")
	tournaments := flag.Int("tournaments", 1, "tournaments to prepare (each gives players/2 live matches)")
	readPlayers := flag.Int("read-players", 64, "players of the tournament the cached read asks for")
	scenarios := flag.String("scenarios", "healthz,cached,uncached,submit", "scenarios to run")
	soak := flag.Duration("soak", 0, "mixed run of this length after the table (0: none)")
	soakC := flag.Int("soak-c", 32, "clients of the mixed run")
	header := flag.Bool("header", false, "print the table header")
	db := flag.String("db", "", "also measure this libSQL server's round trip (SELECT 1 over HTTP)")
	live := flag.Int("live", 0, "only this many watchers of one tournament's live stream: a decision's latency to each")
	liveHold := flag.Duration("live-hold", 0, "with -live: how long the watchers stay open, quiet, before the decision")
	liveCaps := flag.Bool("live-caps", true, "with -live: then check the front's cap on one IP's streams, and how soon watchers whose clients went are dropped")
	flag.Parse()
	if *db != "" {
		measureLibSQL(*db)
	}
	if *host == "" || *admin == "" {
		fmt.Fprintln(os.Stderr, "edgebench: -host and -admin are required")
		os.Exit(2)
	}
	if *setupBase == "" {
		*setupBase = *base
	}
	b := &bench{base: *base, setup: *setupBase, host: *host, admin: *admin, players: *players,
		http: &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 256}}}
	if _, err := b.adminCall("PUT", "/api/v1/admin/settings", map[string]any{"rateLimits": map[string]any{"anonymousPerMinute": 0, "keyPerMinute": 0}}, 200); err != nil {
		fmt.Fprintln(os.Stderr, "edgebench:", err)
		os.Exit(1)
	}
	b.send(b.base, "GET", "/healthz", "", "") // the first request of a kept build starts Go
	if *live > 0 {
		if !b.liveRun(*live, *liveHold) || (*liveCaps && !b.capsRun()) {
			os.Exit(1)
		}
		return
	}
	for i := range *tournaments + 1 {
		players := b.players
		if i == 0 { // the tournament the cached read asks for
			players = *readPlayers
		}
		slug, err := b.prepare(players)
		if err != nil {
			fmt.Fprintln(os.Stderr, "edgebench:", err)
			os.Exit(1)
		}
		if i == 0 {
			b.cachedSlug = slug
		}
	}
	if *header {
		fmt.Printf("%-6s %-9s %3s %8s %9s %9s %8s %6s %6s %6s %7s %6s\n", "build", "scenario", "c", "requests", "p50 ms", "p99 ms", "req/s", "errors", "wrong", "io", "io ms", "go ms")
	}
	for _, s := range strings.Split(*scenarios, ",") {
		if s == "" {
			continue
		}
		for _, cs := range strings.Split(*conc, ",") {
			c, _ := strconv.Atoi(cs)
			r := b.run(c, *dur, func(n int) ([]op, error) { return b.scenario(s, n) })
			for _, e := range r.samples {
				fmt.Fprintln(os.Stderr, "edgebench:", e)
			}
			ioN, ioMs, goMs := r.io()
			fmt.Printf("%-6s %-9s %3d %8d %9.1f %9.1f %8.1f %6d %6d %6s %7s %6s\n", *label, s, c, r.n, r.p(0.50), r.p(0.99), r.rps(), r.errors, r.wrong, ioN, ioMs, goMs)
		}
	}
	if *soak > 0 {
		ops := []string{"healthz", "cached", "uncached", "submit"}
		r := b.run(*soakC, *soak, func(n int) ([]op, error) {
			o, err := b.scenario(ops[rand.IntN(len(ops))], n)
			if err != nil { // no prepared match left: read instead
				return b.scenario(ops[rand.IntN(len(ops)-1)], n)
			}
			return o, err
		})
		fmt.Printf("%-6s %-9s %3d %8d %9.1f %9.1f %8.1f %6d %6d  (mixed, %s)\n", *label, "soak", *soakC, r.n, r.p(0.50), r.p(0.99), r.rps(), r.errors, r.wrong, *soak)
		if r.errors > 0 || r.wrong > 0 {
			for _, e := range r.samples {
				fmt.Fprintln(os.Stderr, "edgebench:", e)
			}
			os.Exit(1)
		}
	}
}

type bench struct {
	base, setup, host, admin string
	players                  int
	http                     *http.Client
	stream                   *http.Client // live streams (no timeout)

	tournaments int
	mu          sync.Mutex
	live        []liveMatch // prepared matches not yet submitted
	livePath    string      // the stream liveRun watched
	profiles    []string    // registered players, for uncached reads
	cachedSlug  string
	uncachedSeq atomic.Int64
}

type liveMatch struct {
	id     int64
	p1, p2 string
	nonce  string
}

// op is one measured request: how to send it and what a right answer is.
type op struct {
	method, path, auth, body string
	status                   int
	check                    func(body []byte) error
}

// result is one run's measurements.
type result struct {
	lat     []time.Duration
	n       int
	errors  int
	wrong   int
	elapsed time.Duration
	samples []string
	// From X-Arena-Edge-IO (kept build with ARENA_EDGE_TRACE=1): round
	// trips Go had its request's JS side make, and the milliseconds they took.
	traced, ioCount, ioMs int
	goMs                  float64 // from edge-node.mjs: time running Go
}

// io prints the mean round trips, their milliseconds and the milliseconds
// running Go per traced answer.
func (r *result) io() (string, string, string) {
	if r.traced == 0 {
		return "-", "-", "-"
	}
	n := float64(r.traced)
	gms := "-"
	if r.goMs > 0 {
		gms = fmt.Sprintf("%.2f", r.goMs/n)
	}
	return fmt.Sprintf("%.1f", float64(r.ioCount)/n), fmt.Sprintf("%.1f", float64(r.ioMs)/n), gms
}

func (r *result) p(q float64) float64 {
	if len(r.lat) == 0 {
		return 0
	}
	sort.Slice(r.lat, func(i, j int) bool { return r.lat[i] < r.lat[j] })
	return float64(r.lat[min(len(r.lat)-1, int(q*float64(len(r.lat))))].Microseconds()) / 1000
}

func (r *result) rps() float64 { return float64(r.n) / r.elapsed.Seconds() }

// run has c clients send next's operations, each list in order, for d (or
// until next runs out of work).
func (b *bench) run(c int, d time.Duration, next func(n int) ([]op, error)) *result {
	res := &result{}
	var mu sync.Mutex
	var seq atomic.Int64
	start := time.Now()
	deadline := start.Add(d)
	var wg sync.WaitGroup
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				ops, err := next(int(seq.Add(1)))
				if err != nil {
					return // out of prepared work
				}
				for _, o := range ops {
					b.measure(o, res, &mu)
				}
			}
		}()
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	return res
}

// measure sends o and records its latency and whether it was right.
func (b *bench) measure(o op, res *result, mu *sync.Mutex) {
	t0 := time.Now()
	status, body, trace, err := b.send(b.base, o.method, o.path, o.auth, o.body)
	lat := time.Since(t0)
	mu.Lock()
	defer mu.Unlock()
	res.n++
	res.lat = append(res.lat, lat)
	var n, ms int
	var goMs float64
	if k, _ := fmt.Sscanf(trace, "%d %d %f", &n, &ms, &goMs); k >= 2 {
		res.traced, res.ioCount, res.ioMs, res.goMs = res.traced+1, res.ioCount+n, res.ioMs+ms, res.goMs+goMs
	}
	switch {
	case err != nil || status == 0 || status >= 500 && status != o.status:
		res.errors++
		res.sample(fmt.Sprintf("error: %s %s: %d %v %.200s", o.method, o.path, status, err, body))
	case status != o.status:
		res.wrong++
		res.sample(fmt.Sprintf("wrong status: %s %s: %d (want %d) %.200s", o.method, o.path, status, o.status, body))
	case o.check != nil:
		if err := o.check(body); err != nil {
			res.wrong++
			res.sample(fmt.Sprintf("wrong answer: %s %s: %v", o.method, o.path, err))
		}
	}
}

func (r *result) sample(s string) {
	if len(r.samples) < 10 {
		r.samples = append(r.samples, s)
	}
}

// scenario returns the n-th operations of scenario s.
func (b *bench) scenario(s string, n int) ([]op, error) {
	switch s {
	case "healthz":
		return []op{{method: "GET", path: "/healthz", status: 200, check: wantJSON("status", "ok")}}, nil
	case "db3": // the plain JS worker's three libSQL round trips
		return []op{{method: "GET", path: "/db3", status: 200, check: wantJSON("status", "ok")}}, nil
	case "cached":
		return []op{{method: "GET", path: "/api/v1/tournaments/" + b.cachedSlug, status: 200, check: wantJSON("slug", b.cachedSlug)}}, nil
	case "uncached":
		id := b.profiles[n%len(b.profiles)]
		return []op{{method: "GET", path: fmt.Sprintf("/api/v1/players/%s?n=%d-%d", id, time.Now().UnixNano(), b.uncachedSeq.Add(1)), status: 200,
			check: func(body []byte) error {
				var v struct {
					Player struct{ PlatformID string } `json:"player"`
				}
				if err := json.Unmarshal(body, &v); err != nil || v.Player.PlatformID != id {
					return fmt.Errorf("want player %s, got %.120s", id, body)
				}
				return nil
			}}}, nil
	case "submit":
		return b.submissions()
	}
	return nil, fmt.Errorf("unknown scenario %q", s)
}

// submissions are both sides' submissions of the next prepared match, in
// order: the first is pending, the second confirms the match.
func (b *bench) submissions() ([]op, error) {
	b.mu.Lock()
	if len(b.live) == 0 {
		b.mu.Unlock()
		return nil, fmt.Errorf("no prepared match left")
	}
	m := b.live[len(b.live)-1]
	b.live = b.live[:len(b.live)-1]
	b.mu.Unlock()
	result := fmt.Sprintf(`{"matchId":%d,"rounds":3,"sessionNonce":%q,"winner":%q}`, m.id, m.nonce, m.p2)
	sum := sha256.Sum256([]byte(result))
	body, _ := json.Marshal(map[string]any{"protocol": "svc.result.v3", "result": result, "resultHash": hex.EncodeToString(sum[:])})
	path := fmt.Sprintf("/api/v1/matches/%d/result", m.id)
	return []op{
		{method: "POST", path: path, auth: "Platform MOCK:" + m.p1, body: string(body), status: 200, check: wantJSON("status", "pending")},
		{method: "POST", path: path, auth: "Platform MOCK:" + m.p2, body: string(body), status: 200, check: wantJSON("status", "confirmed")},
	}, nil
}

func wantJSON(key, value string) func([]byte) error {
	return func(body []byte) error {
		var v map[string]any
		if err := json.Unmarshal(body, &v); err != nil || v[key] != value {
			return fmt.Errorf("want %q: %q, got %.120s", key, value, body)
		}
		return nil
	}
}

func (b *bench) send(base, method, path, auth, body string) (status int, out []byte, trace string, err error) {
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, "", err
	}
	req.Host = b.host
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := b.http.Do(req)
	if err != nil {
		return 0, nil, "", err
	}
	defer res.Body.Close()
	out, err = io.ReadAll(res.Body)
	return res.StatusCode, out, res.Header.Get("X-Arena-Edge-IO"), err
}

// adminCall sends an admin request to the setup deployment and decodes
// the answer; any other status than want is an error.
func (b *bench) adminCall(method, path string, body any, want int) (map[string]any, error) {
	raw, _ := json.Marshal(body)
	if body == nil {
		raw = nil
	}
	status, out, _, err := b.send(b.setup, method, path, "Bearer "+b.admin, string(raw))
	if err != nil {
		return nil, err
	}
	if status != want {
		return nil, fmt.Errorf("%s %s: %d %.300s", method, path, status, out)
	}
	var v map[string]any
	if len(out) > 0 {
		err = json.Unmarshal(out, &v)
	}
	return v, err
}

// prepare makes a tournament's first round live: every match has a
// nonce. (main lifts the arena's rate limits first: the load comes from
// one address.)
func (b *bench) prepare(players int) (string, error) {
	start := time.Now()
	slug := fmt.Sprintf("bench-%d", time.Now().UnixNano())
	now := time.Now().UTC()
	if _, err := b.adminCall("POST", "/api/v1/admin/tournaments", map[string]any{
		"slug": slug, "name": "Bench " + slug, "description": "edgebench", "format": "playoffs_only", "maxPlayers": players,
		"registrationOpensAt": now.Add(-time.Hour).Format(time.RFC3339), "registrationClosesAt": now.Add(time.Hour).Format(time.RFC3339),
		"startsAt": now.Add(2 * time.Hour).Format(time.RFC3339), "environment": "demo", "matchWindowMinutes": 600,
		"cast": map[string]any{"handMode": "hidden", "delaySeconds": 0},
	}, 201); err != nil {
		return "", err
	}
	base := "/api/v1/admin/tournaments/" + slug
	if _, err := b.adminCall("POST", base+"/status", map[string]any{"status": "registration_open"}, 200); err != nil {
		return "", err
	}
	prefix := fmt.Sprintf("765611%05d", time.Now().UnixNano()%100000)
	ids := make([]string, players)
	for i := range ids {
		ids[i] = fmt.Sprintf("%s%06d", prefix, i+1)
	}
	if err := parallel(16, len(ids), func(i int) error {
		_, err := b.adminCall("POST", base+"/registrations", map[string]any{"platformId": ids[i], "personaName": "Bench " + ids[i], "seed": i + 1}, 201)
		return err
	}); err != nil {
		return "", err
	}
	for _, st := range []string{"registration_closed", "playoffs"} {
		if _, err := b.adminCall("POST", base+"/status", map[string]any{"status": st}, 200); err != nil {
			return "", err
		}
	}
	list, err := b.adminCall("GET", base+"/matches", nil, 200)
	if err != nil {
		return "", err
	}
	var first []liveMatch
	for _, raw := range list["matches"].([]any) {
		m := raw.(map[string]any)
		if p1, ok := m["p1PlatformId"].(string); ok && m["round"] != nil && m["status"] == "scheduled" {
			if p2, ok := m["p2PlatformId"].(string); ok && p1 != "" && p2 != "" {
				first = append(first, liveMatch{id: int64(m["id"].(float64)), p1: p1, p2: p2})
			}
		}
	}
	if err := parallel(16, 2*len(first), func(i int) error {
		m := first[i/2]
		who := m.p1
		if i%2 == 1 {
			who = m.p2
		}
		status, out, _, err := b.send(b.setup, "POST", fmt.Sprintf("/api/v1/matches/%d/ready", m.id), "Platform MOCK:"+who, "")
		if err == nil && status != 200 {
			err = fmt.Errorf("ready %d: %d %.200s", m.id, status, out)
		}
		return err
	}); err != nil {
		return "", err
	}
	list, err = b.adminCall("GET", base+"/matches", nil, 200)
	if err != nil {
		return "", err
	}
	nonces := map[int64]string{}
	for _, raw := range list["matches"].([]any) {
		m := raw.(map[string]any)
		if n, ok := m["sessionNonce"].(string); ok && m["status"] == "live" {
			nonces[int64(m["id"].(float64))] = n
		}
	}
	for _, m := range first {
		if m.nonce = nonces[m.id]; m.nonce == "" {
			return "", fmt.Errorf("match %d did not go live", m.id)
		}
		b.live = append(b.live, m)
	}
	b.profiles = append(b.profiles, ids...)
	fmt.Fprintf(os.Stderr, "edgebench: prepared %s: %d players, %d live matches in all, in %s\n", slug, len(ids), len(b.live), time.Since(start).Round(time.Millisecond))
	return slug, nil
}

// parallel runs fn(0..n-1) on c workers; the first error wins.
func parallel(c, n int, fn func(i int) error) error {
	var next atomic.Int64
	var first atomic.Value
	var wg sync.WaitGroup
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n && first.Load() == nil; i = int(next.Add(1) - 1) {
				if err := fn(i); err != nil {
					first.CompareAndSwap(nil, err)
				}
			}
		}()
	}
	wg.Wait()
	if err, ok := first.Load().(error); ok {
		return err
	}
	return nil
}

// measureLibSQL prints the round trip of a minimal libSQL pipeline request
// (what each of the service's queries costs at least).
func measureLibSQL(url string) {
	client := &http.Client{Timeout: 10 * time.Second}
	var lat []time.Duration
	for i := 0; i < 200; i++ {
		t0 := time.Now()
		res, err := client.Post(url+"/v2/pipeline", "application/json",
			strings.NewReader(`{"requests":[{"type":"execute","stmt":{"sql":"SELECT 1"}},{"type":"close"}]}`))
		if err != nil {
			fmt.Fprintln(os.Stderr, "edgebench: libSQL:", err)
			return
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if i >= 10 { // after warm-up
			lat = append(lat, time.Since(t0))
		}
	}
	r := &result{lat: lat}
	fmt.Printf("libSQL round trip (SELECT 1 over HTTP, sequential): p50 %.2f ms, p99 %.2f ms\n", r.p(0.5), r.p(0.99))
}
