package client_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
)

// TestGoClientOnTlogVectors runs the Go client's VerifyTiles and
// VerifyReceiptOf over client/testdata/tlog.json, the vectors the
// TypeScript and C# clients run (built and checked with
// golang.org/x/mod): every log case and receipt gets the verdict x/mod
// gives it, with the key as log.publicKey gives it (and the log's
// origin) and as a verifier key (which names the origin).
func TestGoClientOnTlogVectors(t *testing.T) {
	raw, err := os.ReadFile(tlogVectorsFile)
	require.NoError(t, err)
	var v tlogVectors
	require.NoError(t, json.Unmarshal(raw, &v))
	serve := func(t *testing.T, checkpoint string, tiles map[string]string) *client.Client {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			path := strings.TrimPrefix(r.URL.Path, "/log/")
			if path == "checkpoint" {
				_, _ = w.Write([]byte(checkpoint))
				return
			}
			body, ok := tiles[path]
			if !ok {
				http.Error(w, `{"error":"not_found"}`, http.StatusNotFound)
				return
			}
			b, err := base64.StdEncoding.DecodeString(body)
			require.NoError(t, err)
			_, _ = w.Write(b)
		}))
		t.Cleanup(srv.Close)
		settings := client.NewSettings(srv.URL)
		settings.Enabled = false
		c, err := client.New(settings, client.Deps{})
		require.NoError(t, err)
		return c
	}
	ctx := context.Background()
	for _, key := range []client.TlogOptions{{Key: v.PublicKey, Origin: v.Origin}, {Key: v.VerifierKey}} {
		for _, lc := range v.LogCases {
			t.Run("log/"+lc.Name, func(t *testing.T) {
				checkpoint, tiles := v.Checkpoint, map[string]string{}
				for p, b := range v.Tiles {
					tiles[p] = b
				}
				if lc.Checkpoint != "" {
					checkpoint = lc.Checkpoint
				}
				for p, b := range lc.Tiles {
					tiles[p] = b
				}
				opts := key
				if lc.Head != "" {
					opts.Head = []byte(lc.Head)
				}
				tree, err := serve(t, checkpoint, tiles).VerifyTiles(ctx, opts)
				if !lc.Valid {
					assert.ErrorIs(t, err, client.ErrLogInvalid)
					return
				}
				require.NoError(t, err)
				assert.Equal(t, v.Size, tree.TreeSize)
				assert.Equal(t, v.Origin, tree.Origin)
				assert.Equal(t, checkpoint, tree.Checkpoint)
			})
		}
		for _, rc := range v.Receipts {
			t.Run("receipt/"+rc.Name, func(t *testing.T) {
				c := serve(t, v.Checkpoint, v.Tiles)
				got, err := c.VerifyReceiptOf(ctx, []byte(rc.Proof), key)
				if !rc.Valid {
					assert.ErrorIs(t, err, client.ErrReceiptInvalid)
					return
				}
				require.NoError(t, err)
				assert.Equal(t, rc.Index, got.Index)
				assert.Equal(t, rc.TreeSize, got.TreeSize)
				if rc.RootHash != "" {
					assert.Equal(t, rc.RootHash, got.RootHash)
				}
			})
		}
	}
	t.Run("a raw key with no origin accepts the origin it signed", func(t *testing.T) {
		for _, rc := range v.Receipts {
			if strings.Contains(rc.Name, "under another name") {
				got, err := serve(t, v.Checkpoint, v.Tiles).VerifyReceiptOf(ctx, []byte(rc.Proof), client.TlogOptions{Key: v.PublicKey})
				require.NoError(t, err)
				assert.Equal(t, "other.example/log", got.Origin)
			}
		}
	})
	t.Run("a verifier key of another origin is a usage error", func(t *testing.T) {
		_, err := serve(t, v.Checkpoint, v.Tiles).VerifyTiles(ctx, client.TlogOptions{Key: v.VerifierKey, Origin: "other.example/log"})
		assert.ErrorIs(t, err, client.ErrInvalidKey)
	})
}
