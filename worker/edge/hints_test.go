package edge

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	"arena/worker/server"
)

func TestLimitMode(t *testing.T) {
	for name, tc := range map[string]struct {
		limits core.RateLimits
		key    bool
		mode   string
		limit  int
	}{
		"DefaultAnonymousIsTheBinding": {core.DefaultRateLimits, false, ModeBinding, 60},
		"DefaultKeyIsTheBinding":       {core.DefaultRateLimits, true, ModeBinding, 600},
		"LiftedIsNone":                 {core.RateLimits{AnonymousPerMinute: 0, KeyPerMinute: 600}, false, ModeNone, 0},
		"OtherLimitIsTheDatabase":      {core.RateLimits{AnonymousPerMinute: 60, KeyPerMinute: 1000}, true, ModeDatabase, 1000},
	} {
		t.Run(name, func(t *testing.T) {
			mode, limit := LimitMode(tc.limits, tc.key)
			assert.Equal(t, tc.mode, mode)
			assert.Equal(t, tc.limit, limit)
		})
	}
}

func TestStoreHint(t *testing.T) {
	page := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	read := http.Header{"Content-Type": {"application/json"}, "Cache-Control": {"public, max-age=10"}}
	host := map[string]string{HintHost: "{}"}
	caller := func(class string) map[string]string {
		return map[string]string{HintHost: "{}", HintCaller: hintJSON(CallerHint{Class: class})}
	}
	for name, tc := range map[string]struct {
		method string
		reqHdr http.Header
		status int
		resHdr http.Header
		hints  map[string]string
		want   int    // seconds; 0: not kept
		class  string // the entries' class
	}{
		"PublicReadForItsMaxAge":      {"GET", nil, 200, read, caller("anon"), 10, "anon"},
		"PublicReadWithACookieToo":    {"GET", http.Header{"Cookie": {"arena_session=x"}}, 200, read, caller("key:1"), 10, "key:1"},
		"AnonymousPage":               {"GET", nil, 200, page, host, 10, "anon"},
		"PageWithACookie":             {"GET", http.Header{"Cookie": {"arena_session=x"}}, 200, page, host, 0, ""},
		"PageWithCredentials":         {"GET", http.Header{"Authorization": {"Bearer admkey_x"}}, 200, page, host, 0, ""},
		"PageSettingACookie":          {"GET", nil, 200, http.Header{"Content-Type": {"text/html"}, "Set-Cookie": {"a=b"}}, host, 0, ""},
		"NoStorePage":                 {"GET", nil, 200, http.Header{"Content-Type": {"text/html"}, "Cache-Control": {"no-store"}}, host, 0, ""},
		"NotFoundPage":                {"GET", nil, 404, page, host, 0, ""},
		"NoArena":                     {"GET", nil, 200, page, map[string]string{}, 0, ""},
		"Post":                        {"POST", nil, 200, page, host, 0, ""},
		"AdminJSON":                   {"GET", http.Header{"Authorization": {"Bearer admkey_x"}}, 200, http.Header{"Content-Type": {"application/json"}}, host, 0, ""},
		"PrivateRead":                 {"GET", nil, 200, http.Header{"Cache-Control": {"private, max-age=10"}}, caller("anon"), 0, ""},
		"PublicReadWithAnAdminsToken": {"GET", http.Header{"Authorization": {"Bearer admkey_x"}}, 200, read, caller(""), 0, ""},
	} {
		t.Run(name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, "http://a.test/x", nil)
			for k, v := range tc.reqHdr {
				req.Header[k] = v
			}
			s, ok := storeHint(req, &Response{Status: tc.status, Header: tc.resHdr}, tc.hints)
			assert.Equal(t, tc.want, s.TTL)
			assert.Equal(t, tc.want != 0, ok)
			assert.Equal(t, tc.class, s.Class)
		})
	}
}

func TestStoreHintOfAPublicRead(t *testing.T) {
	req, _ := http.NewRequest("GET", "http://a.test/api/v1", nil)
	res := &Response{Status: 200, Header: http.Header{"Cache-Control": {"public, max-age=10"}, "Etag": {`"abc"`}}}
	s, ok := storeHint(req, res, map[string]string{HintHost: "{}", HintCaller: hintJSON(CallerHint{Class: "anon"})})
	require.True(t, ok)
	assert.True(t, s.Limited, "counted by the caller's limit on every hit")
	assert.Empty(t, s.Unless)
	require.NotNil(t, s.NotModified)
	match := regexp.MustCompile(s.NotModified.Pattern)
	assert.True(t, match.MatchString(`W/"abc"`))
	assert.False(t, match.MatchString(`"other"`))
	assert.Equal(t, server.NotModifiedOmits, s.NotModified.Omit)
	drop := map[string]bool{}
	for _, h := range s.Drop {
		drop[http.CanonicalHeaderKey(h)] = true
	}
	for _, h := range []string{"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After", "X-Request-Id", "X-Arena-Cache"} {
		assert.True(t, drop[http.CanonicalHeaderKey(h)], "%s describes one answer", h)
	}
	assert.Equal(t, [][2]string{{"X-Arena-Cache", "shared"}}, s.Set)

	page, ok := storeHint(req, &Response{Status: 200, Header: http.Header{"Content-Type": {"text/html"}}}, map[string]string{HintHost: "{}"})
	require.True(t, ok)
	assert.False(t, page.Limited)
	assert.Equal(t, "Cookie", page.Unless, "a request with a cookie may be signed in")
	assert.Nil(t, page.NotModified)
}

