package core_test

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	circl "github.com/cloudflare/circl/sign/ed25519"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
)

// TestVerifyDiscordRequest checks signatures made by CIRCL's Ed25519, an
// implementation apart from Go's, as Discord's would be.
func TestVerifyDiscordRequest(t *testing.T) {
	pub, priv, err := circl.GenerateKey(rand.Reader)
	require.NoError(t, err)
	key := hex.EncodeToString(pub)
	body := []byte(`{"type":1,"id":"1","application_id":"2"}`)
	ts := "1764950400"
	sig := hex.EncodeToString(circl.Sign(priv, append([]byte(ts), body...)))
	assert.True(t, core.VerifyDiscordRequest(key, sig, ts, body))
	assert.True(t, core.VerifyDiscordRequest(key, strings.ToUpper(sig), ts, body), "hex in either case")
	assert.False(t, core.VerifyDiscordRequest(key, sig, "1764950401", body), "another timestamp")
	assert.False(t, core.VerifyDiscordRequest(key, sig, ts, append(body, ' ')), "another body")
	assert.False(t, core.VerifyDiscordRequest(key, sig, "", body), "no timestamp")
	assert.False(t, core.VerifyDiscordRequest(key, "zz", ts, body), "not hex")
	assert.False(t, core.VerifyDiscordRequest("abcd", sig, ts, body), "a short key")
	otherPub, _, err := circl.GenerateKey(rand.Reader)
	require.NoError(t, err)
	assert.False(t, core.VerifyDiscordRequest(hex.EncodeToString(otherPub), sig, ts, body), "another key")
}

func TestDiscordChange(t *testing.T) {
	s := func(v string) *string { return &v }
	app, err := core.DiscordChange{ApplicationID: s(" 1180000000000000001 "), PublicKey: s(strings.Repeat("AB", 32))}.Apply(core.DiscordApp{})
	require.NoError(t, err)
	assert.Equal(t, "1180000000000000001", app.ApplicationID)
	assert.Equal(t, strings.Repeat("ab", 32), app.PublicKey)
	assert.True(t, app.Set())
	kept, err := core.DiscordChange{BotToken: s("bot.token")}.Apply(app)
	require.NoError(t, err)
	assert.Equal(t, app.PublicKey, kept.PublicKey, "nil keeps")
	assert.Equal(t, "bot.token", kept.BotToken)
	cleared, err := core.DiscordChange{ApplicationID: s(""), PublicKey: s("")}.Apply(kept)
	require.NoError(t, err)
	assert.False(t, cleared.Set())
	for field, c := range map[string]core.DiscordChange{
		"discordApplicationId": {ApplicationID: s("123")},
		"discordPublicKey":     {PublicKey: s("xyz")},
		"discordBotToken":      {BotToken: s("a b")},
		"discordClientSecret":  {ClientSecret: s(strings.Repeat("x", 201))},
	} {
		_, err := c.Apply(app)
		var ce *core.Error
		require.ErrorAs(t, err, &ce, field)
		assert.Equal(t, field, ce.Field)
	}
	_, err = core.DiscordChange{PublicKey: s("")}.Apply(app)
	assert.Equal(t, core.CodeInvalidField, core.ErrorCode(err), "an id without its key")
}
