package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
	"arena/core"
	"arena/worker/arenatest"
	"arena/worker/objects"
)

// objectStore is the env's local object directory.
func (e *recordingEnv) objectStore() objects.Local {
	return objects.Local{Dir: filepath.Join(e.DataDir, "objects")}
}

// fetched fetches recording id as account and downloads what its URL
// serves.
func (e *recordingEnv) fetched(t *testing.T, id int64, account string) []byte {
	t.Helper()
	status, out := e.fetch(t, id, account, "")
	require.Equal(t, 200, status, out)
	code, body := e.get(t, out["url"].(string))
	require.Equal(t, 200, code)
	return body
}

// TestFinalizedUploadCannotBeSwapped: after finalize, a PUT to the same
// upload URL answers 409 recording_finalized, and whatever lands on the
// upload's key (as a presigned URL of a store would let it) changes
// nothing that a fetch serves: oversize, a forged header, not gzip.
func TestFinalizedUploadCannotBeSwapped(t *testing.T) {
	e := newRecordingEnv(t)
	init := e.initRecording(t, e.p1, "public")
	target := init["upload"].(map[string]any)["url"].(string)
	file := e.replay(t, "public", nil)
	require.Equal(t, 204, e.put(t, target, []byte("a first try"), "application/gzip"), "before finalize the URL takes a retry")
	require.Equal(t, 204, e.put(t, target, file, "application/gzip"))
	id := int64(init["recordingId"].(float64))
	status, out := e.game(t, "POST", fmt.Sprintf("/api/v1/recordings/%d/finalize", id), e.p1, nil, "")
	require.Equal(t, 200, status, out)
	require.Equal(t, file, e.fetched(t, id, e.p2))

	forged := e.replay(t, "public", func(h *client.ReplayHeader) { h.MatchID, h.SessionNonce = 999, "forged" })
	swaps := map[string][]byte{"Oversize": e.bigReplay(t, "public", 5<<20), "ForgedHeader": forged, "NotGzip": bytes.Repeat([]byte("x"), 3000)}
	for name, swap := range swaps {
		t.Run(name, func(t *testing.T) {
			status := e.put(t, target, swap, "application/gzip")
			assert.Equal(t, 409, status, "the route refuses a PUT after finalize")
			// A store reached by presigned URL takes the PUT: the bytes land on the upload's key.
			_, err := e.objectStore().Write(context.Background(), keyOf(t, target), core.ReplayContentType, bytes.NewReader(swap), 32<<20)
			require.NoError(t, err)
			got := e.fetched(t, id, e.p2)
			assert.True(t, bytes.Equal(file, got), "fetch serves what finalize checked: %d bytes, not %d", len(file), len(got))
			got = e.fetched(t, id, e.p1)
			assert.True(t, bytes.Equal(file, got), "to the uploader too")
			status, again := e.game(t, "POST", fmt.Sprintf("/api/v1/recordings/%d/finalize", id), e.p1, nil, "")
			require.Equal(t, 200, status)
			assert.Equal(t, float64(len(file)), again["byteSize"], "finalizing again reads nothing new")
			_, list := e.game(t, "GET", "/api/v1/me/recordings", e.p1, nil, "")
			assert.Equal(t, float64(len(file)), list["recordings"].([]any)[0].(map[string]any)["byteSize"])
		})
	}
	assert.Equal(t, "recording_finalized", e.put409(t, target, file), "even the same bytes")
}

// put409 PUTs body to target (in process), requires a 409 and returns
// its error code.
func (e *recordingEnv) put409(t *testing.T, target string, body []byte) string {
	t.Helper()
	u, err := url.Parse(target)
	require.NoError(t, err)
	req := httptest.NewRequest(http.MethodPut, u.RequestURI(), bytes.NewReader(body))
	req.Host = u.Host
	req.Header.Set("Content-Type", "application/gzip")
	rec := httptest.NewRecorder()
	e.Handler.ServeHTTP(rec, req)
	require.Equal(t, 409, rec.Code, rec.Body.String())
	var out map[string]any
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out))
	return fmt.Sprint(out["error"])
}

// TestFinalizedSegmentCannotBeSwapped: the same for a segment, served
// to the opponent once released.
func TestFinalizedSegmentCannotBeSwapped(t *testing.T) {
	e := newRecordingEnv(t)
	init := e.initRecording(t, e.p1, "full")
	id := int64(init["recordingId"].(float64))
	status, segInit := e.game(t, "POST", fmt.Sprintf("/api/v1/recordings/%d/segments/init", id), e.p1, map[string]any{"seq": 0}, "")
	require.Equal(t, 200, status, segInit)
	target := segInit["upload"].(map[string]any)["url"].(string)
	file := e.segment(t, "full", 0, nil)
	require.Equal(t, 204, e.put(t, target, file, "application/gzip"))
	status, out := e.game(t, "POST", fmt.Sprintf("/api/v1/recordings/%d/segments/0/finalize", id), e.p1, nil, "")
	require.Equal(t, 200, status, out)

	swap := bytes.Repeat([]byte("not gzip "), 3<<17)
	assert.Equal(t, "recording_finalized", e.put409(t, target, swap))
	_, err := e.objectStore().Write(context.Background(), keyOf(t, target), core.ReplayContentType, bytes.NewReader(swap), 32<<20)
	require.NoError(t, err)

	e.Now = e.Now.Add(2 * time.Minute) // released
	status, feed := e.game(t, "GET", fmt.Sprintf("/api/v1/recordings/%d/segments", id), e.p2, nil, "")
	require.Equal(t, 200, status, feed)
	segs := feed["segments"].([]any)
	require.Len(t, segs, 1)
	code, body := e.get(t, segs[0].(map[string]any)["url"].(string))
	require.Equal(t, 200, code)
	assert.True(t, bytes.Equal(file, body), "the opponent gets what finalize checked: %d bytes, not %d", len(file), len(body))
}

