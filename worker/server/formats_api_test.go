package server_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// formatFlows drives the formats' API through the admin and public
// routes (the OpenAPI conformance test records them): a double
// elimination, a Swiss stage with a top cut and a round robin, each
// played out by the admin; their refusals; the rating period setting; and
// the ratings a day later on the profile and the rating ladder.
func formatFlows(t *testing.T, e *testEnv, admin string) {
	t.Helper()
	create := func(slug, format string, max, n int, fields map[string]any) string {
		body := e.tournamentBody(slug, format, max)
		delete(body, "groupCount")
		delete(body, "advancePerGroup")
		body["smallFinal"] = false
		for k, v := range fields {
			body[k] = v
		}
		e.mustDo(t, "POST", "/api/v1/admin/tournaments", admin, body, 201)
		base := "/api/v1/admin/tournaments/" + slug
		e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "registration_open"}, 200)
		for i := 1; i <= n; i++ {
			e.mustDo(t, "POST", base+"/registrations", admin, map[string]any{"platformId": playerID(i), "personaName": fmt.Sprintf("Player %d", i)}, 201)
		}
		e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "registration_closed"}, 200)
		return base
	}
	bad := e.tournamentBody("bad", "double_elimination", 8)
	bad["swissRounds"] = 3
	assert.Equal(t, "groupCount", e.mustDo(t, "POST", "/api/v1/admin/tournaments", admin, bad, 422)["field"])

	base := create("double", "double_elimination", 5, 5, map[string]any{"grandFinalReset": true, "seedFromRatings": true})
	e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "group_stage"}, 409)
	e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "playoffs"}, 200)
	for range 12 {
		resolveAll(t, e, admin, "double")
	}
	full := e.mustDo(t, "GET", "/api/v1/tournaments/double", "", nil, 200)
	assert.Equal(t, "completed", full["status"])
	assert.Equal(t, true, full["grandFinalReset"])
	sections := map[any]int{}
	for _, c := range full["bracket"].([]any) {
		sections[c.(map[string]any)["section"]]++
	}
	assert.Equal(t, map[any]int{"winners": 3, "losers": 3, "grand_final": 1}, sections)
	assert.Equal(t, true, e.mustDo(t, "GET", base, admin, nil, 200)["seedFromRatings"])

	base = create("swiss", "swiss", 6, 6, map[string]any{"swissRounds": 3, "topCut": 4})
	e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "group_stage"}, 200)
	for range 3 {
		resolveAll(t, e, admin, "swiss")
	}
	full = e.mustDo(t, "GET", "/api/v1/tournaments/swiss", "", nil, 200)
	assert.Equal(t, "playoffs", full["status"], "the last round seeds the top cut")
	assert.Equal(t, map[string]any{"rounds": float64(3), "round": float64(3), "topCut": float64(4)}, full["swiss"])
	group := full["groups"].([]any)[0].(map[string]any)
	assert.Equal(t, "Swiss", group["name"])
	assert.Len(t, group["matches"], 9)
	assert.Contains(t, group["standings"].([]any)[0], "buchholz")
	for range 2 {
		resolveAll(t, e, admin, "swiss")
	}
	assert.Equal(t, "completed", e.mustDo(t, "GET", "/api/v1/tournaments/swiss", "", nil, 200)["status"])
	create("cut", "swiss", 8, 3, map[string]any{"topCut": 4})
	assert.Equal(t, "too_few_entrants", e.mustDo(t, "POST", "/api/v1/admin/tournaments/cut/status", admin, map[string]any{"status": "group_stage"}, 409)["error"])

	base = create("league", "round_robin", 4, 4, nil)
	e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "group_stage"}, 200)
	e.mustDo(t, "POST", base+"/status", admin, map[string]any{"status": "completed"}, 409)
	resolveAll(t, e, admin, "league")
	full = e.mustDo(t, "GET", "/api/v1/tournaments/league", "", nil, 200)
	assert.Equal(t, "completed", full["status"])
	require.Len(t, full["podium"], 3)

	e.mustDo(t, "PUT", "/api/v1/admin/settings", admin, map[string]any{"ratingPeriodHours": 0}, 422)
	assert.Equal(t, float64(12), e.mustDo(t, "PUT", "/api/v1/admin/settings", admin, map[string]any{"ratingPeriodHours": 12}, 200)["ratingPeriodHours"])
	e.Now = e.Now.Add(24 * time.Hour)
	e.do(t, "POST", "x.test", "/__dev/tick", "", nil)
	profile := e.mustDo(t, "GET", "/api/v1/players/"+playerID(1), "", nil, 200)
	require.NotNil(t, profile["rating"])
	ladder := e.mustDo(t, "GET", "/api/v1/ladder?order=rating", "", nil, 200)["ladder"].([]any)
	require.NotEmpty(t, ladder)
	assert.Contains(t, ladder[0], "rating")
}
