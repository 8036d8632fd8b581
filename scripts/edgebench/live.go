package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// liveBudget is how soon a decided match must reach every watcher of its
// tournament on the edge (issue budget: 100 watchers under wrangler dev),
// from the deciding submission's answer.
const liveBudget = 2 * time.Second

// liveOpening bounds the watchers opening at once.
const liveOpening = 32

// sseEvent is one message of a live stream, with when it arrived.
type sseEvent struct {
	id, typ, data string
	at            time.Time
}

// watcher is one open live stream.
type watcher struct {
	mu     sync.Mutex
	events []sseEvent
	err    error
	ready  chan struct{} // closed once the first bytes arrived (or it failed)
}

// open starts reading path's stream; header holds name/value pairs.
func (b *bench) open(ctx context.Context, path string, header ...string) *watcher {
	w := &watcher{ready: make(chan struct{})}
	go func() {
		var once sync.Once
		ready := func() { once.Do(func() { close(w.ready) }) }
		defer ready()
		req, err := http.NewRequestWithContext(ctx, "GET", b.base+path, nil)
		if err != nil {
			w.fail(err)
			return
		}
		req.Host = b.host
		req.Header.Set("Accept", "text/event-stream")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		res, err := b.stream.Do(req)
		if err != nil {
			w.fail(err)
			return
		}
		defer res.Body.Close()
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
			w.fail(fmt.Errorf("GET %s: %d %s", path, res.StatusCode, res.Header.Get("Content-Type")))
			return
		}
		r := bufio.NewReader(res.Body)
		var e sseEvent
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				if ctx.Err() == nil {
					w.fail(fmt.Errorf("the stream ended: %v", err))
				}
				return
			}
			ready()
			line = strings.TrimRight(line, "\r\n")
			switch {
			case line == "":
				if e.typ != "" {
					e.at = time.Now()
					w.mu.Lock()
					w.events = append(w.events, e)
					w.mu.Unlock()
				}
				e = sseEvent{}
			case strings.HasPrefix(line, "id: "):
				e.id = line[4:]
			case strings.HasPrefix(line, "event: "):
				e.typ = line[7:]
			case strings.HasPrefix(line, "data: "):
				e.data = line[6:]
			}
		}
	}()
	return w
}

func (w *watcher) fail(err error) {
	w.mu.Lock()
	w.err = err
	w.mu.Unlock()
}

// find returns the first event of type typ whose data is about match id.
func (w *watcher) find(typ string, id int64) (sseEvent, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, e := range w.events {
		var data struct {
			MatchID int64 `json:"matchId"`
		}
		if e.typ == typ && json.Unmarshal([]byte(e.data), &data) == nil && data.MatchID == id {
			return e, true
		}
	}
	return sseEvent{}, false
}

func (w *watcher) snapshot() ([]sseEvent, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]sseEvent(nil), w.events...), w.err
}

