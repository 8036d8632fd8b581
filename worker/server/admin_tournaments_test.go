package server_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// matchesBySlot lists a tournament's matches through the admin API.
func (e *testEnv) matchesBySlot(t *testing.T, admin, slug string) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, raw := range e.mustDo(t, "GET", "/api/v1/admin/tournaments/"+slug+"/matches", admin, nil, 200)["matches"].([]any) {
		m := raw.(map[string]any)
		key := fmt.Sprintf("%.0f", m["id"])
		if slot, ok := m["bracketSlot"].(string); ok {
			key = slot
		}
		out[key] = m
	}
	return out
}

// playoffCup creates a playoffs_only cup of n players (seeds 1..n) and
// starts its playoffs.
func (e *testEnv) playoffCup(t *testing.T, admin, slug string, n int) {
	t.Helper()
	body := e.tournamentBody(slug, "playoffs_only", n)
	delete(body, "groupCount")
	delete(body, "advancePerGroup")
	e.mustDo(t, "POST", "/api/v1/admin/tournaments", admin, body, 201)
	base := "/api/v1/admin/tournaments/" + slug
	e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "registration_open"}, 200)
	for i := 1; i <= n; i++ {
		e.mustDo(t, "POST", base+"/registrations", admin, map[string]any{"platformId": playerID(i), "seed": i}, 201)
	}
	e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "registration_closed"}, 200)
	e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "playoffs"}, 200)
}

