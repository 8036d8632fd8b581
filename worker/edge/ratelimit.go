package edge

import (
	"context"
	"time"

	"arena/worker/server"
)

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
