package server_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// seriesCup creates a playoffs_only tournament of players 1..n seeded in
// order with the fields set (bestOf ...) and starts its playoffs.
func (p *protocolEnv) seriesCup(t *testing.T, slug string, n int, fields map[string]any) []map[string]any {
	t.Helper()
	body := p.tournamentBody(slug, "playoffs_only", n)
	delete(body, "groupCount")
	delete(body, "advancePerGroup")
	delete(body, "smallFinal")
	for k, v := range fields {
		body[k] = v
	}
	p.mustDo(t, "POST", "/api/v1/admin/tournaments", p.admin, body, 201)
	base := "/api/v1/admin/tournaments/" + slug
	p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "registration_open"}, 200)
	for i := 1; i <= n; i++ {
		p.mustDo(t, "POST", base+"/registrations", p.admin, map[string]any{"platformId": playerID(i), "seed": i}, 201)
	}
	p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "registration_closed"}, 200)
	p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "playoffs"}, 200)
	return p.adminMatches(t, slug)
}

func (p *protocolEnv) adminMatches(t *testing.T, slug string) []map[string]any {
	t.Helper()
	list := p.mustDo(t, "GET", "/api/v1/admin/tournaments/"+slug+"/matches", p.admin, nil, 200)["matches"].([]any)
	out := make([]map[string]any, len(list))
	for i, m := range list {
		out[i] = m.(map[string]any)
	}
	return out
}

// playGame readies both sides of the series' next game, both clients
// send the same result naming winner, and it returns the second
// submission's answer.
func (p *protocolEnv) playGame(t *testing.T, m map[string]any, winner string) map[string]any {
	t.Helper()
	live := p.goLive(t, m)
	res, hash := result(live, winner, "")
	var out map[string]any
	for _, who := range []string{m["p1PlatformId"].(string), m["p2PlatformId"].(string)} {
		var status int
		status, out = p.game(t, "POST", matchPath(m, "result"), who, submission(res, hash), "")
		require.Equal(t, http.StatusOK, status, out)
	}
	return out
}

func TestSeries(t *testing.T) {
	onBackends(t, testSeries)
}

// onBackends runs test on an arena stored in a local file (counter nil)
// and on one a libSQL server keeps, counting its requests.
func onBackends(t *testing.T, test func(t *testing.T, p *protocolEnv, counter *arenatest.CountingLibSQL)) {
	for _, backend := range []string{"sqlite", "libsql"} {
		t.Run(backend, func(t *testing.T) {
			var p *protocolEnv
			var counter *arenatest.CountingLibSQL
			if backend == "sqlite" {
				p = newProtocolEnv(t)
			} else {
				e := newTestEnv(t, true)
				counter = arenatest.StartCountingLibSQL(t)
				req := map[string]any{"slug": "remote", "name": "Remote", "hosts": []string{"alpha.test"}, "plan": "indie",
					"appIds": []string{"480"}, "databaseUrl": counter.URL, "gracePeriodSeconds": 3600}
				status, body := e.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, req)
				require.Equal(t, 201, status, body)
				p = &protocolEnv{testEnv: e, admin: body["adminToken"].(string)}
			}
			test(t, p, counter)
		})
	}
}

