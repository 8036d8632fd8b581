package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/core/discordbot"
	"arena/worker/arenatest"
	"arena/worker/discord"
	"arena/worker/discord/discordtest"
	"arena/worker/server"
)

// discordArena is the demo arena talking to a Discord twin, its
// application saved through the admin API.
func discordArena(t *testing.T) (*arenatest.Arena, *discordtest.Twin) {
	t.Helper()
	twin := discordtest.Start()
	t.Cleanup(twin.Close)
	a := arenatest.New(t, arenatest.Options{Config: func(c *server.Config) { c.Discord = discord.API{Base: twin.URL} }})
	app := twin.App()
	out := a.Admin(t, "PUT", "/api/v1/admin/settings", map[string]any{"discordApplicationId": app.ApplicationID,
		"discordPublicKey": strings.ToUpper(app.PublicKey), "discordBotToken": app.BotToken, "discordClientSecret": app.ClientSecret}, 200)
	d := out["discord"].(map[string]any)
	assert.Equal(t, app.PublicKey, d["publicKey"], "kept in lower case")
	assert.Equal(t, true, d["botTokenSet"])
	assert.Equal(t, true, d["clientSecretSet"])
	assert.NotContains(t, mustJSON(t, out), app.BotToken, "the secrets are never answered back")
	assert.NotContains(t, mustJSON(t, out), app.ClientSecret)
	assert.Equal(t, "http://localhost/discord/interactions", d["interactionsUrl"])
	return a, twin
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// interact sends an interaction as Discord does and decodes the answer.
func interact(t *testing.T, a *arenatest.Arena, twin *discordtest.Twin, in map[string]any) discordbot.Response {
	t.Helper()
	got, err := twin.Send(a.URL+"/discord/interactions", "", in, false)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, got.Status, "%s", got.Body)
	var r discordbot.Response
	require.NoError(t, json.Unmarshal(got.Body, &r), "%s", got.Body)
	return r
}

func TestDiscordSettingsRefusals(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{})
	for field, body := range map[string]map[string]any{
		"discordApplicationId": {"discordApplicationId": "12ab", "discordPublicKey": strings.Repeat("a", 64)},
		"discordPublicKey":     {"discordApplicationId": "1180000000000000001", "discordPublicKey": "xyz"},
		"discordBotToken":      {"discordBotToken": "with space"},
	} {
		out := a.Admin(t, "PUT", "/api/v1/admin/settings", body, 422)
		assert.Equal(t, field, out["field"])
	}
	out := a.Admin(t, "PUT", "/api/v1/admin/settings", map[string]any{"discordApplicationId": "1180000000000000001"}, 422)
	assert.Equal(t, "discordPublicKey", out["field"], "an id needs its key")
	out = a.Admin(t, "PUT", "/api/v1/admin/settings", map[string]any{"name": "Demo Arena"}, 200)
	assert.Equal(t, "", out["discord"].(map[string]any)["applicationId"], "refusals change nothing")
}

