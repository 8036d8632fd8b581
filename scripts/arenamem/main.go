// Command arenamem measures a native server's memory with many arenas:
// it creates arenas through the operator API (each with a 16-player
// playoffs tournament started, a few results in), reads each arena's
// public API and website pages, twice over (the second pass reopens the
// databases the first closed), then reports the server's resident memory
// (VmRSS) and its peak (VmHWM) from /proc. make bench runs it against a
// fresh server.
//
//	arenamem -base http://127.0.0.1:8787 -operator <token> -pid <server pid> [-arenas 1000] [-c 8]
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	base := flag.String("base", "http://127.0.0.1:8787", "server origin")
	operator := flag.String("operator", "", "the operator token")
	pid := flag.Int("pid", 0, "the server's process id (its /proc/PID/status is read)")
	arenas := flag.Int("arenas", 1000, "arenas to create")
	conc := flag.Int("c", 8, "concurrent clients")
	limit := flag.Int("limit-mb", 512, "the resident memory the server must stay under")
	flag.Parse()
	if *operator == "" || *pid == 0 {
		fmt.Fprintln(os.Stderr, "arenamem: -operator and -pid are required")
		os.Exit(2)
	}
	operatorToken = *operator
	c := &client{base: *base, http: &http.Client{Timeout: time.Minute}}
	before := memory(*pid)
	start := time.Now()
	tokens := make([]string, *arenas)
	parallel(*arenas, *conc, func(i int) { tokens[i] = c.arena(i) })
	fmt.Printf("arenamem: created %d arenas with a tournament each in %s\n", *arenas, time.Since(start).Round(time.Millisecond))
	for pass := 1; pass <= 2; pass++ {
		start = time.Now()
		parallel(*arenas, *conc, func(i int) { c.read(i) })
		fmt.Printf("arenamem: read pass %d over %d arenas in %s\n", pass, *arenas, time.Since(start).Round(time.Millisecond))
	}
	after := memory(*pid)
	fmt.Printf("memory: before %d MB; after %d arenas: RSS %d MB, peak %d MB (target < %d MB)\n",
		before["VmRSS"]>>10, *arenas, after["VmRSS"]>>10, after["VmHWM"]>>10, *limit)
	if n := c.failures.Load(); n > 0 {
		fmt.Fprintf(os.Stderr, "arenamem: %d requests failed\n", n)
		os.Exit(1)
	}
	if after["VmHWM"]>>10 >= int64(*limit) {
		os.Exit(1)
	}
}

type client struct {
	base     string
	http     *http.Client
	failures atomic.Int64
}

func host(i int) string { return fmt.Sprintf("mem-%04d.test", i) }

// arena creates arena i with a started 16-player playoffs tournament and
// the first round's results in; it returns the admin token.
func (c *client) arena(i int) string {
	var created struct {
		AdminToken string `json:"adminToken"`
	}
	c.call("POST", "ops.test", "/api/v1/operator/arenas", operatorToken, map[string]any{
		"slug": fmt.Sprintf("mem-%04d", i), "name": fmt.Sprintf("Memory Arena %d", i),
		"hosts": []string{host(i)}, "plan": "free", "appIds": []string{"480"},
	}, 201, &created)
	admin := created.AdminToken
	h := host(i)
	now := time.Now().UTC()
	c.call("POST", h, "/api/v1/admin/tournaments", admin, map[string]any{
		"slug": "cup", "name": "Cup", "format": "playoffs_only", "maxPlayers": 16,
		"registrationOpensAt":  now.Add(-time.Hour).Format(time.RFC3339),
		"registrationClosesAt": now.Add(time.Hour).Format(time.RFC3339),
		"startsAt":             now.Add(2 * time.Hour).Format(time.RFC3339),
	}, 201, nil)
	c.call("POST", h, "/api/v1/admin/tournaments/cup/status", admin, map[string]any{"status": "registration_open"}, 200, nil)
	for p := 1; p <= 16; p++ {
		c.call("POST", h, "/api/v1/admin/tournaments/cup/registrations", admin, map[string]any{
			"platformId": fmt.Sprintf("765611980%04d%04d", i, p), "personaName": fmt.Sprintf("Player %d", p), "seed": p,
		}, 201, nil)
	}
	c.call("POST", h, "/api/v1/admin/tournaments/cup/status", admin, map[string]any{"status": "registration_closed"}, 200, nil)
	c.call("POST", h, "/api/v1/admin/tournaments/cup/status", admin, map[string]any{"status": "playoffs"}, 200, nil)
	var list struct {
		Matches []struct {
			ID           int64   `json:"id"`
			P1PlatformID *string `json:"p1PlatformId"`
			P2PlatformID *string `json:"p2PlatformId"`
		} `json:"matches"`
	}
	c.call("GET", h, "/api/v1/admin/tournaments/cup/matches", admin, nil, 200, &list)
	for _, m := range list.Matches {
		if m.P1PlatformID != nil && m.P2PlatformID != nil {
			c.call("POST", h, fmt.Sprintf("/api/v1/admin/matches/%d/resolve", m.ID), admin,
				map[string]any{"winner": *m.P1PlatformID, "score": map[string]int{"p1": 3, "p2": 1}}, 200, nil)
		}
	}
	return admin
}

// read reads arena i as the public and a visitor do.
func (c *client) read(i int) {
	h := host(i)
	for _, p := range []string{"/api/v1", "/api/v1/tournaments", "/api/v1/tournaments/cup", "/", "/tournaments/cup"} {
		c.call("GET", h, p, "", nil, 200, nil)
	}
}

// operatorToken is the operator API's token (-operator).
var operatorToken string

func (c *client) call(method, host, path, token string, body any, want int, out any) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, c.base+path, rd)
	req.Host = host
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.fail("%s %s %s: %v", method, host, path, err)
		return
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		c.fail("%s %s %s: %d %s", method, host, path, resp.StatusCode, raw)
		return
	}
	if out != nil {
		_ = json.Unmarshal(raw, out)
	}
}

func (c *client) fail(format string, args ...any) {
	if c.failures.Add(1) <= 5 {
		fmt.Fprintf(os.Stderr, "arenamem: "+format+"\n", args...)
	}
}

func parallel(n, conc int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}

// memory reads a process's memory lines (kB) from /proc/PID/status.
func memory(pid int) map[string]int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		fmt.Fprintln(os.Stderr, "arenamem:", err)
		os.Exit(1)
	}
	defer f.Close()
	out := map[string]int64{}
	s := bufio.NewScanner(f)
	for s.Scan() {
		var k string
		var v int64
		if _, err := fmt.Sscanf(strings.Replace(s.Text(), ":", " ", 1), "%s %d", &k, &v); err == nil {
			out[k] = v
		}
	}
	return out
}
