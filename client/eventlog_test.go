package client_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

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
			_, err = c.VerifyLog(context.Background(), nil)
			assert.ErrorIs(t, err, client.ErrLogInvalid)
		})
	}
}