func testSeries(t *testing.T, p *protocolEnv, counter *arenatest.CountingLibSQL) {
	a, b := playerID(1), playerID(2)
	t.Run("ErrInvalidField", func(t *testing.T) {
		for _, tc := range []struct {
			field string
			value any
		}{{"bestOf", 2}, {"bestOf", 11}, {"groupBestOf", 0}, {"finalBestOf", 4}, {"bestOf", "3"}} {
			body := p.tournamentBody("bad", "playoffs_only", 4)
			delete(body, "groupCount")
			delete(body, "advancePerGroup")
			body[tc.field] = tc.value
			status, out := p.do(t, "POST", "alpha.test", "/api/v1/admin/tournaments", p.admin, body)
			assert.Equal(t, http.StatusUnprocessableEntity, status, "%s %v", tc.field, tc.value)
			assert.Equal(t, "invalid_field", out["error"])
			assert.Equal(t, tc.field, out["field"], "the refusal names the field")
		}
	})
	matches := p.seriesCup(t, "bo3", 2, map[string]any{"finalBestOf": 3})
	require.Len(t, matches, 1)
	final := matches[0]
	full := p.mustDo(t, "GET", "/api/v1/tournaments/bo3", "", nil, 200)
	assert.Equal(t, float64(1), full["bestOf"])
	assert.Equal(t, float64(1), full["groupBestOf"])
	assert.Equal(t, float64(3), full["finalBestOf"])
	assert.Equal(t, float64(3), final["bestOf"])
	opens, _ := time.Parse(time.RFC3339, final["opensAt"].(string))
	closes, _ := time.Parse(time.RFC3339, final["closesAt"].(string))
	assert.Equal(t, 3*30*time.Minute, closes.Sub(opens), "a best of 3's window is three match windows")
	assert.Equal(t, map[string]any{"p1": float64(0), "p2": float64(0)}, final["seriesScore"])
	assert.Equal(t, []any{}, final["games"])

	t.Run("Game1", func(t *testing.T) {
		status, up := p.game(t, "GET", "/api/v1/me/upcoming-match", b, nil, "")
		require.Equal(t, 200, status)
		assert.Equal(t, float64(1), up["game"])
		assert.Equal(t, float64(3), up["bestOf"])
		live := p.goLive(t, final)
		assert.Equal(t, float64(1), live["game"])
		assert.Equal(t, float64(3), live["bestOf"])
		assert.Equal(t, map[string]any{"p1": float64(0), "p2": float64(0)}, live["seriesScore"])
		res, hash := result(live, a, "")
		status, out := p.game(t, "POST", matchPath(final, "result"), a, submission(res, hash), "")
		require.Equal(t, 200, status, out)
		assert.Equal(t, map[string]any{"status": "pending", "matchStatus": "awaiting_result"}, out)
		if counter != nil {
			counter.Reset()
		}
		status, out = p.game(t, "POST", matchPath(final, "result"), b, submission(res, hash), "")
		require.Equal(t, 200, status, out)
		assert.Equal(t, map[string]any{"status": "confirmed", "matchStatus": "scheduled"}, out,
			"the game is confirmed; the series goes on")
		if counter != nil {
			assert.LessOrEqual(t, counter.Count(), 2, "a game's confirming submission takes at most 2 round trips")
		}
		status, again := p.game(t, "POST", matchPath(final, "result"), b, submission(res, hash), "")
		assert.Equal(t, http.StatusConflict, status)
		assert.Equal(t, "not_live", again["error"], "the decided game's session is over")

		m := p.adminMatches(t, "bo3")[0]
		assert.Equal(t, "scheduled", m["status"])
		assert.Nil(t, m["winner"])
		assert.Nil(t, m["score"])
		assert.Equal(t, map[string]any{"p1": float64(1), "p2": float64(0)}, m["seriesScore"])
		require.Len(t, m["games"], 1)
		g := m["games"].([]any)[0].(map[string]any)
		assert.Equal(t, float64(1), g["game"])
		assert.Equal(t, "confirmed", g["status"])
		assert.Equal(t, a, g["winner"])
		assert.Equal(t, "game_client", g["resultSource"])
		assert.NotNil(t, g["decidedAt"])

		status, up = p.game(t, "GET", "/api/v1/me/upcoming-match", b, nil, "")
		require.Equal(t, 200, status)
		assert.Equal(t, float64(2), up["game"], "the next game")
		assert.Equal(t, false, up["selfReady"], "readying starts again")
		assert.Equal(t, false, up["opponentReady"])
		assert.Equal(t, map[string]any{"p1": float64(1), "p2": float64(0)}, up["seriesScore"])
		status, _ = p.game(t, "GET", "/api/v1/me/live-match", a, nil, "")
		assert.Equal(t, http.StatusNoContent, status)
	})
	t.Run("Game2", func(t *testing.T) {
		live := p.goLive(t, final)
		assert.Equal(t, float64(2), live["game"])
		res, hash := result(live, b, "")
		assert.NotContains(t, res, p.adminMatches(t, "bo3")[0]["games"].([]any)[0].(map[string]any)["sessionNonce"])
		for _, who := range []string{b, a} {
			status, out := p.game(t, "POST", matchPath(final, "result"), who, submission(res, hash), "")
			require.Equal(t, 200, status, out)
		}
		m := p.adminMatches(t, "bo3")[0]
		assert.Equal(t, "scheduled", m["status"])
		assert.Equal(t, map[string]any{"p1": float64(1), "p2": float64(1)}, m["seriesScore"])
	})
	t.Run("Game3DecidesTheSeries", func(t *testing.T) {
		out := p.playGame(t, final, a)
		assert.Equal(t, map[string]any{"status": "confirmed", "matchStatus": "confirmed"}, out)
		m := p.adminMatches(t, "bo3")[0]
		assert.Equal(t, "confirmed", m["status"])
		assert.Equal(t, a, m["winner"])
		assert.Equal(t, map[string]any{"p1": float64(2), "p2": float64(1)}, m["score"], "the score is the games won")
		assert.Equal(t, map[string]any{"p1": float64(2), "p2": float64(1)}, m["seriesScore"])
		require.Len(t, m["games"], 3)
		full := p.mustDo(t, "GET", "/api/v1/tournaments/bo3", "", nil, 200)
		assert.Equal(t, "completed", full["status"], "the series decided the final")
		pub := p.mustDo(t, "GET", fmt.Sprintf("/api/v1/matches/%.0f", final["id"]), "", nil, 200)
		games := pub["games"].([]any)
		require.Len(t, games, 3)
		assert.Equal(t, b, games[1].(map[string]any)["winner"].(map[string]any)["platformId"], "the public match names players")
	})
	t.Run("EventLog", func(t *testing.T) {
		events := p.mustDo(t, "GET", "/api/v1/events?limit=1000", "", nil, 200)["events"].([]any)
		var kinds []string
		var scores []any
		for _, raw := range events {
			ev := raw.(map[string]any)
			if ev["matchId"] != final["id"] {
				continue
			}
			switch typ := ev["type"].(string); typ {
			case "match.game_decided":
				kinds = append(kinds, typ)
				scores = append(scores, ev["data"].(map[string]any)["seriesScore"])
			case "match.confirmed":
				kinds = append(kinds, typ)
			}
		}
		assert.Equal(t, []string{"match.game_decided", "match.game_decided", "match.game_decided", "match.confirmed"}, kinds,
			"each game, then the series' decision once")
		assert.Equal(t, []any{map[string]any{"p1": float64(1), "p2": float64(0)}, map[string]any{"p1": float64(1), "p2": float64(1)},
			map[string]any{"p1": float64(2), "p2": float64(1)}}, scores)
	})
	t.Run("GracePeriodDecidesAGame", func(t *testing.T) {
		m := p.seriesCup(t, "grace3", 2, map[string]any{"finalBestOf": 3})[0]
		live := p.goLive(t, m)
		res, hash := result(live, b, "")
		status, out := p.game(t, "POST", matchPath(m, "result"), b, submission(res, hash), "")
		require.Equal(t, 200, status, out)
		p.Now = p.Now.Add(2 * time.Hour)
		p.tick(t)
		got := p.adminMatches(t, "grace3")[0]
		assert.Equal(t, "scheduled", got["status"], "one game decided by the grace period")
		assert.Equal(t, map[string]any{"p1": float64(0), "p2": float64(1)}, got["seriesScore"])
		g := got["games"].([]any)[0].(map[string]any)
		assert.Equal(t, "player_report", g["resultSource"])
	})
}

