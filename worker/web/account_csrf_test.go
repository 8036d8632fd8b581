package web_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAccountFormsRefuseCrossSite sends every account form from another
// site, the way a browser marks it (Origin, or Sec-Fetch-Site), by a
// player for whom the form would do something: each is refused with 403
// and changes nothing (no cookie, no registration, no match state).
func TestAccountFormsRefuseCrossSite(t *testing.T) {
	e := newSiteEnv(t)
	base := e.http.URL
	ms := e.acctPlayable(t, "winter-cup")
	require.GreaterOrEqual(t, len(ms), 3)
	reported, live, scheduled := ms[0], ms[1], ms[2]
	p1, p2 := e.acctLive(t, reported)
	require.Equal(t, http.StatusSeeOther, e.acctReport(t, p1, reported, *reported.P1).StatusCode)
	liveP1, _ := e.acctLive(t, live)
	visitor := e.browser(t)
	newcomer := e.acctPlayer(t, acctNewcomer)
	ada := e.acctPlayer(t, acctAda) // registered in the spring invitational
	readier := e.acctPlayer(t, *scheduled.P1)

	snapshot := func() string {
		b, err := json.Marshal([]any{e.acctMatches(t, "winter-cup"), e.acctTournament(t, "spring-invitational")})
		require.NoError(t, err)
		return string(b)
	}
	before := snapshot()
	forms := []struct {
		name   string
		c      *http.Client
		path   string
		values url.Values
	}{
		{"MockSignIn", visitor, "/auth/mock", url.Values{"platformId": {acctBlaise}}},
		{"SignOut", newcomer, "/signout", nil},
		{"Register", newcomer, "/tournaments/spring-invitational/register", nil},
		{"Withdraw", ada, "/tournaments/spring-invitational/withdraw", nil},
		{"Ready", readier, matchPath(scheduled.ID, "ready"), nil},
		{"Report", liveP1, matchPath(live.ID, "report"), url.Values{"winner": {*live.P1}}},
		{"Confirm", p2, matchPath(reported.ID, "report/confirm"), nil},
		{"Dispute", p2, matchPath(reported.ID, "report/dispute"), nil},
	}
	marks := map[string][]string{
		"Origin":       {"Origin", "https://evil.example"},
		"SecFetchSite": {"Sec-Fetch-Site", "cross-site"},
		"Both":         {"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"},
	}
	for _, f := range forms {
		for mark, header := range marks {
			t.Run(f.name+"/"+mark, func(t *testing.T) {
				values := f.values
				if values == nil {
					values = url.Values{}
				}
				resp := acctSend(t, f.c, http.MethodPost, base+f.path, values, header...)
				assert.Equal(t, http.StatusForbidden, resp.StatusCode)
				assert.Empty(t, resp.Header.Values("Set-Cookie"), "no cookie is set or cleared")
			})
		}
	}
	assert.Equal(t, before, snapshot(), "nothing changed")
	assert.Equal(t, "Player 0099", acctSignedInAs(t, newcomer, base), "still signed in")
	assert.Empty(t, acctSignedInAs(t, visitor, base), "still a visitor")

	// The same forms from the site itself do work (so the refusals above
	// are the cross-site check, not something else).
	resp := acctForm(t, p2, base, matchPath(reported.ID, "report/confirm"), nil)
	assert.Equal(t, http.StatusSeeOther, resp.StatusCode)
	assert.NotEqual(t, before, snapshot())
}
