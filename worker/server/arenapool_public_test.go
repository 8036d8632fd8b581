package server_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/server"
)

// TestPublicCacheAcrossReopen closes an arena's database (another arena
// takes its place in a pool of one), makes the same number of writes to
// it as before, and still reads the new data: a reopened database never
// repeats a version the public cache has seen.
func TestPublicCacheAcrossReopen(t *testing.T) {
	env := newTestEnvWith(t, false, func(c *server.Config) { c.MaxOpenArenas = 1 })
	admin := env.createArena(t, "alpha", "alpha.test")
	env.createArena(t, "beta", "beta.test")
	open := func(slug string) {
		env.mustDo(t, "POST", "/api/v1/admin/tournaments", admin, env.tournamentBody(slug, "groups_playoffs", 8), 201)
		env.mustDo(t, "POST", "/api/v1/admin/tournaments/"+slug+"/status", admin, map[string]any{"status": "registration_open"}, 200)
	}
	slugs := func() []string {
		var out []string
		for _, tour := range env.mustDo(t, "GET", "/api/v1/tournaments", "", nil, 200)["tournaments"].([]any) {
			out = append(out, tour.(map[string]any)["slug"].(string))
		}
		return out
	}

	open("first")
	require.Equal(t, []string{"first"}, slugs())
	status, _ := env.do(t, "GET", "beta.test", "/api/v1/tournaments", "", nil)
	require.Equal(t, 200, status)
	require.Equal(t, 1, env.Server.OpenArenaDatabases(), "beta's database took alpha's place")
	open("second")
	assert.ElementsMatch(t, []string{"first", "second"}, slugs())
}

// TestCloseClosesArenaDatabases: Close (which the native binary calls
// after its graceful shutdown) closes every arena database the server
// holds; a request that still comes closes its database when it ends.
func TestCloseClosesArenaDatabases(t *testing.T) {
	env := newTestEnv(t, false)
	for _, slug := range []string{"alpha", "beta", "gamma"} {
		env.createArena(t, slug, slug+".test")
		status, _ := env.do(t, "GET", slug+".test", "/api/v1/tournaments", "", nil)
		require.Equal(t, 200, status)
	}
	require.Equal(t, 3, env.Server.OpenArenaDatabases())
	require.NoError(t, env.Server.Close())
	assert.Zero(t, env.Server.OpenArenaDatabases())

	status, _ := env.do(t, "GET", "alpha.test", "/api/v1/tournaments", "", nil)
	assert.Equal(t, 200, status)
	assert.Zero(t, env.Server.OpenArenaDatabases())
}
