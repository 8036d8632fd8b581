package server

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"arena/core"
	store "arena/sql"
)

// rateWindow is the window of the public read limits (spec section 8:
// requests per minute).
const rateWindow = time.Minute

// RateLimiter counts public-API requests per bucket (a client IP or an API
// key) in fixed one-minute windows.
type RateLimiter interface {
	// Count adds a request to bucket's current window at now and returns
	// the window's count including it, or CountUnknown.
	Count(ctx context.Context, t *Tenant, bucket string, windowStart time.Time) (int, error)
}

// CountUnknown is the count of a limiter that only knows the request is
// within the limit (the edge's rate-limiting binding); the answer then
// carries no RateLimit-Remaining.
const CountUnknown = -1

// MemoryRateLimiter keeps counters in process memory: right for the
// native server, useless on the edge where no memory survives a request.
type MemoryRateLimiter struct {
	mu     sync.Mutex
	window time.Time
	counts map[string]int // arena/bucket -> count in window
}

// NewMemoryRateLimiter returns an empty limiter.
func NewMemoryRateLimiter() *MemoryRateLimiter {
	return &MemoryRateLimiter{counts: map[string]int{}}
}

// Count implements RateLimiter. Only the current window is kept.
func (l *MemoryRateLimiter) Count(_ context.Context, t *Tenant, bucket string, windowStart time.Time) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !windowStart.Equal(l.window) {
		if windowStart.Before(l.window) {
			return 0, nil // a clock that moved back: count nothing against the old window
		}
		l.window, l.counts = windowStart, map[string]int{}
	}
	key := t.Arena.Slug + "/" + bucket
	l.counts[key]++
	return l.counts[key], nil
}

// DatabaseRateLimiter keeps counters in the arena's database, one upsert
// per request: the edge's limiter, exact across isolates.
type DatabaseRateLimiter struct{}

// Count implements RateLimiter.
func (DatabaseRateLimiter) Count(ctx context.Context, t *Tenant, bucket string, windowStart time.Time) (int, error) {
	return t.Store.CountRequest(ctx, bucket, windowStart.Unix())
}

// rateLimit applies the arena's public read limits: per valid API key when
// the request has one, else per client IP. Every answer carries
// RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset; over the limit
// it is 429 rate_limited with Retry-After. A limit of 0 is no limit.
func (s *Server) rateLimit(w http.ResponseWriter, r *http.Request, t *Tenant, keyID string) bool {
	limit, bucket := t.Arena.RateLimits.AnonymousPerMinute, "ip:"+s.clientIP(r)
	if keyID != "" {
		limit, bucket = t.Arena.RateLimits.KeyPerMinute, "key:"+keyID
	}
	if limit <= 0 || s.cfg.RateLimiter == nil {
		return true
	}
	now := s.now()
	start := now.Truncate(rateWindow)
	count, err := s.cfg.RateLimiter.Count(r.Context(), t, bucket, start)
	if err != nil && store.Unavailable(err) {
		// The arena's database did not answer: the read would wait for it
		// again.
		writeError(w, r, err)
		return false
	}
	if err != nil {
		// Failing open keeps the read API up when the counter store is not.
		logger(r.Context()).WarnContext(r.Context(), "rate limiter unavailable", "error", err.Error())
		return true
	}
	reset := int(start.Add(rateWindow).Sub(now).Seconds() + 0.999)
	if reset < 1 {
		reset = 1
	}
	h := w.Header()
	h.Set("RateLimit-Limit", strconv.Itoa(limit))
	if count != CountUnknown {
		h.Set("RateLimit-Remaining", strconv.Itoa(max(limit-count, 0)))
	}
	h.Set("RateLimit-Reset", strconv.Itoa(reset))
	if count > limit {
		h.Set("Retry-After", strconv.Itoa(reset))
		writeCode(w, r, core.CodeRateLimited)
		return false
	}
	return true
}

// clientIP is the address the limits count: the configured header (set by
// the edge, e.g. CF-Connecting-IP) or the connection's remote address.
func (s *Server) clientIP(r *http.Request) string {
	if s.cfg.ClientIPHeader != "" {
		if ip := r.Header.Get(s.cfg.ClientIPHeader); ip != "" {
			return ip
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
