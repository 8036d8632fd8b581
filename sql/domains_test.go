package store_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
)

func TestCustomDomains(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		db := open()
		mustMigrate(t, db, store.DirectoryMigrations)
		dir := store.NewDirectory(db)
		alpha := testArena("alpha", "alpha.test")
		beta := testArena("beta", "beta.test")
		require.NoError(t, dir.CreateArena(ctx, alpha))
		require.NoError(t, dir.CreateArena(ctx, beta))
		routed := func(host string) string {
			a, err := dir.ArenaByHost(ctx, host)
			if err != nil {
				return core.ErrorCode(err)
			}
			return a.Slug
		}
		pending := func(arenaID int64, host string) *core.CustomDomain {
			return &core.CustomDomain{Hostname: host, ArenaID: arenaID, ProviderID: "cf-" + host, Status: "pending", SSLStatus: "pending_validation",
				Verification: []core.DomainRecord{{Type: "TXT", Name: "_cf-custom-hostname." + host, Value: "v"}}, CreatedAt: t0, UpdatedAt: t0}
		}

		t.Run("APendingDomainDoesNotRoute", func(t *testing.T) {
			require.NoError(t, dir.AddDomain(ctx, pending(alpha.ID, "play.example.com")))
			got, err := dir.Domains(ctx, alpha.ID)
			require.NoError(t, err)
			require.Len(t, got, 1)
			assert.Equal(t, *pending(alpha.ID, "play.example.com"), got[0])
			assert.Equal(t, core.CodeArenaNotFound, routed("play.example.com"))
		})
		t.Run("ErrHostTaken", func(t *testing.T) {
			for name, d := range map[string]*core.CustomDomain{
				"AnotherArenasDomain":   pending(beta.ID, "play.example.com"),
				"AnotherArenasHost":     pending(alpha.ID, "beta.test"),
				"AnActiveOneOnAHost":    {Hostname: "beta.test", ArenaID: alpha.ID, Status: "active", SSLStatus: "active", CreatedAt: t0, UpdatedAt: t0},
				"AnActiveOneOnADomain":  {Hostname: "play.example.com", ArenaID: beta.ID, Status: "active", SSLStatus: "active", CreatedAt: t0, UpdatedAt: t0},
				"TheArenasOwnHostAgain": pending(alpha.ID, "alpha.test"),
			} {
				t.Run(name, func(t *testing.T) {
					assert.Equal(t, core.CodeHostTaken, core.ErrorCode(dir.AddDomain(ctx, d)))
				})
			}
			beta, err := dir.Domains(ctx, beta.ID)
			require.NoError(t, err)
			assert.Empty(t, beta, "nothing half-added")
			taken, err := dir.HostsTaken(ctx, []string{"play.example.com", "beta.test", "free.example.com"})
			require.NoError(t, err)
			assert.Equal(t, []string{"beta.test", "play.example.com"}, taken, "an arena cannot be created on a domain")
		})
		t.Run("TurningActiveRoutesAndBackUnroutes", func(t *testing.T) {
			d := pending(alpha.ID, "play.example.com")
			d.Status, d.SSLStatus, d.Verification, d.UpdatedAt = "active", "active", []core.DomainRecord{}, t0.Add(time.Minute)
			require.NoError(t, dir.UpdateDomain(ctx, d))
			assert.Equal(t, "alpha", routed("play.example.com"))
			a, err := dir.ArenaByHost(ctx, "alpha.test")
			require.NoError(t, err)
			assert.Equal(t, []string{"alpha.test", "play.example.com"}, a.Hosts, "after the primary host")
			require.NoError(t, dir.UpdateDomain(ctx, d), "again: one route")
			d.Status = "moved"
			require.NoError(t, dir.UpdateDomain(ctx, d))
			assert.Equal(t, core.CodeArenaNotFound, routed("play.example.com"))
			got, err := dir.Domains(ctx, alpha.ID)
			require.NoError(t, err)
			assert.Equal(t, "moved", got[0].Status)
		})
		t.Run("AnActiveDomainRoutesAtOnce", func(t *testing.T) {
			require.NoError(t, dir.AddDomain(ctx, &core.CustomDomain{Hostname: "beta.example.com", ArenaID: beta.ID, Status: "active", SSLStatus: "active", Verification: []core.DomainRecord{}, CreatedAt: t0, UpdatedAt: t0}))
			assert.Equal(t, "beta", routed("beta.example.com"))
		})
		t.Run("DeleteUnroutesButNeverThePrimaryHost", func(t *testing.T) {
			require.NoError(t, dir.DeleteDomain(ctx, beta.ID, "beta.example.com"))
			assert.Equal(t, core.CodeArenaNotFound, routed("beta.example.com"))
			require.NoError(t, dir.DeleteDomain(ctx, beta.ID, "beta.test"), "not a domain: nothing happens")
			assert.Equal(t, "beta", routed("beta.test"))
			d := pending(alpha.ID, "gone.example.com")
			d.Status, d.SSLStatus = "active", "active"
			require.NoError(t, dir.UpdateDomain(ctx, d), "a domain deleted meanwhile")
			assert.Equal(t, core.CodeArenaNotFound, routed("gone.example.com"), "gets no route")
		})
	})
}

