package server_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dayCup creates a tournament of format on the protocol arena with the
// fields changed, opens registration and registers players 1..n.
func (p *protocolEnv) dayCup(t *testing.T, slug, format string, max, n int, fields map[string]any) string {
	t.Helper()
	body := p.tournamentBody(slug, format, max)
	if format != "groups_playoffs" {
		delete(body, "groupCount")
		delete(body, "advancePerGroup")
	}
	for k, v := range fields {
		body[k] = v
	}
	p.mustDo(t, "POST", "/api/v1/admin/tournaments", p.admin, body, 201)
	base := "/api/v1/admin/tournaments/" + slug
	p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "registration_open"}, 200)
	for i := 1; i <= n; i++ {
		p.mustDo(t, "POST", base+"/registrations", p.admin, map[string]any{"platformId": playerID(i), "personaName": fmt.Sprintf("Player %d", i)}, 201)
	}
	return base
}

// deliveriesOf returns the bodies of the receiver's deliveries of
// the event kind.
func deliveriesOf(t *testing.T, rc *receiver, event string) []payload {
	t.Helper()
	var out []payload
	for _, d := range rc.got() {
		if p := decodePayload(t, d); p.Arena.Event == event {
			out = append(out, p)
		}
	}
	return out
}

func TestCheckIn(t *testing.T) {
	p := newProtocolEnv(t)
	rc := startReceiver(t)
	p.mustDo(t, "PUT", "/api/v1/admin/settings", p.admin, map[string]any{"webhookUrl": rc.URL + "/arena"}, 200)
	// Starts 48 h from now; check-in opens an hour before.
	base := p.dayCup(t, "checked", "groups_playoffs", 8, 6, map[string]any{"checkInMinutes": 60})
	checkIn := func(account string, want int) map[string]any {
		t.Helper()
		status, out := p.game(t, "POST", "/api/v1/tournaments/checked/check-in", account, nil, "")
		require.Equal(t, want, status, out)
		return out
	}
	assert.Equal(t, float64(60), p.mustDo(t, "GET", base, p.admin, nil, 200)["checkInMinutes"])

	t.Run("ClosedBeforeTheWindow", func(t *testing.T) {
		assert.Equal(t, "check_in_closed", checkIn(playerID(1), 409)["error"])
	})
	p.Now = p.Now.Add(47*time.Hour + 30*time.Minute)
	t.Run("NotRegistered", func(t *testing.T) {
		assert.Equal(t, "not_registered", checkIn(playerID(9), 403)["error"])
		assert.Equal(t, "missing_ticket", checkIn("", 401)["error"])
		status, out := p.game(t, "POST", "/api/v1/tournaments/nosuch/check-in", playerID(1), nil, "")
		assert.Equal(t, 404, status, out)
	})
	t.Run("InTheWindowOnceAndAgain", func(t *testing.T) {
		for i := 1; i <= 4; i++ {
			assert.Equal(t, map[string]any{"checkedIn": true}, checkIn(playerID(i), 200))
		}
		assert.Equal(t, map[string]any{"checkedIn": true}, checkIn(playerID(1), 200), "again: the same answer")
	})
	t.Run("PlayersCarryCheckedIn", func(t *testing.T) {
		full := p.mustDo(t, "GET", "/api/v1/tournaments/checked", "", nil, 200)
		in := map[string]any{}
		for _, raw := range full["players"].([]any) {
			pl := raw.(map[string]any)
			in[pl["platformId"].(string)] = pl["checkedIn"]
		}
		assert.Equal(t, map[string]any{playerID(1): true, playerID(2): true, playerID(3): true, playerID(4): true,
			playerID(5): false, playerID(6): false}, in)
	})
	t.Run("StartWithdrawsTheAbsent", func(t *testing.T) {
		p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "registration_closed"}, 200)
		full := p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "group_stage"}, 200)
		assert.Equal(t, float64(4), full["playerCount"])
		for _, raw := range full["players"].([]any) {
			pl := raw.(map[string]any)
			assert.NotContains(t, []string{playerID(5), playerID(6)}, pl["platformId"])
			assert.NotContains(t, pl, "checkedIn", "check-in no longer applies")
		}
		for _, m := range p.mustDo(t, "GET", base+"/matches", p.admin, nil, 200)["matches"].([]any) {
			mm := m.(map[string]any)
			assert.NotContains(t, []any{playerID(5), playerID(6)}, mm["p1PlatformId"])
			assert.NotContains(t, []any{playerID(5), playerID(6)}, mm["p2PlatformId"])
		}
		assert.Equal(t, "check_in_closed", checkIn(playerID(1), 409)["error"], "closed once started")
		assert.Equal(t, "check_in_closed", checkIn(playerID(5), 409)["error"], "a side withdrawn at the start is told check-in closed")
		assert.Equal(t, "check_in_closed", checkIn(playerID(9), 409)["error"], "nobody checks in once it is over")
	})
	t.Run("TheWithdrawnAreToldWhy", func(t *testing.T) {
		p.do(t, "POST", "alpha.test", "/__dev/tick", "", nil)
		missed := deliveriesOf(t, rc, "check_in_missed")
		require.Len(t, missed, 2)
		for _, d := range missed {
			assert.Contains(t, d.Content, "did not check in before it started")
		}
	})
}

