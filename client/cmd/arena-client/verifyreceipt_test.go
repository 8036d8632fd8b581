package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/worker/arenatest"
)

// TestVerifyReceipt fetches a decided match's receipt from a served demo
// arena and checks it with verify-receipt, online (--base) and offline
// (--key); a tampered entry, proof or checkpoint is refused.
func TestVerifyReceipt(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{NoSite: true})
	get := func(path string) []byte {
		resp, err := http.Get(a.URL + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.Equal(t, 200, resp.StatusCode, string(body))
		return body
	}
	var page core.EventLogPage
	require.NoError(t, json.Unmarshal(get("/api/v1/events?limit=1000"), &page))
	var decided int64
	for _, e := range page.Events {
		if e.Type == core.EventLogMatchConfirmed {
			decided = *e.MatchID
		}
	}
	require.NotZero(t, decided, "the demo arena has a decided match")
	receipt := get(fmt.Sprintf("/api/v1/matches/%d/receipt", decided))
	var meta struct {
		Log struct{ PublicKey string } `json:"log"`
	}
	require.NoError(t, json.Unmarshal(get("/api/v1"), &meta))

	dir := t.TempDir()
	file := filepath.Join(dir, "match.tlog-proof")
	require.NoError(t, os.WriteFile(file, receipt, 0o600))
	verify := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
		return code, strings.TrimSpace(stdout.String()), stderr.String()
	}
	code, out, errs := verify("verify-receipt", file, "--base", a.URL)
	require.Equal(t, 0, code, errs)
	var proved struct {
		Index, TreeSize int64
		Verified        bool
		Entry           core.LogEvent
	}
	require.NoError(t, json.Unmarshal([]byte(out), &proved))
	e := proved.Entry
	assert.True(t, proved.Verified)
	assert.Equal(t, decided, *e.MatchID)
	assert.Equal(t, e.Seq-1, proved.Index, "the entry of seq n is the tree's leaf n-1")
	code, _, errs = verify("verify-receipt", "--key", meta.Log.PublicKey, file)
	require.Equal(t, 0, code, errs)

	lines := strings.Split(string(receipt), "\n")
	other, err := core.EventEntry(core.LogEvent{Seq: e.Seq, Type: "match.confirmed", Data: []byte(`{}`)})
	require.NoError(t, err)
	zero := base64.StdEncoding.EncodeToString(make([]byte, 32))
	proofPart, cp, _ := strings.Cut(string(receipt), "\n\n")
	cpLines := strings.Split(cp, "\n") // origin, size, root, ...
	tampered := map[string]string{
		"entry":      strings.Replace(string(receipt), lines[1], "extra "+base64.StdEncoding.EncodeToString(other), 1),
		"proof":      strings.Replace(string(receipt), lines[3], zero, 1),
		"checkpoint": proofPart + "\n\n" + strings.Replace(cp, "\n"+cpLines[1]+"\n", "\n1\n", 1),
	}
	for name, body := range tampered {
		require.NotEqual(t, string(receipt), body, name)
		bad := filepath.Join(dir, name+".tlog-proof")
		require.NoError(t, os.WriteFile(bad, []byte(body), 0o600))
		code, out, _ := verify("verify-receipt", bad, "--key", meta.Log.PublicKey)
		assert.Equal(t, 1, code, name)
		assert.Equal(t, `{"error":"receipt_invalid"}`, out, name)
	}
	otherKey := base64.StdEncoding.EncodeToString(make([]byte, 32))
	code, _, _ = verify("verify-receipt", file, "--key", otherKey)
	assert.Equal(t, 1, code, "another arena's key")

	code, out, _ = verify("verify-receipt", filepath.Join(dir, "none"), "--key", meta.Log.PublicKey)
	assert.Equal(t, 2, code)
	assert.Equal(t, `{"error":"usage"}`, out)
	code, _, _ = verify("verify-receipt", file, "--base", "http://127.0.0.1:1")
	assert.Equal(t, 3, code, "the key could not be fetched")
}

// TestVerifyLogChecksTheTree: verify-log checks the entry bundles and
// hash tiles against the signed checkpoint: a proxy that alters an entry
// bundle, a hash tile or the checkpoint makes it refuse the log; the
// untouched arena verifies through the same proxy.
func TestVerifyLogChecksTheTree(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{NoSite: true})
	target, err := url.Parse(a.URL)
	require.NoError(t, err)
	var alter atomic.Value
	alter.Store("")
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(resp *http.Response) error {
		what := alter.Load().(string)
		if what == "" || !strings.HasPrefix(resp.Request.URL.Path, what) {
			return nil
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		if len(body) > 40 {
			body[len(body)-40] ^= 1
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Del("Content-Length")
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	verify := func() (int, string) {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"verify-log", "--base", srv.URL}, strings.NewReader(""), &stdout, &stderr)
		return code, strings.TrimSpace(stdout.String()) + " " + stderr.String()
	}
	code, out := verify()
	require.Equal(t, 0, code, out)
	for _, path := range []string{"/log/tile/entries/", "/log/tile/0/", "/log/checkpoint"} {
		alter.Store(path)
		code, out := verify()
		assert.Equal(t, 1, code, "%s altered: %s", path, out)
		assert.Contains(t, out, `{"error":"log_invalid"}`, path)
	}
}
