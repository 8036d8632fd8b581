package client_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
	"arena/core"
)

// TestVerifyLogHostilePages: an arena whose pages jump past its signed
// head, or skip to it, is refused as ErrLogInvalid, never a crash.
func TestVerifyLogHostilePages(t *testing.T) {
	seed := make([]byte, ed25519.SeedSize)
	key := ed25519.NewKeyFromSeed(seed)
	event := func(seq int64, prev string) core.LogEvent {
		e := core.LogEvent{Seq: seq, At: "2026-11-27T12:00:00Z", Type: core.EventLogMatchLive, Data: json.RawMessage(`{}`), PrevHash: prev}
		var err error
		e.Hash, err = core.EventHash(e)
		require.NoError(t, err)
		return e
	}
	first := event(1, core.GenesisHash)
	second := event(2, first.Hash)
	for name, page := range map[string][]core.LogEvent{
		"past the head":         {event(100, first.Hash)},
		"a gap before the head": {first, event(3, second.Hash)},
	} {
		t.Run(name, func(t *testing.T) {
			head := core.LogHead{Seq: 2, Hash: second.Hash, At: second.At}
			head.Signature = base64.StdEncoding.EncodeToString(ed25519.Sign(key, core.HeadMessage("alpha", head.Seq, head.Hash, head.At)))
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				switch r.URL.Path {
				case "/api/v1":
					_ = json.NewEncoder(w).Encode(map[string]any{"tenant": map[string]any{"slug": "alpha"},
						"log": map[string]any{"publicKey": base64.StdEncoding.EncodeToString(key.Public().(ed25519.PublicKey))}})
				case "/api/v1/events/head":
					_ = json.NewEncoder(w).Encode(head)
				case "/api/v1/events":
					_ = json.NewEncoder(w).Encode(core.EventLogPage{Events: page})
				default:
					http.NotFound(w, r)
				}
			}))
			defer srv.Close()
			settings := client.NewSettings(srv.URL)
			settings.Enabled = false // public reads only
			c, err := client.New(settings, client.Deps{HTTP: srv.Client()})
			require.NoError(t, err)
			_, err = c.VerifyLog(context.Background(), client.VerifyLogOptions{})
			assert.ErrorIs(t, err, client.ErrLogInvalid)
		})
	}
}

