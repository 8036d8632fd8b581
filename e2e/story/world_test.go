package story

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arena/client"
)

// world is what the steps share: the target, the arenas made so far, the
// players' reference clients and the story's facts (match ids...).
type world struct {
	target *target
	http   *http.Client

	host       string // the story arena's host
	admin      string // its admin token
	otherAdmin string // the other arena's admin token

	clients map[string]*client.Client // by platform id
	matches map[string]int64          // the cup's matches by bracket slot

	castRecording castRecording // the cast match's full-scope recording
}

// castRecording is what the recording steps uploaded: fetched back once
// the match ended (full scope waits for it, the uploader's too).
type castRecording struct {
	id   int64
	file []byte
}

func newWorld(t *testing.T, tg *target) *world {
	t.Logf("story target: %s", tg.name)
	return &world{
		target:  tg,
		http:    &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		host:    "story.test",
		clients: map[string]*client.Client{},
		matches: map[string]int64{},
	}
}

// The story's players: platform ids and names.
var players = []struct{ id, name string }{
	{"76561198000000101", "Ada Lovelace"},
	{"76561198000000102", "Blaise Pascal"},
	{"76561198000000103", "Charles Babbage"},
	{"76561198000000104", "Dorothy Vaughan"},
}

// player returns the i-th player's id (1-based, as seeds).
func player(i int) string { return players[i-1].id }

// answer is one HTTP answer.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// json decodes the answer's body as a JSON object.
func (a answer) json(t *testing.T) map[string]any {
	t.Helper()
	var out map[string]any
	require.NoError(t, json.Unmarshal(a.body, &out), "%d %s", a.status, a.body)
	return out
}

// request is one call: method, path, host, and what to send.
type request struct {
	method, path, host string
	auth               string // the Authorization header
	body               any    // JSON, or url.Values for a form
	cookie             string
	ifNoneMatch        string // the If-None-Match header
}

func (w *world) do(t *testing.T, r request) answer {
	t.Helper()
	var rd io.Reader
	ctype := ""
	switch b := r.body.(type) {
	case nil:
	case url.Values:
		rd, ctype = strings.NewReader(b.Encode()), "application/x-www-form-urlencoded"
	default:
		raw, err := json.Marshal(b)
		require.NoError(t, err)
		rd, ctype = bytes.NewReader(raw), "application/json"
	}
	req, err := http.NewRequest(r.method, w.target.base+r.path, rd)
	require.NoError(t, err)
	req.Host = r.host
	if req.Host == "" {
		req.Host = w.host
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if r.auth != "" {
		req.Header.Set("Authorization", r.auth)
	}
	if r.cookie != "" {
		req.Header.Set("Cookie", r.cookie)
	}
	if r.ifNoneMatch != "" {
		req.Header.Set("If-None-Match", r.ifNoneMatch)
	}
	res, err := w.http.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return answer{status: res.StatusCode, header: res.Header, body: body}
}

// adminAPI calls the story arena's admin API and requires status want.
func (w *world) adminAPI(t *testing.T, method, path string, body any, want int) map[string]any {
	t.Helper()
	a := w.do(t, request{method: method, path: path, auth: "Bearer " + w.admin, body: body})
	require.Equal(t, want, a.status, "%s %s: %s", method, path, a.body)
	if len(a.body) == 0 {
		return nil
	}
	return a.json(t)
}

// read makes a public read on the story arena and requires 200.
func (w *world) read(t *testing.T, path string) map[string]any {
	t.Helper()
	a := w.do(t, request{method: "GET", path: path})
	require.Equal(t, http.StatusOK, a.status, "GET %s: %s", path, a.body)
	return a.json(t)
}

// page fetches a website page of the story arena.
func (w *world) page(t *testing.T, path, cookie string) answer {
	t.Helper()
	return w.do(t, request{method: "GET", path: path, cookie: cookie})
}

// hostTransport sends every request to the target (base): with the story
// arena's Host header when the URL names the target (the reference
// clients know only the base URL), else with the URL's own host (the
// upload and download URLs an arena makes name the arena's host).
type hostTransport struct {
	base *url.URL
	host string
}

func (h hostTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	if req.URL.Host == h.base.Host {
		req.Host = h.host
	} else {
		req.Host = req.URL.Host
		req.URL.Scheme, req.URL.Host = h.base.Scheme, h.base.Host
	}
	return http.DefaultTransport.RoundTrip(req)
}

// client returns the reference game client of player id (mock tickets).
func (w *world) client(t *testing.T, id string) *client.Client {
	t.Helper()
	if c, ok := w.clients[id]; ok {
		return c
	}
	s := client.NewSettings(w.target.base + "/")
	s.MockSteamID = id
	base, err := url.Parse(w.target.base)
	require.NoError(t, err)
	c, err := client.New(s, client.Deps{HTTP: &http.Client{Timeout: 30 * time.Second, Transport: hostTransport{base: base, host: w.host}}})
	require.NoError(t, err)
	w.clients[id] = c
	return c
}

// match returns the cup's match in a bracket slot, as the admin sees it.
func (w *world) match(t *testing.T, slot string) map[string]any {
	t.Helper()
	for _, raw := range w.adminAPI(t, "GET", "/api/v1/admin/tournaments/"+cup+"/matches", nil, 200)["matches"].([]any) {
		if m := raw.(map[string]any); m["bracketSlot"] == slot {
			return m
		}
	}
	t.Fatalf("no match in slot %s", slot)
	return nil
}

// matchPath is an admin path of the match in slot.
func (w *world) matchPath(slot, action string) string {
	p := fmt.Sprintf("/api/v1/admin/matches/%d", w.matches[slot])
	if action != "" {
		p += "/" + action
	}
	return p
}

func iso(t time.Time) string { return t.UTC().Format(time.RFC3339) }
