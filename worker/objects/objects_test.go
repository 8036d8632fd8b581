package objects_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/worker/objects"
	"arena/worker/objects/s3test"
)

func randomBytes(t *testing.T, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return b
}

func readAll(t *testing.T, store core.ObjectStore, key string, offset, length int64) []byte {
	t.Helper()
	rd, err := store.Read(context.Background(), key, offset, length)
	require.NoError(t, err)
	defer rd.Close()
	b, err := io.ReadAll(rd)
	require.NoError(t, err)
	return b
}

// checkStored is what every adapter must do with a stored object: stat
// its size, read bounded ranges, delete it (twice is fine).
func checkStored(t *testing.T, store core.ObjectStore, key string, want []byte) {
	t.Helper()
	ctx := context.Background()
	info, err := store.Stat(ctx, key)
	require.NoError(t, err)
	assert.Equal(t, core.ObjectInfo{Found: true, Size: int64(len(want))}, info)
	assert.Equal(t, want, readAll(t, store, key, 0, int64(len(want))), "the whole object")
	assert.Equal(t, want[100:1100], readAll(t, store, key, 100, 1000), "a bounded range")
	assert.Equal(t, want[:10], readAll(t, store, key, 0, 10), "never more than asked")

	require.NoError(t, store.Delete(ctx, key))
	info, err = store.Stat(ctx, key)
	require.NoError(t, err)
	assert.False(t, info.Found, "deleted")
	require.NoError(t, store.Delete(ctx, key), "deleting a missing object is fine")
}

// checkCopy is what every adapter's Copy must do: a snapshot of the
// object at from (replace swaps from's bytes afterwards, as a client's
// second PUT would), found false for a missing object.
func checkCopy(t *testing.T, store core.ObjectStore, from string, first []byte, replace func(key string, body []byte)) {
	t.Helper()
	ctx := context.Background()
	to := strings.Replace(from, "/rec/", "/checked/", 1)
	found, err := store.Copy(ctx, from, to)
	require.NoError(t, err)
	require.True(t, found)
	replace(from, first[:len(first)/2])
	assert.Equal(t, first[:len(first)/2], readAll(t, store, from, 0, int64(len(first))), "the source took the new bytes")
	info, err := store.Stat(ctx, to)
	require.NoError(t, err)
	assert.Equal(t, core.ObjectInfo{Found: true, Size: int64(len(first))}, info, "the copy keeps its size")
	assert.True(t, bytes.Equal(first, readAll(t, store, to, 0, int64(len(first)))), "the copy is a snapshot")
	require.NoError(t, store.Delete(ctx, from))
	assert.True(t, bytes.Equal(first, readAll(t, store, to, 0, int64(len(first)))), "and outlives its source")

	found, err = store.Copy(ctx, from, to+".none")
	require.NoError(t, err)
	assert.False(t, found, "no source, no copy")
	info, err = store.Stat(ctx, to+".none")
	require.NoError(t, err)
	assert.False(t, info.Found)
	require.NoError(t, store.Delete(ctx, to))
}

// put sends a client's upload (curl-equivalent: one PUT, the body, the
// Content-Type) to a presigned URL and returns the status.
func put(t testing.TB, target, contentType string, body []byte) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPut, target, bytes.NewReader(body))
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	return resp.StatusCode
}

