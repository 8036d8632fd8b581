package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
	"arena/worker/arenatest"
	"arena/worker/server"
	"arena/worker/streams"
	"arena/worker/streams/streamstest"
)

// Demo players of the streams features (see demo_streams.go).
const (
	sophie = "76561198000000018" // links sophie_casts and casts a Winter Cup match
	blaise = arenatest.Blaise    // follows Sophie
	ursula = "76561198000000020"
)

// demoTenant is the demo arena with its store.
func demoTenant(t *testing.T, a *arenatest.Arena) *server.Tenant {
	t.Helper()
	tenant, release, err := a.Server.TenantBySlug(context.Background(), "demo")
	require.NoError(t, err)
	t.Cleanup(release)
	return tenant
}

// demoStore is the demo arena's database, for what a test sets up or
// checks behind the service's back.
func demoStore(t *testing.T, a *arenatest.Arena) *store.Arena {
	t.Helper()
	st, release, err := a.Server.ArenaStore(context.Background(), "demo")
	require.NoError(t, err)
	t.Cleanup(release)
	return st
}

// castMatch is the Winter Cup match the demo's caster casts.
func castMatch(t *testing.T, a *arenatest.Arena) arenatest.AdminMatch {
	t.Helper()
	seats, _, err := demoStore(t, a).ActiveCasting(context.Background())
	require.NoError(t, err)
	require.Len(t, seats, 1)
	return a.Match(t, seats[0].MatchID)
}

// directory reads GET /api/v1/casters by login.
func directory(t *testing.T, a *arenatest.Arena) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, c := range a.API(t, "GET", "/api/v1/casters", "", nil, 200)["casters"].([]any) {
		entry := c.(map[string]any)
		out[entry["streamLogin"].(string)] = entry
	}
	return out
}

// inbox is a player's alerts page text.
func inbox(t *testing.T, a *arenatest.Arena, id string) string {
	t.Helper()
	p := a.SignedIn(t, id).Get(t, "/alerts")
	require.Equal(t, 200, p.Status)
	return p.Body
}

