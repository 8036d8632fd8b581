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
	"arena/worker/arenatest"
	"arena/worker/web"
)

func TestMockSignIn(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	base := e.URL

	t.Run("SignInPageShowsTheLabelledForm", func(t *testing.T) {
		resp := e.Browser(t).Get(t, "/signin?next=/ladder")
		assert.Equal(t, http.StatusOK, resp.Status)
		assert.Contains(t, resp.Body, `action="/auth/mock"`)
		assert.Contains(t, resp.Body, `<label for="platformId">`)
		assert.Contains(t, resp.Body, `name="next" value="/ladder"`)
		assert.NotContains(t, resp.Body, "Sign in through the platform")
	})
	t.Run("ErrInvalidIDShowsTheFormAgain", func(t *testing.T) {
		for _, id := range []string{"", "123", "7656119800000000x", "765611980000000011"} {
			resp := e.Browser(t).Post(t, "/auth/mock", url.Values{"platformId": {id}})
			assert.Equal(t, http.StatusUnprocessableEntity, resp.Status, id)
			assert.Contains(t, resp.Body, "exactly 17 digits", id)
			assert.Contains(t, resp.Body, `aria-invalid="true"`, id)
			assert.Nil(t, resp.Cookie(arenatest.SessionCookie), "no session for %q", id)
		}
	})
	t.Run("SetsAHostOnlyHttpOnlyLaxCookieAndGoesToNext", func(t *testing.T) {
		c := e.Browser(t)
		resp := c.Post(t, "/auth/mock", url.Values{"platformId": {arenatest.Blaise}, "next": {"/ladder?season=all"}})
		require.Equal(t, http.StatusSeeOther, resp.Status)
		assert.Equal(t, "/ladder?season=all", resp.Location)
		cookie := resp.Cookie(arenatest.SessionCookie)
		require.NotNil(t, cookie)
		assert.True(t, cookie.HttpOnly)
		assert.Equal(t, http.SameSiteLaxMode, cookie.SameSite)
		assert.Empty(t, cookie.Domain, "host-only: no Domain attribute")
		assert.Equal(t, "/", cookie.Path)
		assert.False(t, cookie.Secure, "plain HTTP")
		raw := resp.Header.Get("Set-Cookie")
		assert.NotContains(t, strings.ToLower(raw), "domain=")
		assert.Equal(t, "Blaise Pascal", c.SignedInAs(t, ""), "a known player keeps their name")
	})
	t.Run("SecureOverHTTPS", func(t *testing.T) {
		resp := e.Browser(t).Send(t, http.MethodPost, base+"/auth/mock", url.Values{"platformId": {arenatest.Blaise}},
			"Origin", base, "Sec-Fetch-Site", "same-origin", "X-Forwarded-Proto", "https")
		require.Equal(t, http.StatusSeeOther, resp.Status)
		cookie := resp.Cookie(arenatest.SessionCookie)
		require.NotNil(t, cookie)
		assert.True(t, cookie.Secure)
	})
	t.Run("NextNeverLeavesTheSite", func(t *testing.T) {
		for _, next := range []string{"https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", "ladder"} {
			resp := e.Browser(t).Post(t, "/auth/mock", url.Values{"platformId": {arenatest.Blaise}, "next": {next}})
			require.Equal(t, http.StatusSeeOther, resp.Status)
			assert.Equal(t, "/", resp.Location, next)
		}
	})
	t.Run("NewPlayerGetsAPlaceholderNameAndAvatar", func(t *testing.T) {
		c := e.Browser(t)
		id := "76561198000004242"
		c.SignIn(t, id)
		assert.Equal(t, "Player 4242", c.SignedInAs(t, ""))
		var p struct {
			Player struct {
				PersonaName string `json:"personaName"`
				AvatarURL   string `json:"avatarUrl"`
			} `json:"player"`
		}
		arenatest.Decode(t, e.API(t, http.MethodGet, "/api/v1/players/"+id, "", nil, http.StatusOK), &p)
		assert.Equal(t, "Player 4242", p.Player.PersonaName)
		assert.Equal(t, "/avatars/"+id+".svg", p.Player.AvatarURL)
	})
	t.Run("SignOut", func(t *testing.T) {
		c := e.Browser(t)
		c.SignIn(t, arenatest.Blaise)
		require.NotEmpty(t, c.SignedInAs(t, ""))
		resp := c.Post(t, "/signout", nil)
		require.Equal(t, http.StatusSeeOther, resp.Status)
		assert.Equal(t, "/", resp.Location)
		cookie := resp.Cookie(arenatest.SessionCookie)
		require.NotNil(t, cookie)
		assert.Less(t, cookie.MaxAge, 0, "the cookie is deleted")
		assert.Empty(t, c.SignedInAs(t, ""))
	})
	t.Run("ErrRealModeRefusesTheMockForm", func(t *testing.T) {
		e.CreateArena(t, "realm", "real.test", "publisher-key", nil)
		c := e.Browser(t)
		resp := c.Post(t, "http://real.test/auth/mock", url.Values{"platformId": {arenatest.Blaise}})
		assert.Equal(t, http.StatusForbidden, resp.Status)
		assert.Nil(t, resp.Cookie(arenatest.SessionCookie))
		page := c.Get(t, "http://real.test/signin")
		assert.Contains(t, page.Body, "Sign in through the platform")
		assert.NotContains(t, page.Body, `action="/auth/mock"`)
	})
}

