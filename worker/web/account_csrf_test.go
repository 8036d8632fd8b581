package web_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
)

// TestAccountFormsRefuseCrossSite sends every account form from another
// site, the way a browser marks it (Origin, or Sec-Fetch-Site), by a
// player for whom the form would do something: each is refused with 403
// and changes nothing (no cookie, no registration, no match state).
func TestAccountFormsRefuseCrossSite(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	base := e.URL
	ms := e.Playable(t, "winter-cup")
	require.GreaterOrEqual(t, len(ms), 3)
	reported, live, scheduled := ms[0], ms[1], ms[2]
	p1, p2 := e.ReadyBoth(t, reported)
	require.Equal(t, http.StatusSeeOther, p1.Report(t, reported, *reported.P1).Status)
	liveP1, _ := e.ReadyBoth(t, live)
	visitor := e.Browser(t)
	newcomer := e.SignedIn(t, acctNewcomer)
	ada := e.SignedIn(t, arenatest.Ada) // registered in the spring invitational
	readier := e.SignedIn(t, *scheduled.P1)

	snapshot := func() string {
		b, err := json.Marshal([]any{e.Matches(t, "winter-cup"), e.Tournament(t, "spring-invitational")})
		require.NoError(t, err)
		return string(b)
	}
	before := snapshot()
	forms := []struct {
		name   string
		c      *arenatest.Browser
		path   string
		values url.Values
	}{
		{"MockSignIn", visitor, "/auth/mock", url.Values{"platformId": {arenatest.Blaise}}},
		{"SignOut", newcomer, "/signout", nil},
		{"Register", newcomer, "/tournaments/spring-invitational/register", nil},
		{"Withdraw", ada, "/tournaments/spring-invitational/withdraw", nil},
		{"Ready", readier, scheduled.Path("ready"), nil},
		{"Report", liveP1, live.Path("report"), url.Values{"winner": {*live.P1}}},
		{"Confirm", p2, reported.Path("report/confirm"), nil},
		{"Dispute", p2, reported.Path("report/dispute"), nil},
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
				resp := f.c.Send(t, http.MethodPost, base+f.path, values, header...)
				assert.Equal(t, http.StatusForbidden, resp.Status)
				assert.Empty(t, resp.Header.Values("Set-Cookie"), "no cookie is set or cleared")
			})
		}
	}
	assert.Equal(t, before, snapshot(), "nothing changed")
	assert.Equal(t, "Player 0099", newcomer.SignedInAs(t, ""), "still signed in")
	assert.Empty(t, visitor.SignedInAs(t, ""), "still a visitor")

	// The same forms from the site itself do work (so the refusals above
	// are the cross-site check, not something else).
	resp := p2.Post(t, reported.Path("report/confirm"), nil)
	assert.Equal(t, http.StatusSeeOther, resp.Status)
	assert.NotEqual(t, before, snapshot())
}