func TestHintsDescribeTheArena(t *testing.T) {
	b := newBridge()
	hints := NewHints("Cf-Connecting-Ip")
	a := &core.Arena{Slug: "alpha", RateLimits: core.RateLimits{AnonymousPerMinute: 60, KeyPerMinute: 0}, UpdatedAt: time.UnixMilli(36)}
	require.NoError(t, b.Start(1, func(ctx context.Context) Response {
		hints.Tenant(ctx, a, 0)
		hints.Caller(ctx, a, "key:k1", "k1")
		return Response{Status: 200}
	}))
	got := jsSide(b, 1, echoFetch(1)).Hints
	assert.Equal(t, "0", got[HintIO])
	assert.Equal(t, "10000", got[HintFresh], "no bound from Go: the staleness bound")
	var host HostHint
	require.NoError(t, json.Unmarshal([]byte(got[HintHost]), &host))
	assert.Equal(t, "alpha", host.Slug)
	assert.Equal(t, "https://cache.arena.invalid/alpha/10", host.Key, "the arena and its settings version")
	assert.Equal(t, "https://cache.arena.invalid/_version/alpha", host.Version)
	assert.Equal(t, "public, max-age=86400", host.VersionCacheControl)
	assert.Equal(t, CallerHint{Class: "anon", Limit: "anon", Bucket: "alpha/ip:", BucketHeader: "Cf-Connecting-Ip", TTLMs: 60000}, host.Anonymous)
	anon, key := host.Limits[host.Anonymous.Limit], host.Limits["key"]
	assert.Equal(t, ModeBinding, anon.Mode)
	assert.Equal(t, BindingAnonymous, anon.Binding)
	assert.Equal(t, int64(60000), anon.WindowMs)
	assert.Equal(t, &AnswerHint{Headers: [][2]string{{"Ratelimit-Limit", "60"}}, Reset: []string{"RateLimit-Reset"}}, anon.Within)
	require.NotNil(t, anon.Over)
	assert.Equal(t, 429, anon.Over.Status)
	assert.Equal(t, "{\"error\":\"rate_limited\"}\n", anon.Over.Body)
	assert.ElementsMatch(t, [][2]string{{"Ratelimit-Limit", "60"}, {"Ratelimit-Remaining", "0"},
		{"Content-Type", "application/json"}, {"X-Content-Type-Options", "nosniff"}}, anon.Over.Headers)
	assert.Equal(t, []string{"RateLimit-Reset", "Retry-After"}, anon.Over.Reset)
	assert.Equal(t, LimitHint{Mode: ModeNone}, key)
	var caller CallerHint
	require.NoError(t, json.Unmarshal([]byte(got[HintCaller]), &caller))
	assert.Equal(t, CallerHint{Class: "key:k1", Limit: "key", Bucket: "alpha/key:k1", TTLMs: 60000}, caller)

	require.NoError(t, b.Start(2, func(ctx context.Context) Response {
		hints.Tenant(ctx, a, 3500*time.Millisecond)
		hints.Changed(ctx, "beta")
		return Response{Status: 200}
	}))
	got = jsSide(b, 2, echoFetch(2)).Hints
	assert.Equal(t, "3500", got[HintFresh], "a cached lookup's rest of life")
	var changed []ArenaHint
	require.NoError(t, json.Unmarshal([]byte(got[HintChanged]), &changed))
	assert.Equal(t, []ArenaHint{arenaHint("beta")}, changed)
}

