package arenatest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"arena/sql/libsqltest"
)

// CountingLibSQL is a real libSQL server behind a proxy that counts the
// HTTP requests (database round trips) passing through: an arena created
// with URL as its databaseUrl shows what a request costs on the edge.
type CountingLibSQL struct {
	URL   string
	mu    sync.Mutex
	n     int
	delay time.Duration
	sqls  [][]string // each request's statements since Reset
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
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		c.mu.Lock()
		c.n++
		c.sqls = append(c.sqls, statementsOf(body))
		delay := c.delay
		c.mu.Unlock()
		time.Sleep(delay) // the request's way there
		proxy.ServeHTTP(&delayedWriter{ResponseWriter: w, delay: delay}, r)
	}))
	tb.Cleanup(srv.Close)
	c.URL = srv.URL
	return c
}

// SetDistance puts the server oneWay away: each request waits that long
// on its way there and its answer on its way back (a round trip costs
// 2 x oneWay more).
func (c *CountingLibSQL) SetDistance(oneWay time.Duration) {
	c.mu.Lock()
	c.delay = oneWay
	c.mu.Unlock()
}

// delayedWriter holds an answer back by delay before its first byte.
type delayedWriter struct {
	http.ResponseWriter
	delay time.Duration
	sent  bool
}

func (w *delayedWriter) wait() {
	if !w.sent {
		w.sent = true
		time.Sleep(w.delay)
	}
}

func (w *delayedWriter) WriteHeader(code int) {
	w.wait()
	w.ResponseWriter.WriteHeader(code)
}

func (w *delayedWriter) Write(b []byte) (int, error) {
	w.wait()
	return w.ResponseWriter.Write(b)
}

func (w *delayedWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Reset starts counting from zero.
func (c *CountingLibSQL) Reset() {
	c.mu.Lock()
	c.n = 0
	c.sqls = nil
	c.mu.Unlock()
}

// Count is the number of round trips since the last Reset.
func (c *CountingLibSQL) Count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Statements returns each request's SQL statements since Reset (their
// first line, BEGIN and COMMIT left out): what a route's round trips were
// spent on.
func (c *CountingLibSQL) Statements() [][]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([][]string(nil), c.sqls...)
}

// statementsOf finds the "sql" strings of a Hrana request body.
func statementsOf(body []byte) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if q, ok := v["sql"].(string); ok {
				line, _, _ := strings.Cut(strings.TrimSpace(q), "\n")
				if u := strings.ToUpper(line); !strings.HasPrefix(u, "BEGIN") && u != "COMMIT" && u != "ROLLBACK" {
					out = append(out, line)
				}
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	var v any
	if json.Unmarshal(body, &v) == nil {
		walk(v)
	}
	return out
}
