package server_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/views"
	"arena/worker/arenatest"
	"arena/worker/server"
)

// get asks h for path on the demo arena with the headers (pairs).
func get(h http.Handler, path string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, "http://"+arenatest.DemoHost+path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	require.NoError(t, err)
	out, err := io.ReadAll(zr)
	require.NoError(t, err)
	return out
}

// TestCompress: JSON, HTML and CSS go gzip-compressed to a client that
// asks, with their own ETag; a client that does not ask gets the same
// bytes and ETag as without compression; If-None-Match answers 304 with
// either tag.
func TestCompress(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{InProcess: true, NoRateLimits: true})
	plain, h := a.Handler, server.Compress(a.Handler)

	t.Run("JSONUnchangedForOthers", func(t *testing.T) {
		want := get(plain, "/api/v1/tournaments/autumn-open")
		got := get(h, "/api/v1/tournaments/autumn-open")
		require.Equal(t, http.StatusOK, got.Code)
		assert.Equal(t, want.Body.Bytes(), got.Body.Bytes(), "the very bytes")
		assert.Equal(t, want.Header().Get("ETag"), got.Header().Get("ETag"))
		assert.Empty(t, got.Header().Get("Content-Encoding"))
		assert.Contains(t, got.Header().Values("Vary"), "Accept-Encoding")
		refused := get(h, "/api/v1/tournaments/autumn-open", "Accept-Encoding", "gzip;q=0, identity")
		assert.Empty(t, refused.Header().Get("Content-Encoding"), "q=0 refuses gzip")
		assert.Equal(t, want.Body.Bytes(), refused.Body.Bytes())
	})
	t.Run("JSONCompressed", func(t *testing.T) {
		want := get(plain, "/api/v1/tournaments/autumn-open")
		got := get(h, "/api/v1/tournaments/autumn-open", "Accept-Encoding", "br, gzip")
		require.Equal(t, http.StatusOK, got.Code)
		assert.Equal(t, "gzip", got.Header().Get("Content-Encoding"))
		assert.Less(t, got.Body.Len(), want.Body.Len()/2)
		assert.Equal(t, want.Body.Bytes(), gunzip(t, got.Body.Bytes()))
		etag := want.Header().Get("ETag")
		assert.Equal(t, etag[:len(etag)-1]+`-gzip"`, got.Header().Get("ETag"), "its own tag")
		assert.Empty(t, got.Header().Get("Content-Length"))
	})
	t.Run("NotModifiedWithEitherTag", func(t *testing.T) {
		plainTag := get(plain, "/api/v1/tournaments/autumn-open").Header().Get("ETag")
		gzipTag := get(h, "/api/v1/tournaments/autumn-open", "Accept-Encoding", "gzip").Header().Get("ETag")
		for _, c := range []struct{ name, accept, tag, want string }{
			{"PlainClientPlainTag", "", plainTag, plainTag},
			{"GzipClientGzipTag", "gzip", gzipTag, gzipTag},
			{"GzipClientPlainTag", "gzip", plainTag, plainTag},
			{"GzipClientBothTags", "gzip", `"other", ` + gzipTag, gzipTag},
		} {
			rec := get(h, "/api/v1/tournaments/autumn-open", "Accept-Encoding", c.accept, "If-None-Match", c.tag)
			assert.Equal(t, http.StatusNotModified, rec.Code, c.name)
			assert.Equal(t, c.want, rec.Header().Get("ETag"), c.name)
			assert.Zero(t, rec.Body.Len(), c.name)
		}
		rec := get(h, "/api/v1/tournaments/autumn-open", "If-None-Match", gzipTag)
		assert.Equal(t, http.StatusOK, rec.Code, "a client without gzip never holds the compressed one")
	})
	t.Run("PagesAndStylesheet", func(t *testing.T) {
		for _, path := range []string{"/tournaments/autumn-open", views.StaticPath("app.css"), "/static/app.css"} {
			want := get(plain, path)
			got := get(h, path, "Accept-Encoding", "gzip")
			require.Equal(t, http.StatusOK, got.Code, path)
			assert.Equal(t, "gzip", got.Header().Get("Content-Encoding"), path)
			assert.Equal(t, want.Body.Bytes(), gunzip(t, got.Body.Bytes()), path)
		}
	})
	t.Run("SmallAndPartialAnswersPassThrough", func(t *testing.T) {
		small := get(h, "/api/v1/tournaments/nope", "Accept-Encoding", "gzip")
		assert.Equal(t, http.StatusNotFound, small.Code)
		assert.Empty(t, small.Header().Get("Content-Encoding"))
		assert.JSONEq(t, `{"error":"tournament_not_found"}`, small.Body.String())
		part := get(h, "/static/app.css", "Accept-Encoding", "gzip", "Range", "bytes=0-9")
		assert.Equal(t, http.StatusPartialContent, part.Code)
		assert.Empty(t, part.Header().Get("Content-Encoding"))
		assert.Equal(t, 10, part.Body.Len())
	})
}
