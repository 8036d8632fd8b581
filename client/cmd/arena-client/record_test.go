package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestRecordAndSegmentsCommands tries the record and segments commands
// from the shell's point of view against a served demo arena: a sample
// recording of a live match with segments, a casual one, listing,
// sharing and fetching.
func TestRecordAndSegmentsCommands(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{NoSite: true})
	m := a.Playable(t, "winter-cup")[0]
	p1, p2 := *m.P1, *m.P2
	for _, p := range []string{p1, p2} {
		a.Game(t, "POST", "/api/v1"+m.Path("ready"), p, nil, 200)
	}
	sh := func(as string, args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append([]string{"-base", a.URL, "-as", as}, args...), strings.NewReader(""), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	decode := func(out string) map[string]any {
		var v map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &v), out)
		return v
	}

	code, out, errOut := sh(p1, "record", "-scope", "full")
	require.Equal(t, 0, code, errOut)
	rec := decode(out)
	assert.Equal(t, "ready", rec["state"])
	assert.Equal(t, float64(m.ID), rec["matchId"])
	id := strconv.FormatFloat(rec["id"].(float64), 'f', 0, 64)

	code, _, errOut = sh(p1, "segments", "-recording", id, "-seq", "0", "-scope", "full")
	assert.Equal(t, 1, code, "the recording was finalized: %s", errOut)
	assert.Contains(t, errOut, "409 recording_ended")

	code, out, errOut = sh(p2, "segments", "-recording", id)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "ended", decode(out)["state"])

	code, out, errOut = sh(p1, "record", "-share", id)
	require.Equal(t, 0, code, errOut)
	token := decode(out)["token"].(string)
	code, _, errOut = sh(arenatest.Charles, "record", "-fetch", id, "-token", token)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "recording_not_released", "the match has not ended")
	code, _, errOut = sh(p1, "record", "-fetch", id)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "recording_not_released", "the uploader too")

	code, out, errOut = sh(p2, "record", "-casual")
	require.Equal(t, 0, code, errOut)
	casual := decode(out)
	assert.Equal(t, "private", casual["visibility"])
	file := filepath.Join(t.TempDir(), "mine.gz")
	code, out, errOut = sh(p2, "record", "-fetch", strconv.FormatFloat(casual["id"].(float64), 'f', 0, 64), "-out", file)
	require.Equal(t, 0, code, errOut)
	got, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, decode(out)["bytes"], float64(len(got)))
	code, out, _ = sh(p2, "record", "-list")
	require.Equal(t, 0, code)
	var list []any
	require.NoError(t, json.Unmarshal([]byte(out), &list))
	assert.Len(t, list, 1, "p2's casual one; p1's is link-only now")

	spool := t.TempDir()
	code, _, errOut = sh(p2, "-base", "http://127.0.0.1:1", "record", "-casual", "-spool", spool, "-attempts", "1")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "kept in")
	code, out, errOut = sh(p2, "record", "-resubmit", spool)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "submitted")
	assert.Contains(t, out, "1 spooled file(s)")

	code, _, errOut = sh(p2, "segments")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "-recording is required")
}