func TestSeriesAdminDecisions(t *testing.T) {
	p := newProtocolEnv(t)
	a, b := playerID(1), playerID(2)
	m := p.seriesCup(t, "admin5", 2, map[string]any{"finalBestOf": 5})[0]
	resolve := func(body map[string]any, want int) map[string]any {
		t.Helper()
		status, out := p.do(t, "POST", "alpha.test", fmt.Sprintf("/api/v1/admin/matches/%.0f/resolve", m["id"]), p.admin, body)
		require.Equal(t, want, status, out)
		return out
	}
	t.Run("OneGameBeforeAnyoneReadied", func(t *testing.T) {
		out := resolve(map[string]any{"game": 1, "winner": b}, 200)
		assert.Equal(t, "scheduled", out["status"])
		assert.Equal(t, map[string]any{"p1": float64(0), "p2": float64(1)}, out["seriesScore"])
		g := out["games"].([]any)[0].(map[string]any)
		assert.Equal(t, "admin", g["resultSource"])
		assert.Equal(t, b, g["winner"])
	})
	t.Run("ErrGameNotCurrent", func(t *testing.T) {
		out := resolve(map[string]any{"game": 1, "winner": a}, 409)
		assert.Equal(t, "game_not_current", out["error"])
		assert.Equal(t, "game", out["field"])
		out = resolve(map[string]any{"game": 3, "winner": a}, 409)
		assert.Equal(t, "game_not_current", out["error"])
	})
	t.Run("ErrInvalidField", func(t *testing.T) {
		assert.Equal(t, "game", resolve(map[string]any{"game": 0, "winner": a}, 422)["field"])
		assert.Equal(t, "forfeit", resolve(map[string]any{"game": 2, "winner": a, "forfeit": true}, 422)["field"])
	})
	t.Run("ALiveGame", func(t *testing.T) {
		live := p.goLive(t, m)
		assert.Equal(t, float64(2), live["game"])
		res, hash := result(live, a, "")
		status, out := p.game(t, "POST", matchPath(m, "result"), a, submission(res, hash), "")
		require.Equal(t, 200, status, out)
		out = resolve(map[string]any{"game": 2, "winner": a, "score": map[string]any{"p1": 16, "p2": 14}}, 200)
		assert.Equal(t, "scheduled", out["status"])
		assert.Equal(t, map[string]any{"p1": float64(1), "p2": float64(1)}, out["seriesScore"])
		g := out["games"].([]any)[1].(map[string]any)
		assert.Equal(t, map[string]any{"p1": float64(16), "p2": float64(14)}, g["score"])
		status, again := p.game(t, "POST", matchPath(m, "result"), b, submission(res, hash), "")
		assert.Equal(t, 409, status)
		assert.Equal(t, "not_live", again["error"], "the game the admin decided is over")
	})
	t.Run("TheSeriesAtOnce", func(t *testing.T) {
		out := resolve(map[string]any{"winner": a, "score": map[string]any{"p1": 3, "p2": 1}}, 200)
		assert.Equal(t, "confirmed", out["status"])
		assert.Equal(t, a, out["winner"])
		assert.Equal(t, map[string]any{"p1": float64(3), "p2": float64(1)}, out["score"])
		assert.Len(t, out["games"], 2, "the games decided one by one stay")
		resolve(map[string]any{"game": 3, "winner": a}, 409)
	})
	t.Run("TheDecidingGameDecidesTheMatch", func(t *testing.T) {
		m := p.seriesCup(t, "admin3", 2, map[string]any{"finalBestOf": 3})[0]
		for i, w := range []string{a, a} {
			status, out := p.do(t, "POST", "alpha.test", fmt.Sprintf("/api/v1/admin/matches/%.0f/resolve", m["id"]), p.admin,
				map[string]any{"game": i + 1, "winner": w})
			require.Equal(t, 200, status, out)
		}
		got := p.adminMatches(t, "admin3")[0]
		assert.Equal(t, "confirmed", got["status"])
		assert.Equal(t, map[string]any{"p1": float64(2), "p2": float64(0)}, got["score"])
		full := p.mustDo(t, "GET", "/api/v1/tournaments/admin3", "", nil, 200)
		assert.Equal(t, "completed", full["status"])
	})
}