func TestCheckInAddedAfterRegistrationOpened(t *testing.T) {
	p := newProtocolEnv(t)
	base := p.dayCup(t, "late", "playoffs_only", 4, 2, map[string]any{"smallFinal": false})
	assert.Equal(t, float64(0), p.mustDo(t, "GET", base, p.admin, nil, 200)["checkInMinutes"])
	out := p.mustDo(t, "PATCH", base, p.admin, map[string]any{"checkInMinutes": 120}, 200)
	assert.Equal(t, float64(120), out["checkInMinutes"])
	assert.Equal(t, "checkInMinutes", p.mustDo(t, "PATCH", base, p.admin, map[string]any{"checkInMinutes": 1441}, 422)["field"])
	p.Now = p.Now.Add(47 * time.Hour)
	status, _ := p.game(t, "POST", "/api/v1/tournaments/late/check-in", playerID(1), nil, "")
	assert.Equal(t, 200, status, "open two hours before the start")
	p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "registration_closed"}, 200)
	p.Now = p.Now.Add(time.Hour)
	p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "playoffs"}, 409) // one side left: too few
	p.mustDo(t, "PATCH", base, p.admin, map[string]any{"checkInMinutes": 0}, 200)
	p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "playoffs"}, 200)
	assert.Equal(t, "schedule_fixed", p.mustDo(t, "PATCH", base, p.admin, map[string]any{"checkInMinutes": 30}, 409)["error"])
}

