package store_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
	"arena/sql/libsqltest"
	_ "arena/sql/sqlitedriver"
)

// backends runs test against a local file and against a libSQL server
// over HTTP: the same test, the same assertions.
func backends(t *testing.T, test func(t *testing.T, open func() *store.DB)) {
	t.Run("file", func(t *testing.T) {
		t.Parallel()
		test(t, func() *store.DB {
			return MustOpenDB(t, "file:"+filepath.Join(t.TempDir(), "test.db"))
		})
	})
	t.Run("libsql", func(t *testing.T) {
		t.Parallel()
		test(t, func() *store.DB {
			return MustOpenDB(t, libsqltest.Start(t))
		})
	})
}

// MustOpenDB opens a database and closes it when the test ends.
func MustOpenDB(tb testing.TB, url string) *store.DB {
	tb.Helper()
	db, err := store.Open(url, "")
	require.NoError(tb, err)
	tb.Cleanup(func() { db.Close() })
	return db
}

func mustMigrate(t testing.TB, db *store.DB, set store.MigrationSet) {
	t.Helper()
	v, err := store.Migrate(context.Background(), db, set)
	require.NoError(t, err)
	require.Equal(t, set.Latest(), v)
}

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

func testArena(slug string, hosts ...string) *core.Arena {
	return &core.Arena{
		Slug: slug, Name: "Arena " + slug, Hosts: hosts, Plan: core.PlanFree,
		AppIDs: []string{"480", "481"}, PublisherKey: "secret-key", Identity: "arena",
		GracePeriodSeconds: 3600, DatabaseURL: "file:" + slug + ".db", SchemaVersion: 1,
		CreatedAt: t0, UpdatedAt: t0,
	}
}

func TestMigrate(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		db := open()
		t.Run("AppliesEverySetOnce", func(t *testing.T) {
			mustMigrate(t, db, store.DirectoryMigrations)
			mustMigrate(t, db, store.DirectoryMigrations)
			var n int
			require.NoError(t, db.QueryRowContext(ctx, "SELECT count(*) FROM schema_migrations").Scan(&n))
			assert.Equal(t, store.DirectoryMigrations.Latest(), n)
		})
		t.Run("ConcurrentMigratorsAgree", func(t *testing.T) {
			fresh := open()
			var wg sync.WaitGroup
			errs := make([]error, 4)
			for i := range errs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errs[i] = store.Migrate(ctx, fresh, store.ArenaMigrations)
				}()
			}
			wg.Wait()
			for _, err := range errs {
				assert.NoError(t, err)
			}
			var n int
			require.NoError(t, fresh.QueryRowContext(ctx, "SELECT count(*) FROM schema_migrations").Scan(&n))
			assert.Equal(t, store.ArenaMigrations.Latest(), n)
		})
	})
}

func TestBatch(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		db := open()
		_, err := db.ExecContext(ctx, "CREATE TABLE t (v TEXT UNIQUE)")
		require.NoError(t, err)

		t.Run("AllStatementsApply", func(t *testing.T) {
			require.NoError(t, db.Batch(ctx,
				store.Stmt{SQL: "INSERT INTO t (v) VALUES (?)", Args: []any{"a"}},
				store.Stmt{SQL: "INSERT INTO t (v) VALUES (?)", Args: []any{"b"}},
			))
			assert.Equal(t, 2, count(t, db, "t"))
		})
		t.Run("FailureRollsBackEarlierStatements", func(t *testing.T) {
			err := db.Batch(ctx,
				store.Stmt{SQL: "INSERT INTO t (v) VALUES (?)", Args: []any{"c"}},
				store.Stmt{SQL: "INSERT INTO t (v) VALUES (?)", Args: []any{"a"}},
			)
			require.Error(t, err)
			assert.Equal(t, 2, count(t, db, "t"))
			// The connection is usable afterwards.
			require.NoError(t, db.Batch(ctx, store.Stmt{SQL: "INSERT INTO t (v) VALUES (?)", Args: []any{"d"}}))
			assert.Equal(t, 3, count(t, db, "t"))
		})
	})
}

func count(t *testing.T, db *store.DB, table string) int {
	t.Helper()
	var n int
	require.NoError(t, db.QueryRowContext(context.Background(), "SELECT count(*) FROM "+table).Scan(&n))
	return n
}

