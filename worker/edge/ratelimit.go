package edge

import (
	"context"
	"net/http"
	"time"

	"arena/core"
	"arena/worker/server"
)

// Rate limits on the edge: the spec's default limits are counted by the
// Workers rate-limiting bindings, by Go (RateLimiter) or, on the front's
// cached answers, by the front with what limitHint tells it; other limits
// by Go in the arena database.

// Rate-limit modes of a caller class, per arena (LimitHint).
const (
	ModeNone     = "none"     // the arena lifts the limit (0)
	ModeBinding  = "binding"  // the spec's default limit: the rate-limiting binding counts
	ModeDatabase = "database" // another limit: counted in the arena database by Go
)

// Rate-limiting bindings (the front's wrangler.toml): the spec's default
// limits, counted by the front where the caller enters.
const (
	BindingAnonymous = "RATE_ANON" // core.DefaultRateLimits.AnonymousPerMinute per minute
	BindingKey       = "RATE_KEY"  // core.DefaultRateLimits.KeyPerMinute per minute
)

// Limit names of the two caller kinds (CallerHint.Limit).
const (
	limitAnonymous = "anon"
	limitKey       = "key"
)

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

// binding is the rate-limiting binding of a caller kind.
func binding(key bool) string {
	if key {
		return BindingKey
	}
	return BindingAnonymous
}

// bindingKey is the binding's key of a rate-limit bucket in an arena.
func bindingKey(slug, bucket string) string { return slug + "/" + bucket }

// limitHint is how the front counts a caller kind of an arena with
// limits: the answers are Go's own (server.LimitAnswer, server.RateLimited).
func limitHint(limits core.RateLimits, key bool) LimitHint {
	mode, limit := LimitMode(limits, key)
	h := LimitHint{Mode: mode}
	if mode != ModeBinding {
		return h
	}
	h.Binding, h.WindowMs = binding(key), server.RateWindow.Milliseconds()
	within := server.LimitAnswer(limit, server.CountUnknown)
	h.Within = &AnswerHint{Headers: headerPairs(within.Header), Reset: within.Reset}
	// The binding says only "over": the count is one over the limit, as
	// RateLimiter answers Go.
	over := server.LimitAnswer(limit, limit+1)
	w := &recorder{header: over.Header, status: http.StatusOK}
	server.RateLimited(w, new(http.Request))
	h.Over = &AnswerHint{Status: w.status, Headers: headerPairs(w.header), Body: w.body.String(), Reset: over.Reset}
	return h
}

// RateLimiter counts public reads on the edge: the spec's default limits
// with the Workers rate-limiting binding (no database write per read),
// other limits with Fallback (the arena database's counters).
type RateLimiter struct {
	Bridge   *Bridge
	Fallback server.RateLimiter
}

var _ server.RateLimiter = RateLimiter{}

// Count implements server.RateLimiter. The binding only answers whether
// the request is within the limit: the count is then CountUnknown, or one
// over the limit.
func (l RateLimiter) Count(ctx context.Context, t *server.Tenant, bucket string, windowStart time.Time) (int, error) {
	key := server.KeyedBucket(bucket)
	mode, limit := LimitMode(t.Arena.RateLimits, key)
	if mode != ModeBinding {
		return l.Fallback.Count(ctx, t, bucket, windowStart)
	}
	r, err := l.Bridge.Do(ctx, Command{Kind: KindRateLimit, RateLimit: &RateLimit{Binding: binding(key), Key: bindingKey(t.Arena.Slug, bucket)}})
	if err != nil {
		return 0, err
	}
	if !r.Success {
		return limit + 1, nil
	}
	return server.CountUnknown, nil
}
