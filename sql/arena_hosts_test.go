package store_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
)

// TestMoveArenaHosts: the operator's host move is one step on both
// backends: a host held by another arena, or any arena's custom domain
// (pending too), leaves settings and hosts as they were.
func TestMoveArenaHosts(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		db := open()
		mustMigrate(t, db, store.DirectoryMigrations)
		dir := store.NewDirectory(db)
		alpha := testArena("alpha", "alpha.test", "www.alpha.test")
		beta := testArena("beta", "beta.test")
		require.NoError(t, dir.CreateArena(ctx, alpha))
		require.NoError(t, dir.CreateArena(ctx, beta))
		active := &core.CustomDomain{Hostname: "play.example.com", ArenaID: alpha.ID, Status: "active", SSLStatus: "active", CreatedAt: t0, UpdatedAt: t0}
		require.NoError(t, dir.AddDomain(ctx, active))
		pending := &core.CustomDomain{Hostname: "soon.example.com", ArenaID: beta.ID, Status: "pending", SSLStatus: "pending_validation", CreatedAt: t0, UpdatedAt: t0}
		require.NoError(t, dir.AddDomain(ctx, pending))
		current := func() *core.Arena {
			a, err := dir.ArenaBySlug(ctx, "alpha")
			require.NoError(t, err)
			return a
		}

		for name, hosts := range map[string][]string{
			"AnotherArenasHost":          {"new.test", "beta.test"},
			"AnotherArenasPendingDomain": {"soon.example.com"},
			"ItsOwnCustomDomain":         {"new.test", "play.example.com"},
		} {
			t.Run("ErrHostTaken"+name, func(t *testing.T) {
				a := current()
				a.Name = "Renamed"
				assert.Equal(t, core.CodeHostTaken, core.ErrorCode(dir.MoveArenaHosts(ctx, a, hosts)))
				got := current()
				assert.Equal(t, "Arena alpha", got.Name, "nothing half-changed")
				assert.Equal(t, []string{"alpha.test", "www.alpha.test", "play.example.com"}, got.Hosts)
			})
		}
		t.Run("Moved", func(t *testing.T) {
			a := current()
			a.Name = "Moved"
			require.NoError(t, dir.MoveArenaHosts(ctx, a, []string{"one.test", "two.test", "three.test"}))
			want := []string{"one.test", "two.test", "three.test", "play.example.com"}
			assert.Equal(t, want, a.Hosts)
			got := current()
			assert.Equal(t, want, got.Hosts, "custom domains after the new hosts, in order")
			assert.Equal(t, "Moved", got.Name)
			_, err := dir.ArenaByHost(ctx, "alpha.test")
			assert.Equal(t, core.CodeArenaNotFound, core.ErrorCode(err))
			taken, err := dir.HostsTaken(ctx, []string{"alpha.test", "www.alpha.test", "two.test"})
			require.NoError(t, err)
			assert.Equal(t, []string{"two.test"}, taken, "the old hosts are free")
			require.NoError(t, dir.MoveArenaHosts(ctx, got, []string{"two.test"}))
			assert.Equal(t, []string{"two.test", "play.example.com"}, current().Hosts)
			require.NoError(t, dir.DeleteDomain(ctx, alpha.ID, "play.example.com"))
			assert.Equal(t, []string{"two.test"}, current().Hosts, "the primary host is never a domain's route")
		})
	})
}
