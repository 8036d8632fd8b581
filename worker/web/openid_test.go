package web_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/worker/arenatest"
	"arena/worker/arenatest/platformtwin"
	"arena/worker/web"
)

const openIDNS = platformtwin.NS

// openIDEnv is a site whose platform is the twins (platformtwin), with a real-mode arena
// at http://real.test (publisher key "pubkey") and an endpoint that must
// never be asked.
type openIDEnv struct {
	*arenatest.Arena
	op        *platformtwin.OpenID
	summaries *platformtwin.Summaries
	evil      *httptest.Server
	evilCalls *atomic.Int32
}

const realBase = "http://real.test"

func newOpenIDEnv(t *testing.T) *openIDEnv {
	var a *arenatest.Arena
	op, sums := platformtwin.NewOpenID(t, func() time.Time { return a.Now }), platformtwin.NewSummaries(t)
	var evilCalls atomic.Int32
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		evilCalls.Add(1)
		fmt.Fprintf(w, "ns:%s\nis_valid:true\n", openIDNS)
	}))
	t.Cleanup(evil.Close)
	a = arenatest.New(t, arenatest.Options{Site: web.Config{OpenIDEndpoint: op.URL, PlayerAPI: sums.URL}})
	a.CreateArena(t, "real", "real.test", "pubkey", nil)
	env := &openIDEnv{Arena: a, op: op, summaries: sums, evil: evil, evilCalls: &evilCalls}
	t.Cleanup(func() { assert.Zero(t, evilCalls.Load(), "an endpoint named in a request was asked") })
	return env
}

// start begins a platform sign-in on the real-mode arena in browser c and
// returns the return_to the site asked the platform to answer.
func (e *openIDEnv) start(t *testing.T, c *arenatest.Browser, next string) string {
	t.Helper()
	return e.startAt(t, c, realBase, next)
}

// startAt begins a platform sign-in on the arena at base.
func (e *openIDEnv) startAt(t *testing.T, c *arenatest.Browser, base, next string) string {
	t.Helper()
	resp := c.Get(t, base+"/auth/openid?next="+url.QueryEscape(next))
	require.Equal(t, http.StatusSeeOther, resp.Status, resp.Body)
	loc, err := url.Parse(resp.Location)
	require.NoError(t, err)
	require.Equal(t, e.op.URL, loc.Scheme+"://"+loc.Host+loc.Path, "the configured endpoint")
	q := loc.Query()
	assert.Equal(t, openIDNS, q.Get("openid.ns"))
	assert.Equal(t, "checkid_setup", q.Get("openid.mode"))
	assert.Equal(t, base, q.Get("openid.realm"))
	assert.Equal(t, "http://specs.openid.net/auth/2.0/identifier_select", q.Get("openid.identity"))
	assert.Equal(t, "http://specs.openid.net/auth/2.0/identifier_select", q.Get("openid.claimed_id"))
	returnTo := q.Get("openid.return_to")
	require.True(t, strings.HasPrefix(returnTo, base+"/auth/openid/callback?"), returnTo)
	return returnTo
}

// platformSignIn signs browser c in as account on the real-mode arena at
// base through the fake platform.
func (e *openIDEnv) platformSignIn(t *testing.T, c *arenatest.Browser, base, account string) {
	t.Helper()
	returnTo := e.startAt(t, c, base, "/")
	resp := callback(t, c, returnTo, e.op.Assertion(returnTo, account, e.Now, nil))
	require.Equal(t, http.StatusSeeOther, resp.Status, resp.Body)
}

// callback brings the browser back from the platform with params.
func callback(t *testing.T, c *arenatest.Browser, returnTo string, params url.Values) arenatest.Page {
	t.Helper()
	u, err := url.Parse(returnTo)
	require.NoError(t, err)
	q := u.Query()
	for k, v := range params {
		q[k] = v
	}
	u.RawQuery = q.Encode()
	return c.Get(t, u.String())
}