func TestSeedsByRating(t *testing.T) {
	p := newProtocolEnv(t)
	// Players 1..4 play a round robin (the lower id wins every match) and
	// are rated a day later.
	base := p.dayCup(t, "league", "round_robin", 4, 4, map[string]any{"smallFinal": false})
	p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "registration_closed"}, 200)
	p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "group_stage"}, 200)
	resolveAll(t, p.testEnv, p.admin, "league")
	p.Now = p.Now.Add(48 * time.Hour)
	p.do(t, "POST", "alpha.test", "/__dev/tick", "", nil)

	// New cups: an unrated player registers first, then the rated ones in
	// reverse, then another unrated one.
	newCup := func(slug string) string {
		body := p.tournamentBody(slug, "playoffs_only", 8)
		delete(body, "groupCount")
		delete(body, "advancePerGroup")
		p.mustDo(t, "POST", "/api/v1/admin/tournaments", p.admin, body, 201)
		cup := "/api/v1/admin/tournaments/" + slug
		p.mustDo(t, "POST", cup+"/status", p.admin, map[string]any{"status": "registration_open"}, 200)
		for _, i := range []int{7, 4, 3, 2, 1, 8} {
			p.mustDo(t, "POST", cup+"/registrations", p.admin, map[string]any{"platformId": playerID(i)}, 201)
			p.Now = p.Now.Add(time.Minute)
		}
		return cup
	}
	cup, previewed := newCup("seeded"), newCup("previewed")
	want := []any{playerID(1), playerID(2), playerID(3), playerID(4), playerID(7), playerID(8)}
	order := func(out map[string]any) (ids []any) {
		for i, raw := range out["seeds"].([]any) {
			s := raw.(map[string]any)
			assert.Equal(t, float64(i+1), s["seed"])
			ids = append(ids, s["platformId"])
		}
		return ids
	}

	t.Run("Refusals", func(t *testing.T) {
		out := p.mustDo(t, "POST", cup+"/seeds", p.admin, map[string]any{"by": "elo"}, 422)
		assert.Equal(t, "by", out["field"])
		p.mustDo(t, "POST", cup+"/seeds", p.admin, map[string]any{"by": "rating", "other": 1}, 422)
		p.mustDo(t, "POST", "/api/v1/admin/tournaments/nosuch/seeds", p.admin, map[string]any{"by": "rating"}, 404)
		p.mustDo(t, "POST", cup+"/seeds", "", map[string]any{"by": "rating"}, 401)
	})
	t.Run("PreviewStoresNothing", func(t *testing.T) {
		out := p.mustDo(t, "POST", previewed+"/seeds", p.admin, map[string]any{"by": "rating", "preview": true}, 200)
		assert.Equal(t, want, order(out))
		p.mustDo(t, "POST", previewed+"/status", p.admin, map[string]any{"status": "registration_closed"}, 200)
		p.mustDo(t, "POST", previewed+"/status", p.admin, map[string]any{"status": "playoffs"}, 200)
		m := p.matchesBySlot(t, p.admin, "previewed")
		assert.Equal(t, playerID(7), m["QF1"]["p1PlatformId"], "unseeded: the first registered opens the bracket")
	})
	t.Run("ByRatingUnratedLastByRegistration", func(t *testing.T) {
		out := p.mustDo(t, "POST", cup+"/seeds", p.admin, map[string]any{"by": "rating"}, 200)
		assert.Equal(t, want, order(out))
		seeds := out["seeds"].([]any)
		var last float64 = 1e9
		for _, raw := range seeds[:4] {
			r := raw.(map[string]any)["rating"].(float64)
			assert.LessOrEqual(t, r, last, "highest rating first")
			last = r
		}
		assert.Nil(t, seeds[4].(map[string]any)["rating"])
		assert.Nil(t, seeds[5].(map[string]any)["rating"])
	})
	t.Run("TheDrawUsesThem", func(t *testing.T) {
		p.mustDo(t, "POST", cup+"/status", p.admin, map[string]any{"status": "registration_closed"}, 200)
		p.mustDo(t, "POST", cup+"/status", p.admin, map[string]any{"status": "playoffs"}, 200)
		m := p.matchesBySlot(t, p.admin, "seeded")
		assert.Equal(t, playerID(1), m["QF1"]["p1PlatformId"], "seed 1 opens the bracket")
		assert.Equal(t, "seeds_locked", p.mustDo(t, "POST", cup+"/seeds", p.admin, map[string]any{"by": "rating"}, 409)["error"])
	})
}

