package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/worker/web"
)

// acctSessionCookie returns the session cookie an answer sets, or nil.
func acctSessionCookie(resp acctResponse) *http.Cookie {
	for _, c := range resp.Cookies() {
		if c.Name == "arena_session" {
			return c
		}
	}
	return nil
}

func TestMockSignIn(t *testing.T) {
	e := newSiteEnv(t)
	base := e.http.URL

	t.Run("SignInPageShowsTheLabelledForm", func(t *testing.T) {
		resp := acctSend(t, e.browser(t), http.MethodGet, base+"/signin?next=/ladder", nil)
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Contains(t, resp.body, `action="/auth/mock"`)
		assert.Contains(t, resp.body, `<label for="platformId">`)
		assert.Contains(t, resp.body, `name="next" value="/ladder"`)
		assert.NotContains(t, resp.body, "Sign in through the platform")
	})
	t.Run("ErrInvalidIDShowsTheFormAgain", func(t *testing.T) {
		for _, id := range []string{"", "123", "7656119800000000x", "765611980000000011"} {
			resp := acctForm(t, e.browser(t), base, "/auth/mock", url.Values{"platformId": {id}})
			assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode, id)
			assert.Contains(t, resp.body, "exactly 17 digits", id)
			assert.Contains(t, resp.body, `aria-invalid="true"`, id)
			assert.Nil(t, acctSessionCookie(resp), "no session for %q", id)
		}
	})
	t.Run("SetsAHostOnlyHttpOnlyLaxCookieAndGoesToNext", func(t *testing.T) {
		c := e.browser(t)
		resp := acctForm(t, c, base, "/auth/mock", url.Values{"platformId": {acctBlaise}, "next": {"/ladder?season=all"}})
		require.Equal(t, http.StatusSeeOther, resp.StatusCode)
		assert.Equal(t, "/ladder?season=all", resp.Header.Get("Location"))
		cookie := acctSessionCookie(resp)
		require.NotNil(t, cookie)
		assert.True(t, cookie.HttpOnly)
		assert.Equal(t, http.SameSiteLaxMode, cookie.SameSite)
		assert.Empty(t, cookie.Domain, "host-only: no Domain attribute")
		assert.Equal(t, "/", cookie.Path)
		assert.False(t, cookie.Secure, "plain HTTP")
		raw := resp.Header.Get("Set-Cookie")
		assert.NotContains(t, strings.ToLower(raw), "domain=")
		assert.Equal(t, "Blaise Pascal", acctSignedInAs(t, c, base), "a known player keeps their name")
	})
	t.Run("SecureOverHTTPS", func(t *testing.T) {
		resp := acctSend(t, e.browser(t), http.MethodPost, base+"/auth/mock", url.Values{"platformId": {acctBlaise}},
			"Origin", base, "Sec-Fetch-Site", "same-origin", "X-Forwarded-Proto", "https")
		require.Equal(t, http.StatusSeeOther, resp.StatusCode)
		cookie := acctSessionCookie(resp)
		require.NotNil(t, cookie)
		assert.True(t, cookie.Secure)
	})
	t.Run("NextNeverLeavesTheSite", func(t *testing.T) {
		for _, next := range []string{"https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", "ladder"} {
			resp := acctForm(t, e.browser(t), base, "/auth/mock", url.Values{"platformId": {acctBlaise}, "next": {next}})
			require.Equal(t, http.StatusSeeOther, resp.StatusCode)
			assert.Equal(t, "/", resp.Header.Get("Location"), next)
		}
	})
	t.Run("NewPlayerGetsAPlaceholderNameAndAvatar", func(t *testing.T) {
		c := e.browser(t)
		id := "76561198000004242"
		e.acctSignIn(t, c, id)
		assert.Equal(t, "Player 4242", acctSignedInAs(t, c, base))
		var p struct {
			Player struct {
				PersonaName string `json:"personaName"`
				AvatarURL   string `json:"avatarUrl"`
			} `json:"player"`
		}
		e.acctAPI(t, http.MethodGet, "/api/v1/players/"+id, "", nil, http.StatusOK, &p)
		assert.Equal(t, "Player 4242", p.Player.PersonaName)
		assert.Equal(t, "/avatars/"+id+".svg", p.Player.AvatarURL)
	})
	t.Run("SignOut", func(t *testing.T) {
		c := e.browser(t)
		e.acctSignIn(t, c, acctBlaise)
		require.NotEmpty(t, acctSignedInAs(t, c, base))
		resp := acctForm(t, c, base, "/signout", nil)
		require.Equal(t, http.StatusSeeOther, resp.StatusCode)
		assert.Equal(t, "/", resp.Header.Get("Location"))
		cookie := acctSessionCookie(resp)
		require.NotNil(t, cookie)
		assert.Less(t, cookie.MaxAge, 0, "the cookie is deleted")
		assert.Empty(t, acctSignedInAs(t, c, base))
	})
	t.Run("ErrRealModeRefusesTheMockForm", func(t *testing.T) {
		e.acctCreateArena(t, "realm", "real.test", "publisher-key")
		c := e.acctAnyHost(t)
		resp := acctForm(t, c, "http://real.test", "/auth/mock", url.Values{"platformId": {acctBlaise}})
		assert.Equal(t, http.StatusForbidden, resp.StatusCode)
		assert.Nil(t, acctSessionCookie(resp))
		page := acctSend(t, c, http.MethodGet, "http://real.test/signin", nil)
		assert.Contains(t, page.body, "Sign in through the platform")
		assert.NotContains(t, page.body, `action="/auth/mock"`)
	})
}

