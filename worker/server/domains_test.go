package server_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/cloudflare"
	"arena/worker/cloudflare/cloudflaretest"
	"arena/worker/server"
)

func TestCustomDomainsThroughCloudflare(t *testing.T) {
	tw := cloudflaretest.Start(t)
	e := newTestEnv(t, false, func(cfg *server.Config) {
		cfg.CustomHostnames = &cloudflare.CustomHostnames{BaseURL: tw.URL, APIToken: tw.Token, ZoneID: tw.ZoneID}
	})
	alpha := e.createArena(t, "alpha", "alpha.test")
	beta := e.createArena(t, "beta", "beta.test")
	add := func(host, token, hostname string) (int, map[string]any) {
		return e.do(t, "POST", host, "/api/v1/admin/domains", token, map[string]any{"hostname": hostname})
	}
	routes := func(host string) string {
		status, body := e.do(t, "GET", host, "/api/v1", "", nil)
		if status != http.StatusOK {
			return body["error"].(string)
		}
		return body["tenant"].(map[string]any)["slug"].(string)
	}
	tick := func() server.ScheduledReport {
		report, err := e.Server.RunScheduled(context.Background())
		require.NoError(t, err)
		return report
	}

	status, body := add("alpha.test", alpha, "Play.Example.com")
	require.Equal(t, http.StatusCreated, status, body)
	assert.Equal(t, "play.example.com", body["hostname"])
	assert.Equal(t, "pending", body["status"])
	assert.Equal(t, "pending_validation", body["sslStatus"])
	assert.Equal(t, false, body["active"])
	assert.Len(t, body["verification"], 2, "ownership and certificate TXT records")
	assert.Equal(t, []string{"play.example.com"}, tw.Hostnames())
	assert.Equal(t, "arena_not_found", routes("play.example.com"), "not before it is active")

	t.Run("ErrHostTaken", func(t *testing.T) {
		for _, c := range []struct{ host, token, hostname string }{
			{"beta.test", beta, "play.example.com"}, // another arena's domain
			{"alpha.test", alpha, "beta.test"},      // another arena's host
			{"alpha.test", alpha, "play.example.com"},
		} {
			status, body := add(c.host, c.token, c.hostname)
			assert.Equal(t, http.StatusConflict, status, c)
			assert.Equal(t, "host_taken", body["error"], c)
		}
		status, body := e.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, arenaRequest("gamma", "play.example.com"))
		assert.Equal(t, http.StatusConflict, status)
		assert.Equal(t, "host_taken", body["error"], "no arena on a pending domain")
		assert.Equal(t, []string{"play.example.com"}, tw.Hostnames(), "nothing more registered")
	})
	t.Run("ErrInvalidField", func(t *testing.T) {
		status, body := add("alpha.test", alpha, "10.0.0.1")
		assert.Equal(t, http.StatusUnprocessableEntity, status)
		assert.Equal(t, "hostname", body["field"])
	})
	t.Run("ErrDomainProviderFailedStoresNothing", func(t *testing.T) {
		tw.SetDown(true)
		defer tw.SetDown(false)
		status, body := add("alpha.test", alpha, "down.example.com")
		assert.Equal(t, http.StatusBadGateway, status)
		assert.Equal(t, "domain_provider_failed", body["error"])
		_, list := e.do(t, "GET", "alpha.test", "/api/v1/admin/domains", alpha, nil)
		assert.Len(t, list["domains"], 1)
		assert.NotContains(t, e.Logs.String(), tw.Token)
	})
	t.Run("TheCronRoutesItOnceActive", func(t *testing.T) {
		assert.Zero(t, tick().Jobs["custom_domains"], "still pending")
		tw.Activate("play.example.com")
		report := tick()
		assert.Equal(t, 1, report.Jobs["custom_domains"])
		assert.Contains(t, report.Changed, "alpha")
		assert.Equal(t, "alpha", routes("play.example.com"))
		_, list := e.do(t, "GET", "alpha.test", "/api/v1/admin/domains", alpha, nil)
		d := list["domains"].([]any)[0].(map[string]any)
		assert.Equal(t, true, d["active"])
		assert.Equal(t, []any{}, d["verification"])
		assert.Zero(t, tick().Jobs["custom_domains"], "an active domain is not asked about again")
	})
	t.Run("DeleteUnroutesAndUnregisters", func(t *testing.T) {
		status, _ := e.do(t, "DELETE", "beta.test", "/api/v1/admin/domains/play.example.com", beta, nil)
		assert.Equal(t, http.StatusNotFound, status, "not beta's")
		status, _ = e.do(t, "DELETE", "alpha.test", "/api/v1/admin/domains/play.example.com", alpha, nil)
		assert.Equal(t, http.StatusNoContent, status)
		assert.Empty(t, tw.Hostnames())
		assert.Equal(t, "arena_not_found", routes("play.example.com"))
		assert.Equal(t, "alpha", routes("alpha.test"), "the primary host stays")
		status, body := e.do(t, "DELETE", "alpha.test", "/api/v1/admin/domains/play.example.com", alpha, nil)
		assert.Equal(t, http.StatusNotFound, status)
		assert.Equal(t, "domain_not_found", body["error"])
	})
}

func TestCustomDomainsWithoutAProviderAreActiveAtOnce(t *testing.T) {
	e := newTestEnv(t, false)
	alpha := e.createArena(t, "alpha", "alpha.test")
	status, body := e.do(t, "POST", "alpha.test", "/api/v1/admin/domains", alpha, map[string]any{"hostname": "play.example.com"})
	require.Equal(t, http.StatusCreated, status, body)
	assert.Equal(t, true, body["active"])
	status, body = e.do(t, "GET", "play.example.com", "/api/v1", "", nil)
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, "alpha", body["tenant"].(map[string]any)["slug"])
	status, _ = e.do(t, "GET", "alpha.test", "/api/v1/admin/domains", "", nil)
	assert.Equal(t, http.StatusUnauthorized, status)
}