func TestStaleMatchAlerts(t *testing.T) {
	p := newProtocolEnv(t)
	rc := startReceiver(t)
	p.mustDo(t, "PUT", "/api/v1/admin/settings", p.admin, map[string]any{"webhookUrl": rc.URL + "/arena"}, 200)
	t.Run("TheSetting", func(t *testing.T) {
		out := p.mustDo(t, "PUT", "/api/v1/admin/settings", p.admin, map[string]any{"staleMatchMinutes": 25}, 200)
		assert.Equal(t, float64(25), out["alerts"].(map[string]any)["staleMatchMinutes"])
		assert.Equal(t, "staleMatchMinutes", p.mustDo(t, "PUT", "/api/v1/admin/settings", p.admin, map[string]any{"staleMatchMinutes": -1}, 422)["field"])
		p.mustDo(t, "PUT", "/api/v1/admin/settings", p.admin, map[string]any{"staleMatchMinutes": 20}, 200)
	})
	// Two-hour windows, opening now.
	base := p.dayCup(t, "stale", "playoffs_only", 4, 4, map[string]any{"matchWindowMinutes": 120, "smallFinal": false})
	p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "registration_closed"}, 200)
	p.Now = p.Now.Add(48 * time.Hour)
	p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "playoffs"}, 200)
	sf := p.matchesBySlot(t, p.admin, "stale")
	p.goLive(t, sf["SF1"])
	queue := func() map[string]string {
		out := map[string]string{}
		for _, raw := range p.mustDo(t, "GET", "/api/v1/admin/queue", p.admin, nil, 200)["matches"].([]any) {
			q := raw.(map[string]any)
			out[q["bracketSlot"].(string)] = q["attention"].(string)
		}
		return out
	}

	t.Run("NothingYet", func(t *testing.T) {
		assert.Empty(t, queue())
	})
	t.Run("StaleAfterTheDelayOnce", func(t *testing.T) {
		p.Now = p.Now.Add(20 * time.Minute)
		assert.Equal(t, map[string]string{"SF1": "stale"}, queue())
		p.do(t, "POST", "alpha.test", "/__dev/tick", "", nil)
		p.do(t, "POST", "alpha.test", "/__dev/tick", "", nil)
		stale := deliveriesOf(t, rc, "match_stale")
		require.Len(t, stale, 1, "once per match")
		assert.Contains(t, stale[0].Content, "nothing is reported")
	})
	t.Run("WindowClosingOnce", func(t *testing.T) {
		p.Now = p.Now.Add(90 * time.Minute) // 10 minutes left in both windows
		got := queue()
		assert.Equal(t, "stale", got["SF1"], "stale comes first")
		assert.Equal(t, "window_closing", got["SF2"])
		p.do(t, "POST", "alpha.test", "/__dev/tick", "", nil)
		p.do(t, "POST", "alpha.test", "/__dev/tick", "", nil)
		closing := deliveriesOf(t, rc, "match_window_closing")
		require.Len(t, closing, 2, "both matches, once each")
		for _, c := range closing {
			assert.True(t, strings.Contains(c.Content, "closes at"), c.Content)
		}
	})
	t.Run("AReportTakesItOut", func(t *testing.T) {
		live := p.mustDo(t, "GET", "/api/v1/admin/queue", p.admin, nil, 200)
		require.NotEmpty(t, live["matches"])
		p.mustDo(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%.0f/resolve", sf["SF1"]["id"]), p.admin,
			map[string]any{"winner": sf["SF1"]["p1PlatformId"]}, 200)
		assert.NotContains(t, queue(), "SF1")
	})
	t.Run("OverdueWithoutAClosingAlertOnce", func(t *testing.T) {
		p.mustDo(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%.0f/resolve", sf["SF2"]["id"]), p.admin,
			map[string]any{"winner": sf["SF2"]["p1PlatformId"]}, 200)
		final := p.matchesBySlot(t, p.admin, "stale")["FINAL"]
		closes, err := time.Parse(time.RFC3339, final["closesAt"].(string))
		require.NoError(t, err)
		p.Now = closes.Add(time.Minute) // no run fell within its notice
		assert.Equal(t, map[string]string{"FINAL": "overdue"}, queue())
		p.do(t, "POST", "alpha.test", "/__dev/tick", "", nil)
		p.do(t, "POST", "alpha.test", "/__dev/tick", "", nil)
		overdue := deliveriesOf(t, rc, "match_overdue")
		require.Len(t, overdue, 1, "once per match")
		assert.Contains(t, overdue[0].Content, "its window closed at")
		assert.Len(t, deliveriesOf(t, rc, "match_window_closing"), 2, "no closing alert after the close")
	})
}