func TestMockLinkCastAndLive(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{})
	m := castMatch(t, a)

	t.Run("DemoCasterInTheDirectory", func(t *testing.T) {
		d := directory(t, a)["sophie_casts"]
		require.NotNil(t, d)
		assert.Equal(t, sophie, d["platformId"])
		assert.Equal(t, false, d["live"])
		assert.Equal(t, "https://www.twitch.tv/sophie_casts", d["streamUrl"])
		assert.Equal(t, []any{float64(m.ID)}, d["matches"])
	})

	t.Run("MockLinkTakesTheFormLoginLowercased", func(t *testing.T) {
		b := a.SignedIn(t, ursula)
		assert.Equal(t, "/account?notice=linked", b.PostOK(t, "/stream-provider/link", url.Values{"login": {"Ursula_TV"}}))
		assert.Contains(t, b.Get(t, "/account").Body, "ursula_tv")
		assert.Contains(t, directory(t, a), "ursula_tv")
		bad := b.Post(t, "/stream-provider/link", url.Values{"login": {"no spaces!"}})
		assert.Equal(t, 422, bad.Status)
		taken := a.SignedIn(t, arenatest.Charles).Post(t, "/stream-provider/link", url.Values{"login": {"sophie_casts"}})
		assert.Equal(t, 409, taken.Status, "a channel is one player's")
		assert.Equal(t, "/account?notice=unlinked", b.PostOK(t, "/stream-provider/unlink", nil))
		assert.NotContains(t, directory(t, a), "ursula_tv")
		visitor := a.Browser(t).Post(t, "/stream-provider/link", url.Values{"login": {"x_x"}})
		assert.Equal(t, 303, visitor.Status)
		assert.Contains(t, visitor.Location, "/signin")
	})

	t.Run("LiveBadgeAndStreamingAlertOncePerSession", func(t *testing.T) {
		a.API(t, "POST", "/__dev/stream-live", "", map[string]any{"logins": []string{"Sophie_Casts"}}, 200)
		a.Tick(t)
		assert.Equal(t, true, directory(t, a)["sophie_casts"]["live"])
		page := a.Browser(t).Get(t, m.Path(""))
		assert.Contains(t, page.Body, "sophie_casts")
		assert.Contains(t, page.Body, "live now")
		assert.Equal(t, 1, strings.Count(inbox(t, a, blaise), "is streaming now"))
		a.Advance(t, time.Minute)
		a.Tick(t)
		assert.Equal(t, 1, strings.Count(inbox(t, a, blaise), "is streaming now"), "the same stream session alerts once")
		a.API(t, "POST", "/__dev/stream-live", "", map[string]any{"logins": []string{}}, 200)
		a.Tick(t)
		assert.Equal(t, false, directory(t, a)["sophie_casts"]["live"])
		a.API(t, "POST", "/__dev/stream-live", "", map[string]any{"logins": []string{"sophie_casts"}}, 200)
		a.Tick(t)
		assert.Equal(t, 2, strings.Count(inbox(t, a, blaise), "is streaming now"), "a new stream session alerts again")
	})

	t.Run("LiveMatchListsEveryCasterWithMirrors", func(t *testing.T) {
		a.ReadyBoth(t, m)
		live := a.Game(t, "GET", "/api/v1/me/live-match", *m.P1, nil, 200)
		casters := live["casters"].([]any)
		require.Len(t, casters, 1)
		assert.Equal(t, map[string]any{"platformId": sophie, "streamUrl": "https://www.twitch.tv/sophie_casts", "source": "community"}, casters[0])
		assert.Equal(t, sophie, live["casterPlatformId"])
		assert.Equal(t, "https://www.twitch.tv/sophie_casts", live["streamUrl"])

		out := a.Admin(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%d/casters", m.ID), map[string]any{"streamLogin": "Arena_Official"}, 201)
		assert.Len(t, out["casters"], 2)
		a.Admin(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%d/casters", m.ID), map[string]any{"streamLogin": "x"}, 422)
		a.Admin(t, "POST", "/api/v1/admin/matches/999999/casters", map[string]any{"streamLogin": "arena_official"}, 404)
		live = a.Game(t, "GET", "/api/v1/me/live-match", *m.P2, nil, 200)
		casters = live["casters"].([]any)
		require.Len(t, casters, 2)
		assert.Equal(t, map[string]any{"platformId": nil, "streamUrl": "https://www.twitch.tv/arena_official", "source": "arena"}, casters[1])
		assert.Equal(t, sophie, live["casterPlatformId"], "mirrors the first caster")

		pub := a.Tournament(t, "winter-cup")
		raw := a.API(t, "GET", "/api/v1/tournaments/winter-cup", "", nil, 200)
		assert.NotNil(t, pub.Match(m.ID))
		assert.Contains(t, fmt.Sprint(raw), "arena_official", "the public match object lists its casters")
	})

	t.Run("PovStreamsAndInvitations", func(t *testing.T) {
		p1 := a.SignedIn(t, *m.P1)
		assert.Equal(t, 409, p1.Post(t, m.Path("stream"), nil).Status, "a POV stream needs a linked channel")
		p1.PostOK(t, "/stream-provider/link", url.Values{"login": {"p1_pov"}})
		p1.PostOK(t, m.Path("stream"), nil)
		assert.Equal(t, 403, a.SignedIn(t, ursula).Post(t, m.Path("stream"), nil).Status, "only the match's players")
		assert.Equal(t, 409, p1.Post(t, m.Path("cast"), nil).Status, "players stream, not cast, their own match")
		page := a.Browser(t).Get(t, m.Path(""))
		assert.Contains(t, page.Body, "p1_pov")
		raw := a.API(t, "GET", "/api/v1/tournaments/winter-cup", "", nil, 200)
		assert.Contains(t, fmt.Sprint(raw), "p1_pov", "POV streams on the public match object")

		a.SignedIn(t, ursula).PostOK(t, "/stream-provider/link", url.Values{"login": {"ursula_tv"}})
		assert.Equal(t, 403, a.SignedIn(t, ursula).Post(t, m.Path("casters/invite"), url.Values{"platformId": {sophie}}).Status)
		assert.Equal(t, 409, p1.Post(t, m.Path("casters/invite"), url.Values{"platformId": {arenatest.Charles}}).Status, "the invited player needs a channel")
		assert.Equal(t, 400, p1.Post(t, m.Path("casters/invite"), url.Values{"platformId": {"12"}}).Status)
		p1.PostOK(t, m.Path("casters/invite"), url.Values{"platformId": {ursula}})
		a.Tick(t)
		assert.Contains(t, inbox(t, a, ursula), "invited to cast")
		live := a.Game(t, "GET", "/api/v1/me/live-match", *m.P1, nil, 200)
		assert.Len(t, live["casters"], 3)
		p1.PostOK(t, m.Path("stream"), url.Values{"off": {"on"}})
		assert.NotContains(t, a.Browser(t).Get(t, m.Path("")).Body, "p1_pov")
	})

	t.Run("SeatsEndWithTheMatch", func(t *testing.T) {
		a.Admin(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%d/resolve", m.ID), map[string]any{"winner": *m.P1}, 200)
		assert.Equal(t, []any{}, directory(t, a)["sophie_casts"]["matches"])
		raw := a.API(t, "GET", "/api/v1/tournaments/winter-cup", "", nil, 200)
		assert.NotContains(t, fmt.Sprint(raw), "arena_official")
		assert.Equal(t, 409, a.SignedIn(t, sophie).Post(t, m.Path("cast"), nil).Status, "a decided match takes no caster")
	})

	t.Run("SpectatorsNotAllowed", func(t *testing.T) {
		a.OpenCup(t, arenatest.Cup{Slug: "closed", MaxPlayers: 2, Players: arenatest.CupPlayers(2), Fields: map[string]any{"allowSpectators": false}})
		a.SetStatus(t, "closed", "registration_closed", "playoffs")
		final := a.Matches(t, "closed")[0]
		assert.Equal(t, 409, a.SignedIn(t, sophie).Post(t, final.Path("cast"), nil).Status)
		a.Admin(t, "POST", fmt.Sprintf("/api/v1/admin/matches/%d/casters", final.ID), map[string]any{"streamLogin": "arena_official"}, 409)
	})

	t.Run("Follows", func(t *testing.T) {
		b := a.SignedIn(t, arenatest.Charles)
		tour := demoTenant(t, a)
		spring, err := tour.Tournament(context.Background(), "spring-invitational")
		require.NoError(t, err)
		id := fmt.Sprint(spring.ID)
		b.PostOK(t, "/follow/tournament/"+id, url.Values{"next": {"/tournaments/spring-invitational"}})
		assert.Contains(t, b.Get(t, "/tournaments/spring-invitational").Body, "Following")
		assert.Contains(t, b.Get(t, "/account").Body, "Spring Invitational")
		assert.Equal(t, 404, b.Post(t, "/follow/tournament/999999", nil).Status)
		assert.Equal(t, 400, b.Post(t, "/follow/player/123", nil).Status)
		assert.Equal(t, 404, b.Post(t, "/follow/player/76561198099999999", nil).Status)
		a.SetStatus(t, "spring-invitational", "registration_closed")
		a.Tick(t)
		assert.Contains(t, inbox(t, a, arenatest.Charles), "Spring Invitational: registration is closed.")
		b.PostOK(t, "/follow/tournament/"+id, url.Values{"off": {"on"}})
		assert.NotContains(t, b.Get(t, "/account").Body, "Spring Invitational")
	})
}

// realMode serves the demo arena with the real provider against the
// provider's twin.
func realMode(t *testing.T) (*arenatest.Arena, *streamstest.Twin) {
	t.Helper()
	p := &streams.Provider{ClientID: streamstest.ClientID, ClientSecret: streamstest.ClientSecret}
	a := arenatest.New(t, arenatest.Options{Streams: p})
	twin := streamstest.Start(t, a.URL+"/stream-provider/callback")
	twin.Now = a.Server.Now
	p.RedirectURL, p.AuthURL, p.APIURL, p.Now = twin.RedirectURL, twin.AuthURL(), twin.APIURL(), a.Server.Now
	return a, twin
}

// authorize follows the provider's authorize redirect (the user
// consents) and returns the callback address it sends the browser to.
func authorize(t *testing.T, to string) string {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(to)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusFound, resp.StatusCode)
	return resp.Header.Get("Location")
}

func TestRealLinkAgainstTheProviderTwin(t *testing.T) {
	a, twin := realMode(t)
	b := a.SignedIn(t, ursula)
	link := b.Post(t, "/stream-provider/link", nil)
	require.Equal(t, 303, link.Status)
	auth, err := url.Parse(link.Location)
	require.NoError(t, err)
	q := auth.Query()
	assert.Equal(t, twin.AuthURL()+"/authorize", auth.Scheme+"://"+auth.Host+auth.Path)
	assert.Equal(t, streamstest.ClientID, q.Get("client_id"))
	assert.Equal(t, twin.RedirectURL, q.Get("redirect_uri"))
	assert.Equal(t, "code", q.Get("response_type"))
	assert.True(t, q.Has("scope") && q.Get("scope") == "", "an empty scope")
	assert.True(t, strings.HasPrefix(q.Get("state"), "demo."), "the state names the arena")

	twin.AuthorizeAs = "Ursula_Live"
	callback := authorize(t, link.Location)
	back := b.Get(t, callback)
	require.Equal(t, 303, back.Status, back.Body)
	assert.Equal(t, a.URL+"/account?notice=linked", back.Location)
	login, err := demoStore(t, a).StreamLogin(context.Background(), ursula)
	require.NoError(t, err)
	assert.Equal(t, "ursula_live", login, "stored lowercased")

	t.Run("ErrStateReplayed", func(t *testing.T) {
		assert.Equal(t, 400, b.Get(t, callback).Status)
	})
	t.Run("ErrStateOfAnotherArena", func(t *testing.T) {
		a.CreateArena(t, "north", "north.test", "", nil)
		again := b.Post(t, "/stream-provider/link", nil)
		state := mustQuery(t, again.Location).Get("state")
		forged := strings.Replace(authorize(t, again.Location), "state="+state, "state=north."+strings.TrimPrefix(state, "demo."), 1)
		assert.Equal(t, 400, b.Get(t, forged).Status, "north's database has no such state")
	})
	t.Run("ArenaFoundFromTheStateNotTheHost", func(t *testing.T) {
		twin.AuthorizeAs = "ursula_second"
		again := b.Post(t, "/stream-provider/link", nil)
		cb := authorize(t, again.Location)
		u, err := url.Parse(cb)
		require.NoError(t, err)
		p := a.Browser(t).Get(t, "http://north.test"+u.RequestURI())
		assert.Equal(t, 303, p.Status)
		login, err := demoStore(t, a).StreamLogin(context.Background(), ursula)
		require.NoError(t, err)
		assert.Equal(t, "ursula_second", login)
	})
	t.Run("ErrStateExpired", func(t *testing.T) {
		again := b.Post(t, "/stream-provider/link", nil)
		cb := authorize(t, again.Location)
		a.Advance(t, core.LinkStateTTL+time.Second)
		assert.Equal(t, 400, b.Get(t, cb).Status)
	})
	t.Run("ErrMalformedState", func(t *testing.T) {
		assert.Equal(t, 400, b.Get(t, "/stream-provider/callback?code=x&state=nothing").Status)
	})
	t.Run("ProviderRefusedTheCode", func(t *testing.T) {
		again := b.Post(t, "/stream-provider/link", nil)
		state := mustQuery(t, again.Location).Get("state")
		p := b.Get(t, "/stream-provider/callback?code=forged&state="+url.QueryEscape(state))
		assert.Equal(t, 303, p.Status)
		assert.Contains(t, p.Location, "notice=link_failed")
	})
}

func mustQuery(t *testing.T, raw string) url.Values {
	t.Helper()
	u, err := url.Parse(raw)
	require.NoError(t, err)
	return u.Query()
}

func TestLivePollAgainstTheProviderTwin(t *testing.T) {
	a, twin := realMode(t)
	st := demoStore(t, a)
	ctx := context.Background()
	for i := range 150 {
		require.NoError(t, st.SetStreamLogin(ctx, fmt.Sprintf("7656119810000%04d", i), fmt.Sprintf("chan_%03d", i), a.Now))
	}
	twin.SetLive(map[string]string{"chan_007": "s7", "chan_120": "s120", "sophie_casts": "s1"})
	poll := func() {
		t.Helper()
		a.Advance(t, core.LiveCacheTTL)
		a.Tick(t)
	}
	liveNow := func() []string {
		t.Helper()
		live, err := core.LiveNow(ctx, st, a.Server.Now())
		require.NoError(t, err)
		var out []string
		for l := range live {
			out = append(out, l)
		}
		return out
	}

	poll()
	_, grants, batches := twin.Calls()
	require.Len(t, batches, 2, "151 logins: two queries")
	assert.Len(t, batches[0], 100)
	assert.Len(t, batches[1], 51)
	assert.ElementsMatch(t, []string{"chan_007", "chan_120", "sophie_casts"}, liveNow())
	assert.Equal(t, 1, grants)

	t.Run("CachedSixtySeconds", func(t *testing.T) {
		a.Tick(t)
		_, _, again := twin.Calls()
		assert.Len(t, again, 2, "a tick within the minute asks nothing")
	})
	t.Run("AppTokenKeptUntilShortlyBeforeExpiry", func(t *testing.T) {
		poll()
		_, grants, _ := twin.Calls()
		assert.Equal(t, 1, grants, "the stored token is reused")
		a.Advance(t, time.Hour-core.AppTokenMargin)
		a.Tick(t)
		_, grants, _ = twin.Calls()
		assert.Equal(t, 2, grants, "renewed before it expires")
		twin.RevokeAppTokens()
		poll()
		_, grants, _ = twin.Calls()
		assert.Equal(t, 3, grants, "a refused token is replaced")
		assert.Len(t, liveNow(), 3)
	})
	t.Run("RateLimitedHonoursRatelimitReset", func(t *testing.T) {
		reset := a.Server.Now().Add(5 * time.Minute)
		twin.RateLimitUntil(reset)
		poll()
		assert.Empty(t, liveNow(), "a failed call: nobody live")
		_, _, before := twin.Calls()
		poll()
		poll()
		_, _, after := twin.Calls()
		assert.Equal(t, len(before), len(after), "no call before Ratelimit-Reset")
		a.Advance(t, 5*time.Minute)
		poll()
		assert.Len(t, liveNow(), 3)
	})
	t.Run("ProviderDownIsAnEmptySetNotAnError", func(t *testing.T) {
		twin.Close()
		poll()
		assert.Empty(t, liveNow())
		assert.NotContains(t, a.Logs.String(), "scheduled job failed")
	})
}
