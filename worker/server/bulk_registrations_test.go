package server_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestBulkRegistrations: the admin registers a list of sides at once,
// all or none; a refusal names the entry with the single form's code and
// registers nobody. On a local file and on a libSQL server, where the
// list costs a fixed number of round trips whatever its length.
func TestBulkRegistrations(t *testing.T) {
	onBackends(t, func(t *testing.T, p *protocolEnv, counter *arenatest.CountingLibSQL) {
		body := p.tournamentBody("bulk", "playoffs_only", 8)
		delete(body, "groupCount")
		delete(body, "advancePerGroup")
		p.mustDo(t, "POST", "/api/v1/admin/tournaments", p.admin, body, 201)
		base := "/api/v1/admin/tournaments/bulk"
		regs := func(t *testing.T) []any {
			return p.mustDo(t, "GET", "/api/v1/tournaments/bulk", "", nil, 200)["players"].([]any)
		}
		entry := func(i int) map[string]any { return map[string]any{"platformId": playerID(i)} }
		list := func(entries ...map[string]any) map[string]any {
			out := make([]any, len(entries))
			for i, e := range entries {
				out[i] = e
			}
			return map[string]any{"registrations": out}
		}
		refused := func(t *testing.T, body any, status int, code string, index float64) {
			t.Helper()
			got, out := p.do(t, "POST", "alpha.test", base+"/registrations", p.admin, body)
			assert.Equal(t, status, got, out)
			assert.Equal(t, code, out["error"])
			if index >= 0 {
				assert.Equal(t, index, out["index"], "the refusal names the entry")
			} else {
				assert.NotContains(t, out, "index")
			}
			if code != "registration_closed" {
				assert.Empty(t, regs(t), "nothing was registered")
			}
		}

		refused(t, list(entry(1)), http.StatusConflict, "registration_closed", 0)
		p.mustDo(t, "POST", base+"/status", p.admin, map[string]any{"status": "registration_open"}, 200)
		assert.Empty(t, regs(t))

		bad := entry(4)
		bad["platformId"] = "123"
		refused(t, list(entry(1), entry(2), entry(3), bad), http.StatusBadRequest, "invalid_steam_id", 3)
		seeded := entry(2)
		seeded["seed"] = 0
		refused(t, list(entry(1), seeded), http.StatusUnprocessableEntity, "invalid_field", 1)
		refused(t, list(entry(1), entry(2), entry(1)), http.StatusConflict, "already_registered", 2)
		nine := make([]map[string]any, 9)
		for i := range nine {
			nine[i] = entry(i + 1)
		}
		refused(t, list(nine...), http.StatusConflict, "tournament_full", 8)
		refused(t, map[string]any{"registrations": []any{}}, http.StatusUnprocessableEntity, "invalid_field", -1)
		many := make([]any, 513)
		for i := range many {
			many[i] = entry(1)
		}
		refused(t, map[string]any{"registrations": many}, http.StatusUnprocessableEntity, "invalid_field", -1)
		mixed := list(entry(1))
		mixed["platformId"] = playerID(2)
		refused(t, mixed, http.StatusUnprocessableEntity, "invalid_field", -1)

		named := entry(1)
		named["personaName"], named["seed"] = "  Ada  ", 2
		if counter != nil {
			counter.Reset()
		}
		out := p.mustDo(t, "POST", base+"/registrations", p.admin, list(named, entry(2), entry(3)), 201)
		if counter != nil {
			assert.Equal(t, 5, counter.Count(), "the admin token, the tournament, its sides, one batch, the sides as stored")
		}
		got := out["registrations"].([]any)
		require.Len(t, got, 3)
		first := got[0].(map[string]any)
		assert.Equal(t, playerID(1), first["platformId"])
		assert.Equal(t, "Ada", first["personaName"], "trimmed, as the single form")
		assert.Equal(t, float64(2), first["seed"])
		assert.Equal(t, []any{playerID(1)}, first["roster"])
		assert.Nil(t, got[1].(map[string]any)["seed"])
		assert.Len(t, regs(t), 3)

		got2, answer := p.do(t, "POST", "alpha.test", base+"/registrations", p.admin, list(entry(4), entry(2)))
		assert.Equal(t, http.StatusConflict, got2)
		assert.Equal(t, "already_registered", answer["error"])
		assert.Equal(t, float64(1), answer["index"])
		got2, answer = p.do(t, "POST", "alpha.test", base+"/registrations", p.admin, list(entry(4), entry(5), entry(6), entry(7), entry(8), entry(9)))
		assert.Equal(t, http.StatusConflict, got2)
		assert.Equal(t, "tournament_full", answer["error"])
		assert.Equal(t, float64(5), answer["index"], "three sides in, the sixth of the list is the ninth")
		assert.Len(t, regs(t), 3, "all or none")

		// The single form is as it was.
		one := p.mustDo(t, "POST", base+"/registrations", p.admin, entry(4), 201)
		assert.Equal(t, playerID(4), one["registration"].(map[string]any)["platformId"])
		assert.Len(t, regs(t), 4)

		// Two lists at once that the cap cannot both take: one goes in
		// whole, the other is refused whole.
		race := p.tournamentBody("race", "playoffs_only", 4)
		delete(race, "groupCount")
		delete(race, "advancePerGroup")
		p.mustDo(t, "POST", "/api/v1/admin/tournaments", p.admin, race, 201)
		p.mustDo(t, "POST", "/api/v1/admin/tournaments/race/status", p.admin, map[string]any{"status": "registration_open"}, 200)
		statuses := make(chan int, 2)
		var wg sync.WaitGroup
		for _, from := range []int{10, 20} {
			wg.Add(1)
			go func(from int) {
				defer wg.Done()
				got, _ := p.do(t, "POST", "alpha.test", "/api/v1/admin/tournaments/race/registrations", p.admin,
					list(entry(from), entry(from+1), entry(from+2)))
				statuses <- got
			}(from)
		}
		wg.Wait()
		close(statuses)
		seen := map[int]int{}
		for s := range statuses {
			seen[s]++
		}
		assert.Equal(t, map[int]int{201: 1, 409: 1}, seen)
		players := p.mustDo(t, "GET", "/api/v1/tournaments/race", "", nil, 200)["players"].([]any)
		assert.Len(t, players, 3, "one list, whole")
	})
}