func TestOpenIDSignIn(t *testing.T) {
	e := newOpenIDEnv(t)
	const account = "76561198012345678"

	t.Run("SignsInAndCachesTheSummary", func(t *testing.T) {
		c := e.Browser(t)
		returnTo := e.start(t, c, "/ladder")
		resp := callback(t, c, returnTo, e.op.Assertion(returnTo, account, e.Now, nil))
		require.Equal(t, http.StatusSeeOther, resp.Status, resp.Body)
		assert.Equal(t, "/ladder", resp.Location)
		cookie := resp.Cookie(arenatest.SessionCookie)
		require.NotNil(t, cookie)
		assert.True(t, cookie.HttpOnly)
		assert.Equal(t, http.SameSiteLaxMode, cookie.SameSite)
		assert.Empty(t, cookie.Domain)
		assert.Equal(t, platformtwin.PersonaName(account), c.SignedInAs(t, realBase))
		assert.Equal(t, 1, e.op.Checks())
		require.Equal(t, 1, len(e.summaries.Calls()))
		assert.Equal(t, []string{account}, e.summaries.Calls()[0])
		assert.Equal(t, "pubkey", e.summaries.Keys()[0], "the arena's publisher key")
		var p struct {
			Player arenatest.PublicPlayer `json:"player"`
		}
		arenatest.Decode(t, e.API(t, http.MethodGet, realBase+"/api/v1/players/"+account, "", nil, http.StatusOK), &p)
		assert.Equal(t, platformtwin.PersonaName(account), p.Player.PersonaName)
		assert.Equal(t, e.summaries.AvatarURL(account), p.Player.AvatarURL)
	})

	refusals := []struct {
		name   string
		change func(v url.Values) // what the platform issued
		tamper func(v url.Values) // what reached the site instead
		status int
		asked  bool // whether the platform is asked at all
	}{
		{name: "ErrIsValidFalse", tamper: func(v url.Values) {
			id := "https://steamcommunity.com/openid/id/76561198099999999"
			v.Set("openid.claimed_id", id)
			v.Set("openid.identity", id)
		}, status: http.StatusUnauthorized, asked: true},
		{name: "ErrClaimedIDIsNotIdentity", change: func(v url.Values) {
			v.Set("openid.identity", "https://steamcommunity.com/openid/id/76561198099999999")
		}, status: http.StatusUnauthorized},
		{name: "ErrBadClaimedID", change: func(v url.Values) {
			for _, id := range []string{"openid.claimed_id", "openid.identity"} {
				v.Set(id, "https://steamcommunity.com.evil.example/openid/id/76561198012345678")
			}
		}, status: http.StatusUnauthorized},
		{name: "ErrClaimedIDNotAnAccount", change: func(v url.Values) {
			for _, id := range []string{"openid.claimed_id", "openid.identity"} {
				v.Set(id, "https://steamcommunity.com/openid/id/12345")
			}
		}, status: http.StatusUnauthorized},
		{name: "ErrForeignReturnTo", change: func(v url.Values) {
			v.Set("openid.return_to", strings.Replace(v.Get("openid.return_to"), "real.test", "evil.example", 1))
		}, status: http.StatusUnauthorized},
		{name: "ErrLookalikeReturnTo", change: func(v url.Values) {
			v.Set("openid.return_to", strings.Replace(v.Get("openid.return_to"), "/callback?", "/callback-x?", 1))
		}, status: http.StatusUnauthorized},
		{name: "ErrDifferentOPEndpoint", change: func(v url.Values) {
			v.Set("openid.op_endpoint", "EVIL")
		}, status: http.StatusUnauthorized},
		{name: "ErrUnsignedClaimedID", change: func(v url.Values) {
			v.Set("openid.signed", "signed,op_endpoint,identity,return_to,response_nonce,assoc_handle")
		}, status: http.StatusUnauthorized},
		{name: "ErrStaleNonce", change: func(v url.Values) {
			v.Set("openid.response_nonce", "2026-11-20T10:00:00Zold")
		}, status: http.StatusUnauthorized},
		{name: "ErrCancelled", change: func(v url.Values) {
			v.Set("openid.mode", "cancel")
		}, status: http.StatusUnauthorized},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			c := e.Browser(t)
			returnTo := e.start(t, c, "/ladder")
			change := tc.change
			if tc.name == "ErrDifferentOPEndpoint" {
				change = func(v url.Values) { v.Set("openid.op_endpoint", e.evil.URL) }
			}
			params := e.op.Assertion(returnTo, account, e.Now, change)
			if tc.tamper != nil {
				tc.tamper(params)
			}
			before := e.op.Checks()
			resp := callback(t, c, returnTo, params)
			assert.Equal(t, tc.status, resp.Status, resp.Body)
			assert.Contains(t, resp.Body, `class="notice error"`)
			assert.Nil(t, resp.Cookie(arenatest.SessionCookie), "never a session")
			assert.Empty(t, c.SignedInAs(t, realBase))
			assert.Equal(t, tc.asked, e.op.Checks() > before, "asked the platform")
		})
	}

	t.Run("ErrNotStartedInThisBrowser", func(t *testing.T) {
		returnTo := e.start(t, e.Browser(t), "/")
		other := e.Browser(t) // the victim's browser, fed the attacker's assertion
		resp := callback(t, other, returnTo, e.op.Assertion(returnTo, account, e.Now, nil))
		assert.Equal(t, http.StatusUnauthorized, resp.Status)
		assert.Nil(t, resp.Cookie(arenatest.SessionCookie))
	})
	t.Run("ErrReplayedAssertion", func(t *testing.T) {
		c := e.Browser(t)
		returnTo := e.start(t, c, "/")
		params := e.op.Assertion(returnTo, account, e.Now, nil)
		require.Equal(t, http.StatusSeeOther, callback(t, c, returnTo, params).Status)
		// The same browser brings the same answer again, its state cookie restored.
		u, _ := url.Parse(returnTo)
		state := u.Query().Get("state")
		c2 := e.Browser(t)
		cb, _ := url.Parse(realBase + "/auth/openid/callback")
		c2.Client.Jar.SetCookies(cb, []*http.Cookie{{Name: "arena_openid_state", Value: state, Path: "/auth/openid/callback"}})
		before := e.op.Checks()
		resp := callback(t, c2, returnTo, params)
		assert.Equal(t, http.StatusUnauthorized, resp.Status)
		assert.Nil(t, resp.Cookie(arenatest.SessionCookie))
		assert.Greater(t, e.op.Checks(), before, "refused for the used nonce, after every other check passed")
	})
	t.Run("ErrPlatformUnreachable", func(t *testing.T) {
		e.op.Down.Store(true)
		defer e.op.Down.Store(false)
		c := e.Browser(t)
		returnTo := e.start(t, c, "/")
		resp := callback(t, c, returnTo, e.op.Assertion(returnTo, account, e.Now, nil))
		assert.Equal(t, http.StatusBadGateway, resp.Status)
		assert.Nil(t, resp.Cookie(arenatest.SessionCookie))
	})
	t.Run("SignOutEndsAPlatformSession", func(t *testing.T) {
		c := e.Browser(t)
		e.platformSignIn(t, c, realBase, account)
		require.NotEmpty(t, c.SignedInAs(t, realBase))
		replay := e.Browser(t)
		for _, cookie := range c.Cookies(realBase) {
			replay.SetCookie(realBase, cookie.Name, cookie.Value)
		}
		require.NotEmpty(t, replay.SignedInAs(t, realBase))
		require.Equal(t, http.StatusSeeOther, c.Post(t, realBase+"/signout", nil).Status)
		assert.Empty(t, replay.SignedInAs(t, realBase), "the copied cookie opens nothing")
	})
	t.Run("MockArenaHasNoPlatformSignIn", func(t *testing.T) {
		resp := e.Browser(t).Get(t, "/auth/openid?next=/ladder")
		assert.Equal(t, http.StatusSeeOther, resp.Status)
		assert.Equal(t, "/signin?next=%2Fladder", resp.Location)
	})
}

