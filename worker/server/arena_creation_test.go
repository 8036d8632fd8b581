package server_test

import (
	"context"
	"crypto/rand"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
	"arena/worker/server"
)

// arenaFiles lists the files in the data directory's arenas/ folder.
func arenaFiles(t *testing.T, env *testEnv) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(env.DataDir, "arenas"))
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// openArenaFiles returns the files under the data directory's arenas/
// folder this process holds open (from /proc/self/fd), or ok false where
// there is no /proc.
func openArenaFiles(env *testEnv) (files []string, ok bool) {
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return nil, false
	}
	prefix := filepath.Join(env.DataDir, "arenas") + string(filepath.Separator)
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err == nil && strings.HasPrefix(target, prefix) {
			files = append(files, filepath.Base(target))
		}
	}
	return files, true
}

// TestCreateArenaRaceLeavesNoOrphans: of 20 parallel creations of one
// slug, one wins; the others create no database, so data/arenas holds the
// winner's files only and nothing else is open.
func TestCreateArenaRaceLeavesNoOrphans(t *testing.T) {
	env := newTestEnv(t, false)
	const n = 20
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i], _ = env.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, arenaRequest("race", "race.test"))
		}()
	}
	wg.Wait()
	created := 0
	for _, s := range statuses {
		if s == http.StatusCreated {
			created++
		} else {
			assert.Equal(t, http.StatusConflict, s)
		}
	}
	require.Equal(t, 1, created)

	for _, name := range arenaFiles(t, env) {
		assert.True(t, strings.HasPrefix(name, "race.db"), "only the winner's database (and its -wal/-shm) in data/arenas, found %s", name)
	}
	if open, ok := openArenaFiles(env); ok {
		for _, name := range open {
			assert.True(t, strings.HasPrefix(name, "race.db"), "open file %s", name)
		}
		t.Logf("files in data/arenas: %v; open: %v", arenaFiles(t, env), open)
	}
	status, _ := env.do(t, "GET", "race.test", "/api/v1/tournaments", "", nil)
	assert.Equal(t, http.StatusOK, status)
}

// switchableRandom is crypto randomness that fails while fail is set.
type switchableRandom struct{ fail atomic.Bool }

func (r *switchableRandom) Read(p []byte) (int, error) {
	if r.fail.Load() {
		return 0, errors.New("no randomness")
	}
	return rand.Read(p)
}

// TestCreateArenaFailureLeavesNothing: a creation that fails after its
// database was provisioned and migrated (minting the admin token fails)
// removes the database file and frees slug and hosts.
func TestCreateArenaFailureLeavesNothing(t *testing.T) {
	random := &switchableRandom{}
	env := newTestEnvWith(t, false, func(c *server.Config) { c.Random = random })
	random.fail.Store(true)
	status, _ := env.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, arenaRequest("alpha", "alpha.test"))
	require.Equal(t, http.StatusInternalServerError, status)
	assert.Empty(t, arenaFiles(t, env), "the provisioned database is removed")
	status, _ = env.do(t, "GET", "alpha.test", "/api/v1", "", nil)
	assert.Equal(t, http.StatusNotFound, status)

	random.fail.Store(false)
	env.createArena(t, "alpha", "alpha.test")
	assert.Equal(t, []string{"alpha.db"}, arenaFiles(t, env))
}

// crashedCreation leaves what a process killed during an arena creation
// leaves: the claim, the recorded database, migrated, never completed.
func crashedCreation(t *testing.T, env *testEnv, slug, host string) {
	t.Helper()
	ctx := context.Background()
	a := &core.Arena{
		Slug: slug, Name: "Crashed", Hosts: []string{host}, Plan: core.PlanFree, AppIDs: []string{"480"},
		GracePeriodSeconds: 60, CreatedAt: env.Now, UpdatedAt: env.Now,
	}
	dir := env.Server.Directory()
	require.NoError(t, dir.BeginArena(ctx, a, true))
	url, _, err := store.LocalProvisioner{Dir: env.DataDir}.ProvisionDatabase(ctx, slug)
	require.NoError(t, err)
	require.NoError(t, dir.SetCreatingDatabase(ctx, a.ID, url, ""))
	db, err := store.OpenIn(env.DataDir)(url, "")
	require.NoError(t, err)
	_, err = store.Migrate(ctx, db, store.ArenaMigrations)
	require.NoError(t, err)
	require.NoError(t, db.Close())
}

// TestCrashedCreationIsDropped: a creation cut off by a crash routes
// nowhere and holds its slug until the scheduled jobs drop it, once
// core.ArenaCreationTimeout has passed, with its database; the native
// start drops it at once (DropUnfinishedArenas).
func TestCrashedCreationIsDropped(t *testing.T) {
	t.Run("ByTheScheduledJobs", func(t *testing.T) {
		env := newTestEnv(t, false)
		crashedCreation(t, env, "alpha", "alpha.test")
		require.NotEmpty(t, arenaFiles(t, env))
		status, _ := env.do(t, "GET", "alpha.test", "/api/v1", "", nil)
		assert.Equal(t, http.StatusNotFound, status, "an unfinished arena routes nowhere")
		_, list := env.do(t, "GET", "ops.test", "/api/v1/operator/arenas", operatorToken, nil)
		assert.Empty(t, list["arenas"], "nor is it listed")
		status, _ = env.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, arenaRequest("alpha", "other.test"))
		assert.Equal(t, http.StatusConflict, status, "its slug stays claimed meanwhile")

		report, err := env.Server.RunScheduled(context.Background())
		require.NoError(t, err)
		assert.Zero(t, report.Jobs["unfinished_arenas"], "a creation may still be under way")
		assert.NotEmpty(t, arenaFiles(t, env))

		env.Now = env.Now.Add(core.ArenaCreationTimeout + time.Second)
		report, err = env.Server.RunScheduled(context.Background())
		require.NoError(t, err)
		assert.Equal(t, 1, report.Jobs["unfinished_arenas"])
		assert.Empty(t, arenaFiles(t, env))
		env.createArena(t, "alpha", "alpha.test")
	})
	t.Run("AtStart", func(t *testing.T) {
		env := newTestEnv(t, false)
		env.createArena(t, "done", "done.test")
		crashedCreation(t, env, "alpha", "alpha.test")
		n, err := env.Server.DropUnfinishedArenas(context.Background())
		require.NoError(t, err)
		assert.Equal(t, 1, n)
		assert.Equal(t, []string{"done.db"}, arenaFiles(t, env), "a complete arena is never touched")
		status, _ := env.do(t, "GET", "done.test", "/api/v1", "", nil)
		assert.Equal(t, http.StatusOK, status)
		env.createArena(t, "alpha", "alpha.test")
	})
}