func TestSessions(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	e.CreateArena(t, "other", "other.test", "", nil)

	signedIn := func(t *testing.T) (*arenatest.Browser, *http.Cookie) {
		c := e.Browser(t)
		resp := c.Post(t, "/auth/mock", url.Values{"platformId": {arenatest.Blaise}})
		require.Equal(t, http.StatusSeeOther, resp.Status)
		cookie := resp.Cookie(arenatest.SessionCookie)
		require.NotNil(t, cookie)
		return c, cookie
	}
	// withCookie is a fresh browser sending only the given session value.
	withCookie := func(value string) *arenatest.Browser {
		c := e.Browser(t)
		c.SetCookie("", arenatest.SessionCookie, value)
		c.SetCookie("http://other.test", arenatest.SessionCookie, value)
		return c
	}

	t.Run("ValidCookieSignsIn", func(t *testing.T) {
		_, cookie := signedIn(t)
		assert.Equal(t, "Blaise Pascal", withCookie(cookie.Value).SignedInAs(t, ""))
	})
	t.Run("TamperedCookieIsAnonymous", func(t *testing.T) {
		_, cookie := signedIn(t)
		_, other := signedIn(t)
		payload, sig, ok := strings.Cut(cookie.Value, ".")
		require.True(t, ok)
		otherPayload, _, _ := strings.Cut(other.Value, ".")
		assert.Empty(t, withCookie(otherPayload+"."+sig).SignedInAs(t, ""), "another session's id under this signature")
		assert.Empty(t, withCookie(payload+"."+strings.Repeat("A", len(sig))).SignedInAs(t, ""), "signature changed")
		assert.Empty(t, withCookie("garbage").SignedInAs(t, ""))
	})
	t.Run("SignOutEndsTheSessionOnTheServer", func(t *testing.T) {
		c := e.Browser(t)
		resp := c.Post(t, "/auth/mock", url.Values{"platformId": {arenatest.Ada}})
		require.Equal(t, http.StatusSeeOther, resp.Status)
		cookie := resp.Cookie(arenatest.SessionCookie)
		require.NotNil(t, cookie)
		replay := withCookie(cookie.Value)
		require.Equal(t, http.StatusOK, replay.Get(t, "/admin").Status, "a copy of the cookie opens /admin")

		require.Equal(t, http.StatusSeeOther, c.Post(t, "/signout", nil).Status)
		resp = replay.Get(t, "/admin")
		assert.Equal(t, http.StatusSeeOther, resp.Status, "the replayed cookie opens nothing")
		assert.Equal(t, "/signin?next=%2Fadmin", resp.Location)
		assert.Empty(t, replay.SignedInAs(t, ""))
		other := withCookie(cookie.Value)
		assert.Equal(t, http.StatusSeeOther, other.Post(t, "/signout", nil).Status, "signing out again is fine")
	})
	t.Run("OtherSessionsOutliveASignOut", func(t *testing.T) {
		phone, _ := signedIn(t)
		laptop, _ := signedIn(t)
		require.Equal(t, http.StatusSeeOther, laptop.Post(t, "/signout", nil).Status)
		assert.Empty(t, laptop.SignedInAs(t, ""))
		assert.Equal(t, "Blaise Pascal", phone.SignedInAs(t, ""), "each sign-in is its own session")
	})
	t.Run("AnotherArenasCookieIsAnonymous", func(t *testing.T) {
		_, cookie := signedIn(t)
		c := withCookie(cookie.Value)
		assert.Empty(t, c.SignedInAs(t, "http://other.test"))
		// The same browser signs in on the other arena with its own cookie.
		resp := c.Post(t, "http://other.test/auth/mock", url.Values{"platformId": {arenatest.Blaise}})
		require.Equal(t, http.StatusSeeOther, resp.Status)
		assert.Equal(t, "Player 0002", c.SignedInAs(t, "http://other.test"))
		other := resp.Cookie(arenatest.SessionCookie)
		require.NotNil(t, other)
		assert.Empty(t, withCookie(other.Value).SignedInAs(t, ""), "and that one is worthless on the demo arena")
	})
	t.Run("MockSessionsEndWhenTheArenaSignsInThroughThePlatform", func(t *testing.T) {
		admin := e.CreateArena(t, "switch", "switch.test", "", map[string]any{"adminPlatformIds": []string{arenatest.Ada}})
		arena := "http://switch.test"
		c := e.Browser(t)
		c.SignInAt(t, arena, arenatest.Ada)
		require.Equal(t, http.StatusOK, c.Get(t, arena+"/admin").Status, "a mock-mode admin")

		e.API(t, http.MethodPut, arena+"/api/v1/admin/settings", "Bearer "+admin, map[string]any{"publisherKey": "publisher-key"}, http.StatusOK)
		page := c.Get(t, arena+"/admin")
		assert.Equal(t, http.StatusSeeOther, page.Status, "the session typed in mock mode no longer opens /admin")
		assert.Empty(t, c.SignedInAs(t, arena))
	})
	t.Run("ExpiresAfterThirtyDays", func(t *testing.T) {
		c, _ := signedIn(t)
		e.Advance(t, 29*24*time.Hour)
		assert.Equal(t, "Blaise Pascal", c.SignedInAs(t, ""))
		e.Advance(t, 24*time.Hour)
		assert.Empty(t, c.SignedInAs(t, ""))
	})
}

