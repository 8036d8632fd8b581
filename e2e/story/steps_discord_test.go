package story

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/core/discordbot"
	"arena/worker/discord/discordtest"
)

// discordSteps: the arena's admin saves its Discord application, and
// Discord (the twin, signing with CIRCL's Ed25519) posts a PING, a
// request whose signature does not verify, and /arena bracket.
func discordSteps() []step {
	return []step{
		{"TheArenasDiscordAnswersItsCommands", func(t *testing.T, w *world) {
			twin := discordtest.Start()
			defer twin.Close()
			app := twin.App()
			out := w.adminAPI(t, "PUT", "/api/v1/admin/settings", map[string]any{
				"discordApplicationId": app.ApplicationID, "discordPublicKey": app.PublicKey}, 200)
			assert.Equal(t, app.ApplicationID, out["discord"].(map[string]any)["applicationId"])
			endpoint := w.target.base + "/discord/interactions"

			got, err := twin.Send(endpoint, w.host, twin.Ping(), false)
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, got.Status, "%s", got.Body)
			assert.JSONEq(t, `{"type":1}`, string(got.Body), "PONG")
			got, err = twin.Send(endpoint, w.host, twin.Ping(), true)
			require.NoError(t, err)
			assert.Equal(t, http.StatusUnauthorized, got.Status, "a signature that does not verify")

			got, err = twin.Send(endpoint, w.host, twin.Command(core.DiscordUser{ID: "1240000000000000101", Username: "viewer"}, "bracket", cup), false)
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, got.Status, "%s", got.Body)
			var r discordbot.Response
			require.NoError(t, json.Unmarshal(got.Body, &r))
			assert.Equal(t, discordbot.CallbackMessage, r.Type)
			assert.Contains(t, r.Data.Content, "**Story Cup**")
			assert.Contains(t, r.Data.Content, "/tournaments/"+cup)
		}},
	}
}
