package server_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestTournamentGracePeriod: a tournament's own gracePeriodMinutes
// confirms its single submissions while another tournament's wait the
// arena's hour; the field is checked, shown and changed until the end.
func TestTournamentGracePeriod(t *testing.T) {
	onBackends(t, func(t *testing.T, p *protocolEnv, _ *arenatest.CountingLibSQL) {
		quick := p.bracket(t, "quick", "demo", 2)
		slow := p.bracketOf(t, "slow", "demo", []int{3, 4})
		base := "/api/v1/admin/tournaments/quick"
		t.Run("ErrInvalidField", func(t *testing.T) {
			for _, v := range []any{-1, 7*24*60 + 1, "10", 1.5} {
				status, out := p.do(t, "PATCH", "alpha.test", base, p.admin, map[string]any{"gracePeriodMinutes": v})
				assert.Equal(t, http.StatusUnprocessableEntity, status, "%v", v)
				assert.Equal(t, "gracePeriodMinutes", out["field"], "%v", v)
			}
			assert.Equal(t, float64(0), p.mustDo(t, "GET", base, p.admin, nil, 200)["gracePeriodMinutes"], "unchanged: the arena's")
		})
		out := p.mustDo(t, "PATCH", base, p.admin, map[string]any{"gracePeriodMinutes": 10}, 200)
		assert.Equal(t, float64(10), out["gracePeriodMinutes"], "changed after the start")
		assert.Equal(t, float64(10), p.mustDo(t, "GET", "/api/v1/tournaments/quick", "", nil, 200)["gracePeriodMinutes"])

		for _, m := range []map[string]any{quick[0], slow[0]} {
			live := p.goLive(t, m)
			winner := m["p1PlatformId"].(string)
			res, hash := result(live, winner, "")
			_, got := p.game(t, "POST", matchPath(m, "result"), winner, submission(res, hash), "")
			require.Equal(t, "pending", got["status"], "%v", got)
		}
		status := func(m map[string]any) any {
			return p.mustDo(t, "GET", fmt.Sprintf("/api/v1/admin/matches/%.0f", m["id"]), p.admin, nil, 200)["status"]
		}
		tick := func() {
			code, _ := p.do(t, "POST", "x.test", "/__dev/tick", "", nil)
			require.Equal(t, 200, code)
		}
		p.Now = p.Now.Add(10*time.Minute - time.Second)
		tick()
		assert.Equal(t, "awaiting_result", status(quick[0]), "not before its 10 minutes")
		p.Now = p.Now.Add(time.Second)
		tick()
		assert.Equal(t, "confirmed", status(quick[0]), "its own 10 minutes")
		assert.Equal(t, "awaiting_result", status(slow[0]), "the arena's hour")
		p.Now = p.Now.Add(50 * time.Minute)
		tick()
		assert.Equal(t, "confirmed", status(slow[0]))
		status2, out := p.do(t, "PATCH", "alpha.test", base, p.admin, map[string]any{"gracePeriodMinutes": 30})
		assert.Equal(t, http.StatusConflict, status2, "the tournament is over")
		assert.Equal(t, "tournament_over", out["error"])
	})
}