func TestS3AgainstARealServer(t *testing.T) {
	s3 := s3test.Start(t)
	ctx := context.Background()
	key := "demo/rec/0123abcd.gz"
	body := randomBytes(t, 3<<20)

	info, err := s3.Stat(ctx, key)
	require.NoError(t, err)
	assert.False(t, info.Found, "nothing uploaded yet")

	signed, err := s3.PresignPut(ctx, key, core.ReplayContentType, time.Minute)
	require.NoError(t, err)
	t.Run("WrongContentTypeRefused", func(t *testing.T) {
		assert.Equal(t, http.StatusForbidden, put(t, signed, "application/octet-stream", body[:100]))
		assert.Equal(t, http.StatusForbidden, put(t, signed, "", body[:100]))
	})
	t.Run("OtherKeyRefused", func(t *testing.T) {
		assert.Equal(t, http.StatusForbidden, put(t, strings.Replace(signed, "0123abcd", "0123abce", 1), core.ReplayContentType, body[:100]))
	})
	t.Run("WrongSecretRefused", func(t *testing.T) {
		forged := *s3
		forged.SecretAccessKey = "not-the-secret"
		u, err := forged.PresignPut(ctx, key, core.ReplayContentType, time.Minute)
		require.NoError(t, err)
		assert.Equal(t, http.StatusForbidden, put(t, u, core.ReplayContentType, body[:100]))
	})
	info, err = s3.Stat(ctx, key)
	require.NoError(t, err)
	require.False(t, info.Found, "refused uploads stored nothing")

	require.Equal(t, http.StatusOK, put(t, signed, core.ReplayContentType, body))
	get, err := s3.PresignGet(ctx, key, time.Minute)
	require.NoError(t, err)
	resp, err := http.Get(get)
	require.NoError(t, err)
	fetched, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, body, fetched, "a presigned GET serves the object")

	checkStored(t, s3, key, body)

	t.Run("Copy", func(t *testing.T) {
		require.Equal(t, http.StatusOK, put(t, signed, core.ReplayContentType, body))
		checkCopy(t, s3, key, body, func(key string, b []byte) {
			again, err := s3.PresignPut(ctx, key, core.ReplayContentType, time.Minute)
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, put(t, again, core.ReplayContentType, b))
		})
	})
}

func TestLocal(t *testing.T) {
	store := objects.Local{Dir: t.TempDir()}
	ctx := context.Background()
	body := randomBytes(t, 5000)
	n, err := store.Write(ctx, "demo/rec/a.gz", core.ReplayContentType, bytes.NewReader(body), 5000)
	require.NoError(t, err)
	assert.Equal(t, int64(5000), n)
	checkStored(t, store, "demo/rec/a.gz", body)
	write := func(key string, b []byte) {
		_, err := store.Write(ctx, key, core.ReplayContentType, bytes.NewReader(b), int64(len(b)))
		require.NoError(t, err)
	}
	write("demo/rec/c.gz", body)
	checkCopy(t, store, "demo/rec/c.gz", body, write)

	t.Run("OverTheLimitKeepsNothing", func(t *testing.T) {
		_, err := store.Write(ctx, "demo/rec/b.gz", core.ReplayContentType, bytes.NewReader(body), 4999)
		assert.Equal(t, core.CodeRecordingTooLarge, core.ErrorCode(err))
		info, err := store.Stat(ctx, "demo/rec/b.gz")
		require.NoError(t, err)
		assert.False(t, info.Found)
		left, err := os.ReadDir(filepath.Join(store.Dir, "demo", "rec"))
		require.NoError(t, err)
		assert.Empty(t, left, "no temporary file is left behind")
	})
	t.Run("StaleUploadsRemoved", func(t *testing.T) {
		dir := filepath.Join(store.Dir, "demo", "rec")
		require.NoError(t, os.MkdirAll(dir, 0o755))
		old, fresh := filepath.Join(dir, ".upload-1"), filepath.Join(dir, ".upload-2")
		require.NoError(t, os.WriteFile(old, []byte("cut off"), 0o644))
		require.NoError(t, os.WriteFile(fresh, []byte("in flight"), 0o644))
		past := time.Now().Add(-2 * time.Hour)
		require.NoError(t, os.Chtimes(old, past, past))
		_, err := store.Write(ctx, "demo/rec/kept.gz", core.ReplayContentType, bytes.NewReader(body), 5000)
		require.NoError(t, err)
		n, err := store.RemoveStaleUploads(time.Now().Add(-time.Hour))
		require.NoError(t, err)
		assert.Equal(t, 1, n)
		assert.NoFileExists(t, old)
		assert.FileExists(t, fresh, "an upload in flight is left alone")
		assert.FileExists(t, filepath.Join(dir, "kept.gz"))
		n, err = objects.Local{Dir: filepath.Join(store.Dir, "none")}.RemoveStaleUploads(time.Now())
		assert.NoError(t, err, "no directory yet")
		assert.Zero(t, n)
	})
	t.Run("KeysOutsideTheShapeRefused", func(t *testing.T) {
		for _, key := range []string{"../x", "demo/../../x", "/abs", "demo/.hidden", "Demo/x", ""} {
			_, err := store.Write(ctx, key, core.ReplayContentType, bytes.NewReader(body), 5000)
			assert.Error(t, err, key)
			_, err = store.Stat(ctx, key)
			assert.Error(t, err, key)
		}
	})
}