func TestDirectory(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		db := open()
		mustMigrate(t, db, store.DirectoryMigrations)
		dir := store.NewDirectory(db)

		a := testArena("alpha", "alpha.test", "play.alpha.test")
		require.NoError(t, dir.CreateArena(ctx, a))
		require.NotZero(t, a.ID)

		t.Run("ArenaByHost", func(t *testing.T) {
			got, err := dir.ArenaByHost(ctx, "play.alpha.test")
			require.NoError(t, err)
			assert.Equal(t, a.ID, got.ID)
			assert.Equal(t, []string{"alpha.test", "play.alpha.test"}, got.Hosts)
			assert.Equal(t, []string{"480", "481"}, got.AppIDs)
			assert.Equal(t, "secret-key", got.PublisherKey)
			assert.Equal(t, core.PlanFree, got.Plan)
			assert.Equal(t, 3600, got.GracePeriodSeconds)
			assert.True(t, got.CreatedAt.Equal(t0))
		})
		t.Run("ErrArenaNotFound", func(t *testing.T) {
			_, err := dir.ArenaByHost(ctx, "nosuch.test")
			assert.Equal(t, core.CodeArenaNotFound, core.ErrorCode(err))
		})
		t.Run("ErrSlugTaken", func(t *testing.T) {
			err := dir.CreateArena(ctx, testArena("alpha", "other.test"))
			assert.Equal(t, core.CodeSlugTaken, core.ErrorCode(err))
		})
		t.Run("ErrHostTakenLeavesNothingBehind", func(t *testing.T) {
			err := dir.CreateArena(ctx, testArena("beta", "beta.test", "alpha.test"))
			assert.Equal(t, core.CodeHostTaken, core.ErrorCode(err))
			taken, err := dir.SlugTaken(ctx, "beta")
			require.NoError(t, err)
			assert.False(t, taken, "the arena row must roll back with its hosts")
			_, err = dir.ArenaByHost(ctx, "beta.test")
			assert.Equal(t, core.CodeArenaNotFound, core.ErrorCode(err))
		})
		t.Run("HostsTaken", func(t *testing.T) {
			taken, err := dir.HostsTaken(ctx, []string{"x.test", "alpha.test", "play.alpha.test"})
			require.NoError(t, err)
			assert.Equal(t, []string{"alpha.test", "play.alpha.test"}, taken)
		})
		t.Run("ArenasInSlugOrder", func(t *testing.T) {
			require.NoError(t, dir.CreateArena(ctx, testArena("aardvark", "aardvark.test")))
			all, err := dir.Arenas(ctx)
			require.NoError(t, err)
			require.Len(t, all, 2)
			assert.Equal(t, "aardvark", all[0].Slug)
			assert.Equal(t, "alpha", all[1].Slug)
		})
		t.Run("UpdateArenaSettings", func(t *testing.T) {
			got, err := dir.ArenaByHost(ctx, "alpha.test")
			require.NoError(t, err)
			got.Name, got.Plan, got.AppIDs, got.RefereeEnabled = "Renamed", core.PlanStudio, []string{"730"}, true
			got.UpdatedAt = t0.Add(time.Hour)
			require.NoError(t, dir.UpdateArenaSettings(ctx, got))
			again, err := dir.ArenaByHost(ctx, "alpha.test")
			require.NoError(t, err)
			assert.Equal(t, "Renamed", again.Name)
			assert.Equal(t, core.PlanStudio, again.Plan)
			assert.Equal(t, []string{"730"}, again.AppIDs)
			assert.True(t, again.RefereeEnabled)
			assert.True(t, again.UpdatedAt.Equal(t0.Add(time.Hour)))
		})
		t.Run("SetSchemaVersionNeverLowers", func(t *testing.T) {
			require.NoError(t, dir.SetSchemaVersion(ctx, a.ID, 5))
			require.NoError(t, dir.SetSchemaVersion(ctx, a.ID, 3))
			got, err := dir.ArenaByHost(ctx, "alpha.test")
			require.NoError(t, err)
			assert.Equal(t, 5, got.SchemaVersion)
		})
	})
}

