package story

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gslCup is the organizer's tournament: a GSL group of four, with
// check-in (withdrawing the absent at the start is the API tests' part:
// a GSL group is exactly four).
const gslCup = "story-gsl"

func organizerSteps() []step {
	base := "/api/v1/admin/tournaments/" + gslCup
	return []step{
		{"OrganizerOpensAGSLCupWithCheckIn", func(t *testing.T, w *world) {
			now := time.Now()
			out := w.adminAPI(t, "POST", "/api/v1/admin/tournaments", map[string]any{
				"slug": gslCup, "name": "Story GSL", "description": "A GSL group with check-in.", "format": "groups_playoffs",
				"maxPlayers": 4, "registrationOpensAt": iso(now.Add(-time.Hour)), "registrationClosesAt": iso(now.Add(10 * time.Minute)),
				"startsAt": iso(now.Add(30 * time.Minute)), "checkInMinutes": 60, "environment": "demo",
				"groupFormat": "gsl", "groupCount": 1, "matchWindowMinutes": 30,
				"cast": map[string]any{"handMode": "hidden", "delaySeconds": 0},
			}, 201)
			assert.Equal(t, float64(60), out["checkInMinutes"])
			assert.Equal(t, "gsl", out["groupFormat"])
			w.adminAPI(t, "POST", base+"/status", map[string]any{"status": "registration_open"}, 200)
			for _, p := range players {
				w.adminAPI(t, "POST", base+"/registrations", map[string]any{"platformId": p.id, "personaName": p.name}, 201)
			}
		}},
		{"PlayersCheckInWithTheirTickets", func(t *testing.T, w *world) {
			for _, p := range players {
				a := w.do(t, request{method: "POST", path: "/api/v1/tournaments/" + gslCup + "/check-in", auth: "Platform MOCK:" + p.id})
				require.Equal(t, http.StatusOK, a.status, string(a.body))
				assert.Equal(t, map[string]any{"checkedIn": true}, a.json(t))
			}
			a := w.do(t, request{method: "POST", path: "/api/v1/tournaments/" + gslCup + "/check-in", auth: "Platform MOCK:76561198000000199"})
			assert.Equal(t, http.StatusForbidden, a.status)
			assert.Equal(t, "not_registered", a.json(t)["error"])
			in := map[string]any{}
			for _, raw := range w.adminAPI(t, "GET", base, nil, 200)["players"].([]any) {
				pl := raw.(map[string]any)
				in[pl["platformId"].(string)] = pl["checkedIn"]
			}
			for _, p := range players {
				assert.Equal(t, true, in[p.id], p.name)
			}
		}},
		{"OrganizerSeedsByRating", func(t *testing.T, w *world) {
			out := w.adminAPI(t, "POST", base+"/seeds", map[string]any{"by": "rating"}, 200)
			seeds := out["seeds"].([]any)
			require.Len(t, seeds, 4)
			for i, raw := range seeds {
				assert.Equal(t, float64(i+1), raw.(map[string]any)["seed"])
			}
		}},
		{"TheStartDrawsTheGroup", func(t *testing.T, w *world) {
			w.adminAPI(t, "POST", base+"/status", map[string]any{"status": "registration_closed"}, 200)
			full := w.adminAPI(t, "POST", base+"/status", map[string]any{"status": "group_stage"}, 200)
			assert.Equal(t, float64(4), full["playerCount"])
			groups := full["groups"].([]any)
			require.Len(t, groups, 1)
			var slots []any
			for _, m := range groups[0].(map[string]any)["matches"].([]any) {
				slots = append(slots, m.(map[string]any)["bracketSlot"])
			}
			assert.ElementsMatch(t, []any{"GA-O1", "GA-O2", "GA-W", "GA-E", "GA-D"}, slots)
		}},
		{"ClientsPlayAGSLOpeningMatch", func(t *testing.T, w *world) {
			ctx := context.Background()
			var opening map[string]any
			for _, raw := range w.adminAPI(t, "GET", base+"/matches", nil, 200)["matches"].([]any) {
				if m := raw.(map[string]any); m["bracketSlot"] == "GA-O1" {
					opening = m
				}
			}
			require.NotNil(t, opening)
			id := int64(opening["id"].(float64))
			a, b := opening["p1PlatformId"].(string), opening["p2PlatformId"].(string)
			// The group plays from startsAt; the organizer opens this match now.
			w.adminAPI(t, "PATCH", fmt.Sprintf("/api/v1/admin/matches/%d", id), map[string]any{
				"opensAt": iso(time.Now().Add(-time.Minute)), "closesAt": iso(time.Now().Add(time.Hour))}, 200)
			_, err := w.client(t, a).Ready(ctx, id)
			require.NoError(t, err)
			st, err := w.client(t, b).Ready(ctx, id)
			require.NoError(t, err)
			require.True(t, st.Live)
			_, err = w.client(t, a).Submit(ctx, a, b, game, a)
			require.NoError(t, err)
			second, err := w.client(t, b).Submit(ctx, b, a, game, a)
			require.NoError(t, err)
			assert.Equal(t, "confirmed", second.Status)
			full := w.read(t, "/api/v1/tournaments/"+gslCup)
			for _, raw := range full["groups"].([]any)[0].(map[string]any)["matches"].([]any) {
				m := raw.(map[string]any)
				if m["id"] == opening["id"] {
					assert.Equal(t, "confirmed", m["status"])
					assert.Equal(t, a, m["winner"].(map[string]any)["platformId"])
				}
			}
		}},
		{"TheBroadcastViewShowsTheGroup", func(t *testing.T, w *world) {
			for _, path := range []string{"/tournaments/" + gslCup + "/broadcast", "/tournaments/" + gslCup + "/broadcast?transparent=1"} {
				a := w.page(t, path, "")
				require.Equal(t, http.StatusOK, a.status, path)
				body := string(a.body)
				assert.Contains(t, body, `class="broadcast`, path)
				assert.Contains(t, body, "Story GSL", path)
				assert.Contains(t, body, players[0].name, path)
				assert.NotContains(t, body, "<nav", "no site chrome")
			}
			assert.Contains(t, string(w.page(t, "/tournaments/"+gslCup+"/broadcast?transparent=1", "").body), "transparent")
		}},
	}
}
