package server_test

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
	"arena/worker/arenatest"
)

func TestMigrateAll(t *testing.T) {
	o := testOptions()
	o.LazyDirectory = true
	env := &testEnv{arenatest.New(t, o)}
	srv, dirDB, dir := env.Server, env.Directory, env.DataDir
	ctx := context.Background()

	t.Run("ReportsEachArena", func(t *testing.T) {
		var out bytes.Buffer
		require.NoError(t, srv.MigrateAll(ctx, &out)) // migrates the empty directory
		env.createArena(t, "alpha", "alpha.test")
		env.createArena(t, "beta", "beta.test")
		out.Reset()
		require.NoError(t, srv.MigrateAll(ctx, &out))
		assert.Contains(t, out.String(), "[1/2] alpha: up to date")
		assert.Contains(t, out.String(), "[2/2] beta: up to date")
		assert.Contains(t, out.String(), "2 arenas migrated")
	})
	t.Run("MigratesAnArenaBehind", func(t *testing.T) {
		_, err := dirDB.Exec("UPDATE arenas SET schema_version = 0 WHERE slug = 'beta'")
		require.NoError(t, err)
		var out bytes.Buffer
		require.NoError(t, srv.MigrateAll(ctx, &out))
		assert.Contains(t, out.String(), "[2/2] beta: migrated from version 0 to")
	})
	t.Run("StopsAtFirstFailure", func(t *testing.T) {
		// An arena whose database cannot be opened sorts first.
		broken := &core.Arena{
			Slug: "aaa-broken", Name: "Broken", Hosts: []string{"broken.test"}, Plan: core.PlanFree,
			AppIDs: []string{"480"}, GracePeriodSeconds: 60,
			DatabaseURL: "file:" + filepath.Join(dir, "no", "such", "dir", "x.db"),
			CreatedAt:   time.Now(), UpdatedAt: time.Now(),
		}
		require.NoError(t, store.NewDirectory(dirDB).CreateArena(ctx, broken))
		var out bytes.Buffer
		err := srv.MigrateAll(ctx, &out)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "migration stopped at arena aaa-broken (1 of 3)")
		assert.Contains(t, out.String(), "[1/3] aaa-broken: FAILED")
		assert.NotContains(t, out.String(), "[2/3]")
	})
}