func TestArenaStore(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		db := open()
		mustMigrate(t, db, store.ArenaMigrations)
		s := store.NewArena(db)

		t.Run("AdminTokens", func(t *testing.T) {
			require.NoError(t, s.AddAdminToken(ctx, core.AdminTokenRecord{ID: "0a1b2c3d", Hash: "abc", Label: "first", CreatedAt: t0}))
			got, err := s.AdminToken(ctx, "0a1b2c3d")
			require.NoError(t, err)
			assert.Equal(t, "abc", got.Hash)
			assert.Equal(t, "first", got.Label)
			_, err = s.AdminToken(ctx, "ffffffff")
			assert.Equal(t, core.CodeUnauthorized, core.ErrorCode(err))
			_, err = db.ExecContext(ctx, "UPDATE admin_tokens SET revoked_at = ? WHERE id = ?", "2026-11-02T00:00:00.000Z", "0a1b2c3d")
			require.NoError(t, err)
			_, err = s.AdminToken(ctx, "0a1b2c3d")
			assert.Equal(t, core.CodeUnauthorized, core.ErrorCode(err), "a revoked token is unknown")
		})
		t.Run("RevokeTokenKeepsTheLastAdminToken", func(t *testing.T) {
			require.NoError(t, s.AddToken(ctx, core.TokenAdmin, core.MintedToken{ID: "11111111", Hash: "h1"}, "second", t0.Add(time.Second)))
			list, err := s.Tokens(ctx, core.TokenAdmin)
			require.NoError(t, err)
			require.Len(t, list, 2)
			assert.Equal(t, "0a1b2c3d", list[0].ID, "oldest first")
			assert.NotNil(t, list[0].RevokedAt, "revoked above")
			assert.Nil(t, list[1].RevokedAt)
			err = s.RevokeToken(ctx, core.TokenAdmin, "11111111", t0)
			assert.Equal(t, core.CodeLastAdminToken, core.ErrorCode(err))
			assert.Equal(t, core.CodeNotFound, core.ErrorCode(s.RevokeToken(ctx, core.TokenAdmin, "ffffffff", t0)))
			require.NoError(t, s.RevokeToken(ctx, core.TokenAdmin, "0a1b2c3d", t0.Add(time.Hour)), "a revoked one again")
			list, err = s.Tokens(ctx, core.TokenAdmin)
			require.NoError(t, err)
			assert.True(t, list[0].RevokedAt.Equal(time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)), "keeps its first time")
			require.NoError(t, s.AddToken(ctx, core.TokenAdmin, core.MintedToken{ID: "22222222", Hash: "h2"}, "", t0))
			require.NoError(t, s.RevokeToken(ctx, core.TokenAdmin, "11111111", t0))
			_, err = s.AdminToken(ctx, "11111111")
			assert.Equal(t, core.CodeUnauthorized, core.ErrorCode(err))
		})
		t.Run("APIKeys", func(t *testing.T) {
			require.NoError(t, s.AddToken(ctx, core.TokenAPIKey, core.MintedToken{ID: "33333333", Hash: "k"}, "bot", t0))
			hash, ok, err := s.APIKeyHash(ctx, "33333333")
			require.NoError(t, err)
			assert.True(t, ok)
			assert.Equal(t, "k", hash)
			require.NoError(t, s.RevokeToken(ctx, core.TokenAPIKey, "33333333", t0), "the last API key may go")
			_, ok, err = s.APIKeyHash(ctx, "33333333")
			require.NoError(t, err)
			assert.False(t, ok)
			assert.Equal(t, core.CodeNotFound, core.ErrorCode(s.RevokeToken(ctx, core.TokenAPIKey, "22222222", t0)), "an admin token is no API key")
		})
		t.Run("ArenaAdmins", func(t *testing.T) {
			require.NoError(t, s.AddArenaAdmins(ctx, []string{"76561198000000002", "76561198000000001"}, t0))
			require.NoError(t, s.AddArenaAdmins(ctx, []string{"76561198000000001"}, t0))
			got, err := s.ArenaAdmins(ctx)
			require.NoError(t, err)
			assert.Equal(t, []string{"76561198000000001", "76561198000000002"}, got)
		})
		t.Run("UpsertPlayers", func(t *testing.T) {
			p := core.PlayerProfile{PlatformID: "76561198000000001", PersonaName: "Ada"}
			require.NoError(t, s.UpsertPlayers(ctx, []core.PlayerProfile{p}, t0))
			p.PersonaName = "Ada L."
			require.NoError(t, s.UpsertPlayers(ctx, []core.PlayerProfile{p, {PlatformID: "76561198000000002", PersonaName: "Bo"}}, t0))
			n, err := s.PlayerCount(ctx)
			require.NoError(t, err)
			assert.Equal(t, 2, n)
			var name string
			require.NoError(t, db.QueryRowContext(ctx, "SELECT persona_name FROM players WHERE platform_id = ?", p.PlatformID).Scan(&name))
			assert.Equal(t, "Ada L.", name)
			got, err := s.Players(ctx, []string{"76561198000000002", "76561198000000009", p.PlatformID})
			require.NoError(t, err)
			assert.Len(t, got, 2, "known players only")
			assert.Equal(t, "Bo", got["76561198000000002"].PersonaName)
		})
		t.Run("PlayerLocale", func(t *testing.T) {
			const cy = "76561198000000103"
			require.NoError(t, s.UpsertPlayers(ctx, []core.PlayerProfile{{PlatformID: cy, PersonaName: "Cy"}}, t0))
			require.NoError(t, s.StartWebSession(ctx, "s-cy-1", cy, false, t0, t0.Add(time.Hour), "ja"))
			require.NoError(t, s.StartWebSession(ctx, "s-cy-2", cy, false, t0, t0.Add(time.Hour), "ko"))
			got, err := s.Players(ctx, []string{cy})
			require.NoError(t, err)
			assert.Equal(t, "ja", got[cy].Locale, "the language of the first sign-in stays")
			require.NoError(t, s.SetPlayerLocale(ctx, cy, "ar"))
			got, err = s.Players(ctx, []string{cy})
			require.NoError(t, err)
			assert.Equal(t, "ar", got[cy].Locale, "the picker's choice replaces it")
		})
		t.Run("WebSessions", func(t *testing.T) {
			const ada, bo = "76561198000000101", "76561198000000102"
			require.NoError(t, s.UpsertPlayers(ctx, []core.PlayerProfile{{PlatformID: ada, PersonaName: "Ada", AvatarURL: "/a.svg"}}, t0))
			require.NoError(t, s.AddArenaAdmins(ctx, []string{ada}, t0))
			require.NoError(t, s.StartWebSession(ctx, "s-ada", ada, false, t0, t0.Add(time.Hour), ""))
			require.NoError(t, s.StartWebSession(ctx, "s-bo", bo, true, t0, t0.Add(2*time.Hour), "de"))

			got, err := s.WebSession(ctx, "s-ada", t0)
			require.NoError(t, err)
			assert.Equal(t, &core.WebSession{PlatformID: ada, PersonaName: "Ada", AvatarURL: "/a.svg", IsAdmin: true}, got)
			got, err = s.WebSession(ctx, "s-bo", t0)
			require.NoError(t, err)
			assert.Equal(t, &core.WebSession{PlatformID: bo, Mock: true}, got, "a player the arena never stored")
			got, err = s.WebSession(ctx, "nope", t0)
			require.NoError(t, err)
			assert.Nil(t, got)
			got, err = s.WebSession(ctx, "s-ada", t0.Add(time.Hour))
			require.NoError(t, err)
			assert.Nil(t, got, "expired")

			require.NoError(t, s.EndWebSession(ctx, "s-bo"))
			require.NoError(t, s.EndWebSession(ctx, "s-bo"), "twice is fine")
			got, err = s.WebSession(ctx, "s-bo", t0)
			require.NoError(t, err)
			assert.Nil(t, got, "signed out")

			t.Run("Planned", func(t *testing.T) {
				// A planned session read goes with the request's next
				// ReadAll (a player's own things here) and is read once.
				pctx := store.Planning(ctx)
				read := s.PlanWebSession(pctx, "s-ada", t0)
				again := s.PlanWebSession(pctx, "s-ada", t0)
				parts := s.PlanViewerParts(pctx, "s-ada", t0, core.MatchScheduled)
				_, err := s.ViewerParts(pctx, bo, core.MatchScheduled)
				require.NoError(t, err)
				for _, r := range []func(context.Context) (*core.WebSession, error){read, again} {
					got, err := r(pctx)
					require.NoError(t, err)
					assert.Equal(t, &core.WebSession{PlatformID: ada, PersonaName: "Ada", AvatarURL: "/a.svg", IsAdmin: true}, got)
				}
				got, err := s.WebSession(pctx, "s-ada", t0)
				require.NoError(t, err)
				assert.Equal(t, ada, got.PlatformID, "WebSession of a planned id is the planned read")
				p, err := parts(pctx)
				require.NoError(t, err)
				assert.Empty(t, p.Matches)

				// Planned and never taken by a ReadAll: read when asked.
				lone := s.PlanWebSession(store.Planning(ctx), "nope", t0)
				got, err = lone(ctx)
				require.NoError(t, err)
				assert.Nil(t, got)

				// A ReadAll that fails fails the reads planned with it.
				pctx = store.Planning(ctx)
				read = s.PlanWebSession(pctx, "s-ada", t0)
				require.Error(t, s.ReadBroken(pctx))
				_, err = read(pctx)
				assert.Error(t, err, "the batch it went with failed")
			})

			t.Run("PlannedAfterWrite", func(t *testing.T) {
				// A read planned to follow the request's next write answers
				// with what that write left; a later write makes it stale,
				// and it is read afresh; with no write it is read when asked.
				read := func(pctx context.Context) int {
					var v int
					_, err := s.Setting(pctx, "plan-test", &v)
					require.NoError(t, err)
					return v
				}
				pctx := store.Planning(ctx)
				s.PlanSettingAfterWrite(pctx, "plan-test")
				require.NoError(t, s.SetSettingInBatch(pctx, "plan-test", "1"))
				assert.Equal(t, 1, read(pctx), "read in the write's own batch")

				pctx = store.Planning(ctx)
				s.PlanSettingAfterWrite(pctx, "plan-test")
				require.NoError(t, s.SetSettingInBatch(pctx, "plan-test", "2"))
				require.NoError(t, s.SetSetting(pctx, "plan-test", 3))
				assert.Equal(t, 3, read(pctx), "a later write: read afresh")

				pctx = store.Planning(ctx)
				s.PlanSettingAfterWrite(pctx, "plan-test")
				assert.Equal(t, 3, read(pctx), "no write: read when asked")
			})

			require.NoError(t, s.StartWebSession(ctx, "s-new", bo, false, t0.Add(90*time.Minute), t0.Add(3*time.Hour), ""))
			var n int
			require.NoError(t, db.QueryRowContext(ctx, "SELECT count(*) FROM web_sessions").Scan(&n))
			assert.Equal(t, 1, n, "starting a session swept the expired one")
		})
	})
}

