package server

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"arena/app"
	"arena/core"
)

// RateWindow is the window of the public read limits (spec section 8:
// requests per minute).
const RateWindow = time.Minute

// Rate-limit buckets: a keyed caller's is its class (CallerClass), an
// anonymous one's its client IP.
const (
	keyBucketPrefix = "key:"
	ipBucketPrefix  = "ip:"
)

// RateBucket is the bucket the limits count a caller in: its API key's
// (keyID) when it has a valid one, else its client IP's.
func RateBucket(keyID, ip string) string {
	if keyID != "" {
		return keyBucketPrefix + keyID
	}
	return ipBucketPrefix + ip
}

// KeyedBucket reports whether bucket counts an API key (not an IP).
func KeyedBucket(bucket string) bool { return strings.HasPrefix(bucket, keyBucketPrefix) }

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
	return t.CountRequest(ctx, bucket, windowStart)
}

// rateLimit applies the arena's public read limits: per valid API key when
// the request has one, else per client IP. Every answer carries
// RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset; over the limit
// it is 429 rate_limited with Retry-After. A limit of 0 is no limit.
func (s *Server) rateLimit(w http.ResponseWriter, r *http.Request, t *Tenant, keyID string) bool {
	limit := t.Arena.RateLimits.AnonymousPerMinute
	if keyID != "" {
		limit = t.Arena.RateLimits.KeyPerMinute
	}
	if limit <= 0 || s.cfg.RateLimiter == nil {
		return true
	}
	now := s.now()
	start := now.Truncate(RateWindow)
	count, err := s.cfg.RateLimiter.Count(r.Context(), t, RateBucket(keyID, s.clientIP(r)), start)
	if err != nil && app.Unavailable(err) {
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
	reset := int(start.Add(RateWindow).Sub(now).Seconds() + 0.999)
	if reset < 1 {
		reset = 1
	}
	h := w.Header()
	answer := LimitAnswer(limit, count)
	for name, values := range answer.Header {
		h[name] = values
	}
	for _, name := range answer.Reset {
		h.Set(name, strconv.Itoa(reset))
	}
	if answer.Over {
		RateLimited(w, r)
		return false
	}
	return true
}

// RateLimitAnswer is what a public read's answer says of its caller's
// limit (spec 8): Header holds RateLimit-Limit and, unless the count is
// CountUnknown, RateLimit-Remaining; Reset names the headers whose value
// is the seconds left in the window (RateLimit-Reset, and Retry-After
// over the limit). Over the limit the answer is 429 rate_limited
// (RateLimited).
type RateLimitAnswer struct {
	Header http.Header
	Reset  []string
	Over   bool
}

// LimitAnswer is the RateLimitAnswer of a read counted at count of limit.
func LimitAnswer(limit, count int) RateLimitAnswer {
	a := RateLimitAnswer{Header: http.Header{}, Reset: []string{"RateLimit-Reset"}, Over: count > limit}
	a.Header.Set("RateLimit-Limit", strconv.Itoa(limit))
	if count != CountUnknown {
		a.Header.Set("RateLimit-Remaining", strconv.Itoa(max(limit-count, 0)))
	}
	if a.Over {
		a.Reset = append(a.Reset, "Retry-After")
	}
	return a
}

// RateLimited writes the answer of a read over its limit, but for the
// headers of its RateLimitAnswer.
func RateLimited(w http.ResponseWriter, r *http.Request) { writeCode(w, r, core.CodeRateLimited) }

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
