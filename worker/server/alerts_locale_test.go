package server_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/worker/arenatest"
)

// TestAlertsInTheReadersLanguage: an alert reaches each person in the
// language they read the site in: the one a signed-in player chose with
// the picker, else the arena's defaultLocale; an Arabic reader's alert
// isolates the tournament's name (FSI … PDI); the arena's webhook keeps
// English; a defaultLocale Arena does not speak is refused and changes
// nothing.
func TestAlertsInTheReadersLanguage(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{})
	blaise, dorothy := "76561198000000002", "76561198000000004"
	edsger := "76561198000000005"
	a.SignedIn(t, blaise).PostOK(t, "/lang", url.Values{"lang": {"de"}, "next": {"/"}})
	a.SignedIn(t, dorothy).PostOK(t, "/lang", url.Values{"lang": {"ar"}, "next": {"/"}})
	out := a.Admin(t, "PUT", "/api/v1/admin/settings", map[string]any{"defaultLocale": "xx"}, 422)
	assert.Equal(t, "invalid_field", out["error"])
	settings := a.Admin(t, "PUT", "/api/v1/admin/settings", map[string]any{"defaultLocale": "ja"}, 200)
	assert.Equal(t, "ja", settings["arena"].(map[string]any)["defaultLocale"])

	tenant := demoTenant(t, a)
	_, err := core.RunAlerts(context.Background(), demoStore(t, a), tenant.Arena, a.Server.Now())
	require.NoError(t, err)
	a.Tick(t)
	assert.Contains(t, inbox(t, a, blaise), "Der Check-in für Harvest Cup ist offen")
	ar := inbox(t, a, dorothy)
	assert.Contains(t, ar, "تسجيل الحضور مفتوح في \u2068Harvest Cup\u2069")
	ja := inbox(t, a, edsger)
	assert.Contains(t, ja, "Harvest Cup のチェックインが始まりました")
	for _, body := range []string{ar, ja} {
		assert.NotContains(t, body, "Check-in is open for Harvest Cup")
	}
	assert.True(t, strings.Contains(inbox(t, a, arenatest.Ada), "Harvest Cup のチェックイン"), "Ada chose nothing: the arena's language")
}
