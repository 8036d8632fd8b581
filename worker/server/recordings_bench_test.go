package server_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arena/client"
	"arena/core"
	"arena/worker/arenatest"
	"arena/worker/objects"
)

// benchReplay writes a realistic casual replay of n pointer events and
// an action every 50: JSON event lines of a long game, which deflate
// about six times.
func benchReplay(tb testing.TB, n int) []byte {
	tb.Helper()
	w := client.NewReplayWriter()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < n; i++ {
		t := int64(i) * 16
		require.NoError(tb, w.Append(t, "pointer", map[string]any{"x": rng.IntN(1920), "y": rng.IntN(1080), "slot": 1 + rng.IntN(2)}))
		if i%50 == 0 {
			require.NoError(tb, w.Append(t, "public_action", map[string]any{"actor": 1 + rng.IntN(2), "action": "play", "target": "board", "card": rng.IntN(52)}))
		}
	}
	file, err := w.Finish(client.ReplayHeader{Scope: client.ScopePublic, GameBuild: "bench"})
	require.NoError(tb, err)
	return file
}

var (
	replay16MBOnce sync.Once
	replay16MBFile []byte
)

// replay16MB is a replay of about 15.5 MB, just under the 16 MB
// ceiling, built once.
func replay16MB(tb testing.TB) []byte {
	replay16MBOnce.Do(func() {
		const probe = 100000
		per := float64(len(benchReplay(tb, probe))) / probe
		replay16MBFile = benchReplay(tb, int(15.5*(1<<20)/per))
	})
	require.LessOrEqual(tb, len(replay16MBFile), core.MaxRecordingBytes)
	return replay16MBFile
}

// peakHeap samples the live heap while fn runs and returns the highest
// value above the heap before it.
func peakHeap(fn func()) uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	runtime.GC()
	base := read()
	var peak atomic.Uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			if v := read(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-time.After(200 * time.Microsecond):
			}
		}
	}()
	fn()
	close(done)
	<-stopped
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
}

// BenchmarkFinalize16MB finalizes a 16 MB recording (stat, bounded
// streaming read, inflating the whole stream to prove it whole, the
// store's update) on the local adapter, and reports its throughput and
// the peak heap above the idle server's (must stay under 64 MB).
// BenchmarkInflate16MB is the reference: inflating the same bytes into
// nothing, nothing else.
func BenchmarkFinalize16MB(b *testing.B) {
	file := replay16MB(b)
	a := arenatest.New(b, arenatest.Options{NoSite: true, InProcess: true, NoRateLimits: true})
	a.Admin(b, "PUT", "/api/v1/admin/settings", map[string]any{"casualRecordingsPerDay": 10000}, 200)
	store := objects.Local{Dir: filepath.Join(a.DataDir, "objects")}
	b.SetBytes(int64(len(file)))
	var peak uint64
	for b.Loop() {
		b.StopTimer()
		init := a.Game(b, "POST", "/api/v1/me/recordings/init", arenatest.Blaise, map[string]any{"scope": "public"}, 200)
		key := keyOf(b, init["upload"].(map[string]any)["url"].(string))
		_, err := store.Write(context.Background(), key, core.ReplayContentType, bytes.NewReader(file), core.MaxRecordingBytes)
		require.NoError(b, err)
		path := fmt.Sprintf("/api/v1/recordings/%.0f/finalize", init["recordingId"])
		b.StartTimer()
		p := peakHeap(func() { a.Game(b, "POST", path, arenatest.Blaise, nil, 200) })
		peak = max(peak, p)
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(len(file))/(1<<20), "file-MB")
}

func BenchmarkInflate16MB(b *testing.B) {
	file := replay16MB(b)
	b.SetBytes(int64(len(file)))
	var inflated int64
	for b.Loop() {
		zr, err := gzip.NewReader(bytes.NewReader(file))
		require.NoError(b, err)
		inflated, err = io.Copy(io.Discard, zr)
		require.NoError(b, err)
	}
	b.ReportMetric(float64(inflated)/float64(len(file)), "inflation")
}

// BenchmarkUploadToFetch measures, over loopback HTTP with the reference
// client, a 1 MB recording from the start of its upload to its bytes
// fetched back by another player: init, PUT to the local adapter's
// signed route, finalize, fetch, download. The reference
// (BenchmarkUploadToFetchBare) is the floor: the same bytes PUT to a
// bare handler that streams them to a file, then GET back.
func BenchmarkUploadToFetch(b *testing.B) {
	a := arenatest.New(b, arenatest.Options{NoSite: true, NoRateLimits: true})
	a.Admin(b, "PUT", "/api/v1/admin/settings", map[string]any{"casualRecordingsPerDay": 10000}, 200)
	file := benchReplay(b, 180000) // about 1 MB
	c := benchClient(b, a.URL, arenatest.Blaise)
	ctx := context.Background()
	b.SetBytes(int64(len(file)))
	for b.Loop() {
		rec, err := c.SubmitRecording(ctx, file)
		require.NoError(b, err)
		url, err := c.FetchRecording(ctx, rec.ID, "")
		require.NoError(b, err)
		got, err := c.Download(ctx, url)
		require.NoError(b, err)
		require.Equal(b, len(file), len(got))
	}
	b.ReportMetric(float64(len(file))/(1<<20), "file-MB")
}

func BenchmarkUploadToFetchBare(b *testing.B) {
	dir := b.TempDir()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := filepath.Join(dir, "object")
		if r.Method == http.MethodPut {
			f, err := os.Create(path)
			if err == nil {
				_, err = io.Copy(f, r.Body)
				err = f.Sync()
				f.Close()
			}
			if err != nil {
				w.WriteHeader(500)
				return
			}
			w.WriteHeader(204)
			return
		}
		http.ServeFile(w, r, path)
	}))
	defer srv.Close()
	file := benchReplay(b, 180000)
	c := benchClient(b, srv.URL, arenatest.Blaise)
	ctx := context.Background()
	b.SetBytes(int64(len(file)))
	for b.Loop() {
		require.NoError(b, c.Upload(ctx, srv.URL+"/object", file))
		got, err := c.Download(ctx, srv.URL+"/object")
		require.NoError(b, err)
		require.Equal(b, len(file), len(got))
	}
}

func benchClient(tb testing.TB, base, id string) *client.Client {
	tb.Helper()
	s := client.NewSettings(base)
	s.MockSteamID = id
	c, err := client.New(s, client.Deps{})
	require.NoError(tb, err)
	return c
}
