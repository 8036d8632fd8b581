package server_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOperatorMovesHosts: PATCH /api/v1/operator/arenas/{slug} with hosts
// replaces the arena's own hosts under the creation's claim rules, keeps
// its custom domains, and a refused move changes nothing at all.
func TestOperatorMovesHosts(t *testing.T) {
	e := newTestEnv(t, false)
	alpha := e.createArena(t, "alpha", "alpha.test")
	e.createArena(t, "beta", "beta.test")
	status, body := e.do(t, "POST", "alpha.test", "/api/v1/admin/domains", alpha, map[string]any{"hostname": "play.example.com"})
	require.Equal(t, http.StatusCreated, status, body)
	routes := func(host string) string {
		status, body := e.do(t, "GET", host, "/api/v1", "", nil)
		if status != http.StatusOK {
			return body["error"].(string)
		}
		return body["tenant"].(map[string]any)["slug"].(string)
	}
	patch := func(body map[string]any) (int, map[string]any) {
		return e.do(t, "PATCH", "ops.test", "/api/v1/operator/arenas/alpha", operatorToken, body)
	}
	require.Equal(t, "alpha", routes("alpha.test"), "warms the host lookup before the move")

	t.Run("ErrHostTakenChangesNothing", func(t *testing.T) {
		for name, hosts := range map[string][]string{
			"AnotherArenasHost":      {"new.alpha.test", "beta.test"},
			"TheArenasCustomDomain":  {"play.example.com"},
			"AnotherArenasHostAsked": {"BETA.test."},
		} {
			t.Run(name, func(t *testing.T) {
				status, body := patch(map[string]any{"hosts": hosts, "name": "Renamed"})
				assert.Equal(t, http.StatusConflict, status, body)
				assert.Equal(t, "host_taken", body["error"])
				assert.Equal(t, "hosts", body["field"])
			})
		}
		_, list := e.do(t, "GET", "ops.test", "/api/v1/operator/arenas", operatorToken, nil)
		got := list["arenas"].([]any)[0].(map[string]any)
		assert.Equal(t, "Arena alpha", got["name"], "the name did not change either")
		assert.Equal(t, []any{"alpha.test", "play.example.com"}, got["hosts"])
		assert.Equal(t, "alpha", routes("alpha.test"))
		assert.Equal(t, "arena_not_found", routes("new.alpha.test"))
	})
	t.Run("ErrInvalidField", func(t *testing.T) {
		for name, hosts := range map[string]any{
			"None":      []string{},
			"Twice":     []string{"a.test", "A.test"},
			"NotAHost":  []string{"a test"},
			"WithAPort": []string{"a.test:8080"},
			"NotAList":  "a.test",
		} {
			t.Run(name, func(t *testing.T) {
				status, body := patch(map[string]any{"hosts": hosts})
				assert.Equal(t, http.StatusUnprocessableEntity, status, body)
				assert.Equal(t, "hosts", body["field"], body)
			})
		}
	})
	t.Run("MovedAtOnce", func(t *testing.T) {
		status, body := patch(map[string]any{"hosts": []string{"Arena.Example.org.", "alpha.test.example.org"}, "name": "Alpha Moved"})
		require.Equal(t, http.StatusOK, status, body)
		assert.Equal(t, []any{"arena.example.org", "alpha.test.example.org", "play.example.com"}, body["hosts"],
			"the new hosts, primary first, then the custom domain")
		assert.Equal(t, "Alpha Moved", body["name"])
		assert.Equal(t, "alpha", routes("arena.example.org"))
		assert.Equal(t, "alpha", routes("alpha.test.example.org"))
		assert.Equal(t, "alpha", routes("play.example.com"), "the custom domain still routes")
		assert.Equal(t, "arena_not_found", routes("alpha.test"), "the old host at once")
		status, list := e.do(t, "GET", "arena.example.org", "/api/v1/admin/domains", alpha, nil)
		require.Equal(t, http.StatusOK, status)
		assert.Len(t, list["domains"], 1, "the custom domain is still the admin's")
	})
	t.Run("TheOldHostIsFree", func(t *testing.T) {
		e.createArena(t, "gamma", "alpha.test")
		assert.Equal(t, "gamma", routes("alpha.test"))
	})
	t.Run("BackToFewerHosts", func(t *testing.T) {
		status, body := patch(map[string]any{"hosts": []string{"alpha.example.org"}})
		require.Equal(t, http.StatusOK, status, body)
		assert.Equal(t, []any{"alpha.example.org", "play.example.com"}, body["hosts"])
		assert.Equal(t, "Alpha Moved", body["name"], "absent fields keep their value")
		assert.Equal(t, "arena_not_found", routes("arena.example.org"))
		status, body = e.do(t, "DELETE", "alpha.example.org", "/api/v1/admin/domains/play.example.com", alpha, nil)
		require.Equal(t, http.StatusNoContent, status, body)
		assert.Equal(t, "arena_not_found", routes("play.example.com"))
		_, list := e.do(t, "GET", "ops.test", "/api/v1/operator/arenas", operatorToken, nil)
		assert.Equal(t, []any{"alpha.example.org"}, list["arenas"].([]any)[0].(map[string]any)["hosts"])
	})
}