func TestPacing(t *testing.T) {
	p := newProtocolEnv(t)
	window := func(m map[string]any) (time.Time, time.Time) {
		opens, err := time.Parse(time.RFC3339, m["opensAt"].(string))
		require.NoError(t, err)
		closes, err := time.Parse(time.RFC3339, m["closesAt"].(string))
		require.NoError(t, err)
		return opens, closes
	}
	bySlot := func(slug string) map[string]map[string]any {
		out := map[string]map[string]any{}
		for _, m := range p.adminMatches(t, slug) {
			out[m["bracketSlot"].(string)] = m
		}
		return out
	}
	t.Run("ASAPOpensAMatchWhenItsSidesAreKnown", func(t *testing.T) {
		p.seriesCup(t, "asap", 4, map[string]any{"pacing": "asap", "bestOf": 3, "finalBestOf": 5})
		full := p.mustDo(t, "GET", "/api/v1/tournaments/asap", "", nil, 200)
		assert.Equal(t, "asap", full["pacing"])
		slots := bySlot("asap")
		finalOpens, _ := window(slots["FINAL"])
		assert.True(t, finalOpens.After(p.Now), "the final's sides are not known yet: it keeps its planned window")
		p.Now = p.Now.Add(10 * time.Minute)
		p.playGame(t, slots["SF1"], slots["SF1"]["p1PlatformId"].(string))
		p.playGame(t, slots["SF1"], slots["SF1"]["p1PlatformId"].(string))
		final := bySlot("asap")["FINAL"]
		opens, _ := window(final)
		assert.True(t, finalOpens.Equal(opens), "one side known: still planned")
		p.Now = p.Now.Add(5 * time.Minute)
		p.playGame(t, slots["SF2"], slots["SF2"]["p2PlatformId"].(string))
		p.playGame(t, slots["SF2"], slots["SF2"]["p2PlatformId"].(string))
		final = bySlot("asap")["FINAL"]
		opens, closes := window(final)
		assert.Equal(t, p.Now.UTC().Truncate(time.Second), opens.UTC(), "both sides known: the final opens now")
		assert.Equal(t, 5*30*time.Minute, closes.Sub(opens), "for its five windows")
		status, _ := p.game(t, "POST", matchPath(final, "ready"), final["p1PlatformId"].(string), nil, "")
		assert.Equal(t, 200, status, "the final can be readied at once")
	})
	t.Run("ScheduledWaitsForTheClock", func(t *testing.T) {
		slots := func() map[string]map[string]any { return bySlot("clock") }
		p.seriesCup(t, "clock", 4, nil)
		s := slots()
		planned, _ := window(s["FINAL"])
		p.playGame(t, s["SF1"], s["SF1"]["p1PlatformId"].(string))
		p.playGame(t, s["SF2"], s["SF2"]["p1PlatformId"].(string))
		opens, _ := window(slots()["FINAL"])
		assert.Equal(t, planned, opens)
		status, out := p.game(t, "POST", matchPath(slots()["FINAL"], "ready"), s["SF1"]["p1PlatformId"].(string), nil, "")
		assert.Equal(t, 409, status)
		assert.Equal(t, "window_not_open", out["error"])
	})
	t.Run("OpenRound", func(t *testing.T) {
		base := "/api/v1/admin/tournaments/clock/open-round"
		out := p.mustDo(t, "POST", base, p.admin, map[string]any{"round": "Final"}, 200)
		final := bySlot("clock")["FINAL"]
		assert.Equal(t, []any{final["id"]}, out["opened"])
		opens, closes := window(final)
		assert.False(t, opens.After(p.Now), "open now")
		assert.GreaterOrEqual(t, closes.Sub(p.Now), 30*time.Minute, "for at least its window from now; a planned close later stays")
		status, _ := p.game(t, "POST", matchPath(final, "ready"), final["p1PlatformId"].(string), nil, "")
		assert.Equal(t, 200, status)
		assert.Equal(t, []any{}, p.mustDo(t, "POST", base, p.admin, map[string]any{"round": "Semifinals"}, 200)["opened"],
			"decided matches are not opened")
		status, nf := p.do(t, "POST", "alpha.test", base, p.admin, map[string]any{"round": "Round 9"})
		assert.Equal(t, 404, status)
		assert.Equal(t, "round_not_found", nf["error"])
		status, bad := p.do(t, "POST", "alpha.test", base, p.admin, map[string]any{"round": " "})
		assert.Equal(t, 422, status)
		assert.Equal(t, "round", bad["field"])
		status, _ = p.do(t, "POST", "alpha.test", "/api/v1/admin/tournaments/nosuch/open-round", p.admin, map[string]any{"round": "Final"})
		assert.Equal(t, 404, status)
	})
	t.Run("ErrPacing", func(t *testing.T) {
		body := p.tournamentBody("badpace", "playoffs_only", 4)
		delete(body, "groupCount")
		delete(body, "advancePerGroup")
		body["pacing"] = "soon"
		status, out := p.do(t, "POST", "alpha.test", "/api/v1/admin/tournaments", p.admin, body)
		assert.Equal(t, 422, status)
		assert.Equal(t, "pacing", out["field"])
	})
}