func TestDiscordInteractions(t *testing.T) {
	a, twin := discordArena(t)
	endpoint := a.URL + "/discord/interactions"

	t.Run("PingAndSignatures", func(t *testing.T) {
		assert.Equal(t, discordbot.CallbackPong, interact(t, a, twin, twin.Ping()).Type)
		got, err := twin.Send(endpoint, "", twin.Ping(), true)
		require.NoError(t, err)
		assert.Equal(t, http.StatusUnauthorized, got.Status, "a body that is not the one signed")
		other := discordtest.Start()
		defer other.Close()
		ping := other.Ping()
		ping["application_id"] = twin.ApplicationID
		got, err = other.Send(endpoint, "", ping, false)
		require.NoError(t, err)
		assert.Equal(t, http.StatusUnauthorized, got.Status, "signed with another key")
		req, _ := http.NewRequest("POST", endpoint, strings.NewReader(`{"type":1}`))
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, http.StatusUnauthorized, res.StatusCode, "unsigned")
	})

	blaise := twin.Member("1240000000000000002", "blaise")
	stranger := core.DiscordUser{ID: "1240000000000000099", Username: "stranger"}
	t.Run("UnlinkedMembersAreAskedToLink", func(t *testing.T) {
		r := interact(t, a, twin, twin.Command(stranger, "next", ""))
		require.Equal(t, discordbot.CallbackMessage, r.Type)
		assert.Equal(t, discordbot.FlagEphemeral, r.Data.Flags)
		assert.Contains(t, r.Data.Content, "Link your Discord account to your Demo Arena account first: http://localhost/account#discord")
	})

	t.Run("APlayerLinksDiscordFromTheAccountPage", func(t *testing.T) {
		b := a.SignedIn(t, arenatest.Blaise)
		assert.Contains(t, b.Get(t, "/account").Body, `action="/discord/link"`)
		start := b.Post(t, "/discord/link", nil)
		require.Equal(t, http.StatusSeeOther, start.Status, start.Body)
		require.True(t, strings.HasPrefix(start.Location, twin.URL+"/oauth2/authorize?"), start.Location)
		consent, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Get(start.Location)
		require.NoError(t, err)
		consent.Body.Close()
		back := consent.Header.Get("Location")
		require.True(t, strings.HasPrefix(back, a.URL+"/discord/callback?"), back)

		// The code is Blaise's: another account's browser cannot use it.
		other := a.SignedIn(t, arenatest.Charles).Get(t, back)
		assert.Equal(t, http.StatusBadRequest, other.Status)
		start = b.Post(t, "/discord/link", nil)
		consent, err = (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Get(start.Location)
		require.NoError(t, err)
		consent.Body.Close()
		done := b.Get(t, consent.Header.Get("Location"))
		require.Equal(t, http.StatusSeeOther, done.Status, done.Body)
		assert.Contains(t, done.Location, "notice=discord_linked")
		assert.Contains(t, b.Get(t, "/account").Body, `Linked as <bdi class="discord-name">Blaise</bdi>`)
		again := b.Get(t, consent.Header.Get("Location"))
		assert.Equal(t, http.StatusBadRequest, again.Status, "a state is used once")
	})

	t.Run("NextMatch", func(t *testing.T) {
		r := interact(t, a, twin, twin.Command(blaise, "next", ""))
		assert.Equal(t, discordbot.FlagEphemeral, r.Data.Flags, "only Blaise sees it")
		assert.Regexp(t, `^(Your next match: against .+ in Winter Cup|You are playing .+ now in Winter Cup)`, r.Data.Content)
		assert.Contains(t, r.Data.Content, "http://localhost/matches/")
		assert.Regexp(t, `<t:\d+:f> \(<t:\d+:R>\)`, r.Data.Content, "in each reader's own zone")
		assert.Equal(t, []string{}, r.Data.AllowedMentions.Parse, "pings nobody")
	})

	t.Run("CheckIn", func(t *testing.T) {
		a.OpenCup(t, arenatest.Cup{Slug: "discord-cup", MaxPlayers: 4, Players: []string{arenatest.Blaise, arenatest.Charles},
			Fields: map[string]any{"checkInMinutes": 180}})
		r := interact(t, a, twin, twin.Command(blaise, "checkin", ""))
		assert.Contains(t, r.Data.Content, "You are checked in for Cup discord-cup.")
		page := a.SignedIn(t, arenatest.Blaise).Get(t, "/tournaments/discord-cup")
		assert.Contains(t, page.Body, "checked in")
		r = interact(t, a, twin, twin.Command(blaise, "checkin", "winter-cup"))
		assert.Contains(t, r.Data.Content, "Winter Cup")
		r = interact(t, a, twin, twin.Command(blaise, "checkin", "no-such-cup"))
		assert.Contains(t, r.Data.Content, `There is no tournament "no-such-cup"`)
	})

	t.Run("BracketAndStandingsForEveryone", func(t *testing.T) {
		r := interact(t, a, twin, twin.Command(stranger, "bracket", "Winter Cup"))
		assert.Zero(t, r.Data.Flags, "the channel sees it")
		assert.Contains(t, r.Data.Content, "**Winter Cup**")
		assert.Contains(t, r.Data.Content, "http://localhost/tournaments/winter-cup")
		assert.Contains(t, r.Data.Content, " vs ")
		r = interact(t, a, twin, twin.Command(stranger, "standings", "autumn-masters"))
		assert.Contains(t, r.Data.Content, "**Autumn Masters**")
		assert.Contains(t, r.Data.Content, "1. ")
		r = interact(t, a, twin, twin.Command(stranger, "standings", "nope"))
		assert.Equal(t, discordbot.FlagEphemeral, r.Data.Flags)
	})

	t.Run("Autocomplete", func(t *testing.T) {
		in := twin.Command(stranger, "bracket", "")
		in["type"] = discordbot.TypeAutocomplete
		in["data"].(map[string]any)["options"] = []any{map[string]any{"type": 1, "name": "bracket",
			"options": []any{map[string]any{"type": 3, "name": "tournament", "value": "cup", "focused": true}}}}
		r := interact(t, a, twin, in)
		require.Equal(t, discordbot.CallbackAutocomplete, r.Type)
		var slugs []string
		for _, c := range r.Data.Choices {
			slugs = append(slugs, c.Value)
		}
		assert.Contains(t, slugs, "winter-cup")
		assert.Contains(t, slugs, "discord-cup")
		assert.NotContains(t, slugs, "autumn-masters")
	})

	t.Run("TheAdminRegistersTheCommand", func(t *testing.T) {
		admin := a.SignedIn(t, arenatest.Ada)
		page := admin.Get(t, "/admin/settings")
		assert.Contains(t, page.Body, "http://localhost/discord/interactions")
		assert.NotContains(t, page.Body, twin.BotToken)
		done := admin.Post(t, "/admin/discord/commands", nil)
		require.Equal(t, http.StatusSeeOther, done.Status, done.Body)
		var cmds []map[string]any
		require.NoError(t, json.Unmarshal(twin.Commands(), &cmds))
		require.Len(t, cmds, 1)
		assert.Equal(t, "arena", cmds[0]["name"])
		var subs []string
		for _, o := range cmds[0]["options"].([]any) {
			subs = append(subs, o.(map[string]any)["name"].(string))
		}
		assert.Equal(t, []string{"next", "checkin", "bracket", "standings"}, subs)
		bad := admin.Post(t, "/admin/discord", url.Values{"discordApplicationId": {twin.ApplicationID}, "discordPublicKey": {"nothex"}})
		assert.Equal(t, http.StatusUnprocessableEntity, bad.Status)
		assert.Contains(t, bad.Body, "64 hexadecimal digits")
		assert.Equal(t, discordbot.CallbackPong, interact(t, a, twin, twin.Ping()).Type, "nothing changed")
	})

	t.Run("Unlink", func(t *testing.T) {
		b := a.SignedIn(t, arenatest.Blaise)
		require.Equal(t, http.StatusSeeOther, b.Post(t, "/discord/unlink", nil).Status)
		r := interact(t, a, twin, twin.Command(blaise, "next", ""))
		assert.Contains(t, r.Data.Content, "Link your Discord account")
	})
}