func TestPlaceholderAvatar(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	c := e.Browser(t)
	first := c.Get(t, "/avatars/"+arenatest.Blaise+".svg")
	require.Equal(t, http.StatusOK, first.Status)
	assert.Equal(t, "image/svg+xml", first.Header.Get("Content-Type"))
	assert.Contains(t, first.Header.Get("Cache-Control"), "max-age=31536000")
	assert.Contains(t, first.Body, "<svg")
	assert.Contains(t, first.Body, ">02</text>")
	again := c.Get(t, "/avatars/"+arenatest.Blaise+".svg")
	assert.Equal(t, first.Body, again.Body, "deterministic")
	other := c.Get(t, "/avatars/"+arenatest.Ada+".svg")
	assert.NotEqual(t, first.Body, other.Body)
	for _, bad := range []string{"/avatars/123.svg", "/avatars/" + arenatest.Blaise + ".png", "/avatars/" + arenatest.Blaise} {
		assert.Equal(t, http.StatusNotFound, c.Get(t, bad).Status, bad)
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
	t.Run("ParseKeyValue", func(t *testing.T) {
		got := web.ParseKeyValue("ns:http://specs.openid.net/auth/2.0\r\nis_valid:true\n")
		assert.Equal(t, map[string]string{"ns": "http://specs.openid.net/auth/2.0", "is_valid": "true"}, got)
	})
}

// Issue 25 point 10: signing in from the header of a page comes back to
// that page, not to the home page.
func TestHeaderSignInComesBack(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	b := e.Browser(t)
	page := b.Get(t, "/tournaments/winter-cup").Body
	assert.Contains(t, page, `<a class="button" href="/signin?next=%2Ftournaments%2Fwinter-cup">Sign in</a>`)
	signin := b.Get(t, "/signin?next=%2Ftournaments%2Fwinter-cup").Body
	assert.Contains(t, signin, `name="next" value="/tournaments/winter-cup"`)
	done := b.Post(t, "/auth/mock", url.Values{"platformId": {arenatest.Blaise}, "next": {"/tournaments/winter-cup"}})
	assert.Equal(t, "/tournaments/winter-cup", done.Location)
	assert.Contains(t, e.Browser(t).Get(t, "/").Body, `<a class="button" href="/signin">Sign in</a>`, "the home page's own link stays plain")
}

// Issue 25 point 10: a new player carries a placeholder name ("Player
// 0099") and the pages ask them to choose one until they do.
func TestNewPlayerIsAskedForAName(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	id := arenatest.CupPlayer(99)
	b := e.SignedIn(t, id)
	home := b.Get(t, "/").Body
	assert.Contains(t, home, `Other players see you as <bdi>Player 0099</bdi>.`)
	assert.Contains(t, home, `<a href="/account#personaName">Choose your display name</a>`)
	assert.NotContains(t, b.Get(t, "/account").Body, "Other players see you as", "not on the page that asks already")
	b.PostOK(t, "/account/name", url.Values{"personaName": {"Alan Kay"}})
	assert.NotContains(t, b.Get(t, "/").Body, "Other players see you as", "named now")
	assert.NotContains(t, e.SignedIn(t, arenatest.Ada).Get(t, "/").Body, "Other players see you as", "a named player is not asked")
}
