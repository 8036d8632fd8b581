package web_test

import (
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"arena/worker/server"
	"arena/worker/web"
)

// TestStaticPaths: a static asset is served, and a path that names no
// asset (a missing file, an invalid name, an escape) is 404, never 500.
func TestStaticPaths(t *testing.T) {
	srv := server.New(server.Config{Random: rand.Reader})
	web.Register(srv, web.Config{SessionKey: []byte(strings.Repeat("k", 32))})
	for _, c := range []struct {
		path   string
		status int
	}{
		{"/static/app.css", http.StatusOK},
		{"/static/missing.css", http.StatusNotFound},
		{"/static/%ff", http.StatusNotFound},
		{"/static/a%ffb.css", http.StatusNotFound},
		{"/static/..%2fstatic.go", http.StatusNotFound},
	} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost"+c.path, nil))
		assert.Equal(t, c.status, rec.Code, c.path)
	}
}