// organizerFlows exercises the organizer's day for the OpenAPI
// conformance test: check-in, seeding by rating, the stale-match setting
// and the queue's reasons (the arena is in mock mode).
func organizerFlows(t *testing.T, p *protocolEnv) {
	t.Helper()
	base := p.dayCup(t, "oas-check", "playoffs_only", 4, 3, map[string]any{"smallFinal": false, "environment": "rec"})
	p.mustDo(t, "PATCH", base, p.admin, map[string]any{"checkInMinutes": 30}, 200)
	p.mustDo(t, "PATCH", base, p.admin, map[string]any{"checkInMinutes": -5}, 422)
	p.mustDo(t, "GET", "/api/v1/tournaments/oas-check", "", nil, 200)
	p.game(t, "POST", "/api/v1/tournaments/oas-check/check-in", playerID(1), nil, "")
	p.game(t, "POST", "/api/v1/tournaments/oas-check/check-in", playerID(30), nil, "")
	p.game(t, "POST", "/api/v1/tournaments/nosuch/check-in", playerID(1), nil, "")
	p.game(t, "POST", "/api/v1/tournaments/oas-check/check-in", "", nil, "")
	p.Now = p.Now.Add(47*time.Hour + 45*time.Minute)
	p.game(t, "POST", "/api/v1/tournaments/oas-check/check-in", playerID(1), nil, "")
	p.game(t, "POST", "/api/v1/tournaments/oas-check/check-in", playerID(2), nil, "")
	p.mustDo(t, "GET", "/api/v1/tournaments/oas-check", "", nil, 200)
	p.mustDo(t, "POST", base+"/seeds", p.admin, map[string]any{"by": "rating", "preview": true}, 200)
	p.mustDo(t, "POST", base+"/seeds", p.admin, map[string]any{"by": "rating"}, 200)
	p.mustDo(t, "POST", base+"/seeds", p.admin, map[string]any{"by": "luck"}, 422)
	p.mustDo(t, "POST", base+"/seeds", p.admin, "{", 400)
	p.mustDo(t, "POST", base+"/seeds", "", map[string]any{"by": "rating"}, 401)
	p.mustDo(t, "POST", "/api/v1/admin/tournaments/nosuch/seeds", p.admin, map[string]any{"by": "rating"}, 404)
	p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "registration_closed"}, 200)
	p.Now = p.Now.Add(15 * time.Minute)
	p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "playoffs"}, 200)
	p.mustDo(t, "POST", base+"/seeds", p.admin, map[string]any{"by": "rating"}, 409)
	p.mustDo(t, "PATCH", base, p.admin, map[string]any{"checkInMinutes": 10}, 409)
	p.game(t, "POST", "/api/v1/tournaments/oas-check/check-in", playerID(1), nil, "")
	p.mustDo(t, "GET", base, p.admin, nil, 200)
	p.mustDo(t, "PUT", "/api/v1/admin/settings", p.admin, map[string]any{"staleMatchMinutes": 5}, 200)
	p.mustDo(t, "PUT", "/api/v1/admin/settings", p.admin, map[string]any{"staleMatchMinutes": 5000}, 422)
	final := p.matchesBySlot(t, p.admin, "oas-check")["FINAL"]
	p.goLive(t, final)
	p.Now = p.Now.Add(10 * time.Minute)
	queue := p.mustDo(t, "GET", "/api/v1/admin/queue", p.admin, nil, 200)["matches"].([]any)
	reasons := map[any]bool{}
	for _, m := range queue {
		reasons[m.(map[string]any)["attention"]] = true
	}
	assert.True(t, reasons["stale"], "the final went stale: %v", reasons)

	gsl := p.dayCup(t, "oas-gsl", "groups_playoffs", 4, 4, map[string]any{"groupFormat": "gsl", "groupCount": 1, "advancePerGroup": nil})
	p.mustDo(t, "POST", gsl+"/status", p.admin, map[string]any{"status": "registration_closed"}, 200)
	p.mustDo(t, "POST", gsl+"/status", p.admin, map[string]any{"status": "group_stage"}, 200)
	p.mustDo(t, "GET", "/api/v1/tournaments/oas-gsl", "", nil, 200)
	for range 3 {
		resolveAll(t, p.testEnv, p.admin, "oas-gsl")
	}
	p.mustDo(t, "GET", "/api/v1/tournaments/oas-gsl", "", nil, 200)
	p.mustDo(t, "GET", gsl, p.admin, nil, 200)
}

