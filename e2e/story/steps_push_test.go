package story

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/worker/arenatest"
)

// pushSteps: a player turns notifications on for a phone (the account
// page's script posts the subscription), check-in opens for a tournament
// they are registered in, and the scheduled run pushes it to the phone
// through a push service (the RFC 8030 twin, on loopback: the target lets
// call-outs reach it). The phone and npm http_ece both read it.
func pushSteps() []step {
	const slug = "push-night"
	return []step{
		{"APlayerTurnsOnNotifications", func(t *testing.T, w *world) {
			sw := w.page(t, "/sw.js", "")
			require.Equal(t, http.StatusOK, sw.status)
			assert.Equal(t, "text/javascript; charset=utf-8", sw.header.Get("Content-Type"))
			assert.Equal(t, "no-cache", sw.header.Get("Cache-Control"), "a new service worker reaches every device at once")
			assert.Contains(t, string(sw.body), `addEventListener("push"`)
			svc := arenatest.StartPushService(t)
			key := w.read(t, "/api/v1/push/key")["publicKey"].(string)
			phone := svc.NewDevice("story-phone", key)
			session := w.signIn(t, player(2))
			a := w.do(t, request{method: "POST", path: "/account/push", body: phone.Form("Chrome on Android"), cookie: session})
			require.Equal(t, http.StatusSeeOther, a.status, "%s", a.body)
			account := w.page(t, "/account", session)
			assert.Contains(t, string(account.body), "Chrome on Android")

			now := time.Now()
			base := "/api/v1/admin/tournaments/" + slug
			w.adminAPI(t, "POST", "/api/v1/admin/tournaments", map[string]any{
				"slug": slug, "name": "Push Night", "format": "playoffs_only", "maxPlayers": 4,
				"registrationOpensAt": iso(now.Add(-time.Hour)), "registrationClosesAt": iso(now.Add(10 * time.Minute)),
				"startsAt": iso(now.Add(30 * time.Minute)), "checkInMinutes": 60,
			}, 201)
			w.adminAPI(t, "POST", base+"/status", map[string]any{"status": "registration_open"}, 200)
			w.adminAPI(t, "POST", base+"/registrations", map[string]any{"platformId": player(2), "personaName": players[1].name}, 201)
			w.adminAPI(t, "POST", base+"/registrations", map[string]any{"platformId": player(3), "personaName": players[2].name}, 201)

			var got []core.PushPayload
			for try := 0; try < 3 && len(got) == 0; try++ {
				require.NoError(t, w.target.tick(context.Background()))
				for _, m := range svc.Messages() {
					plain, err := phone.Open(m.Body)
					require.NoError(t, err, "the phone reads its push")
					var p core.PushPayload
					require.NoError(t, json.Unmarshal(plain, &p))
					if strings.Contains(p.Body, "Push Night") {
						got = append(got, p)
					}
				}
			}
			require.Empty(t, svc.Refused(), "the push service took every push")
			require.Len(t, got, 1, "once")
			assert.Equal(t, core.PushCheckIn, got[0].Kind)
			assert.Equal(t, "/tournaments/"+slug, got[0].URL)
			assert.Contains(t, got[0].Body, "Check-in is open for Push Night")
			assert.Equal(t, "The Story Arena", got[0].Title)
			third := arenatest.ReadPushesWithNode(t, svc)
			require.NotEmpty(t, third)
			var all []string
			for _, m := range svc.Messages() {
				plain, err := phone.Open(m.Body)
				require.NoError(t, err)
				all = append(all, string(plain))
			}
			assert.Equal(t, all, third, "npm http_ece reads what the phone read")
			a = w.do(t, request{method: "POST", path: "/account/push/remove", body: url.Values{"endpoint": {phone.Endpoint}}, cookie: session})
			require.Equal(t, http.StatusSeeOther, a.status)
		}},
	}
}
