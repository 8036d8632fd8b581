package store_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
)

func TestArenaCreation(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		db := open()
		mustMigrate(t, db, store.DirectoryMigrations)
		dir := store.NewDirectory(db)

		a := testArena("alpha", "alpha.test")
		a.DatabaseURL, a.SchemaVersion = "", 0
		require.NoError(t, dir.BeginArena(ctx, a, true))
		require.NotZero(t, a.ID)

		t.Run("UnfinishedRoutesNowhereButHoldsSlugAndHosts", func(t *testing.T) {
			_, err := dir.ArenaByHost(ctx, "alpha.test")
			assert.Equal(t, core.CodeArenaNotFound, core.ErrorCode(err))
			all, err := dir.Arenas(ctx)
			require.NoError(t, err)
			assert.Empty(t, all)
			err = dir.BeginArena(ctx, testArena("alpha", "other.test"), true)
			assert.Equal(t, core.CodeSlugTaken, core.ErrorCode(err))
			err = dir.CreateArena(ctx, testArena("beta", "alpha.test"))
			assert.Equal(t, core.CodeHostTaken, core.ErrorCode(err))
		})
		t.Run("UnfinishedArenasListsIt", func(t *testing.T) {
			require.NoError(t, dir.SetCreatingDatabase(ctx, a.ID, "file:arenas/alpha.db", "tok"))
			got, err := dir.UnfinishedArenas(ctx)
			require.NoError(t, err)
			require.Len(t, got, 1)
			assert.Equal(t, core.UnfinishedArena{ID: a.ID, Slug: "alpha", DatabaseURL: "file:arenas/alpha.db", Provisioned: true, BegunAt: t0}, got[0])
		})
		t.Run("CompleteArenaRoutesIt", func(t *testing.T) {
			a.DatabaseURL, a.DatabaseToken, a.SchemaVersion = "file:arenas/alpha.db", "tok", 7
			require.NoError(t, dir.CompleteArena(ctx, a))
			got, err := dir.ArenaByHost(ctx, "alpha.test")
			require.NoError(t, err)
			assert.Equal(t, 7, got.SchemaVersion)
			assert.Equal(t, "tok", got.DatabaseToken)
			unfinished, err := dir.UnfinishedArenas(ctx)
			require.NoError(t, err)
			assert.Empty(t, unfinished)
		})
		t.Run("AbandonLeavesACompleteArenaAlone", func(t *testing.T) {
			require.NoError(t, dir.AbandonArena(ctx, a.ID))
			_, err := dir.ArenaByHost(ctx, "alpha.test")
			assert.NoError(t, err)
			err = dir.CompleteArena(ctx, a)
			assert.Equal(t, core.CodeArenaNotFound, core.ErrorCode(err), "completes once")
		})
		t.Run("AbandonFreesSlugAndHosts", func(t *testing.T) {
			b := testArena("beta", "beta.test", "www.beta.test")
			require.NoError(t, dir.BeginArena(ctx, b, false))
			require.NoError(t, dir.AbandonArena(ctx, b.ID))
			unfinished, err := dir.UnfinishedArenas(ctx)
			require.NoError(t, err)
			assert.Empty(t, unfinished)
			err = dir.SetCreatingDatabase(ctx, b.ID, "file:x.db", "")
			assert.Equal(t, core.CodeArenaNotFound, core.ErrorCode(err))
			require.NoError(t, dir.CreateArena(ctx, testArena("beta", "beta.test", "www.beta.test")))
		})
	})
}

func TestLocalProvisionerRemoveDatabase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	p := store.LocalProvisioner{Dir: dir}
	url, _, err := p.ProvisionDatabase(ctx, "alpha")
	require.NoError(t, err)
	db, err := store.OpenIn(dir)(url, "")
	require.NoError(t, err)
	mustMigrate(t, db, store.ArenaMigrations)
	require.NoError(t, db.Close())
	outside := filepath.Join(dir, "directory.db")
	require.NoError(t, os.WriteFile(outside, []byte("keep"), 0o600))

	t.Run("RemovesTheFiles", func(t *testing.T) {
		require.NoError(t, p.RemoveDatabase(ctx, "alpha", url))
		entries, err := os.ReadDir(filepath.Join(dir, "arenas"))
		require.NoError(t, err)
		assert.Empty(t, entries)
	})
	t.Run("GoneOrNeverRecordedIsNoError", func(t *testing.T) {
		assert.NoError(t, p.RemoveDatabase(ctx, "alpha", url))
		assert.NoError(t, p.RemoveDatabase(ctx, "alpha", ""))
	})
	t.Run("ErrNotItsDatabase", func(t *testing.T) {
		for _, u := range []string{"file:directory.db", "file:arenas/../directory.db", "file:" + outside, "libsql://x.turso.io", "file:arenas/x.txt"} {
			assert.Error(t, p.RemoveDatabase(ctx, "alpha", u), u)
		}
		_, err := os.Stat(outside)
		assert.NoError(t, err)
	})
}
