package cloudflare_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/worker/cloudflare"
	"arena/worker/cloudflare/cloudflaretest"
)

func client(tw *cloudflaretest.Twin) *cloudflare.CustomHostnames {
	return &cloudflare.CustomHostnames{BaseURL: tw.URL, APIToken: tw.Token, ZoneID: tw.ZoneID, CNAMETarget: "customers.arena.test"}
}

func TestCustomHostnameLifecycle(t *testing.T) {
	tw := cloudflaretest.Start(t)
	c := client(tw)
	ctx := context.Background()

	created, err := c.Create(ctx, "play.example.com")
	require.NoError(t, err)
	assert.NotEmpty(t, created.ID)
	assert.Equal(t, "pending", created.Status)
	assert.Equal(t, "pending_validation", created.SSLStatus)
	require.Len(t, created.Verification, 3)
	assert.Equal(t, core.DomainRecord{Type: "CNAME", Name: "play.example.com", Value: "customers.arena.test"}, created.Verification[0])
	assert.Equal(t, "TXT", created.Verification[1].Type)
	assert.Equal(t, "_cf-custom-hostname.play.example.com", created.Verification[1].Name)
	assert.Equal(t, "_acme-challenge.play.example.com", created.Verification[2].Name)

	_, err = c.Create(ctx, "play.example.com")
	assert.Equal(t, core.CodeDomainProviderFailed, core.ErrorCode(err), "a duplicate is refused")

	tw.Activate("play.example.com")
	got, err := c.Get(ctx, created.ID)
	require.NoError(t, err)
	assert.Equal(t, core.CustomHostname{ID: created.ID, Status: "active", SSLStatus: "active",
		Verification: []core.DomainRecord{{Type: "CNAME", Name: "play.example.com", Value: "customers.arena.test"}}}, got)

	require.NoError(t, c.Delete(ctx, created.ID))
	assert.Empty(t, tw.Hostnames())
	require.NoError(t, c.Delete(ctx, created.ID), "deleting what is gone is not an error")
	_, err = c.Get(ctx, created.ID)
	assert.Equal(t, core.CodeDomainNotFound, core.ErrorCode(err))
}

func TestFailuresAreProviderFailures(t *testing.T) {
	tw := cloudflaretest.Start(t)
	ctx := context.Background()
	for name, c := range map[string]*cloudflare.CustomHostnames{
		"WrongToken": {BaseURL: tw.URL, APIToken: "nope", ZoneID: tw.ZoneID},
		"WrongZone":  {BaseURL: tw.URL, APIToken: tw.Token, ZoneID: "0000"},
		"NoServer":   {BaseURL: "http://127.0.0.1:1/client/v4", APIToken: tw.Token, ZoneID: tw.ZoneID},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := c.Create(ctx, "play.example.com")
			assert.Equal(t, core.CodeDomainProviderFailed, core.ErrorCode(err))
		})
	}
	t.Run("Down", func(t *testing.T) {
		tw.SetDown(true)
		defer tw.SetDown(false)
		_, err := client(tw).Create(ctx, "play.example.com")
		assert.Equal(t, core.CodeDomainProviderFailed, core.ErrorCode(err))
		assert.NotContains(t, err.Error(), tw.Token, "the token never shows")
	})
}
