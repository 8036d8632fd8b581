package arenatest

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"arena/sql/libsqltest"
)

// CountingLibSQL is a real libSQL server behind a proxy that counts the
// HTTP requests (database round trips) passing through: an arena created
// with URL as its databaseUrl shows what a request costs on the edge.
type CountingLibSQL struct {
	URL string
	mu  sync.Mutex
	n   int
}

// StartCountingLibSQL starts the server and its proxy; both stop when the
// test ends.
func StartCountingLibSQL(tb testing.TB) *CountingLibSQL {
	tb.Helper()
	backend, err := url.Parse(libsqltest.Start(tb))
	require.NoError(tb, err)
	c := &CountingLibSQL{}
	proxy := httputil.NewSingleHostReverseProxy(backend)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.n++
		c.mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	tb.Cleanup(srv.Close)
	c.URL = srv.URL
	return c
}

// Reset starts counting from zero.
func (c *CountingLibSQL) Reset() {
	c.mu.Lock()
	c.n = 0
	c.mu.Unlock()
}

// Count is the number of round trips since the last Reset.
func (c *CountingLibSQL) Count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
