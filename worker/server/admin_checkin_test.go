package server_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/worker/arenatest"
)

// TestAdminCheckIn: the organizer checks sides in and out, on SQLite and
// on the libSQL server (where the route's round trips are held), and
// starting the stage answers who it withdrew.
func TestAdminCheckIn(t *testing.T) {
	onBackends(t, testAdminCheckIn)
}

func testAdminCheckIn(t *testing.T, p *protocolEnv, counter *arenatest.CountingLibSQL) {
	// Starts 48 h from now; check-in opens an hour before.
	base := p.dayCup(t, "night", "playoffs_only", 8, 4, map[string]any{"checkInMinutes": 60, "smallFinal": false})
	route := base + "/check-in"
	set := func(id string, in bool, want int) map[string]any {
		t.Helper()
		return p.mustDo(t, "POST", route, p.admin, map[string]any{"platformId": id, "checkedIn": in}, want)
	}
	checkedIn := func() map[string]any {
		t.Helper()
		out := map[string]any{}
		for _, raw := range p.mustDo(t, "GET", base, p.admin, nil, 200)["players"].([]any) {
			pl := raw.(map[string]any)
			out[pl["platformId"].(string)] = pl["checkedIn"]
		}
		return out
	}

	t.Run("Refusals", func(t *testing.T) {
		assert.Equal(t, "not_registered", set(playerID(9), true, 403)["error"])
		assert.Equal(t, "invalid_steam_id", set("123", true, 400)["error"])
		out := p.mustDo(t, "POST", route, p.admin, map[string]any{"platformId": playerID(1)}, 422)
		assert.Equal(t, "checkedIn", out["field"])
		p.mustDo(t, "POST", "/api/v1/admin/tournaments/nosuch/check-in", p.admin, map[string]any{"platformId": playerID(1), "checkedIn": true}, 404)
		p.mustDo(t, "POST", route, "", map[string]any{"platformId": playerID(1), "checkedIn": true}, 401)
		plain := p.dayCup(t, "plain", "playoffs_only", 4, 2, map[string]any{"smallFinal": false})
		out = p.mustDo(t, "POST", plain+"/check-in", p.admin, map[string]any{"platformId": playerID(1), "checkedIn": true}, 409)
		assert.Equal(t, "check_in_closed", out["error"], "a tournament without check-in")
		assert.Equal(t, map[string]any{playerID(1): false, playerID(2): false, playerID(3): false, playerID(4): false}, checkedIn(), "refusals change nothing")
	})
	t.Run("BeforeTheWindowTheOrganizerMay", func(t *testing.T) {
		assert.Equal(t, map[string]any{"platformId": playerID(1), "checkedIn": true}, set(playerID(1), true, 200))
		assert.Equal(t, true, checkedIn()[playerID(1)])
	})
	p.Now = p.Now.Add(47*time.Hour + 30*time.Minute)
	t.Run("InAndOut", func(t *testing.T) {
		if counter != nil {
			counter.Reset()
		}
		set(playerID(2), true, 200)
		if counter != nil {
			assert.Equal(t, 2, counter.Count(), "check-in: the admin token with the tournament and its sides, one conditional write")
		}
		set(playerID(3), true, 200)
		set(playerID(3), true, 200) // again: the same answer
		assert.Equal(t, map[string]any{"platformId": playerID(1), "checkedIn": false}, set(playerID(1), false, 200))
		assert.Equal(t, map[string]any{playerID(1): false, playerID(2): true, playerID(3): true, playerID(4): false}, checkedIn())
	})
	t.Run("StartAnswersTheWithdrawn", func(t *testing.T) {
		p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "registration_closed"}, 200)
		out := p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "playoffs"}, 200)
		assert.ElementsMatch(t, []any{playerID(1), playerID(4)}, out["withdrawn"])
		assert.Equal(t, float64(2), out["playerCount"])
		assert.Equal(t, "check_in_closed", set(playerID(2), false, 409)["error"], "nothing to check once started")
	})
}

// TestCheckInOpenAlert: the demo's Harvest Cup has its check-in open; its
// players hear of it once, however many scheduled runs there are at
// once, and players of other tournaments do not.
func TestCheckInOpenAlert(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{})
	tenant, st := demoTenant(t, a), demoStore(t, a)
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := core.RunAlerts(context.Background(), st, tenant.Arena, a.Server.Now())
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	a.Tick(t)
	body := inbox(t, a, arenatest.Blaise)
	assert.Equal(t, 1, strings.Count(body, "Check-in is open for Harvest Cup"), "once per player")
	assert.NotContains(t, inbox(t, a, arenatest.Charles), "Check-in is open", "Charles is not in the Harvest Cup")
}

// TestDisputeAlertsTheAdmins: a dispute reaches the arena's admin's inbox
// (its unread count moves), not only the queue.
func TestDisputeAlertsTheAdmins(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{})
	a.Tick(t)
	ada := a.SignedIn(t, arenatest.Ada)
	ada.PostOK(t, "/alerts/read", nil)
	require.NotContains(t, ada.Get(t, "/").Body, "unread-count")
	var m arenatest.AdminMatch
	for _, c := range a.Playable(t, "winter-cup") {
		if *c.P1 != arenatest.Ada && *c.P2 != arenatest.Ada {
			m = c
			break
		}
	}
	require.NotNil(t, m.P1)
	p1, p2 := a.ReadyBoth(t, m)
	p1.Report(t, m, *m.P1)
	p2.PostOK(t, m.Path("report/dispute"), nil)
	a.Tick(t)
	assert.Contains(t, inbox(t, a, arenatest.Ada), "A dispute needs your decision in Winter Cup")
	assert.Contains(t, ada.Get(t, "/").Body, "unread-count")
}

// TestUpcomingAlertAfterTheWindowOpened: a match first heard of once its
// window is open says that it opened, not that it opens.
func TestUpcomingAlertAfterTheWindowOpened(t *testing.T) {
	p := newProtocolEnv(t)
	rc := startReceiver(t)
	p.mustDo(t, "PUT", "/api/v1/admin/settings", p.admin, map[string]any{"webhookUrl": rc.URL + "/arena"}, 200)
	p.bracket(t, "late-news", "demo", 4) // windows open now
	p.Now = p.Now.Add(5 * time.Minute)
	p.do(t, "POST", "alpha.test", "/__dev/tick", "", nil)
	upcoming := deliveriesOf(t, rc, "match_upcoming")
	require.Len(t, upcoming, 2)
	for _, u := range upcoming {
		assert.Contains(t, u.Content, "the window opened at")
		assert.NotContains(t, u.Content, "the window opens at")
	}
}