func TestSessions(t *testing.T) {
	e := newSiteEnv(t)
	base := e.http.URL
	e.acctCreateArena(t, "other", "other.test", "")

	signedIn := func(t *testing.T) (*http.Client, *http.Cookie) {
		c := e.browser(t)
		resp := acctForm(t, c, base, "/auth/mock", url.Values{"platformId": {acctBlaise}})
		require.Equal(t, http.StatusSeeOther, resp.StatusCode)
		cookie := acctSessionCookie(resp)
		require.NotNil(t, cookie)
		return c, cookie
	}
	// withCookie is a fresh browser sending only the given session value.
	withCookie := func(value string) *http.Client {
		c := e.acctAnyHost(t)
		for _, host := range []string{base, "http://other.test"} {
			u, _ := url.Parse(host)
			c.Jar.SetCookies(u, []*http.Cookie{{Name: "arena_session", Value: value, Path: "/"}})
		}
		return c
	}

	t.Run("ValidCookieSignsIn", func(t *testing.T) {
		_, cookie := signedIn(t)
		assert.Equal(t, "Blaise Pascal", acctSignedInAs(t, withCookie(cookie.Value), base))
	})
	t.Run("TamperedCookieIsAnonymous", func(t *testing.T) {
		_, cookie := signedIn(t)
		_, other := signedIn(t)
		payload, sig, ok := strings.Cut(cookie.Value, ".")
		require.True(t, ok)
		otherPayload, _, _ := strings.Cut(other.Value, ".")
		assert.Empty(t, acctSignedInAs(t, withCookie(otherPayload+"."+sig), base), "another session's id under this signature")
		assert.Empty(t, acctSignedInAs(t, withCookie(payload+"."+strings.Repeat("A", len(sig))), base), "signature changed")
		assert.Empty(t, acctSignedInAs(t, withCookie("garbage"), base))
	})
	t.Run("SignOutEndsTheSessionOnTheServer", func(t *testing.T) {
		c := e.browser(t)
		resp := acctForm(t, c, base, "/auth/mock", url.Values{"platformId": {acctAda}})
		require.Equal(t, http.StatusSeeOther, resp.StatusCode)
		cookie := acctSessionCookie(resp)
		require.NotNil(t, cookie)
		replay := withCookie(cookie.Value)
		require.Equal(t, http.StatusOK, acctSend(t, replay, http.MethodGet, base+"/admin", nil).StatusCode, "a copy of the cookie opens /admin")

		require.Equal(t, http.StatusSeeOther, acctForm(t, c, base, "/signout", nil).StatusCode)
		resp = acctSend(t, replay, http.MethodGet, base+"/admin", nil)
		assert.Equal(t, http.StatusSeeOther, resp.StatusCode, "the replayed cookie opens nothing")
		assert.Equal(t, "/signin?next=%2Fadmin", resp.Header.Get("Location"))
		assert.Empty(t, acctSignedInAs(t, replay, base))
		other := withCookie(cookie.Value)
		assert.Equal(t, http.StatusSeeOther, acctForm(t, other, base, "/signout", nil).StatusCode, "signing out again is fine")
	})
	t.Run("OtherSessionsOutliveASignOut", func(t *testing.T) {
		phone, _ := signedIn(t)
		laptop, _ := signedIn(t)
		require.Equal(t, http.StatusSeeOther, acctForm(t, laptop, base, "/signout", nil).StatusCode)
		assert.Empty(t, acctSignedInAs(t, laptop, base))
		assert.Equal(t, "Blaise Pascal", acctSignedInAs(t, phone, base), "each sign-in is its own session")
	})
	t.Run("AnotherArenasCookieIsAnonymous", func(t *testing.T) {
		_, cookie := signedIn(t)
		c := withCookie(cookie.Value)
		assert.Empty(t, acctSignedInAs(t, c, "http://other.test"))
		// The same browser signs in on the other arena with its own cookie.
		resp := acctForm(t, c, "http://other.test", "/auth/mock", url.Values{"platformId": {acctBlaise}})
		require.Equal(t, http.StatusSeeOther, resp.StatusCode)
		assert.Equal(t, "Player 0002", acctSignedInAs(t, c, "http://other.test"))
		other := acctSessionCookie(resp)
		require.NotNil(t, other)
		assert.Empty(t, acctSignedInAs(t, withCookie(other.Value), base), "and that one is worthless on the demo arena")
	})
	t.Run("MockSessionsEndWhenTheArenaSignsInThroughThePlatform", func(t *testing.T) {
		var created struct {
			AdminToken string `json:"adminToken"`
		}
		e.acctAPI(t, http.MethodPost, "/api/v1/operator/arenas", "Bearer operator", map[string]any{
			"slug": "switch", "name": "Switch", "hosts": []string{"switch.test"}, "plan": "free",
			"appIds": []string{"480"}, "adminPlatformIds": []string{acctAda},
		}, http.StatusCreated, &created)
		arena := "http://switch.test"
		c := e.acctAnyHost(t)
		require.Equal(t, http.StatusSeeOther, acctForm(t, c, arena, "/auth/mock", url.Values{"platformId": {acctAda}}).StatusCode)
		require.Equal(t, http.StatusOK, acctSend(t, c, http.MethodGet, arena+"/admin", nil).StatusCode, "a mock-mode admin")

		req, err := http.NewRequest(http.MethodPut, arena+"/api/v1/admin/settings", strings.NewReader(`{"publisherKey":"publisher-key"}`))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+created.AdminToken)
		resp, err := e.acctAnyHost(t).Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)

		page := acctSend(t, c, http.MethodGet, arena+"/admin", nil)
		assert.Equal(t, http.StatusSeeOther, page.StatusCode, "the session typed in mock mode no longer opens /admin")
		assert.Empty(t, acctSignedInAs(t, c, arena))
	})
	t.Run("ExpiresAfterThirtyDays", func(t *testing.T) {
		c, _ := signedIn(t)
		e.acctAdvance(t, 29*24*time.Hour)
		assert.Equal(t, "Blaise Pascal", acctSignedInAs(t, c, base))
		e.acctAdvance(t, 24*time.Hour)
		assert.Empty(t, acctSignedInAs(t, c, base))
	})
}