func TestCountRequest(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		db := open()
		mustMigrate(t, db, store.ArenaMigrations)
		s := store.NewArena(db)
		var wg sync.WaitGroup
		counts := make([]int, 10)
		for i := range counts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n, err := s.CountRequest(ctx, "ip:127.0.0.1", 600)
				assert.NoError(t, err)
				counts[i] = n
			}()
		}
		wg.Wait()
		assert.ElementsMatch(t, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, counts, "every concurrent request gets its own count")
		n, err := s.CountRequest(ctx, "ip:127.0.0.1", 660)
		require.NoError(t, err)
		assert.Equal(t, 1, n, "a new window starts at 1")
		require.NoError(t, s.SweepRateCounters(ctx, 660))
		n, err = s.CountRequest(ctx, "ip:127.0.0.1", 600)
		require.NoError(t, err)
		assert.Equal(t, 1, n, "the swept window is gone")
	})
}

// TestBatchReadWithoutRow: a BatchRead whose read finds no row answers
// sql.ErrNoRows and its batch stands, alike on a local file and on a
// libSQL server (whose batch a read cannot undo); a failing read rolls
// the batch back on both.
func TestBatchReadWithoutRow(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		db := open()
		_, err := db.ExecContext(ctx, "CREATE TABLE things (name TEXT NOT NULL)")
		require.NoError(t, err)
		var name string
		err = db.BatchRead(ctx, store.Stmt{SQL: "SELECT name FROM things WHERE name = 'zed'"}, []any{&name},
			store.Stmt{SQL: "INSERT INTO things (name) VALUES ('ann')"})
		assert.ErrorIs(t, err, sql.ErrNoRows)
		err = db.BatchRead(ctx, store.Stmt{SQL: "SELECT name FROM nowhere"}, []any{&name},
			store.Stmt{SQL: "INSERT INTO things (name) VALUES ('bob')"})
		assert.Error(t, err)
		var names string
		require.NoError(t, db.QueryRowContext(ctx, "SELECT group_concat(name) FROM things").Scan(&names))
		assert.Equal(t, "ann", names, "the batch whose read found nothing stands; the failed one is undone")
	})
}
