package server_test

import (
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWebhookTestEvent: an admin sends a test event to a webhook and
// reads what its receiver answered; the event is signed as deliveries are
// (checked with the Standard Webhooks library), reaches a paused webhook
// too, and is neither in the delivery log nor queued.
func TestWebhookTestEvent(t *testing.T) {
	p := hookEnv(t, false)
	rc := startReceiver(t)
	id, secret := p.subscribe(t, rc.URL+"/standard", "standard", "match.confirmed")
	path := "/api/v1/admin/webhooks/" + id + "/test"

	t.Run("Delivered", func(t *testing.T) {
		out := p.mustDo(t, "POST", path, p.admin, nil, 200)
		assert.Equal(t, true, out["delivered"])
		assert.Equal(t, float64(204), out["status"])
		assert.NotNil(t, out["durationMs"])
		assert.Nil(t, out["problem"])
		got := rc.got()
		require.Len(t, got, 1)
		d := got[0]
		verifyStandard(t, secret, d)
		assert.Equal(t, out["webhookId"], d.header.Get("webhook-id"))
		assert.True(t, strings.HasPrefix(d.header.Get("webhook-id"), "test_"))
		var body struct {
			Type string
			Data struct{ WebhookID, Arena, Message string }
		}
		require.NoError(t, json.Unmarshal(d.body, &body))
		assert.Equal(t, "webhook.test", body.Type)
		assert.Equal(t, id, body.Data.WebhookID)
		assert.Empty(t, p.deliveries(t, id), "not in the delivery log")
	})
	t.Run("PausedToo", func(t *testing.T) {
		p.mustDo(t, "PATCH", "/api/v1/admin/webhooks/"+id, p.admin, map[string]any{"paused": true}, 200)
		assert.Equal(t, true, p.mustDo(t, "POST", path, p.admin, nil, 200)["delivered"])
		p.mustDo(t, "PATCH", "/api/v1/admin/webhooks/"+id, p.admin, map[string]any{"paused": false}, 200)
	})
	t.Run("ReceiverFails", func(t *testing.T) {
		rc.answer(500)
		out := p.mustDo(t, "POST", path, p.admin, nil, 200)
		assert.Equal(t, false, out["delivered"])
		assert.Equal(t, float64(500), out["status"])
		assert.Equal(t, "answered 500 Internal Server Error", out["problem"])
	})
	t.Run("NoAnswer", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		closed := "http://" + l.Addr().String() + "/gone"
		require.NoError(t, l.Close())
		gone, _ := p.subscribe(t, closed, "standard", "match.confirmed")
		out := p.mustDo(t, "POST", "/api/v1/admin/webhooks/"+gone+"/test", p.admin, nil, 200)
		assert.Equal(t, false, out["delivered"])
		assert.Nil(t, out["status"])
		assert.Contains(t, out["problem"], "no answer")
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		out := p.mustDo(t, "POST", "/api/v1/admin/webhooks/wh_nope/test", p.admin, nil, 404)
		assert.Equal(t, "not_found", out["error"])
	})
	t.Run("AdminsOnly", func(t *testing.T) {
		status, _ := p.do(t, "POST", "alpha.test", path, "", nil)
		assert.Equal(t, http.StatusUnauthorized, status)
	})
}
