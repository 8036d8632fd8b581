package web_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestSessionCostsOneRead counts the round trips a page makes to an arena
// database reached over HTTP (a real libSQL server, as on the edge, where
// no process memory keeps a session between requests): the session's
// read goes with the page's own first read (the request's plan), so a
// signed-in page costs no round trip more than the visitor's page when
// that reads anything, and one when it reads nothing, however often the
// page asks who is looking (the frame, the action boxes, the admin check).
func TestSessionCostsOneRead(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	backend := arenatest.StartCountingLibSQL(t)
	admin := e.CreateArena(t, "remote", "remote.test", "", map[string]any{
		"databaseUrl": backend.URL, "adminPlatformIds": []string{arenatest.Ada},
	})
	const arena = "http://remote.test"
	e.API(t, http.MethodPost, arena+"/api/v1/admin/tournaments", "Bearer "+admin, map[string]any{
		"slug": "cup", "name": "Cup", "format": "playoffs_only", "maxPlayers": 4,
		"registrationOpensAt": "2026-11-20T11:00:00Z", "registrationClosesAt": "2026-11-21T11:00:00Z", "startsAt": "2026-11-22T11:00:00Z",
	}, http.StatusCreated)
	e.API(t, http.MethodPost, arena+"/api/v1/admin/tournaments/cup/status", "Bearer "+admin, map[string]any{"status": "registration_open"}, http.StatusOK)

	visitor := e.Browser(t)
	signedIn := e.Browser(t)
	signedIn.SignInAt(t, arena, arenatest.Ada)
	cost := func(b *arenatest.Browser, path string) int {
		t.Helper()
		b.Get(t, arena+path) // warm: the first read of a page may fill caches
		backend.Reset()
		p := b.Get(t, arena+path)
		require.Equal(t, http.StatusOK, p.Status, path)
		return backend.Count()
	}
	for _, path := range []string{"/signin", "/tournaments/cup", "/ladder"} {
		v, s := cost(visitor, path), cost(signedIn, path)
		t.Logf("%s: visitor %d round trips, signed in %d", path, v, s)
		assert.Equal(t, max(v, 1), s, "%s: the session goes with the page's read, or alone", path)
	}
}
