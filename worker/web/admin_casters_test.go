package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

func TestAdminOfficialCaster(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	admin := e.SignedIn(t, arenatest.Ada)
	m := e.Playable(t, "winter-cup")[0]
	page := fmt.Sprintf("/admin/matches/%d", m.ID)
	require.Contains(t, admin.Get(t, page).Body, "Add official caster")

	t.Run("ErrLoginShownAtTheField", func(t *testing.T) {
		res := admin.Post(t, page+"/casters", url.Values{"streamLogin": {"no spaces"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
		assert.Contains(t, res.Body, "A channel login has 3 to 25 letters, digits or underscores.")
		assert.Contains(t, res.Body, `value="no spaces"`)
	})
	t.Run("AddsTheArenaChannel", func(t *testing.T) {
		loc := admin.PostOK(t, page+"/casters", url.Values{"streamLogin": {"Demo_Official"}})
		body := admin.Get(t, loc).Body
		assert.Contains(t, body, "Official caster added")
		assert.Contains(t, body, "https://www.twitch.tv/demo_official")
		live := e.API(t, "GET", "/api/v1/casters", "", nil, http.StatusOK)
		assert.Contains(t, fmt.Sprint(live), "demo_official")
		public := e.Browser(t).Get(t, m.Path("")).Body
		assert.Contains(t, public, "caster, official")
	})
	t.Run("ErrNotAnAdmin", func(t *testing.T) {
		res := e.SignedIn(t, arenatest.Blaise).Post(t, page+"/casters", url.Values{"streamLogin": {"sneaky"}})
		assert.Equal(t, http.StatusForbidden, res.Status)
	})
}

func TestAdminAlertSettings(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	admin := e.SignedIn(t, arenatest.Ada)
	form := func(hook, lead string) url.Values {
		return url.Values{
			"name": {"Demo Arena"}, "plan": {"studio"}, "gracePeriodSeconds": {"86400"}, "appIds": {"480"},
			"anonymousPerMinute": {"60"}, "keyPerMinute": {"600"}, "through": {"1"}, "points": {"100"}, "played": {"5"},
			"webhookUrl": {hook}, "upcomingAlertMinutes": {lead},
		}
	}
	page := admin.Get(t, "/admin/settings").Body
	assert.Contains(t, page, `id="upcomingAlertMinutes" name="upcomingAlertMinutes" type="number" value="30"`)

	res := admin.Post(t, "/admin/settings", form("http://hooks.example.com/x", "2000"))
	assert.Equal(t, http.StatusUnprocessableEntity, res.Status)
	assert.Contains(t, res.Body, `id="err-webhookUrl">A webhook address must start with https://.`)
	assert.Contains(t, res.Body, `id="err-upcomingAlertMinutes">`)

	admin.PostOK(t, "/admin/settings", form("https://hooks.example.com/x", "90"))
	page = admin.Get(t, "/admin/settings").Body
	assert.Contains(t, page, `value="https://hooks.example.com/x"`)
	assert.Contains(t, page, `value="90"`)
	assert.Contains(t, page, "whsec_", "the signing secret is shown to the admin")
	out := e.Admin(t, "PUT", "/api/v1/admin/settings", map[string]any{}, http.StatusOK)["alerts"].(map[string]any)
	assert.Equal(t, "https://hooks.example.com/x", out["webhookUrl"])
	assert.Equal(t, float64(90), out["upcomingAlertMinutes"])

	admin.PostOK(t, "/admin/settings", form("", "90"))
	out = e.Admin(t, "PUT", "/api/v1/admin/settings", map[string]any{}, http.StatusOK)["alerts"].(map[string]any)
	assert.Nil(t, out["webhookUrl"], "an emptied field removes the webhook")
}