// localBinding serves R2Calls from a directory, as the binding serves
// them from a bucket: the R2 adapter's own logic (ranged chunks, local
// writes) runs against real files.
type localBinding struct {
	dir   objects.Local
	calls atomic.Int64
	max   atomic.Int64 // the largest body one call carried
}

func (b *localBinding) CallR2(ctx context.Context, c objects.R2Call) (objects.R2Result, error) {
	b.calls.Add(1)
	switch c.Op {
	case "head", "get":
		info, err := b.dir.Stat(ctx, c.Key)
		if err != nil || !info.Found {
			return objects.R2Result{}, err
		}
		res := objects.R2Result{Found: true, Size: info.Size}
		if c.Op == "get" {
			rd, err := b.dir.Read(ctx, c.Key, c.Offset, c.Length)
			if err != nil {
				return res, err
			}
			defer rd.Close()
			if res.Body, err = io.ReadAll(rd); err != nil {
				return res, err
			}
			if n := int64(len(res.Body)); n > b.max.Load() {
				b.max.Store(n)
			}
		}
		return res, nil
	case "put":
		_, err := b.dir.Write(ctx, c.Key, c.ContentType, bytes.NewReader(c.Body), int64(len(c.Body)))
		return objects.R2Result{}, err
	case "delete":
		return objects.R2Result{}, b.dir.Delete(ctx, c.Key)
	case "copy":
		found, err := b.dir.Copy(ctx, c.From, c.Key)
		return objects.R2Result{Found: found}, err
	}
	return objects.R2Result{}, io.ErrUnexpectedEOF
}

func TestR2ThroughItsBinding(t *testing.T) {
	binding := &localBinding{dir: objects.Local{Dir: t.TempDir()}}
	store := objects.NewR2(binding, nil)
	writer, ok := store.(core.ObjectWriter)
	require.True(t, ok, "without S3 credentials: local-route mode")
	_, presigns := store.(core.ObjectPresigner)
	assert.False(t, presigns)

	ctx := context.Background()
	body := randomBytes(t, 3<<20+17)
	_, err := writer.Write(ctx, "demo/rec/r.gz", core.ReplayContentType, bytes.NewReader(body), core.MaxRecordingBytes)
	require.NoError(t, err)
	before := binding.calls.Load()
	assert.Equal(t, body, readAll(t, store, "demo/rec/r.gz", 0, int64(len(body))))
	assert.Equal(t, int64(4), binding.calls.Load()-before, "a 3 MiB read is four ranged gets")
	assert.LessOrEqual(t, binding.max.Load(), int64(1<<20), "no call carries more than 1 MiB")
	checkStored(t, store, "demo/rec/r.gz", body)

	write := func(key string, b []byte) {
		_, err := writer.Write(ctx, key, core.ReplayContentType, bytes.NewReader(b), int64(len(b)))
		require.NoError(t, err)
	}
	write("demo/rec/c.gz", body)
	before = binding.calls.Load()
	found, err := store.Copy(ctx, "demo/rec/c.gz", "demo/checked/one-call.gz")
	require.NoError(t, err)
	assert.True(t, found)
	assert.Equal(t, int64(1), binding.calls.Load()-before, "a copy is one call: the bytes stay on the JS side")
	checkCopy(t, store, "demo/rec/c.gz", body, write)

	_, err = writer.Write(ctx, "demo/rec/big.gz", core.ReplayContentType, bytes.NewReader(body), 1<<20)
	assert.Equal(t, core.CodeRecordingTooLarge, core.ErrorCode(err))

	_, presigned := objects.NewR2(binding, &objects.S3{Endpoint: "https://acct.r2.example", Bucket: "b", Region: "auto"}).(core.ObjectPresigner)
	assert.True(t, presigned, "with S3 credentials: presigned URLs")
}

