package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
	"arena/worker/cloudflare"
	"arena/worker/cloudflare/cloudflaretest"
	"arena/worker/server"
)

func TestAdminDomainsWithoutAProvider(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	c := e.SignedIn(t, arenatest.Ada)
	p := c.Get(t, "/admin/domains")
	require.Equal(t, http.StatusOK, p.Status)
	assert.Contains(t, p.Body, "No custom domains yet.")
	assert.Contains(t, p.Body, `href="/admin/domains"`, "in the admin menu")

	t.Run("ErrInvalidHostname", func(t *testing.T) {
		p := c.Post(t, "/admin/domains", url.Values{"hostname": {"10.0.0.1"}})
		assert.Equal(t, http.StatusUnprocessableEntity, p.Status)
		assert.Contains(t, p.Body, `id="err-hostname">Enter a hostname such as play.example.com`)
	})
	t.Run("ErrHostTaken", func(t *testing.T) {
		p := c.Post(t, "/admin/domains", url.Values{"hostname": {"demo.localhost"}})
		assert.Equal(t, http.StatusConflict, p.Status)
		assert.Contains(t, p.Body, "This hostname already serves an arena.")
	})
	body := c.Get(t, c.PostOK(t, "/admin/domains", url.Values{"hostname": {"play.example.com"}})).Body
	assert.Contains(t, body, "Domain added.")
	assert.Contains(t, body, "play.example.com")
	// Issue 25 point 7: no template source, the DNS target named, and no
	// "Active" before anyone could have pointed the domain here.
	assert.NotContains(t, body, "@adminTime", "template source printed")
	assert.Regexp(t, `Added\s*<time datetime="`, body)
	assert.Contains(t, body, `<td>CNAME</td><td class="mono">play.example.com</td><td class="mono">localhost</td>`, "the record to publish")
	assert.Contains(t, body, `to <span class="mono">localhost</span>`, "the target named in the explanation")
	assert.NotContains(t, body, ">Active<", "not shown active at once")
	domains := e.Admin(t, "GET", "/api/v1/admin/domains", nil, http.StatusOK)["domains"].([]any)
	assert.Equal(t, "play.example.com", domains[0].(map[string]any)["hostname"])

	t.Run("Remove", func(t *testing.T) {
		body := c.Get(t, c.PostOK(t, "/admin/domains/play.example.com/remove", nil)).Body
		assert.Contains(t, body, "Domain removed")
		assert.Contains(t, body, "No custom domains yet.")
		assert.Equal(t, http.StatusNotFound, c.Post(t, "/admin/domains/play.example.com/remove", nil).Status)
	})
	t.Run("OnlyAdmins", func(t *testing.T) {
		assert.Equal(t, http.StatusForbidden, e.SignedIn(t, arenatest.Blaise).Get(t, "/admin/domains").Status)
	})
}

func TestAdminDomainsShowWhatToPublish(t *testing.T) {
	tw := cloudflaretest.Start(t)
	e := arenatest.New(t, arenatest.Options{Config: func(cfg *server.Config) {
		cfg.CustomHostnames = &cloudflare.CustomHostnames{BaseURL: tw.URL, APIToken: tw.Token, ZoneID: tw.ZoneID, CNAMETarget: "customers.arena.test"}
	}})
	c := e.SignedIn(t, arenatest.Ada)
	body := c.Get(t, c.PostOK(t, "/admin/domains", url.Values{"hostname": {"play.example.com"}})).Body
	assert.Contains(t, body, "Pending")
	assert.Contains(t, body, "pending_validation")
	assert.Contains(t, body, "customers.arena.test", "the CNAME to point at")
	assert.Contains(t, body, "_cf-custom-hostname.play.example.com")
	assert.Contains(t, body, "_acme-challenge.play.example.com")

	tw.SetDown(true)
	p := c.Post(t, "/admin/domains", url.Values{"hostname": {"watch.example.com"}})
	assert.Equal(t, http.StatusBadGateway, p.Status)
	assert.Contains(t, p.Body, "could not be reached")
	assert.Equal(t, http.StatusBadGateway, c.Post(t, "/admin/domains/play.example.com/remove", nil).Status)
	tw.SetDown(false)
	c.PostOK(t, "/admin/domains/play.example.com/remove", nil)
	assert.Empty(t, tw.Hostnames())
}
