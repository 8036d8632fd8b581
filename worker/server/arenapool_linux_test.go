package server_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/server"
)

// The file-handle test: a process whose file-handle limit is far below
// what every arena's database would need serves many more arenas than
// the bound of open databases, with no 5xx answer. It runs in a child
// process (this test binary again) because the limit is process-wide.
const (
	handleTestArenas = 200 // each open local database holds 3 to 11 handles
	handleTestLimit  = 256 // RLIMIT_NOFILE of the child
	handleTestBound  = 16  // Config.MaxOpenArenas
)

func TestManyArenasFewFileHandles(t *testing.T) {
	if os.Getenv("ARENA_HANDLE_TEST_BOUND") != "" {
		serveManyArenas(t)
		return
	}
	if testing.Short() {
		t.Skip("starts a child process serving many arenas")
	}
	if raceDetector {
		// The SQLite engine is Go: under the race detector the 200 arena
		// creations take minutes. make test runs this test without it; the
		// pool's concurrency is raced in TestArenaPoolConcurrent.
		t.Skip("runs without the race detector")
	}
	run := func(bound, rounds int) (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestManyArenasFewFileHandles$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), "ARENA_HANDLE_TEST_BOUND="+strconv.Itoa(bound), "ARENA_HANDLE_TEST_ROUNDS="+strconv.Itoa(rounds))
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run(handleTestBound, 2)
	figures := handleFigures(out)
	t.Logf("bounded: %s", figures)
	require.NoError(t, err, out)
	assert.Contains(t, figures, " 5xx=0 ")

	// The control: the same load with a bound above the arena count (every
	// database stays open, as before the pool) runs out of handles.
	out, _ = run(handleTestArenas+1, 1)
	figures = handleFigures(out)
	t.Logf("unbounded: %s", figures)
	assert.NotContains(t, figures, " 5xx=0 ", "without the bound the limit must be hit, else this test proves nothing")
}

// handleFigures picks the child's figures line out of its output.
func handleFigures(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if i := strings.Index(line, "handles: "); i >= 0 {
			return line[i+len("handles: "):]
		}
	}
	return "(no figures; child output: " + out + ")"
}

// serveManyArenas is the child: it lowers its file-handle limit, creates
// the arenas, then reads and writes in each of them from 8 goroutines in
// random order, ARENA_HANDLE_TEST_ROUNDS times, counting 5xx answers and the most file
// handles seen open in /proc/self/fd.
func serveManyArenas(t *testing.T) {
	bound, err := strconv.Atoi(os.Getenv("ARENA_HANDLE_TEST_BOUND"))
	require.NoError(t, err)
	rounds, err := strconv.Atoi(os.Getenv("ARENA_HANDLE_TEST_ROUNDS"))
	require.NoError(t, err)
	require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: handleTestLimit, Max: handleTestLimit}))
	env := newTestEnvWith(t, false, func(c *server.Config) { c.MaxOpenArenas = bound })

	var maxHandles atomic.Int64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if entries, err := os.ReadDir("/proc/self/fd"); err == nil && int64(len(entries)) > maxHandles.Load() {
				maxHandles.Store(int64(len(entries)))
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()

	tokens := make([]string, handleTestArenas)
	var created sync.WaitGroup
	for w := range 4 {
		created.Add(1)
		go func() {
			defer created.Done()
			for i := w; i < len(tokens); i += 4 {
				status, body := env.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, arenaRequest(fmt.Sprintf("arena-%d", i), fmt.Sprintf("arena-%d.test", i)))
				if !assert.Equal(t, http.StatusCreated, status, body) {
					return
				}
				tokens[i] = body["adminToken"].(string)
			}
		}()
	}
	created.Wait()
	require.False(t, t.Failed())

	var requests, failures atomic.Int64
	var firstFailure sync.Once
	var failure string
	check := func(method, path string, status int, body map[string]any) {
		requests.Add(1)
		if status >= 500 {
			failures.Add(1)
			firstFailure.Do(func() { failure = fmt.Sprintf("%s %s: %d %v", method, path, status, body) })
		}
	}
	for round := range rounds {
		order := rand.Perm(handleTestArenas)
		var next atomic.Int64
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					n := int(next.Add(1)) - 1
					if n >= len(order) {
						return
					}
					i := order[n]
					host := fmt.Sprintf("arena-%d.test", i)
					status, body := env.do(t, "GET", host, "/api/v1/tournaments", "", nil)
					check("GET", "/api/v1/tournaments", status, body)
					status, body = env.do(t, "GET", host, "/api/v1/admin/queue", tokens[i], nil)
					check("GET", "/api/v1/admin/queue", status, body)
					season := map[string]any{"slug": fmt.Sprintf("s%d", round), "name": "Season", "startsAt": "2026-01-01T00:00:00Z", "endsAt": "2026-12-31T00:00:00Z"}
					status, body = env.do(t, "POST", host, "/api/v1/admin/seasons", tokens[i], season)
					check("POST", "/api/v1/admin/seasons", status, body)
				}
			}()
		}
		wg.Wait()
	}
	close(stop)
	<-sampled
	t.Logf("handles: arenas=%d bound=%d limit=%d rounds=%d requests=%d 5xx=%d max_handles_seen=%d open_databases_after=%d first_5xx=%q",
		handleTestArenas, bound, handleTestLimit, rounds, requests.Load(), failures.Load(), maxHandles.Load(), env.Server.OpenArenaDatabases(), failure)
	assert.Zero(t, failures.Load())
	assert.LessOrEqual(t, env.Server.OpenArenaDatabases(), bound)
}