// liveRun opens n watchers of a new tournament's stream, holds them
// quiet for hold, decides its match by both sides' submissions, and measures when match.confirmed
// reached each watcher, from the deciding answer: every watcher within
// liveBudget. Then a watcher resuming with Last-Event-ID from the first
// submission gets every event of the tournament after it, as the public
// log has them. Prints two lines; false when a check failed.
func (b *bench) liveRun(n int, hold time.Duration) bool {
	b.stream = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n + 8}}
	slug, err := b.prepare(2)
	if err != nil {
		fmt.Fprintln(os.Stderr, "edgebench: live:", err)
		return false
	}
	path := "/api/v1/tournaments/" + slug + "/live"
	// Seal the log first: a backlog of events nobody read yet (the
	// benchmark's submissions) would otherwise be sealed by every first
	// page at once (docs/edge.md "Live streams"), and this measures the
	// holding.
	if status, out, _, err := b.send(b.base, "GET", "/api/v1/events/head", "", ""); err != nil || status != 200 {
		fmt.Fprintf(os.Stderr, "edgebench: live: GET /api/v1/events/head: %d %.200s %v\n", status, out, err)
		return false
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	held := time.Now()
	// At most liveOpening watchers opening at once (each first page is a
	// call into Go with its database reads, as clients arriving).
	ws := make([]*watcher, n)
	for i := range ws {
		if i >= liveOpening {
			<-ws[i-liveOpening].ready
		}
		ws[i] = b.open(ctx, path, "Cf-Connecting-Ip", watcherIP(i)) // as n clients: the front caps streams per IP
	}
	for _, w := range ws {
		<-w.ready
		if _, err := w.snapshot(); err != nil {
			fmt.Fprintln(os.Stderr, "edgebench: live: a watcher did not open:", err)
			return false
		}
	}
	opened := time.Since(held)
	time.Sleep(hold)
	ops, err := b.submissions()
	if err != nil {
		fmt.Fprintln(os.Stderr, "edgebench: live:", err)
		return false
	}
	var matchID int64
	fmt.Sscanf(ops[0].path, "/api/v1/matches/%d/result", &matchID)
	var decided time.Time
	for _, o := range ops {
		status, out, _, err := b.send(b.base, o.method, o.path, o.auth, o.body)
		if err == nil && status != o.status {
			err = fmt.Errorf("%s %s: %d %.200s", o.method, o.path, status, out)
		}
		if err == nil {
			err = o.check(out)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "edgebench: live:", err)
			return false
		}
		decided = time.Now()
	}
	// Every watcher's match.confirmed, within the budget (and some slack
	// to tell late from never).
	lat := make([]time.Duration, 0, n)
	deadline := decided.Add(liveBudget + 3*time.Second)
	missing, early := 0, 0
	for _, w := range ws {
		for {
			if e, ok := w.find("match.confirmed", matchID); ok {
				if e.at.Before(decided) { // a page read it while the answer was on its way
					early++
				}
				lat = append(lat, max(e.at.Sub(decided), 0))
				break
			}
			if time.Now().After(deadline) {
				missing++
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	within := sort.Search(len(lat), func(i int) bool { return lat[i] > liveBudget })
	ok := within == n
	pct := func(q float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))].Microseconds()) / 1000
	}
	fmt.Printf("live: %d watchers of one tournament (%s; opened in %d ms, then quiet %s): match.confirmed reached %d of them within %s of the deciding answer "+
		"(p50 %.0f ms, p99 %.0f ms, max %.0f ms; %d before the answer arrived, counted 0; %d never)\n",
		n, path, opened.Milliseconds(), hold, within, liveBudget, pct(0.5), pct(0.99), pct(1), early, missing)

	// A watcher resuming from the first submission gets what the log has
	// of the tournament after it.
	first, ok1 := ws[0].find("match.submission", matchID)
	if !ok1 {
		fmt.Println("live: FAIL: watcher 0 saw no match.submission")
		return false
	}
	resumed := b.open(ctx, path, "Last-Event-ID", first.id, "Cf-Connecting-Ip", watcherIP(n))
	var got []sseEvent
	for end := time.Now().Add(liveBudget + 3*time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if _, ok := resumed.find("match.confirmed", matchID); ok {
			break
		}
	}
	got, err = resumed.snapshot()
	after, _ := strconv.ParseInt(first.id, 10, 64)
	want, werr := b.tournamentLog(slug, after)
	if werr != nil {
		fmt.Fprintln(os.Stderr, "edgebench: live:", werr)
		return false
	}
	// The log may have grown since the watcher read it: compare its part.
	same := err == nil && len(got) > 0 && len(got) <= len(want)
	for i := 0; same && i < len(got); i++ {
		same = got[i].id == want[i]
	}
	seen, _ := ws[0].snapshot()
	fmt.Printf("live: a watcher resumed with Last-Event-ID %s got %d events after it, as the log has them: %v (watcher 0 saw %d events); held %d ms\n",
		first.id, len(got), same, len(seen), time.Since(held).Milliseconds())
	if !same {
		fmt.Fprintf(os.Stderr, "edgebench: live: resumed %v (%v), log %v\n", ids(got), err, want)
	}
	b.livePath = path
	return ok && same
}