// An Authorization that is no API key (an admin's, a game client's) is
// never answered by the front; an API key's class is Go's to tell.
func TestServeHTTPTellsTheFrontOfOtherCredentials(t *testing.T) {
	hints := NewHints("")
	a := &core.Arena{Slug: "alpha"}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hints.Tenant(r.Context(), a, 0) })
	for auth, want := range map[string]string{
		"Bearer admkey_x":               hintJSON(CallerHint{TTLMs: 60000}),
		"Platform MOCK:1":               hintJSON(CallerHint{TTLMs: 60000}),
		"Bearer apikey_0123abcd_secret": "",
		"":                              "",
	} {
		b := newBridge()
		req, _ := http.NewRequest("GET", "http://alpha.test/api/v1/admin/queue", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		require.NoError(t, b.ServeHTTP(1, h, req))
		res := jsSide(b, 1, echoFetch(1))
		assert.Equal(t, want, res.Hints[HintCaller], auth)
		assert.Equal(t, "miss", res.Header.Get("X-Arena-Cache"), "every answer Go gave says so")
	}
}

// countingLimiter is the database counter's stand-in.
type countingLimiter struct{ calls int }

func (c *countingLimiter) Count(context.Context, *server.Tenant, string, time.Time) (int, error) {
	c.calls++
	return 7, nil
}

func TestRateLimiterUsesTheBindingForTheSpecsLimits(t *testing.T) {
	for name, tc := range map[string]struct {
		limits   core.RateLimits
		bucket   string
		success  bool
		binding  string
		want     int
		database bool
	}{
		"AnonymousWithin":   {core.DefaultRateLimits, "ip:10.0.0.1", true, BindingAnonymous, server.CountUnknown, false},
		"AnonymousOver":     {core.DefaultRateLimits, "ip:10.0.0.1", false, BindingAnonymous, 61, false},
		"KeyOver":           {core.DefaultRateLimits, "key:abcd1234", false, BindingKey, 601, false},
		"OtherLimitCounted": {core.RateLimits{AnonymousPerMinute: 5, KeyPerMinute: 600}, "ip:10.0.0.1", true, "", 7, true},
	} {
		t.Run(name, func(t *testing.T) {
			b := newBridge()
			db := &countingLimiter{}
			l := RateLimiter{Bridge: b, Fallback: db}
			tenant := &server.Tenant{Arena: &core.Arena{Slug: "alpha", RateLimits: tc.limits}}
			var got int
			require.NoError(t, b.Start(1, func(ctx context.Context) Response {
				got, _ = l.Count(ctx, tenant, tc.bucket, time.Time{})
				return Response{Status: 200}
			}))
			var asked *RateLimit
			jsSide(b, 1, func(c Command) Result { asked = c.RateLimit; return Result{Success: tc.success} })
			assert.Equal(t, tc.want, got)
			if tc.database {
				assert.Equal(t, 1, db.calls)
				assert.Nil(t, asked)
				return
			}
			assert.Zero(t, db.calls)
			assert.Equal(t, &RateLimit{Binding: tc.binding, Key: "alpha/" + tc.bucket}, asked)
		})
	}
}

// A live stream's page tells the front where the next page starts and
// how often to ask (core.LiveRetry), also on the front's own request for
// a page (LivePage); and how many streams the caller may hold in the
// isolate, counted by what (its API key in its arena, else its client IP
// across arenas), with Go's 429 too_many_streams for one more.
func TestLivePageHint(t *testing.T) {
	hints := NewHints("Cf-Connecting-Ip")
	a := &core.Arena{Slug: "alpha"}
	tooMany := &AnswerHint{Status: http.StatusTooManyRequests, Headers: [][2]string{{"Content-Type", "application/json"}, {"X-Content-Type-Options", "nosniff"}},
		Body: `{"error":"too_many_streams"}` + "\n", Reset: []string{}}
	for name, tc := range map[string]struct {
		keyID string
		want  LiveHint
	}{
		"Anonymous": {"", LiveHint{After: 42, EveryMs: 1000, KeepAliveMs: 20000, Streams: "ip:", StreamsHeader: "Cf-Connecting-Ip", MaxStreams: 8, TooMany: tooMany}},
		"APIKey":    {"k1", LiveHint{After: 42, EveryMs: 1000, KeepAliveMs: 20000, Streams: "alpha/key:k1", MaxStreams: 64, TooMany: tooMany}},
	} {
		t.Run(name, func(t *testing.T) {
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				hints.Caller(r.Context(), a, server.CallerClass("", tc.keyID), tc.keyID)
				hints.Live(r.Context(), 42)
			})
			for i, handler := range []http.Handler{h, LivePage(h)} {
				b := newBridge()
				req, _ := http.NewRequest("GET", "http://alpha.test/api/v1/live?after=7", nil)
				require.NoError(t, b.ServeHTTP(1, handler, req))
				res := jsSide(b, 1, echoFetch(1))
				var live LiveHint
				require.NoError(t, json.Unmarshal([]byte(res.Hints[HintLive]), &live), i)
				assert.Equal(t, tc.want, live)
			}
		})
	}
}