func TestPlaceholderAvatar(t *testing.T) {
	e := newSiteEnv(t)
	c := e.browser(t)
	first := acctSend(t, c, http.MethodGet, e.http.URL+"/avatars/"+acctBlaise+".svg", nil)
	require.Equal(t, http.StatusOK, first.StatusCode)
	assert.Equal(t, "image/svg+xml", first.Header.Get("Content-Type"))
	assert.Contains(t, first.Header.Get("Cache-Control"), "max-age=31536000")
	assert.Contains(t, first.body, "<svg")
	assert.Contains(t, first.body, ">02</text>")
	again := acctSend(t, c, http.MethodGet, e.http.URL+"/avatars/"+acctBlaise+".svg", nil)
	assert.Equal(t, first.body, again.body, "deterministic")
	other := acctSend(t, c, http.MethodGet, e.http.URL+"/avatars/"+acctAda+".svg", nil)
	assert.NotEqual(t, first.body, other.body)
	for _, bad := range []string{"/avatars/123.svg", "/avatars/" + acctBlaise + ".png", "/avatars/" + acctBlaise} {
		assert.Equal(t, http.StatusNotFound, acctSend(t, c, http.MethodGet, e.http.URL+bad, nil).StatusCode, bad)
	}
}

func TestAccountHelpers(t *testing.T) {
	t.Run("SafeNext", func(t *testing.T) {
		for raw, want := range map[string]string{
			"/tournaments/x?notice=registered": "/tournaments/x?notice=registered",
			"/":                                "/",
			"":                                 "",
			"//evil.example":                   "",
			"/\\evil.example":                  "",
			"https://evil.example/":            "",
			"tournaments":                      "",
			"/a\nb":                            "",
		} {
			assert.Equal(t, want, web.SafeNext(raw), raw)
		}
	})
	t.Run("SiteAppID", func(t *testing.T) {
		one := &core.Arena{AppIDs: []string{"480"}}
		two := &core.Arena{AppIDs: []string{"480", "481"}}
		assert.Equal(t, "480", web.SiteAppID(one, core.EnvironmentDemo))
		assert.Equal(t, "481", web.SiteAppID(two, core.EnvironmentDemo))
		assert.Equal(t, "480", web.SiteAppID(two, core.EnvironmentBeta))
		for _, a := range []*core.Arena{one, two} {
			for _, env := range []core.Environment{core.EnvironmentDemo, core.EnvironmentRec, core.EnvironmentBeta} {
				assert.True(t, core.EnvironmentVisible(a, web.SiteAppID(a, env), env), "the gate shows %s to the site", env)
			}
		}
	})
	t.Run("ParseRoster", func(t *testing.T) {
		assert.Equal(t, []string{"a", "b", "c", "d"}, web.ParseRoster(" a,b\nc ;d\r\n"))
		assert.Empty(t, web.ParseRoster(" \n,"))
	})
	t.Run("ParseKeyValue", func(t *testing.T) {
		got := web.ParseKeyValue("ns:http://specs.openid.net/auth/2.0\r\nis_valid:true\n")
		assert.Equal(t, map[string]string{"ns": "http://specs.openid.net/auth/2.0", "is_valid": "true"}, got)
	})
}
