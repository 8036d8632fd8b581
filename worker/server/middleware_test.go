package server_test

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRequestIDs: every answer carries X-Request-Id: the client's when
// well-formed, else one of the process's (16 hex digits, never repeated),
// and the request's log line names it.
func TestRequestIDs(t *testing.T) {
	e := newTestEnv(t, false)
	get := func(id string) string {
		req := httptest.NewRequest("GET", "/healthz", nil)
		if id != "" {
			req.Header.Set("X-Request-Id", id)
		}
		rec := httptest.NewRecorder()
		e.Server.ServeHTTP(rec, req)
		assert.Equal(t, http.StatusOK, rec.Code)
		return rec.Header().Get("X-Request-Id")
	}
	seen := map[string]bool{}
	for range 100 {
		id := get("")
		assert.Regexp(t, `^[0-9a-f]{16}$`, id)
		assert.False(t, seen[id], "ids are not repeated")
		seen[id] = true
	}
	assert.Equal(t, "client-id.1", get("client-id.1"))
	own := get("not an id!")
	assert.Regexp(t, `^[0-9a-f]{16}$`, own)
	assert.Regexp(t, regexp.MustCompile(`request_id=`+own), e.Logs.String())
}