func TestRouteSigner(t *testing.T) {
	s := objects.RouteSigner{Key: []byte("route-key")}
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	signed := s.URL("http://demo.test", http.MethodPut, "demo/rec/a.gz", core.ReplayContentType, now.Add(time.Minute))
	u, err := url.Parse(signed)
	require.NoError(t, err)
	require.Equal(t, objects.RoutePath+"demo/rec/a.gz", u.Path)
	q := u.Query()
	require.NoError(t, s.Check(http.MethodPut, "demo/rec/a.gz", core.ReplayContentType, q, now))

	tampered := func(k, v string) url.Values {
		c := url.Values{}
		for key, vals := range q {
			c[key] = vals
		}
		c.Set(k, v)
		return c
	}
	for name, tc := range map[string]struct {
		method, key, contentType string
		query                    url.Values
		at                       time.Time
		code                     string
	}{
		"OtherKey":          {http.MethodPut, "demo/rec/b.gz", core.ReplayContentType, q, now, core.CodeInvalidSignature},
		"OtherMethod":       {http.MethodGet, "demo/rec/a.gz", core.ReplayContentType, q, now, core.CodeInvalidSignature},
		"WrongContentType":  {http.MethodPut, "demo/rec/a.gz", "application/octet-stream", q, now, core.CodeInvalidSignature},
		"NoContentType":     {http.MethodPut, "demo/rec/a.gz", "", q, now, core.CodeInvalidSignature},
		"LaterExpiry":       {http.MethodPut, "demo/rec/a.gz", core.ReplayContentType, tampered("expires", "9999999999"), now, core.CodeInvalidSignature},
		"TamperedSignature": {http.MethodPut, "demo/rec/a.gz", core.ReplayContentType, tampered("sig", "AAAA"), now, core.CodeInvalidSignature},
		"Unsigned":          {http.MethodPut, "demo/rec/a.gz", core.ReplayContentType, url.Values{}, now, core.CodeInvalidSignature},
		"Expired":           {http.MethodPut, "demo/rec/a.gz", core.ReplayContentType, q, now.Add(61 * time.Second), core.CodeURLExpired},
	} {
		t.Run(name, func(t *testing.T) {
			err := s.Check(tc.method, tc.key, tc.contentType, tc.query, tc.at)
			assert.Equal(t, tc.code, core.ErrorCode(err))
		})
	}
	other := objects.RouteSigner{Key: []byte("another-key")}
	assert.Equal(t, core.CodeInvalidSignature, core.ErrorCode(other.Check(http.MethodPut, "demo/rec/a.gz", core.ReplayContentType, q, now)), "another deployment's key")
}

// BenchmarkFinalizeCopy measures what finalize's copy adds for an object
// at the 16 MB ceiling, beside what finalize already pays: reading the
// object through (Read, its bounded read). S3 is a real versitygw
// (ARENA_REQUIRE_S3=1 to insist on it).
func BenchmarkFinalizeCopy(b *testing.B) {
	body := make([]byte, core.MaxRecordingBytes)
	_, _ = rand.Read(body)
	ctx := context.Background()
	local := objects.Local{Dir: b.TempDir()}
	s3 := s3test.Start(b)
	for _, tc := range []struct {
		name  string
		store core.ObjectStore
		put   func(key string)
	}{
		{"Local", local, func(key string) {
			_, err := local.Write(ctx, key, core.ReplayContentType, bytes.NewReader(body), int64(len(body)))
			require.NoError(b, err)
		}},
		{"S3", s3, func(key string) {
			u, err := s3.PresignPut(ctx, key, core.ReplayContentType, time.Minute)
			require.NoError(b, err)
			require.Equal(b, http.StatusOK, put(b, u, core.ReplayContentType, body))
		}},
	} {
		tc.put("demo/rec/bench.gz")
		b.Run(tc.name+"/Copy", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for i := 0; b.Loop(); i++ {
				found, err := tc.store.Copy(ctx, "demo/rec/bench.gz", "demo/checked/bench-"+strconv.Itoa(i)+".gz")
				require.NoError(b, err)
				require.True(b, found)
			}
		})
		b.Run(tc.name+"/Read", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				rd, err := tc.store.Read(ctx, "demo/rec/bench.gz", 0, int64(len(body)))
				require.NoError(b, err)
				_, err = io.Copy(io.Discard, rd)
				require.NoError(b, err)
				rd.Close()
			}
		})
	}
}
