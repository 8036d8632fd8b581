package web_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/worker/arenatest"
)

// Issue 25 point 9: one shape for a time everywhere a text shows one,
// the zone named: the public pages, the admin's pages and lifecycle
// confirmations, and the alerts.
func TestOneWayToShowATime(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	now := e.ServiceNow(t)
	opens, closes := now.Add(time.Hour), now.Add(48*time.Hour)
	e.Admin(t, "POST", "/api/v1/admin/tournaments", map[string]any{
		"slug": "times", "name": "Times Cup", "format": "playoffs_only", "maxPlayers": 8,
		"registrationOpensAt":  opens.Format(time.RFC3339),
		"registrationClosesAt": closes.Format(time.RFC3339),
		"startsAt":             now.Add(72 * time.Hour).Format(time.RFC3339),
	}, http.StatusCreated)
	admin := e.SignedIn(t, arenatest.Ada)
	confirm := admin.Get(t, "/admin/tournaments/times/status?to=registration_open").Body
	assert.Contains(t, confirm, "Players can register from "+core.FormatTime(opens, nil)+" until "+core.FormatTime(closes, nil))
	assert.Contains(t, admin.Get(t, "/admin").Body, ">"+core.FormatTime(now.Add(72*time.Hour), nil)+"</time>", "the admin's times")

	e.SetStatus(t, "times", "registration_open")
	public := e.Browser(t).Get(t, "/tournaments/times").Body
	assert.Contains(t, public, ">"+core.FormatTime(opens, nil)+"</time>", "the public pages' times")

	e.Admin(t, "PUT", "/api/v1/admin/settings", map[string]any{"upcomingAlertMinutes": 120}, http.StatusOK)
	e.Tick(t)
	m := e.Playable(t, "winter-cup")[0]
	at, err := time.Parse(time.RFC3339, m.OpensAt)
	require.NoError(t, err)
	alerts := e.SignedIn(t, *m.P1).Get(t, "/alerts").Body
	assert.Contains(t, alerts, "the window opens at "+core.FormatTime(at, nil)+".", "the alerts' times")
	assert.Equal(t, "27 Nov 2026, 14:00 UTC", core.FormatTime(time.Date(2026, 11, 27, 14, 0, 0, 0, time.UTC), nil))
}
