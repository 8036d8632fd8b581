package server_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestNamesRefuseHiddenControls: a name with a control, bidi-override or
// isolate character (it can display as another name) is 422 invalid_field
// naming the field, on every route that takes a name, and nothing is
// stored.
func TestNamesRefuseHiddenControls(t *testing.T) {
	p := newProtocolEnv(t)
	for _, bad := range []string{"Cup\u202Egnp.exe", "a\u2066b\u2069", "line\nbreak"} {
		tour := p.tournamentBody("t1", "groups_playoffs", 8)
		tour["name"] = bad
		arena := arenaRequest("beta", "beta.test")
		arena["name"] = bad
		routes := []struct {
			name, method, host, path, token string
			body                            map[string]any
			field                           string
		}{
			{"Arena", "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, arena, "name"},
			{"ArenaRename", "PATCH", "ops.test", "/api/v1/operator/arenas/alpha", operatorToken, map[string]any{"name": bad}, "name"},
			{"Settings", "PUT", "alpha.test", "/api/v1/admin/settings", p.admin, map[string]any{"name": bad}, "name"},
			{"Tournament", "POST", "alpha.test", "/api/v1/admin/tournaments", p.admin, tour, "name"},
			{"Season", "POST", "alpha.test", "/api/v1/admin/seasons", p.admin, map[string]any{"slug": "s1", "name": bad,
				"startsAt": p.Now.Format(time.RFC3339), "endsAt": p.Now.Add(time.Hour).Format(time.RFC3339)}, "name"},
			{"Title", "POST", "alpha.test", "/api/v1/admin/titles", p.admin, map[string]any{"slug": "belt", "name": bad}, "name"},
			{"APIKeyLabel", "POST", "alpha.test", "/api/v1/admin/api-keys", p.admin, map[string]any{"label": bad}, "label"},
			{"AdminTokenLabel", "POST", "alpha.test", "/api/v1/admin/admin-tokens", p.admin, map[string]any{"label": bad}, "label"},
		}
		for _, route := range routes {
			t.Run(route.name, func(t *testing.T) {
				status, out := p.do(t, route.method, route.host, route.path, route.token, route.body)
				assert.Equal(t, http.StatusUnprocessableEntity, status, out)
				assert.Equal(t, "invalid_field", out["error"])
				assert.Equal(t, route.field, out["field"])
			})
		}
	}
	t.Run("PersonaName", func(t *testing.T) {
		body := p.tournamentBody("open", "playoffs_only", 8)
		delete(body, "groupCount")
		delete(body, "advancePerGroup")
		p.mustDo(t, "POST", "/api/v1/admin/tournaments", p.admin, body, 201)
		p.mustDo(t, "POST", "/api/v1/admin/tournaments/open/status", p.admin, map[string]any{"status": "registration_open"}, 200)
		status, out := p.do(t, "POST", "alpha.test", "/api/v1/admin/tournaments/open/registrations", p.admin,
			map[string]any{"platformId": playerID(1), "personaName": "Grace\u202E"})
		assert.Equal(t, http.StatusUnprocessableEntity, status, out)
		assert.Equal(t, "personaName", out["field"])
	})
	t.Run("NothingStored", func(t *testing.T) {
		assert.Empty(t, p.mustDo(t, "GET", "/api/v1/admin/api-keys", p.admin, nil, 200)["apiKeys"])
		_, list := p.do(t, "GET", "ops.test", "/api/v1/operator/arenas", operatorToken, nil)
		assert.Len(t, list["arenas"], 1)
		assert.Equal(t, "Alpha", list["arenas"].([]any)[0].(map[string]any)["name"])
		status, _ := p.do(t, "GET", "alpha.test", "/api/v1/tournaments/t1", "", nil)
		assert.Equal(t, http.StatusNotFound, status)
	})
}
