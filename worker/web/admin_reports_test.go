package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAdminMatchShowsPlayersReport: a player's manual report appears on
// the admin's match page beside the (absent) client submissions.
func TestAdminMatchShowsPlayersReport(t *testing.T) {
	e := newSiteEnv(t)
	var match acctAdminMatch
	for _, m := range e.acctMatches(t, "winter-cup") {
		if m.Round == "Round 2" && m.Status == "scheduled" {
			match = m
			break
		}
	}
	require.NotZero(t, match.ID, "the demo's Winter Cup has round two open")
	p1, p2 := e.browser(t), e.browser(t)
	e.acctSignIn(t, p1, *match.P1)
	e.acctSignIn(t, p2, *match.P2)
	base := "/matches/" + acctItoa(match.ID)
	for _, c := range []*http.Client{p1, p2} {
		resp := acctForm(t, c, e.http.URL, base+"/ready", nil)
		require.Equal(t, http.StatusSeeOther, resp.StatusCode, resp.body)
	}
	resp := acctForm(t, p1, e.http.URL, base+"/report", url.Values{"winner": {*match.P1}, "score_p1": {"3"}, "score_p2": {"2"}})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, resp.body)

	admin := adminBrowser(t, e, "76561198000000001")
	status, body := e.get(t, admin, "/admin"+base)
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, "Players' reports")
	assert.Contains(t, body, "<dt>Names winner</dt><dd>Edsger Dijkstra")
	assert.Contains(t, body, "<dd>3–2</dd>")
	assert.Contains(t, body, "no answer yet", "the other side has not confirmed or disputed")
	assert.Contains(t, body, "No submission.", "no game-client submission beside it")
}
