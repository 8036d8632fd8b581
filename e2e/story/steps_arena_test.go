package story

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// otherHost is a second arena's host: hosts never see each other's answers.
const otherHost = "other.story.test"

func arenaSteps() []step {
	return []step{
		{"OperatorCreatesTheArena", func(t *testing.T, w *world) {
			w.admin = w.createArena(t, 0, "story", "Story Arena", w.host)
			// The story reads a lot from one address; publicAPISteps puts
			// the spec's limits back and checks them.
			w.adminAPI(t, "PUT", "/api/v1/admin/settings", map[string]any{"rateLimits": map[string]any{"anonymousPerMinute": 0, "keyPerMinute": 0}}, 200)
			meta := w.read(t, "/api/v1")
			assert.Equal(t, map[string]any{"slug": "story", "name": "Story Arena"}, meta["tenant"])
		}},
		{"RepeatedReadsComeFromACache", func(t *testing.T, w *world) {
			first, _ := w.cachedRead(t, w.host, "/api/v1/tournaments")
			assert.Equal(t, map[string]any{"tournaments": []any{}}, first)
		}},
		{"SettingsAreReadAtOnce", func(t *testing.T, w *world) {
			w.cachedRead(t, w.host, "/api/v1")
			w.adminAPI(t, "PUT", "/api/v1/admin/settings", map[string]any{"name": "The Story Arena"}, 200)
			assert.Equal(t, "The Story Arena", w.read(t, "/api/v1")["tenant"].(map[string]any)["name"])
		}},
		{"HostsNeverSeeEachOthersAnswers", func(t *testing.T, w *world) {
			w.otherAdmin = w.createArena(t, 1, "story-other", "Other Arena", otherHost)
			for range 2 { // both read through their caches, twice over
				for host, name := range map[string]string{w.host: "The Story Arena", otherHost: "Other Arena"} {
					meta, _ := w.cachedRead(t, host, "/api/v1")
					assert.Equal(t, name, meta["tenant"].(map[string]any)["name"], "host %s", host)
				}
			}
			a := w.do(t, request{method: "GET", path: "/api/v1", host: "nosuch.story.test"})
			assert.Equal(t, http.StatusNotFound, a.status)
			assert.Equal(t, "arena_not_found", a.json(t)["error"])
		}},
	}
}

// createArena creates an arena through the operator API (on the target's
// i-th database when it names some) and returns its admin token.
func (w *world) createArena(t *testing.T, i int, slug, name, host string) string {
	t.Helper()
	body := map[string]any{"slug": slug, "name": name, "hosts": []string{host}, "plan": "indie", "appIds": []string{"480"}}
	if len(w.target.databases) > 0 {
		require.Greater(t, len(w.target.databases), i, "ARENA_STORY_DATABASES names too few databases")
		body["databaseUrl"] = w.target.databases[i]
	}
	a := w.do(t, request{method: "POST", path: "/api/v1/operator/arenas", host: "operator.story.test",
		auth: "Bearer " + w.target.operatorToken, body: body})
	require.Equal(t, http.StatusCreated, a.status, "%s", a.body)
	token, _ := a.json(t)["adminToken"].(string)
	require.NotEmpty(t, token)
	return token
}

// cachedRead reads path on host until a cache answers (X-Arena-Cache other
// than "miss": "memory" natively, "shared" on the edge, whose cache is
// filled after the answer), requiring every answer to be the same.
func (w *world) cachedRead(t *testing.T, host, path string) (map[string]any, http.Header) {
	t.Helper()
	var first []byte
	for i := 0; i < 10; i++ {
		a := w.do(t, request{method: "GET", path: path, host: host})
		require.Equal(t, http.StatusOK, a.status, "GET %s on %s: %s", path, host, a.body)
		if first == nil {
			first = a.body
		}
		require.JSONEq(t, string(first), string(a.body), "GET %s on %s: answers differ", path, host)
		if c := a.header.Get("X-Arena-Cache"); c != "" && c != "miss" {
			return a.json(t), a.header
		}
		time.Sleep(time.Duration(i*20) * time.Millisecond)
	}
	t.Fatalf("GET %s on %s: no answer came from a cache", path, host)
	return nil, nil
}
