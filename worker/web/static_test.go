package web_test

import (
	"crypto/rand"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/views"
	"arena/worker/server"
	"arena/worker/web"
)

// TestStaticPaths: an asset is served under its content-hashed name for
// a year and under its plain name (and an outdated hash) for an hour; a
// path that names no asset (a missing file, an invalid name, an escape) is
// 404, never 500.
func TestStaticPaths(t *testing.T) {
	srv := server.New(server.Config{Random: rand.Reader})
	web.Register(srv, web.Config{SessionKey: []byte(strings.Repeat("k", 32))})
	files, err := fs.ReadDir(views.Static, "static")
	require.NoError(t, err)
	for _, f := range files {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost"+views.StaticPath(f.Name()), nil))
		assert.Equal(t, http.StatusOK, rec.Code, f.Name())
		assert.NotEmpty(t, rec.Header().Get("Content-Type"), "every asset has its type: %s", f.Name())
	}
	hashed := views.StaticPath("app.css")
	assert.Regexp(t, `^/static/app\.[0-9a-z]+\.css$`, hashed)
	for _, c := range []struct {
		path, cache, contentType string
		status                   int
	}{
		{hashed, "public, max-age=31536000, immutable", "text/css; charset=utf-8", http.StatusOK},
		{"/static/app.css", "public, max-age=3600", "text/css; charset=utf-8", http.StatusOK},
		{"/static/app.0123456789abcdef.css", "public, max-age=3600", "text/css; charset=utf-8", http.StatusOK},
		{views.StaticPath("app.js"), "public, max-age=31536000, immutable", "text/javascript; charset=utf-8", http.StatusOK},
		{views.StaticPath("favicon.svg"), "public, max-age=31536000, immutable", "image/svg+xml", http.StatusOK},
		{"/favicon.ico", "public, max-age=3600", "image/x-icon", http.StatusOK},
		{"/static/missing.css", "", "", http.StatusNotFound},
		{"/static/missing.0123.css", "", "", http.StatusNotFound},
		{"/static/%ff", "", "", http.StatusNotFound},
		{"/static/a%ffb.css", "", "", http.StatusNotFound},
		{"/static/..%2fstatic.go", "", "", http.StatusNotFound},
	} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost"+c.path, nil))
		assert.Equal(t, c.status, rec.Code, c.path)
		if c.status == http.StatusOK {
			assert.Equal(t, c.cache, rec.Header().Get("Cache-Control"), c.path)
			assert.Equal(t, c.contentType, rec.Header().Get("Content-Type"), c.path)
			etag := rec.Header().Get("ETag")
			assert.NotEmpty(t, etag, c.path)
			again := httptest.NewRequest("GET", "http://localhost"+c.path, nil)
			again.Header.Set("If-None-Match", etag)
			rec = httptest.NewRecorder()
			srv.ServeHTTP(rec, again)
			assert.Equal(t, http.StatusNotModified, rec.Code, "%s revalidates", c.path)
		}
	}
}