// logServer serves a signed log of n events; before answers the request
// first (true: answered).
func logServer(t *testing.T, n int, before func(w http.ResponseWriter, r *http.Request) bool) (*httptest.Server, []core.LogHead, *[]string) {
	seed := make([]byte, ed25519.SeedSize)
	key := ed25519.NewKeyFromSeed(seed)
	var events []core.LogEvent
	var heads []core.LogHead
	prev := core.GenesisHash
	for seq := int64(1); seq <= int64(n); seq++ {
		e := core.LogEvent{Seq: seq, At: "2026-11-27T12:00:00Z", Type: core.EventLogMatchLive, Data: json.RawMessage(`{}`), PrevHash: prev}
		var err error
		e.Hash, err = core.EventHash(e)
		require.NoError(t, err)
		events = append(events, e)
		h := core.LogHead{Seq: seq, Hash: e.Hash, At: e.At}
		h.Signature = base64.StdEncoding.EncodeToString(ed25519.Sign(key, core.HeadMessage("alpha", h.Seq, h.Hash, h.At)))
		heads = append(heads, h)
		prev = e.Hash
	}
	var requests []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests = append(requests, r.URL.RequestURI())
		if before != nil && before(w, r) {
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/v1":
			_ = json.NewEncoder(w).Encode(map[string]any{"tenant": map[string]any{"slug": "alpha"},
				"log": map[string]any{"publicKey": base64.StdEncoding.EncodeToString(key.Public().(ed25519.PublicKey))}})
		case "/api/v1/events/head":
			_ = json.NewEncoder(w).Encode(heads[len(heads)-1])
		case "/api/v1/events":
			after, _ := strconv.Atoi(r.URL.Query().Get("after"))
			limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
			_ = json.NewEncoder(w).Encode(core.EventLogPage{Events: events[after:min(after+limit, len(events))]})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, heads, &requests
}

func verifyClient(t *testing.T, srv *httptest.Server) (*client.Client, *[]time.Duration) {
	settings := client.NewSettings(srv.URL)
	settings.Enabled = false
	var waits []time.Duration
	c, err := client.New(settings, client.Deps{HTTP: srv.Client(), Sleep: func(_ context.Context, d time.Duration) error {
		waits = append(waits, d)
		return nil
	}})
	require.NoError(t, err)
	return c, &waits
}

// TestVerifyLogRateLimited: a read answered 429 is repeated after its
// Retry-After, a bounded number of times; a read that stays refused is a
// fetch failure, not ErrLogInvalid. The API key goes as a Bearer token on
// every read.
func TestVerifyLogRateLimited(t *testing.T) {
	refusals := 2
	srv, heads, _ := logServer(t, 5, func(w http.ResponseWriter, r *http.Request) bool {
		assert.Equal(t, "Bearer apikey_0000000a_secret", r.Header.Get("Authorization"))
		if r.URL.Path == "/api/v1/events" && refusals > 0 {
			refusals--
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"error":"rate_limited"}`))
			return true
		}
		return false
	})
	c, waits := verifyClient(t, srv)
	head, err := c.VerifyLog(context.Background(), client.VerifyLogOptions{APIKey: "apikey_0000000a_secret"})
	require.NoError(t, err)
	assert.Equal(t, heads[4], head)
	assert.Equal(t, []time.Duration{7 * time.Second, 7 * time.Second}, *waits)

	refusals = 100
	*waits = nil
	_, err = c.VerifyLog(context.Background(), client.VerifyLogOptions{APIKey: "apikey_0000000a_secret", Retries: 3})
	var apiErr *client.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.Status)
	assert.NotErrorIs(t, err, client.ErrLogInvalid)
	assert.Len(t, *waits, 3)
}

func TestRetryAfter(t *testing.T) {
	assert.Equal(t, time.Second, client.RetryAfter(""))
	assert.Equal(t, time.Second, client.RetryAfter("0"))
	assert.Equal(t, time.Second, client.RetryAfter("soon"))
	assert.Equal(t, 30*time.Second, client.RetryAfter("30"))
	assert.Equal(t, 2*time.Minute, client.RetryAfter("86400"))
}

// TestVerifyLogFromSavedHead: given a saved head, the walk starts at the
// saved head's own event (whose hash must be the saved one), not at seq 1.
func TestVerifyLogFromSavedHead(t *testing.T) {
	srv, heads, requests := logServer(t, 50, nil)
	c, _ := verifyClient(t, srv)
	saved := heads[39] // seq 40
	head, err := c.VerifyLog(context.Background(), client.VerifyLogOptions{Saved: &saved})
	require.NoError(t, err)
	assert.Equal(t, heads[49], head)
	var pages []string
	for _, r := range *requests {
		if strings.HasPrefix(r, "/api/v1/events?") {
			pages = append(pages, r)
		}
	}
	assert.Equal(t, []string{"/api/v1/events?after=39&limit=1", "/api/v1/events?after=40&limit=1000"}, pages)

	t.Run("SavedAtTheHead", func(t *testing.T) {
		saved := heads[49]
		_, err := c.VerifyLog(context.Background(), client.VerifyLogOptions{Saved: &saved})
		require.NoError(t, err)
	})
	t.Run("SignedButNotInTheLog", func(t *testing.T) {
		// A head signed by the arena's key for an event the log no longer
		// holds as it was (a rewritten history).
		other, otherHeads, _ := logServer(t, 50, nil)
		_ = other
		forged := otherHeads[39]
		forged.At = "2026-11-27T12:00:01Z"
		key := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
		forged.Signature = base64.StdEncoding.EncodeToString(ed25519.Sign(key, core.HeadMessage("alpha", forged.Seq, forged.Hash, forged.At)))
		_, err := c.VerifyLog(context.Background(), client.VerifyLogOptions{Saved: &forged})
		assert.ErrorIs(t, err, client.ErrLogInvalid)
	})
}

// TestEventLogFixture: client/testdata/eventlog.json, the signed log the
// C# client's verifier is tested on, verifies with the reference (core).
func TestEventLogFixture(t *testing.T) {
	raw, err := os.ReadFile("testdata/eventlog.json")
	require.NoError(t, err)
	var fx struct {
		Slug      string          `json:"slug"`
		PublicKey string          `json:"publicKey"`
		Events    []core.LogEvent `json:"events"`
		Heads     []core.LogHead  `json:"heads"`
	}
	require.NoError(t, json.Unmarshal(raw, &fx))
	pub, err := base64.StdEncoding.DecodeString(fx.PublicKey)
	require.NoError(t, err)
	require.NoError(t, core.VerifyChain(0, core.GenesisHash, fx.Events))
	require.Len(t, fx.Heads, len(fx.Events))
	for i, h := range fx.Heads {
		require.NoError(t, core.VerifyHead(pub, fx.Slug, h))
		assert.Equal(t, fx.Events[i].Hash, h.Hash)
	}
}
