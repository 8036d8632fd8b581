package edge

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"arena/core"
	"arena/worker/server"
)

// Hint keys: what an answer tells the JS front (js/front.mjs) besides
// the answer itself.
const (
	// HintArena is the slug of the arena the request reached; with
	// HintSettings (the arena's settings version) and HintLimits it lets
	// the front answer the host's public reads from the edge cache.
	HintArena    = "arena"
	HintSettings = "settings"
	HintLimits   = "limits"
	// HintClass is the caller class a public read was answered for:
	// "anon" or "key:<id>" (a valid API key of the arena).
	HintClass = "class"
	// HintCache is how many seconds the answer may be served from the
	// edge cache (absent: not at all).
	HintCache = "cache"
	// HintChanged lists (comma-separated) the arenas a cron run, or an
	// operator's request, changed.
	HintChanged = "changed"
	// HintIO counts the commands (round trips) the call's JS side performed.
	HintIO = "io"
	// HintFresh is how many milliseconds more Go's knowledge of the arena
	// (its host cache) may be trusted: what the front learns from the
	// answer, and the answer cached, expire no later (absent: no bound).
	HintFresh = "fresh"
)

// Rate-limit modes of a caller class, per arena (HintLimits).
const (
	ModeNone     = "none"     // the arena lifts the limit (0)
	ModeBinding  = "binding"  // the spec's default limit: the rate-limiting binding counts
	ModeDatabase = "database" // another limit: counted in the arena database by Go
)

// Rate-limiting bindings (wrangler.toml): the spec's default limits.
const (
	BindingAnonymous = "RATE_ANON" // core.DefaultRateLimits.AnonymousPerMinute per minute
	BindingKey       = "RATE_KEY"  // core.DefaultRateLimits.KeyPerMinute per minute
)

// pageTTL is how long an anonymous page may be served from the edge cache:
// as long as the public API's answers (their Cache-Control max-age).
const pageTTL = 10 * time.Second

// LimitMode says how the arena's limit for a caller class is enforced on
// the edge: the binding counts only the spec's default limit (its limit
// is fixed in wrangler.toml); other limits are counted in the database.
func LimitMode(limits core.RateLimits, key bool) (mode string, limit int) {
	limit, def := limits.AnonymousPerMinute, core.DefaultRateLimits.AnonymousPerMinute
	if key {
		limit, def = limits.KeyPerMinute, core.DefaultRateLimits.KeyPerMinute
	}
	switch {
	case limit <= 0:
		return ModeNone, 0
	case limit == def:
		return ModeBinding, limit
	default:
		return ModeDatabase, limit
	}
}

// Hints implements server.FrontHints by recording hints on the request's
// call.
type Hints struct{}

var _ server.FrontHints = Hints{}

// Tenant implements server.FrontHints.
func (Hints) Tenant(ctx context.Context, a *core.Arena, fresh time.Duration) {
	if fresh > 0 {
		Hint(ctx, HintFresh, strconv.FormatInt(fresh.Milliseconds(), 10))
	}
	anon, anonLimit := LimitMode(a.RateLimits, false)
	key, keyLimit := LimitMode(a.RateLimits, true)
	Hint(ctx, HintArena, a.Slug)
	Hint(ctx, HintSettings, strconv.FormatInt(a.UpdatedAt.UnixMilli(), 36))
	Hint(ctx, HintLimits, fmt.Sprintf("anon=%s,key=%s,anonLimit=%d,keyLimit=%d", anon, key, anonLimit, keyLimit))
}

// PublicRead implements server.FrontHints.
func (Hints) PublicRead(ctx context.Context, keyID string) {
	class := "anon"
	if keyID != "" {
		class = "key:" + keyID
	}
	Hint(ctx, HintClass, class)
}

// Changed implements server.FrontHints.
func (Hints) Changed(ctx context.Context, slug string) { Hint(ctx, HintChanged, slug) }

// cacheHint decides HintCache for an answer: public reads for as long as
// their Cache-Control allows; anonymous pages (no cookie, no credentials)
// for pageTTL. Nothing personal, failed or cookie-setting is ever cached.
func cacheHint(req *http.Request, res *Response, hints map[string]string) {
	if req.Method != http.MethodGet || res.Status != http.StatusOK || hints[HintArena] == "" ||
		res.Header.Get("Set-Cookie") != "" {
		return
	}
	cc := res.Header.Get("Cache-Control")
	if hints[HintClass] != "" {
		if age, ok := publicMaxAge(cc); ok {
			hints[HintCache] = strconv.Itoa(age)
		}
		return
	}
	if req.Header.Get("Cookie") != "" || req.Header.Get("Authorization") != "" || cc != "" ||
		!strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		return
	}
	hints[HintCache] = strconv.Itoa(int(pageTTL.Seconds()))
}

// publicMaxAge reads max-age from a "public, max-age=N" Cache-Control.
func publicMaxAge(cc string) (int, bool) {
	public, age := false, -1
	for _, d := range strings.Split(cc, ",") {
		d = strings.TrimSpace(strings.ToLower(d))
		switch {
		case d == "public":
			public = true
		case strings.HasPrefix(d, "max-age="):
			n, err := strconv.Atoi(strings.TrimPrefix(d, "max-age="))
			if err == nil {
				age = n
			}
		}
	}
	return age, public && age > 0
}