// TestOpenRoundRoundTrips holds the open-round and reopen routes'
// database round trips on a libSQL server.
func TestOpenRoundRoundTrips(t *testing.T) {
	e := newTestEnv(t, false)
	backend := arenatest.StartCountingLibSQL(t)
	req := map[string]any{"slug": "remote", "name": "Remote", "hosts": []string{"alpha.test"}, "plan": "indie",
		"appIds": []string{"480"}, "databaseUrl": backend.URL}
	status, body := e.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, req)
	require.Equal(t, 201, status, body)
	p := &protocolEnv{testEnv: e, admin: body["adminToken"].(string)}
	p.seriesCup(t, "rounds", 8, nil)
	backend.Reset()
	out := p.mustDo(t, "POST", "/api/v1/admin/tournaments/rounds/open-round", p.admin, map[string]any{"round": "Quarterfinals"}, 200)
	assert.Len(t, out["opened"], 4)
	assert.Equal(t, 4, backend.Count(), "open-round: the admin token, the tournament, its matches, one update")
	qf := p.adminMatches(t, "rounds")[0]
	p.mustDo(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%.0f/resolve", qf["id"]), p.admin, map[string]any{"winner": qf["p1PlatformId"]}, 200)
	backend.Reset()
	p.mustDo(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%.0f/reopen", qf["id"]), p.admin, nil, 200)
	assert.Equal(t, 3, backend.Count(), "reopen: the admin token with the match and its tournament (planned), the batch, the match")
}

func TestReopen(t *testing.T) {
	p := newProtocolEnv(t)
	a, b := playerID(1), playerID(2)
	bySlot := func(slug string) map[string]map[string]any {
		out := map[string]map[string]any{}
		for _, m := range p.adminMatches(t, slug) {
			out[m["bracketSlot"].(string)] = m
		}
		return out
	}
	reopen := func(m map[string]any, want int) map[string]any {
		t.Helper()
		status, out := p.do(t, "POST", "alpha.test", fmt.Sprintf("/api/v1/admin/matches/%.0f/reopen", m["id"]), p.admin, nil)
		require.Equal(t, want, status, "%v %s", out, p.Logs.String())
		return out
	}
	resolve := func(m map[string]any, winner string) {
		t.Helper()
		p.mustDo(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%.0f/resolve", m["id"]), p.admin, map[string]any{"winner": winner}, 200)
	}
	p.seriesCup(t, "mistyped", 4, nil)
	s := bySlot("mistyped")
	t.Run("ErrInvalidTransition", func(t *testing.T) {
		assert.Equal(t, "invalid_transition", reopen(s["SF1"], 409)["error"], "nothing decided to reopen")
		status, _ := p.do(t, "POST", "alpha.test", "/api/v1/admin/matches/0/reopen", p.admin, nil)
		assert.Equal(t, 404, status)
		status, _ = p.do(t, "POST", "alpha.test", fmt.Sprintf("/api/v1/admin/matches/%.0f/reopen", s["SF1"]["id"]), "", nil)
		assert.Equal(t, 401, status)
	})
	t.Run("AMistypedDecisionTakenBack", func(t *testing.T) {
		wrong := s["SF1"]["p2PlatformId"].(string)
		resolve(s["SF1"], wrong)
		assert.Equal(t, wrong, bySlot("mistyped")["FINAL"]["p1PlatformId"])
		p.Now = p.Now.Add(time.Hour)
		out := reopen(s["SF1"], 200)
		assert.Equal(t, "scheduled", out["status"])
		assert.Nil(t, out["winner"])
		assert.Nil(t, out["resultSource"])
		assert.Equal(t, []any{}, out["games"])
		assert.Equal(t, p.Now.UTC().Format(time.RFC3339), out["opensAt"], "a fresh window from now")
		assert.Nil(t, bySlot("mistyped")["FINAL"]["p1PlatformId"], "the side it advanced left the final")
		events := p.mustDo(t, "GET", "/api/v1/events?limit=1000", "", nil, 200)["events"].([]any)
		last := events[len(events)-1].(map[string]any)
		assert.Equal(t, "match.reopened", last["type"])
		assert.Equal(t, wrong, last["data"].(map[string]any)["winner"])
		resolve(s["SF1"], s["SF1"]["p1PlatformId"].(string))
		assert.Equal(t, s["SF1"]["p1PlatformId"], bySlot("mistyped")["FINAL"]["p1PlatformId"], "the right winner is seated")
	})
	t.Run("ErrDownstreamStarted", func(t *testing.T) {
		resolve(s["SF2"], s["SF2"]["p1PlatformId"].(string))
		final := bySlot("mistyped")["FINAL"]
		status, _ := p.game(t, "POST", matchPath(final, "ready"), final["p1PlatformId"].(string), nil, "")
		if status == 409 { // the final's window opens later: open it
			p.mustDo(t, "POST", "/api/v1/admin/tournaments/mistyped/open-round", p.admin, map[string]any{"round": "Final"}, 200)
			status, _ = p.game(t, "POST", matchPath(final, "ready"), final["p1PlatformId"].(string), nil, "")
		}
		require.Equal(t, 200, status)
		assert.Equal(t, "downstream_started", reopen(s["SF2"], 409)["error"])
		got := bySlot("mistyped")
		assert.Equal(t, "confirmed", got["SF2"]["status"], "nothing changed")
		assert.Equal(t, s["SF2"]["p1PlatformId"], got["FINAL"]["p2PlatformId"])
	})
	t.Run("ACompletedTournamentPlaysAgain", func(t *testing.T) {
		m := p.seriesCup(t, "reopened", 2, map[string]any{"finalBestOf": 3})[0]
		p.playGame(t, m, b)
		p.playGame(t, m, b)
		assert.Equal(t, "completed", p.mustDo(t, "GET", "/api/v1/tournaments/reopened", "", nil, 200)["status"])
		p.Now = p.Now.Add(25 * time.Hour)
		p.tick(t)
		rating := p.mustDo(t, "GET", "/api/v1/players/"+b, "", nil, 200)["rating"].(map[string]any)
		rated := rating["matches"].(float64)
		assert.GreaterOrEqual(t, rated, float64(2), "each game of the series is rated")
		out := reopen(m, 200)
		assert.Equal(t, map[string]any{"p1": float64(0), "p2": float64(0)}, out["seriesScore"])
		assert.Equal(t, []any{}, out["games"], "no games")
		full := p.mustDo(t, "GET", "/api/v1/tournaments/reopened", "", nil, 200)
		assert.Equal(t, "playoffs", full["status"])
		assert.Equal(t, []any{}, full["podium"])
		p.tick(t)
		again := p.mustDo(t, "GET", "/api/v1/players/"+b, "", nil, 200)["rating"].(map[string]any)
		assert.Equal(t, rated-2, again["matches"], "rated again without the reopened series")
		p.playGame(t, m, a)
		p.playGame(t, m, a)
		full = p.mustDo(t, "GET", "/api/v1/tournaments/reopened", "", nil, 200)
		assert.Equal(t, "completed", full["status"])
		assert.Equal(t, a, full["podium"].([]any)[0].(map[string]any)["player"].(map[string]any)["platformId"])
	})
}

// TestSeriesRace sends both sides' deciding submissions of game 1 and
// both readies of game 2 at once, 50 times: the series never records a
// game twice nor loses one, and a ready either finds game 2 open or is
// refused, never joins game 1.
func TestSeriesRace(t *testing.T) {
	p := newProtocolEnv(t)
	a, b := playerID(1), playerID(2)
	rounds := 50
	if testing.Short() {
		rounds = 10
	}
	wentLive := 0
	defer func() { t.Logf("game 2 went live at once in %d of %d rounds", wentLive, rounds) }()
	for i := 0; i < rounds; i++ {
		slug := fmt.Sprintf("race%d", i)
		m := p.seriesCup(t, slug, 2, map[string]any{"finalBestOf": 3})[0]
		live := p.goLive(t, m)
		res, hash := result(live, a, "")
		var wg sync.WaitGroup
		answers := make([]int, 4)
		for j, call := range []func() int{
			func() int { s, _ := p.game(t, "POST", matchPath(m, "result"), a, submission(res, hash), ""); return s },
			func() int { s, _ := p.game(t, "POST", matchPath(m, "result"), b, submission(res, hash), ""); return s },
			func() int { s, _ := p.game(t, "POST", matchPath(m, "ready"), a, nil, ""); return s },
			func() int { s, _ := p.game(t, "POST", matchPath(m, "ready"), b, nil, ""); return s },
		} {
			wg.Add(1)
			go func() { defer wg.Done(); answers[j] = call() }()
		}
		wg.Wait()
		assert.Equal(t, []int{200, 200}, answers[:2], "both submissions of game 1 are taken")
		got := p.adminMatches(t, slug)[0]
		require.Len(t, got["games"].([]any), 1+map[bool]int{true: 1, false: 0}[got["status"] == "live"], "round %d: %v", i, got)
		assert.Equal(t, map[string]any{"p1": float64(1), "p2": float64(0)}, got["seriesScore"], "round %d", i)
		g := got["games"].([]any)[0].(map[string]any)
		assert.Equal(t, "confirmed", g["status"])
		if got["status"] == "live" {
			wentLive++
			assert.Equal(t, []int{200, 200}, answers[2:], "both readies took game 2 live")
			assert.NotEqual(t, live["sessionNonce"], got["sessionNonce"], "game 2 has its own session")
		} else {
			assert.Equal(t, "scheduled", got["status"])
		}
		// Play the series out: one decision, one completion.
		if got["status"] != "live" {
			for _, who := range []string{a, b} { // a ready refused, or one side ready: finish readying
				p.game(t, "POST", matchPath(m, "ready"), who, nil, "")
			}
		}
		status, now := p.game(t, "GET", "/api/v1/me/live-match", a, nil, "")
		require.Equal(t, 200, status)
		res2, hash2 := result(now, a, "")
		for _, who := range []string{a, b} {
			status, out := p.game(t, "POST", matchPath(m, "result"), who, submission(res2, hash2), "")
			require.Equal(t, 200, status, out)
		}
		done := p.adminMatches(t, slug)[0]
		assert.Equal(t, "confirmed", done["status"])
		assert.Equal(t, map[string]any{"p1": float64(2), "p2": float64(0)}, done["score"])
		assert.Len(t, done["games"].([]any), 2)
		full := p.mustDo(t, "GET", "/api/v1/tournaments/"+slug, "", nil, 200)
		assert.Equal(t, "completed", full["status"])
		assert.Len(t, full["podium"].([]any), 2, "the series seated its winner and loser once")
	}
}

// TestTitleSeries: a title's matches are best of its bestOf; the series'
// winner is crowned once.
func TestTitleSeries(t *testing.T) {
	p := newProtocolEnv(t)
	a, b := playerID(1), playerID(2)
	status, bad := p.do(t, "POST", "alpha.test", "/api/v1/admin/titles", p.admin, map[string]any{"slug": "bad", "name": "Bad", "bestOf": 2})
	assert.Equal(t, 422, status)
	assert.Equal(t, "bestOf", bad["field"])
	id := p.createTitle(t, "crown", map[string]any{"bestOf": 3})
	assert.Equal(t, float64(3), p.title(t, id, a)["bestOf"])
	for _, who := range []string{a, b} {
		status, out := p.game(t, "POST", "/api/v1/titles/"+id+"/volunteer", who, nil, "")
		require.Contains(t, []int{200, 201}, status, out)
	}
	tm := p.title(t, id, a)["match"].(map[string]any)
	m := map[string]any{"id": tm["id"], "p1PlatformId": player(tm["player1"]), "p2PlatformId": player(tm["player2"])}
	status, live := p.game(t, "GET", "/api/v1/me/upcoming-match", a, nil, "")
	require.Equal(t, 200, status)
	assert.Equal(t, float64(3), live["bestOf"])
	assert.Equal(t, "scheduled", p.playGame(t, m, b)["matchStatus"])
	assert.Nil(t, p.title(t, id, a)["holder"], "one game does not crown")
	assert.Equal(t, "confirmed", p.playGame(t, m, b)["matchStatus"])
	assert.Equal(t, b, p.title(t, id, a)["holder"].(map[string]any)["platformId"])
}
