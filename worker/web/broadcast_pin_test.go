package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestBroadcastPinsAGroupOrARound: ?group= and ?round= pin the broadcast
// view to one scene, whatever is left to play in it (case aside); a
// name the tournament does not have is a clean 404.
func TestBroadcastPinsAGroupOrARound(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	b := e.Browser(t)
	scenes := func(body string) int { return strings.Count(body, `class="broadcast-scene" data-scene=`) }

	all := b.Get(t, "/tournaments/autumn-masters/broadcast")
	require.Equal(t, http.StatusOK, all.Status)
	assert.Equal(t, 2, scenes(all.Body), "both groups cycle")

	pinned := b.Get(t, "/tournaments/autumn-masters/broadcast?group=b")
	require.Equal(t, http.StatusOK, pinned.Status)
	assert.Equal(t, 1, scenes(pinned.Body))
	assert.Contains(t, pinned.Body, `aria-label="Group B"`)
	assert.Contains(t, pinned.Body, "Blaise Pascal", "the group's table")

	round := b.Get(t, "/tournaments/autumn-open/broadcast?round=Semifinals")
	require.Equal(t, http.StatusOK, round.Status)
	assert.Equal(t, 1, scenes(round.Body))
	assert.Contains(t, round.Body, `aria-label="Semifinals"`, "a played round, pinned, though the tournament is over")
	_, list, _ := strings.Cut(round.Body, `<ol class="broadcast-matches">`)
	list, _, _ = strings.Cut(list, "</ol>")
	assert.Equal(t, 2, strings.Count(list, "<li>"), "both semifinals, from both sides of the bracket")

	for _, path := range []string{"/tournaments/autumn-masters/broadcast?group=Z", "/tournaments/autumn-open/broadcast?round=nope",
		"/tournaments/autumn-masters/broadcast?round=Final"} {
		res := b.Get(t, path)
		assert.Equal(t, http.StatusNotFound, res.Status, path)
		assert.Contains(t, res.Body, "no group or round by that name", path)
	}
}