func TestRemoveSide(t *testing.T) {
	e := newTestEnv(t, true)
	admin := e.createArena(t, "alpha", "alpha.test")

	t.Run("BeforeTheDrawTheSideIsRemoved", func(t *testing.T) {
		e.mustDo(t, "POST", "/api/v1/admin/tournaments", admin, e.tournamentBody("open", "playoffs_only", 4), 422) // groups given
		body := e.tournamentBody("open", "playoffs_only", 4)
		delete(body, "groupCount")
		delete(body, "advancePerGroup")
		e.mustDo(t, "POST", "/api/v1/admin/tournaments", admin, body, 201)
		e.mustDo(t, "POST", "/api/v1/admin/tournaments/open/status", admin, map[string]any{"status": "registration_open"}, 200)
		e.mustDo(t, "POST", "/api/v1/admin/tournaments/open/registrations", admin, map[string]any{"platformId": playerID(1)}, 201)
		e.mustDo(t, "POST", "/api/v1/admin/tournaments/open/status", admin, map[string]any{"status": "registration_closed"}, 200)
		out := e.mustDo(t, "DELETE", "/api/v1/admin/tournaments/open/registrations/"+playerID(1), admin, nil, 200)
		assert.Equal(t, map[string]any{"platformId": playerID(1), "outcome": "removed", "matchesForfeited": float64(0)}, out)
		full := e.mustDo(t, "GET", "/api/v1/admin/tournaments/open", admin, nil, 200)
		assert.Equal(t, float64(0), full["playerCount"], "removed even though registration closed")
		out = e.mustDo(t, "DELETE", "/api/v1/admin/tournaments/open/registrations/"+playerID(1), admin, nil, 403)
		assert.Equal(t, "not_registered", out["error"])
	})

	t.Run("AfterTheDrawTheSideIsDisqualified", func(t *testing.T) {
		e.playoffCup(t, admin, "dq", 4)
		before := e.matchesBySlot(t, admin, "dq")
		require.Equal(t, playerID(1), before["SF1"]["p1PlatformId"])
		opponent := before["SF1"]["p2PlatformId"]

		out := e.mustDo(t, "DELETE", "/api/v1/admin/tournaments/dq/registrations/"+playerID(1), admin, nil, 200)
		assert.Equal(t, "disqualified", out["outcome"])
		assert.Equal(t, float64(1), out["matchesForfeited"])
		after := e.matchesBySlot(t, admin, "dq")
		assert.Equal(t, "forfeited", after["SF1"]["status"])
		assert.Equal(t, opponent, after["SF1"]["winner"])
		assert.Equal(t, "admin", after["SF1"]["resultSource"])
		assert.Equal(t, opponent, after["FINAL"]["p1PlatformId"], "the opponent moves on")
		assert.Equal(t, playerID(1), after["SMALL_FINAL"]["p1PlatformId"], "the loser's seat is filled as always")

		// The other semifinal decided, the disqualified side is seated in the
		// small final with a known opponent: the scheduled jobs forfeit it.
		sf2 := after["SF2"]
		e.mustDo(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%.0f/resolve", sf2["id"]), admin, map[string]any{"winner": sf2["p1PlatformId"]}, 200)
		status, _ := e.do(t, "POST", "x.test", "/__dev/tick", "", nil)
		require.Equal(t, http.StatusOK, status)
		small := e.matchesBySlot(t, admin, "dq")["SMALL_FINAL"]
		assert.Equal(t, "forfeited", small["status"])
		assert.Equal(t, sf2["p2PlatformId"], small["winner"])

		final := e.matchesBySlot(t, admin, "dq")["FINAL"]
		e.mustDo(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%.0f/resolve", final["id"]), admin, map[string]any{"winner": final["p1PlatformId"]}, 200)
		full := e.mustDo(t, "GET", "/api/v1/tournaments/dq", "", nil, 200)
		assert.Equal(t, "completed", full["status"])
		for _, p := range full["podium"].([]any) {
			assert.NotEqual(t, playerID(1), p.(map[string]any)["player"].(map[string]any)["platformId"], "a disqualified side takes no podium place")
		}

		out = e.mustDo(t, "DELETE", "/api/v1/admin/tournaments/dq/registrations/"+playerID(2), admin, nil, 409)
		assert.Equal(t, "tournament_over", out["error"])
	})

	t.Run("ErrInput", func(t *testing.T) {
		out := e.mustDo(t, "DELETE", "/api/v1/admin/tournaments/dq/registrations/123", admin, nil, 400)
		assert.Equal(t, "invalid_steam_id", out["error"])
		out = e.mustDo(t, "DELETE", "/api/v1/admin/tournaments/nope/registrations/"+playerID(1), admin, nil, 404)
		assert.Equal(t, "tournament_not_found", out["error"])
	})
}

func TestEditTournament(t *testing.T) {
	e := newTestEnv(t, false)
	admin := e.createArena(t, "alpha", "alpha.test")
	e.mustDo(t, "POST", "/api/v1/admin/tournaments", admin, e.tournamentBody("cup", "groups_playoffs", 8), 201)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/cup/status", admin, map[string]any{"status": "registration_open"}, 200)

	closes := e.Now.Add(30 * time.Hour).Format(time.RFC3339)
	out := e.mustDo(t, "PATCH", "/api/v1/admin/tournaments/cup", admin, map[string]any{
		"description": "Bring your own controller.", "registrationClosesAt": closes,
	}, 200)
	assert.Equal(t, "Bring your own controller.", out["description"])
	assert.Equal(t, closes, out["registrationClosesAt"])
	assert.Equal(t, "Cup cup", out["name"], "absent fields keep their value")

	out = e.mustDo(t, "PATCH", "/api/v1/admin/tournaments/cup", admin, map[string]any{"startsAt": e.Now.Format(time.RFC3339)}, 422)
	assert.Equal(t, "startsAt", out["field"], "the tournament cannot start before registration closes")
	out = e.mustDo(t, "PATCH", "/api/v1/admin/tournaments/cup", admin, map[string]any{"format": "swiss"}, 422)
	assert.Equal(t, "unknown_field", out["error"], "the format is fixed once registration opened")

	for i := 1; i <= 4; i++ {
		e.mustDo(t, "POST", "/api/v1/admin/tournaments/cup/registrations", admin, map[string]any{"platformId": playerID(i)}, 201)
	}
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/cup/status", admin, map[string]any{"status": "registration_closed"}, 200)
	e.mustDo(t, "POST", "/api/v1/admin/tournaments/cup/status", admin, map[string]any{"status": "group_stage"}, 200)
	out = e.mustDo(t, "PATCH", "/api/v1/admin/tournaments/cup", admin, map[string]any{"startsAt": closes}, 409)
	assert.Equal(t, "schedule_fixed", out["error"])
	out = e.mustDo(t, "PATCH", "/api/v1/admin/tournaments/cup", admin, map[string]any{"name": "Cup, renamed"}, 200)
	assert.Equal(t, "Cup, renamed", out["name"], "the name and description change while it runs")
}

func TestEditSeason(t *testing.T) {
	e := newTestEnv(t, false)
	admin := e.createArena(t, "alpha", "alpha.test")
	e.mustDo(t, "POST", "/api/v1/admin/seasons", admin, map[string]any{"slug": "s1", "name": "S1", "startsAt": "2026-10-01T00:00:00Z", "endsAt": "2027-01-01T00:00:00Z"}, 201)
	out := e.mustDo(t, "PATCH", "/api/v1/admin/seasons/s1", admin, map[string]any{"name": "Season One", "endsAt": "2027-02-01T00:00:00Z"}, 200)
	assert.Equal(t, map[string]any{"slug": "s1", "name": "Season One", "startsAt": "2026-10-01T00:00:00Z", "endsAt": "2027-02-01T00:00:00Z"}, out)
	out = e.mustDo(t, "PATCH", "/api/v1/admin/seasons/s1", admin, map[string]any{"startsAt": "2027-03-01T00:00:00Z"}, 422)
	assert.Equal(t, "endsAt", out["field"])
	out = e.mustDo(t, "PATCH", "/api/v1/admin/seasons/s1", admin, map[string]any{"slug": "s2"}, 422)
	assert.Equal(t, "slug", out["field"], "the slug names the season")
	list := e.mustDo(t, "GET", "/api/v1/admin/seasons", admin, nil, 200)["seasons"].([]any)
	require.Len(t, list, 1)
	assert.Equal(t, "Season One", list[0].(map[string]any)["name"], "refused edits changed nothing")
}