func TestPlayerSummaries(t *testing.T) {
	e := newOpenIDEnv(t)
	e.Site.AddTestSummariesRoute()
	ids := make([]string, 150)
	for i := range ids {
		ids[i] = fmt.Sprintf("765611980%08d", 1000+i)
	}
	e.summaries.Unknown(ids[149])
	refresh := func(t *testing.T, base string, ids []string) {
		t.Helper()
		resp := e.Browser(t).Send(t, http.MethodPost, base+"/__test/summaries", url.Values{"ids": {strings.Join(ids, ",")}})
		require.Equal(t, http.StatusNoContent, resp.Status, resp.Body)
	}

	t.Run("BatchedByAHundred", func(t *testing.T) {
		refresh(t, realBase, ids)
		require.Equal(t, 2, len(e.summaries.Calls()))
		assert.Len(t, e.summaries.Calls()[0], 100)
		assert.Len(t, e.summaries.Calls()[1], 50)
		for _, k := range e.summaries.Keys() {
			assert.Equal(t, "pubkey", k)
		}
	})
	t.Run("Cached", func(t *testing.T) {
		refresh(t, realBase, ids[:120])
		assert.Equal(t, 2, len(e.summaries.Calls()), "fresh summaries are not asked again")
		var p struct {
			Player arenatest.PublicPlayer `json:"player"`
		}
		arenatest.Decode(t, e.API(t, http.MethodGet, realBase+"/api/v1/players/"+ids[7], "", nil, http.StatusOK), &p)
		assert.Equal(t, platformtwin.PersonaName(ids[7]), p.Player.PersonaName)
		assert.Equal(t, e.summaries.AvatarURL(ids[7]), p.Player.AvatarURL)
	})
	t.Run("StaleAfterADay", func(t *testing.T) {
		e.Advance(t, 25*time.Hour)
		refresh(t, realBase, ids[:120])
		require.Equal(t, 4, len(e.summaries.Calls()))
		assert.Len(t, e.summaries.Calls()[2], 100)
		assert.Len(t, e.summaries.Calls()[3], 20)
	})
	t.Run("MockModeNeverCallsOut", func(t *testing.T) {
		refresh(t, e.URL, ids[:10])
		assert.Equal(t, 4, len(e.summaries.Calls()))
	})
}
