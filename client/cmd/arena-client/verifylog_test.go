package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
	"arena/worker/arenatest"
)

// TestVerifyLog runs verify-log against a served demo arena: its
// transparency log verifies to its checkpoint, a head saved earlier (the
// line, or the checkpoint itself) is accepted while the tree extends it,
// and a saved head the tree does not extend, or an old hash-chain head,
// is refused.
func TestVerifyLog(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{NoSite: true})
	verify := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
		return code, strings.TrimSpace(stdout.String()), stderr.String()
	}
	code, out, errs := verify("verify-log", "--base", a.URL)
	require.Equal(t, 0, code, errs)
	var head client.VerifiedTree
	require.NoError(t, json.Unmarshal([]byte(out), &head))
	assert.Positive(t, head.TreeSize, "the demo arena's log has events")
	assert.True(t, strings.HasPrefix(head.Checkpoint, head.Origin+"\n"), "a checkpoint of the arena's log")

	dir := t.TempDir()
	saved := filepath.Join(dir, "head.json")
	require.NoError(t, os.WriteFile(saved, []byte(out), 0o600))
	code, out, errs = verify("--base", a.URL, "verify-log", "--head", saved)
	require.Equal(t, 0, code, errs)
	var again client.VerifiedTree
	require.NoError(t, json.Unmarshal([]byte(out), &again))
	assert.GreaterOrEqual(t, again.TreeSize, head.TreeSize)
	require.NoError(t, os.WriteFile(saved, []byte(head.Checkpoint), 0o600))
	code, _, errs = verify("verify-log", "--base", a.URL, "--head", saved)
	require.Equal(t, 0, code, "the checkpoint itself as the head: %s", errs)

	forged := strings.Replace(head.Checkpoint, head.RootHash, strings.Repeat("A", 43)+"=", 1)
	require.NoError(t, os.WriteFile(saved, []byte(forged), 0o600))
	code, out, errs = verify("verify-log", "--base", a.URL, "--head", saved)
	assert.Equal(t, 1, code)
	assert.Equal(t, `{"error":"log_invalid"}`, out)
	assert.Contains(t, errs, "saved head")

	require.NoError(t, os.WriteFile(saved, []byte(`{"seq":3,"hash":"ab","at":"","signature":""}`), 0o600))
	code, out, _ = verify("verify-log", "--base", a.URL, "--head", saved)
	assert.Equal(t, 2, code, "an old hash-chain head is a usage error")
	assert.Equal(t, `{"error":"usage"}`, out)
	code, out, _ = verify("verify-log", "--base", a.URL, "--head", filepath.Join(dir, "none.json"))
	assert.Equal(t, 2, code)
	assert.Equal(t, `{"error":"usage"}`, out)
	code, out, _ = verify("verify-log", "--base", a.URL, "--key", "not a key")
	assert.Equal(t, 2, code)
	assert.Equal(t, `{"error":"usage"}`, out)
}

// TestVerifyLogCannotFetch: a log that cannot be read is exit status 3,
// not the 1 of a log that does not verify; a 429 is retried as long as
// --retries allows.
func TestVerifyLogCannotFetch(t *testing.T) {
	verify := func(args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
		return code, strings.TrimSpace(stdout.String())
	}
	limited := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "Bearer apikey_0000000a_k", r.Header.Get("Authorization"))
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"error":"rate_limited"}`))
	}))
	defer limited.Close()
	code, out := verify("verify-log", "--base", limited.URL, "--api-key", "apikey_0000000a_k", "--retries", "0")
	assert.Equal(t, 3, code)
	assert.Equal(t, `{"error":"rate_limited"}`, out)

	limited.Close()
	code, out = verify("verify-log", "--base", limited.URL, "--retries", "0")
	assert.Equal(t, 3, code)
	assert.Equal(t, `{"error":"network_error"}`, out)

	code, out = verify("verify-log", "--retries", "-1")
	assert.Equal(t, 2, code)
	assert.Equal(t, `{"error":"usage"}`, out)
}
