package edge

import (
	"context"
	"net/http"
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

func TestCacheHint(t *testing.T) {
	page := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	read := http.Header{"Content-Type": {"application/json"}, "Cache-Control": {"public, max-age=10"}}
	for name, tc := range map[string]struct {
		method string
		reqHdr http.Header
		status int
		resHdr http.Header
		hints  map[string]string
		want   string
	}{
		"PublicReadForItsMaxAge":   {"GET", nil, 200, read, map[string]string{HintArena: "a", HintClass: "anon"}, "10"},
		"PublicReadWithACookieToo": {"GET", http.Header{"Cookie": {"arena_session=x"}}, 200, read, map[string]string{HintArena: "a", HintClass: "key:1"}, "10"},
		"AnonymousPage":            {"GET", nil, 200, page, map[string]string{HintArena: "a"}, "10"},
		"PageWithACookie":          {"GET", http.Header{"Cookie": {"arena_session=x"}}, 200, page, map[string]string{HintArena: "a"}, ""},
		"PageWithCredentials":      {"GET", http.Header{"Authorization": {"Bearer admkey_x"}}, 200, page, map[string]string{HintArena: "a"}, ""},
		"PageSettingACookie":       {"GET", nil, 200, http.Header{"Content-Type": {"text/html"}, "Set-Cookie": {"a=b"}}, map[string]string{HintArena: "a"}, ""},
		"NoStorePage":              {"GET", nil, 200, http.Header{"Content-Type": {"text/html"}, "Cache-Control": {"no-store"}}, map[string]string{HintArena: "a"}, ""},
		"NotFoundPage":             {"GET", nil, 404, page, map[string]string{HintArena: "a"}, ""},
		"NoArena":                  {"GET", nil, 200, page, map[string]string{}, ""},
		"Post":                     {"POST", nil, 200, page, map[string]string{HintArena: "a"}, ""},
		"AdminJSON":                {"GET", http.Header{"Authorization": {"Bearer admkey_x"}}, 200, http.Header{"Content-Type": {"application/json"}}, map[string]string{HintArena: "a"}, ""},
		"PrivateRead":              {"GET", nil, 200, http.Header{"Cache-Control": {"private, max-age=10"}}, map[string]string{HintArena: "a", HintClass: "anon"}, ""},
	} {
		t.Run(name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, "http://a.test/x", nil)
			for k, v := range tc.reqHdr {
				req.Header[k] = v
			}
			cacheHint(req, &Response{Status: tc.status, Header: tc.resHdr}, tc.hints)
			assert.Equal(t, tc.want, tc.hints[HintCache])
		})
	}
}

func TestHintsDescribeTheArena(t *testing.T) {
	b := newBridge()
	a := &core.Arena{Slug: "alpha", RateLimits: core.RateLimits{AnonymousPerMinute: 60, KeyPerMinute: 0}, UpdatedAt: time.UnixMilli(36)}
	require.NoError(t, b.Start(1, func(ctx context.Context) Response {
		Hints{}.Tenant(ctx, a, 0)
		Hints{}.PublicRead(ctx, "k1")
		return Response{Status: 200}
	}))
	assert.Equal(t, map[string]string{
		HintArena: "alpha", HintSettings: "10", HintClass: "key:k1", HintIO: "0",
		HintLimits: "anon=binding,key=none,anonLimit=60,keyLimit=0",
	}, jsSide(b, 1, echoFetch(1)).Hints)
	require.NoError(t, b.Start(2, func(ctx context.Context) Response {
		Hints{}.Tenant(ctx, a, 3500*time.Millisecond)
		Hints{}.Changed(ctx, "beta")
		return Response{Status: 200}
	}))
	hints := jsSide(b, 2, echoFetch(2)).Hints
	assert.Equal(t, "3500", hints[HintFresh], "a cached lookup's rest of life")
	assert.Equal(t, "beta", hints[HintChanged])
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