// crashingStore is the local directory until kill is set: from the next
// copy on (the copy itself done), every call fails, as if the process
// were killed between finalize's steps.
type crashingStore struct {
	objects.Local
	kill, killed atomic.Bool
}

func (c *crashingStore) dead() error {
	if c.killed.Load() {
		return errors.New("killed")
	}
	return nil
}

func (c *crashingStore) Copy(ctx context.Context, from, to string) (bool, error) {
	if err := c.dead(); err != nil {
		return false, err
	}
	found, err := c.Local.Copy(ctx, from, to)
	c.killed.Store(c.kill.Load())
	return found, err
}

func (c *crashingStore) Stat(ctx context.Context, key string) (core.ObjectInfo, error) {
	if err := c.dead(); err != nil {
		return core.ObjectInfo{}, err
	}
	return c.Local.Stat(ctx, key)
}

func (c *crashingStore) Read(ctx context.Context, key string, offset, length int64) (io.ReadCloser, error) {
	if err := c.dead(); err != nil {
		return nil, err
	}
	return c.Local.Read(ctx, key, offset, length)
}

func (c *crashingStore) Delete(ctx context.Context, key string) error {
	if err := c.dead(); err != nil {
		return err
	}
	return c.Local.Delete(ctx, key)
}

// TestFinalizeCutOffLeavesNothingBehind: a finalize killed between its
// copy and its claim leaves the recording pending and a copy nobody
// serves; the retried finalize checks a copy of its own; the scheduled
// job removes the orphan once its claim window passed, and the upload
// once its URLs expired, never what is served.
func TestFinalizeCutOffLeavesNothingBehind(t *testing.T) {
	store := &crashingStore{Local: objects.Local{Dir: t.TempDir()}}
	a := arenatest.New(t, arenatest.Options{NoSite: true, Objects: store})
	c := benchClient(t, a.URL, arenatest.Blaise)
	ctx := context.Background()
	init, err := c.InitRecording(ctx, 0, client.ScopePublic, "crash", 0)
	require.NoError(t, err)
	file, err := client.NewReplayWriter().Finish(client.ReplayHeader{Scope: client.ScopePublic, GameBuild: "crash"})
	require.NoError(t, err)
	require.NoError(t, c.Upload(ctx, init.Upload.URL, file))
	upload := keyOf(t, init.Upload.URL)
	checked := filepath.Join(store.Dir, strings.SplitN(upload, "/", 2)[0], "checked")
	copies := func() int {
		entries, err := os.ReadDir(checked)
		if errors.Is(err, fs.ErrNotExist) {
			return 0
		}
		require.NoError(t, err)
		return len(entries)
	}
	exists := func(key string) bool {
		_, err := os.Stat(filepath.Join(store.Dir, filepath.FromSlash(key)))
		return err == nil
	}

	demo := copies() // the demo arena's own recording

	store.kill.Store(true)
	_, err = c.FinalizeRecording(ctx, init.RecordingID)
	require.Error(t, err, "killed after the copy")
	store.kill.Store(false)
	store.killed.Store(false)
	assert.Equal(t, demo+1, copies(), "the copy the killed finalize made")
	list, err := c.MyRecordings(ctx)
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, "pending", list[0].State, "nothing half-done: still pending")

	rec, err := c.FinalizeRecording(ctx, init.RecordingID)
	require.NoError(t, err, "the retry finalizes")
	assert.Equal(t, "ready", rec.State)
	assert.Equal(t, demo+2, copies(), "the retry checked a copy of its own")

	a.Advance(t, core.UploadURLTTL+time.Minute)
	a.Tick(t)
	assert.False(t, exists(upload), "the upload goes once its URLs expired")
	assert.Equal(t, demo+2, copies(), "the orphan waits for its claim window")
	a.Advance(t, core.CheckedCopyClaimWindow)
	a.Tick(t)
	assert.Equal(t, demo+1, copies(), "the orphan is removed, the served copy kept")
	url, err := c.FetchRecording(ctx, rec.ID, "")
	require.NoError(t, err)
	got, err := c.Download(ctx, url)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(file, got), "what finalize checked is served")
	a.Advance(t, 1000*time.Hour)
	a.Tick(t)
	assert.Equal(t, demo+1, copies(), "for good")
}
