package server_test

import (
	"context"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	store "arena/sql"
	"arena/worker/server"
)

// TestHostLookupRefreshedAfterTheAnswer: an instance that is one of many
// writers (an edge isolate: HostCacheTTL) answers from a host lookup
// while it is within its TTL, and reads it again after the answer once
// past half of it, so no request waits for the directory meanwhile.
// Another instance's rename is seen within the TTL.
func TestHostLookupRefreshedAfterTheAnswer(t *testing.T) {
	const ttl = 10 * time.Second
	for _, queued := range []bool{true, false} {
		name := map[bool]string{true: "Queued", false: "InAGoroutine"}[queued]
		t.Run(name, func(t *testing.T) {
			var mu sync.Mutex
			var jobs []func(context.Context)
			env := newTestEnv(t, false, func(c *server.Config) {
				c.SoleWriter, c.HostCacheTTL = false, ttl
				if queued { // as edge.Bridge.After: run by the test, after the answer
					c.AfterAnswer = func(_ context.Context, job func(context.Context)) {
						mu.Lock()
						jobs = append(jobs, job)
						mu.Unlock()
					}
				}
			})
			env.createArena(t, "alpha", "alpha.test")
			arenaName := func() string {
				status, body := env.do(t, "GET", "alpha.test", "/api/v1", "", nil)
				require.Equal(t, http.StatusOK, status, body)
				return body["tenant"].(map[string]any)["name"].(string)
			}
			pending := func() int {
				mu.Lock()
				defer mu.Unlock()
				return len(jobs)
			}
			require.Equal(t, "Arena alpha", arenaName()) // looked up now

			// Another instance renames the arena.
			other, err := store.Open("file:"+filepath.Join(env.DataDir, "directory.db"), "")
			require.NoError(t, err)
			defer other.Close()
			elsewhere := store.NewDirectory(other)
			a, err := elsewhere.ArenaBySlug(context.Background(), "alpha")
			require.NoError(t, err)
			a.Name = "Renamed elsewhere"
			require.NoError(t, elsewhere.UpdateArenaSettings(context.Background(), a))

			env.Now = env.Now.Add(ttl / 4)
			assert.Equal(t, "Arena alpha", arenaName(), "fresh: answered from memory")
			assert.Zero(t, pending(), "nothing due")

			env.Now = env.Now.Add(ttl / 2)
			if !queued {
				assert.Eventually(t, func() bool { return arenaName() == "Renamed elsewhere" }, 5*time.Second, 10*time.Millisecond,
					"refreshed in the background, within the TTL")
				return
			}
			assert.Equal(t, "Arena alpha", arenaName(), "past half its TTL, within it: still answered from memory")
			require.Equal(t, 1, pending(), "a refresh left for after the answer")
			assert.Equal(t, "Arena alpha", arenaName())
			require.Equal(t, 1, pending(), "one refresh at a time")
			jobs[0](context.Background())
			assert.Equal(t, "Renamed elsewhere", arenaName(), "seen once refreshed")
			assert.Equal(t, 1, pending(), "the refreshed lookup is fresh again")
		})
	}
}
