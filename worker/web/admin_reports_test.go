package web_test

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestAdminMatchShowsPlayersReport: a player's manual report appears on
// the admin's match page beside the (absent) client submissions.
func TestAdminMatchShowsPlayersReport(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	var match arenatest.AdminMatch
	for _, m := range e.Matches(t, "winter-cup") {
		if m.Round == "Round 2" && m.Status == "scheduled" {
			match = m
			break
		}
	}
	require.NotZero(t, match.ID, "the demo's Winter Cup has round two open")
	p1, p2 := e.Browser(t), e.Browser(t)
	p1.SignIn(t, *match.P1)
	p2.SignIn(t, *match.P2)
	base := "/matches/" + strconv.FormatInt(match.ID, 10)
	for _, c := range []*arenatest.Browser{p1, p2} {
		resp := c.Post(t, base+"/ready", nil)
		require.Equal(t, http.StatusSeeOther, resp.Status, resp.Body)
	}
	resp := p1.Post(t, base+"/report", url.Values{"winner": {*match.P1}, "score_p1": {"3"}, "score_p2": {"2"}})
	require.Equal(t, http.StatusSeeOther, resp.Status, resp.Body)

	admin := e.SignedIn(t, "76561198000000001")
	page := admin.Get(t, "/admin"+base)
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, "Players' reports")
	assert.Contains(t, page.Body, "<dt>Names winner</dt><dd><bdi>Edsger Dijkstra</bdi>")
	assert.Contains(t, page.Body, "<dd>3–2</dd>")
	assert.Contains(t, page.Body, "no answer yet", "the other side has not confirmed or disputed")
	assert.Contains(t, page.Body, "No submission.", "no game-client submission beside it")
}
