package server_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/openapi/openapitest"
)

// TestDevClockOverflow advances the dev clock by the most one request
// allows until the next advance would overflow: that one is refused with
// 409 clock_overflow and the clock stays where it was.
func TestDevClockOverflow(t *testing.T) {
	env := newTestEnv(t, true)
	rec := openapitest.NewRecorder(t)
	env.Handler = rec.Handler(env.Server)
	const maxAdvance = 365 * 24 * 60 * 60 // the request's limit: a year
	advance := func(seconds int) (int, map[string]any) {
		return env.do(t, "POST", "x.test", "/__dev/clock", "", map[string]any{"advanceSeconds": seconds})
	}
	fits := int(time.Duration(1<<63-1) / (maxAdvance * time.Second)) // 292
	var last time.Time
	for i := 0; i < fits; i++ {
		status, body := advance(maxAdvance)
		require.Equal(t, http.StatusOK, status, "advance %d: %v", i+1, body)
		now, err := time.Parse(time.RFC3339, body["now"].(string))
		require.NoError(t, err)
		require.True(t, now.After(last), "the clock only moves forward")
		last = now
	}
	status, body := advance(maxAdvance)
	assert.Equal(t, http.StatusConflict, status)
	assert.Equal(t, "clock_overflow", body["error"])
	status, body = advance(0)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, last.Format(time.RFC3339), body["now"], "a refused advance moves nothing")
}
