package core_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
)

// TestSignStandardWebhook: the signature is the one the Standard Webhooks
// library makes for the same message, and a secret is one it takes.
func TestSignStandardWebhook(t *testing.T) {
	secret, err := core.NewStandardWebhookSecret(bytes.NewReader(bytes.Repeat([]byte{7}, 64)))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(secret, "whsec_"))
	wh, err := standardwebhooks.NewWebhook(secret)
	require.NoError(t, err)
	at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	body := []byte(`{"type":"match.live","timestamp":"2026-11-01T12:00:00.000Z","data":{}}`)
	want, err := wh.Sign("msg_1_1", at, body)
	require.NoError(t, err)
	got, err := core.SignStandardWebhook(secret, "msg_1_1", at.Unix(), body)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	other, err := core.SignStandardWebhook(secret, "msg_1_2", at.Unix(), body)
	require.NoError(t, err)
	assert.NotEqual(t, got, other, "the webhook-id is signed")

	_, err = core.SignStandardWebhook("whsec_not base64!", "msg_1_1", at.Unix(), body)
	assert.Error(t, err)
}

func TestSubscriptionWebhookIDIsStable(t *testing.T) {
	assert.Equal(t, "msg_0a1b_42", core.SubscriptionWebhookID("wh_0a1b", 42))
	assert.NotEqual(t, core.SubscriptionWebhookID("wh_0a1b", 42), core.SubscriptionWebhookID("wh_0a1b", 43))
}