func TestHostLookupsCachedForATTL(t *testing.T) {
	ctx := context.Background()
	url := "file:" + filepath.Join(t.TempDir(), "directory.db")
	db := MustOpenDB(t, url)
	mustMigrate(t, db, store.DirectoryMigrations)
	writer := store.NewDirectory(db) // another instance's directory: its writes are not seen
	other := MustOpenDB(t, url)
	now := t0
	cached := store.NewDirectory(other)
	cached.CacheHostsFor(10*time.Second, func() time.Time { return now })
	a := testArena("alpha", "alpha.test")
	require.NoError(t, writer.CreateArena(ctx, a))

	got, err := cached.ArenaByHost(ctx, "alpha.test")
	require.NoError(t, err)
	assert.Equal(t, "Arena alpha", got.Name)
	a.Name, a.UpdatedAt = "Renamed", t0.Add(time.Second)
	require.NoError(t, writer.UpdateArenaSettings(ctx, a))
	now = now.Add(5 * time.Second)
	got, fresh, refresh, _ := cached.ArenaByHostFresh(ctx, "alpha.test")
	assert.Equal(t, "Arena alpha", got.Name, "within the TTL")
	assert.Equal(t, 5*time.Second, fresh, "the cached answer is 5 s old: 5 s more to trust")
	assert.False(t, refresh, "half the TTL is left")

	// Past half its TTL the lookup is still answered from memory, and one
	// caller at a time is told to refresh it after its answer.
	now = now.Add(time.Millisecond)
	got, fresh, refresh, _ = cached.ArenaByHostFresh(ctx, "alpha.test")
	assert.Equal(t, "Arena alpha", got.Name, "still within the TTL: no read on the request path")
	assert.Equal(t, 5*time.Second-time.Millisecond, fresh)
	assert.True(t, refresh, "less than half the TTL left: due for a refresh")
	_, _, again, _ := cached.ArenaByHostFresh(ctx, "alpha.test")
	assert.False(t, again, "one refresh at a time")
	require.NoError(t, cached.RefreshHost(ctx, "alpha.test"))
	got, fresh, refresh, _ = cached.ArenaByHostFresh(ctx, "alpha.test")
	assert.Equal(t, "Renamed", got.Name, "refreshed")
	assert.Equal(t, 10*time.Second, fresh, "read at the refresh: the whole TTL")
	assert.False(t, refresh)

	// A lookup nobody refreshed is read on the request path once its TTL
	// has passed.
	a.Name, a.UpdatedAt = "Renamed again", t0.Add(2*time.Second)
	require.NoError(t, writer.UpdateArenaSettings(ctx, a))
	now = now.Add(6 * time.Second)
	_, _, refresh, _ = cached.ArenaByHostFresh(ctx, "alpha.test")
	assert.True(t, refresh, "due, and its refresh is lost")
	now = now.Add(4 * time.Second)
	got, fresh, _, _ = cached.ArenaByHostFresh(ctx, "alpha.test")
	assert.Equal(t, "Renamed again", got.Name, "past the TTL: read again")
	assert.Equal(t, 10*time.Second, fresh)
	now = now.Add(6 * time.Second)
	_, _, refresh, _ = cached.ArenaByHostFresh(ctx, "alpha.test")
	assert.True(t, refresh, "the lost refresh does not block the next one")

	// A host no longer routed is forgotten by its refresh.
	require.NoError(t, writer.MoveArenaHosts(ctx, a, []string{"alpha2.test"}))
	require.NoError(t, cached.RefreshHost(ctx, "alpha.test"))
	_, err = cached.ArenaByHost(ctx, "alpha.test")
	assert.Equal(t, core.CodeArenaNotFound, core.ErrorCode(err), "the refresh forgot the old host")
	got, err = cached.ArenaByHost(ctx, "alpha2.test")
	require.NoError(t, err)
	assert.Equal(t, "alpha", got.Slug)

	require.NoError(t, cached.AddDomain(ctx, &core.CustomDomain{Hostname: "play.example.com", ArenaID: a.ID, Status: "active", SSLStatus: "active", Verification: []core.DomainRecord{}, CreatedAt: t0, UpdatedAt: t0}))
	got, err = cached.ArenaByHost(ctx, "play.example.com")
	require.NoError(t, err, "its own write is seen at once")
	assert.Equal(t, "alpha", got.Slug)
}
