package client_test

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
	"arena/core"
)

func TestRetryAfter(t *testing.T) {
	assert.Equal(t, time.Second, client.RetryAfter(""))
	assert.Equal(t, time.Second, client.RetryAfter("0"))
	assert.Equal(t, time.Second, client.RetryAfter("soon"))
	assert.Equal(t, 30*time.Second, client.RetryAfter("30"))
	assert.Equal(t, 2*time.Minute, client.RetryAfter("86400"))
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