// TestDiscordDeferredCommands: a command whose answer takes longer than
// the arena allows (here: any time at all) is deferred, privately for
// next and checkin, and finished after the answer with the message an
// inline answer would have given, through the interaction's token.
func TestDiscordDeferredCommands(t *testing.T) {
	twin := discordtest.Start()
	t.Cleanup(twin.Close)
	a := arenatest.New(t, arenatest.Options{Config: func(c *server.Config) {
		c.Discord = discord.API{Base: twin.URL}
		c.DiscordDeferAfter = time.Nanosecond
	}})
	app := twin.App()
	a.Admin(t, "PUT", "/api/v1/admin/settings", map[string]any{"discordApplicationId": app.ApplicationID, "discordPublicKey": app.PublicKey}, 200)
	assert.Equal(t, discordbot.CallbackPong, interact(t, a, twin, twin.Ping()).Type, "a PING reads nothing: never deferred")

	finished := func(in map[string]any) discordbot.Message {
		t.Helper()
		var m discordbot.Message
		require.Eventually(t, func() bool { return twin.Edited(in["token"].(string)) != nil }, 10*time.Second, 10*time.Millisecond)
		require.NoError(t, json.Unmarshal(twin.Edited(in["token"].(string)), &m))
		return m
	}
	member := core.DiscordUser{ID: "1240000000000000007", Username: "member"}
	bracket := twin.Command(member, "bracket", "winter-cup")
	r := interact(t, a, twin, bracket)
	assert.Equal(t, discordbot.CallbackDeferred, r.Type)
	assert.Zero(t, r.Data.Flags, "the channel will see it")
	m := finished(bracket)
	assert.Contains(t, m.Content, "**Winter Cup**")
	assert.Contains(t, m.Content, "http://localhost/tournaments/winter-cup")

	next := twin.Command(member, "next", "")
	r = interact(t, a, twin, next)
	assert.Equal(t, discordbot.CallbackDeferred, r.Type)
	assert.Equal(t, discordbot.FlagEphemeral, r.Data.Flags, "only the member will see it")
	assert.Contains(t, finished(next).Content, "Link your Discord account")
}
