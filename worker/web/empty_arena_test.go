package web_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestEmptyArenaHomeSaysTheNextStep: an arena with no public tournament
// tells its admin what to do next (create one, with the link) and a
// visitor when tournaments will show.
func TestEmptyArenaHomeSaysTheNextStep(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	e.CreateArena(t, "fresh", "fresh.test", "", map[string]any{"adminPlatformIds": []string{arenatest.Ada}})
	const home = "http://fresh.test/"

	visitor := e.Browser(t).Get(t, home)
	require.Equal(t, http.StatusOK, visitor.Status)
	assert.Contains(t, visitor.Body, "Its tournaments show here as soon as their registration opens.")
	assert.NotContains(t, visitor.Body, `href="/admin/tournaments/new"`)

	admin := e.Browser(t)
	admin.SignInAt(t, "http://fresh.test", arenatest.Ada)
	page := admin.Get(t, home)
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, `Nothing is public yet. <a href="/admin/tournaments/new">Create a tournament</a>`)
}
