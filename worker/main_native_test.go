//go:build !js

package main

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
	"arena/worker/server"
)

// startOnce starts over dataDir with seed, then closes what it opened.
func startOnce(t *testing.T, dataDir string, seed seedDemoFunc, check func(srv *server.Server, o options)) error {
	t.Helper()
	o := options{dataDir: dataDir, operatorToken: "operator-token"}
	srv, dir, o, err := start(context.Background(), o, slog.New(slog.DiscardHandler), seed)
	if err != nil {
		return err
	}
	defer dir.Close()
	defer srv.Close()
	defer closeTwins(o)
	if check != nil {
		check(srv, o)
	}
	return nil
}

func realSeed(ctx context.Context, srv *server.Server) (string, error) { return srv.SeedDemo(ctx) }

// assertDemo checks the demo arena answers with its three tournaments and
// the admin token saved in the data directory.
func assertDemo(t *testing.T, dataDir string) func(srv *server.Server, o options) {
	return func(srv *server.Server, o options) {
		t.Helper()
		assert.True(t, o.dev, "a demo data directory starts in dev mode")
		assert.NoFileExists(t, filepath.Join(dataDir, "demo-seeding"))
		raw, err := os.ReadFile(filepath.Join(dataDir, "demo-admin-token"))
		require.NoError(t, err)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost/api/v1/tournaments", nil))
		require.Equal(t, http.StatusOK, rec.Code)
		for _, slug := range []string{"autumn-open", "winter-cup", "spring-invitational"} {
			assert.Contains(t, rec.Body.String(), `"slug":"`+slug+`"`)
		}
		req := httptest.NewRequest("PUT", "http://localhost/api/v1/admin/settings", strings.NewReader(`{"name":"Demo Arena"}`))
		req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(raw)))
		rec = httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		assert.Equal(t, http.StatusOK, rec.Code, "the saved admin token works")
	}
}

// TestStartFinishesDemoSeeding: a first start cut off during the demo
// seeding leaves the data directory so that the next start seeds again
// (or, when the demo was complete, saves a new admin token); later
// starts leave the demo alone.
func TestStartFinishesDemoSeeding(t *testing.T) {
	t.Run("CutOffAfterClaimingTheDemo", func(t *testing.T) {
		dataDir := filepath.Join(t.TempDir(), "data")
		crash := func(ctx context.Context, srv *server.Server) (string, error) {
			// What a kill leaves part-way: the demo's slug and hosts claimed,
			// the arena never completed.
			now := time.Now()
			a := &core.Arena{Slug: "demo", Name: "Demo Arena", Hosts: server.DemoHosts, Plan: core.PlanStudio,
				AppIDs: []string{"480"}, GracePeriodSeconds: 60, CreatedAt: now, UpdatedAt: now}
			require.NoError(t, srv.Directory().BeginArena(ctx, a, true))
			return "", errors.New("killed")
		}
		require.Error(t, startOnce(t, dataDir, crash, nil))
		assert.FileExists(t, filepath.Join(dataDir, "demo-seeding"))
		assert.NoFileExists(t, filepath.Join(dataDir, "demo-admin-token"))

		require.NoError(t, startOnce(t, dataDir, realSeed, assertDemo(t, dataDir)))
		noSeed := func(context.Context, *server.Server) (string, error) {
			t.Error("seeded again")
			return "", nil
		}
		require.NoError(t, startOnce(t, dataDir, noSeed, assertDemo(t, dataDir)))
	})
	t.Run("CutOffBeforeSavingTheToken", func(t *testing.T) {
		dataDir := filepath.Join(t.TempDir(), "data")
		crash := func(ctx context.Context, srv *server.Server) (string, error) {
			_, err := srv.SeedDemo(ctx)
			require.NoError(t, err)
			return "", errors.New("killed")
		}
		require.Error(t, startOnce(t, dataDir, crash, nil))
		require.NoError(t, startOnce(t, dataDir, realSeed, assertDemo(t, dataDir)))
	})
}

// TestDatabaseTimeoutSetting: --db-timeout, else ARENA_DB_TIMEOUT, else
// store.DefaultTimeout; a deadline that is not positive is refused.
func TestDatabaseTimeoutSetting(t *testing.T) {
	t.Setenv("ARENA_DB_TIMEOUT", "")
	o, _, err := parseOptions(nil)
	require.NoError(t, err)
	assert.Equal(t, store.DefaultTimeout, o.dbTimeout)
	t.Setenv("ARENA_DB_TIMEOUT", "2s")
	o, _, err = parseOptions(nil)
	require.NoError(t, err)
	assert.Equal(t, 2*time.Second, o.dbTimeout)
	o, _, err = parseOptions([]string{"--db-timeout", "750ms"})
	require.NoError(t, err)
	assert.Equal(t, 750*time.Millisecond, o.dbTimeout)
	_, _, err = parseOptions([]string{"--db-timeout", "0s"})
	assert.ErrorContains(t, err, "--db-timeout")
}
