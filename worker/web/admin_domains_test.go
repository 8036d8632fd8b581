package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/cloudflare"
	"arena/worker/cloudflare/cloudflaretest"
	"arena/worker/server"
)

func TestAdminDomainsWithoutAProvider(t *testing.T) {
	e := newSiteEnv(t)
	c := adminBrowser(t, e, adminID)
	status, body := e.get(t, c, "/admin/domains")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, "No custom domains yet.")
	assert.Contains(t, body, `href="/admin/domains"`, "in the admin menu")

	t.Run("ErrInvalidHostname", func(t *testing.T) {
		res := adminPost(t, e, c, "/admin/domains", url.Values{"hostname": {"10.0.0.1"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.status)
		assert.Contains(t, res.body, `id="err-hostname">Enter a hostname such as play.example.com`)
	})
	t.Run("ErrHostTaken", func(t *testing.T) {
		res := adminPost(t, e, c, "/admin/domains", url.Values{"hostname": {"demo.localhost"}})
		assert.Equal(t, http.StatusConflict, res.status)
		assert.Contains(t, res.body, "This hostname already serves an arena.")
	})
	loc := adminPostOK(t, e, c, "/admin/domains", url.Values{"hostname": {"play.example.com"}})
	_, body = e.get(t, c, loc)
	assert.Contains(t, body, "Domain added.")
	assert.Contains(t, body, "play.example.com")
	assert.Contains(t, body, "Active")
	status, _ = adminAPI(t, e, "GET", "/api/v1/admin/domains", "Bearer "+e.adminToken, nil)
	assert.Equal(t, http.StatusOK, status)

	t.Run("Remove", func(t *testing.T) {
		loc := adminPostOK(t, e, c, "/admin/domains/play.example.com/remove", nil)
		_, body := e.get(t, c, loc)
		assert.Contains(t, body, "Domain removed")
		assert.Contains(t, body, "No custom domains yet.")
		res := adminPost(t, e, c, "/admin/domains/play.example.com/remove", nil)
		assert.Equal(t, http.StatusNotFound, res.status)
	})
	t.Run("OnlyAdmins", func(t *testing.T) {
		player := adminBrowser(t, e, playerID)
		status, body := e.get(t, player, "/admin/domains")
		assert.NotEqual(t, http.StatusOK, status, body)
	})
}

func TestAdminDomainsShowWhatToPublish(t *testing.T) {
	tw := cloudflaretest.Start(t)
	e, _ := buildSiteEnv(t, siteOptions{server: func(cfg *server.Config) {
		cfg.CustomHostnames = &cloudflare.CustomHostnames{BaseURL: tw.URL, APIToken: tw.Token, ZoneID: tw.ZoneID, CNAMETarget: "customers.arena.test"}
	}})
	c := adminBrowser(t, e, adminID)
	loc := adminPostOK(t, e, c, "/admin/domains", url.Values{"hostname": {"play.example.com"}})
	_, body := e.get(t, c, loc)
	assert.Contains(t, body, "Pending")
	assert.Contains(t, body, "pending_validation")
	assert.Contains(t, body, "customers.arena.test", "the CNAME to point at")
	assert.Contains(t, body, "_cf-custom-hostname.play.example.com")
	assert.Contains(t, body, "_acme-challenge.play.example.com")

	tw.SetDown(true)
	res := adminPost(t, e, c, "/admin/domains", url.Values{"hostname": {"watch.example.com"}})
	assert.Equal(t, http.StatusBadGateway, res.status)
	assert.Contains(t, res.body, "could not be reached")
	res = adminPost(t, e, c, "/admin/domains/play.example.com/remove", nil)
	assert.Equal(t, http.StatusBadGateway, res.status)
	tw.SetDown(false)
	adminPostOK(t, e, c, "/admin/domains/play.example.com/remove", nil)
	assert.Empty(t, tw.Hostnames())
}
