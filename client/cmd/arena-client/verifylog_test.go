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

	"arena/core"
	"arena/worker/arenatest"
)

// TestVerifyLog runs verify-log against a served demo arena: its log and
// head verify, a head saved earlier is accepted while the log extends it,
// and a saved head the log does not hold is refused.
func TestVerifyLog(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{NoSite: true})
	verify := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
		return code, strings.TrimSpace(stdout.String()), stderr.String()
	}
	code, out, errs := verify("verify-log", "--base", a.URL)
	require.Equal(t, 0, code, errs)
	var head core.LogHead
	require.NoError(t, json.Unmarshal([]byte(out), &head))
	assert.Positive(t, head.Seq, "the demo arena's log has events")

	dir := t.TempDir()
	saved := filepath.Join(dir, "head.json")
	require.NoError(t, os.WriteFile(saved, []byte(out), 0o600))
	code, out, errs = verify("--base", a.URL, "verify-log", "--head", saved)
	require.Equal(t, 0, code, errs)
	var again core.LogHead
	require.NoError(t, json.Unmarshal([]byte(out), &again))
	assert.GreaterOrEqual(t, again.Seq, head.Seq)

	forged := head
	forged.Hash = strings.Repeat("a", 64)
	raw, _ := json.Marshal(forged)
	require.NoError(t, os.WriteFile(saved, raw, 0o600))
	code, out, errs = verify("verify-log", "--base", a.URL, "--head", saved)
	assert.Equal(t, 1, code)
	assert.Equal(t, `{"error":"log_invalid"}`, out)
	assert.Contains(t, errs, "signature")

	code, out, _ = verify("verify-log", "--base", a.URL, "--head", filepath.Join(dir, "none.json"))
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