// watcherIP is the client IP of watcher i (under wrangler dev the
// client's Cf-Connecting-Ip reaches the worker).
func watcherIP(i int) string { return fmt.Sprintf("10.%d.%d.%d", 64+i>>16&63, i>>8&255, i&255) }

// capsRun checks the front's cap on one caller's streams (Go's hint: 8
// per IP without an API key): the caller's 8 streams open, a 9th is 429
// too_many_streams; then its clients go, and the time until the caller
// may open a stream again is how soon the front dropped their watchers
// (workerd sees a client that went only at a write: the front's probe,
// half a tick before each ask). Prints one line; false when a check
// failed (the places not free within liveBudget).
func (b *bench) capsRun() bool {
	path := b.livePath
	const ip, most = "198.51.100.7", 8
	ctx, cancel := context.WithCancel(context.Background())
	ws := make([]*watcher, most)
	for i := range ws {
		ws[i] = b.open(ctx, path, "Cf-Connecting-Ip", ip)
		<-ws[i].ready
		if _, err := ws[i].snapshot(); err != nil {
			cancel()
			fmt.Printf("live caps: FAIL: stream %d of %d did not open: %v\n", i+1, most, err)
			return false
		}
	}
	status, body := b.tryStream(path, ip)
	if status != http.StatusTooManyRequests || !strings.Contains(body, `"too_many_streams"`) {
		cancel()
		fmt.Printf("live caps: FAIL: stream %d of one IP: %d %.200s (want 429 too_many_streams)\n", most+1, status, body)
		return false
	}
	cancel() // the clients go
	left := time.Now()
	var freed time.Duration
	for {
		time.Sleep(100 * time.Millisecond)
		if status, _ = b.tryStream(path, ip); status == http.StatusOK {
			freed = time.Since(left)
			break
		}
		if time.Since(left) > liveBudget+time.Second {
			fmt.Printf("live caps: FAIL: %d streams of one IP open, the next 429 too_many_streams; their clients went, and after %s the IP still may not open one (%d)\n",
				most, time.Since(left).Round(time.Millisecond), status)
			return false
		}
	}
	fmt.Printf("live caps: %d streams of one IP open, the next 429 too_many_streams; their clients went, and their watchers were dropped within %d ms (the IP may open one again; budget %s)\n",
		most, freed.Milliseconds(), liveBudget)
	return freed <= liveBudget
}

// tryStream opens path's stream as ip and closes it at once: its status,
// and its body when it is not a stream.
func (b *bench) tryStream(path, ip string) (int, string) {
	req, err := http.NewRequest("GET", b.base+path, nil)
	if err != nil {
		return 0, err.Error()
	}
	req.Host = b.host
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Cf-Connecting-Ip", ip)
	res, err := b.stream.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer res.Body.Close()
	if res.StatusCode == http.StatusOK {
		return res.StatusCode, ""
	}
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1<<10))
	return res.StatusCode, string(body)
}

func ids(es []sseEvent) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.id
	}
	return out
}

// tournamentLog returns the seqs of the tournament's events after seq
// after, from the public log.
func (b *bench) tournamentLog(slug string, after int64) ([]string, error) {
	var out []string
	for {
		status, body, _, err := b.send(b.base, "GET", fmt.Sprintf("/api/v1/events?after=%d&limit=1000&n=%d", after, time.Now().UnixNano()), "", "")
		if err != nil || status != 200 {
			return nil, fmt.Errorf("GET /api/v1/events: %d %v", status, err)
		}
		var page struct {
			Events []struct {
				Seq        int64   `json:"seq"`
				Tournament *string `json:"tournament"`
			} `json:"events"`
			Next *int64 `json:"next"`
		}
		if err := json.Unmarshal(body, &page); err != nil {
			return nil, err
		}
		for _, e := range page.Events {
			if e.Tournament != nil && *e.Tournament == slug {
				out = append(out, strconv.FormatInt(e.Seq, 10))
			}
		}
		if page.Next == nil {
			return out, nil
		}
		after = *page.Next
	}
}