func TestGSLGroups(t *testing.T) {
	p := newProtocolEnv(t)
	t.Run("Refusals", func(t *testing.T) {
		body := p.tournamentBody("bad-gsl", "groups_playoffs", 12)
		body["groupFormat"] = "gsl"
		assert.Equal(t, "groupCount", p.mustDo(t, "POST", "/api/v1/admin/tournaments", p.admin, body, 422)["field"], "2 groups of four are not 12")
		body["groupFormat"] = "swiss"
		assert.Equal(t, "groupFormat", p.mustDo(t, "POST", "/api/v1/admin/tournaments", p.admin, body, 422)["field"])
		body = p.tournamentBody("bad-gsl", "playoffs_only", 8)
		delete(body, "groupCount")
		delete(body, "advancePerGroup")
		body["groupFormat"] = "gsl"
		assert.Equal(t, "groupFormat", p.mustDo(t, "POST", "/api/v1/admin/tournaments", p.admin, body, 422)["field"])
	})
	base := p.dayCup(t, "gsl", "groups_playoffs", 8, 8, map[string]any{"groupFormat": "gsl", "advancePerGroup": nil})
	p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "registration_closed"}, 200)
	full := p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "group_stage"}, 200)
	assert.Equal(t, "gsl", full["groupFormat"])
	assert.Equal(t, float64(2), full["advancePerGroup"])
	groups := full["groups"].([]any)
	require.Len(t, groups, 2)
	slots := func(g map[string]any) (out []any) {
		for _, m := range g["matches"].([]any) {
			out = append(out, m.(map[string]any)["bracketSlot"])
		}
		return out
	}
	assert.ElementsMatch(t, []any{"GA-O1", "GA-O2", "GA-W", "GA-E", "GA-D"}, slots(groups[0].(map[string]any)))

	// The lower account id wins every match: in group A (seeds 1, 4, 5,
	// 8) player 1 wins the winners' match and player 4 the decider.
	for range 3 {
		resolveAll(t, p.testEnv, p.admin, "gsl")
	}
	full = p.mustDo(t, "GET", "/api/v1/tournaments/gsl", "", nil, 200)
	a := full["groups"].([]any)[0].(map[string]any)
	var order []any
	for _, raw := range a["standings"].([]any) {
		row := raw.(map[string]any)
		order = append(order, row["player"].(map[string]any)["platformId"])
	}
	assert.Equal(t, []any{playerID(1), playerID(4), playerID(5), playerID(8)}, order)
	assert.Equal(t, "gsl_bracket", a["standings"].([]any)[0].(map[string]any)["separatedBy"])
	for _, raw := range a["matches"].([]any) {
		assert.Equal(t, "confirmed", raw.(map[string]any)["status"], "every group match played")
	}

	p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "playoffs"}, 200)
	semis := p.matchesBySlot(t, p.admin, "gsl")
	seated := []any{semis["SF1"]["p1PlatformId"], semis["SF1"]["p2PlatformId"], semis["SF2"]["p1PlatformId"], semis["SF2"]["p2PlatformId"]}
	assert.ElementsMatch(t, []any{playerID(1), playerID(4), playerID(2), playerID(3)}, seated, "the two advancing from each group")
}
