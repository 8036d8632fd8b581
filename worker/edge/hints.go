package edge

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"arena/core"
	"arena/worker/server"
)

// Hint keys: what an answer tells the JS front (js/front.mjs) besides
// the answer itself. The front holds no policy of its own: it keeps,
// looks up and answers what these hints say, as Go decided it (the
// caching policy is worker/server/publiccache.go's). Structured hints are
// JSON, of the types below.
const (
	// HintHost (HostHint) is what the front may know of the host the
	// request reached, for HintFresh milliseconds: the arena, its cache
	// keys, and how to answer its public reads.
	HintHost  = "host"
	HintFresh = "fresh"
	// HintCaller (CallerHint) is the class of the request's Authorization.
	HintCaller = "caller"
	// HintStore (StoreHint): the answer may be kept in the edge cache, and
	// how (absent: not at all).
	HintStore = "store"
	// HintChanged ([]ArenaHint) lists the arenas a cron run, or an
	// operator's request, changed.
	HintChanged = "changed"
	// HintLive (LiveHint): the answer is a live stream's page; the front
	// holds the stream and asks Go for the next pages.
	HintLive = "live"
	// HintIO counts the commands (round trips) the call's JS side performed.
	HintIO = "io"
	// HintAfter: jobs wait for an "after" call (Bridge.After); for the Go
	// worker's JS side (go-worker.mjs), not the front.
	HintAfter = "after"
)

// cacheHost is the host of the front's cache keys: synthetic URLs under a
// host nobody serves.
const cacheHost = "https://cache.arena.invalid"

// versionLifetime is how long the front keeps an arena's data version
// entry: far longer than any entry stored under it.
const versionLifetime = 24 * time.Hour

// callerLifetime is how long the front trusts the class Go told it of an
// Authorization (a class only picks the cache key; a revoked key's
// answers are gone with them, within server.CacheLifetime).
const callerLifetime = time.Minute

// ArenaHint names an arena's entries in the front's cache: Version is the
// cache entry holding the arena's data version, replaced (and kept as
// VersionCacheControl says) after every write to the arena, so no entry
// stored before a write is read after it.
type ArenaHint struct {
	Slug                string `json:"arena"`
	Version             string `json:"version"`
	VersionCacheControl string `json:"versionCacheControl"`
}

func arenaHint(slug string) ArenaHint {
	return ArenaHint{Slug: slug, Version: cacheHost + "/_version/" + url.PathEscape(slug),
		VersionCacheControl: server.CacheControl(versionLifetime)}
}

// HostHint is what the front learns of a host: its arena, the start of
// the keys of the arena's entries (Key/<data version>/<caller
// class>/<host><path>?<query>), the caller of a request without
// Authorization, and the rate limits that count callers (by
// CallerHint.Limit).
type HostHint struct {
	ArenaHint
	Key       string               `json:"key"`
	Anonymous CallerHint           `json:"anonymous"`
	Limits    map[string]LimitHint `json:"limits"`
	// Vary names the request headers the arena's answers vary by besides
	// the path: an entry's key holds their values (server.PagesVaryBy).
	Vary []string `json:"vary"`
}

// CallerHint is a caller class (server.CallerClass) as the front uses
// it: Class picks the cache entries (server.ClassNone: the front never
// answers the caller); Limit the HostHint.Limits entry that counts it;
// Bucket, followed by the value of request header BucketHeader when that
// is set, the rate-limiting binding's key. The front may remember the
// class of an Authorization for TTLMs milliseconds.
type CallerHint struct {
	Class        string `json:"class"`
	Limit        string `json:"limit,omitempty"`
	Bucket       string `json:"bucket,omitempty"`
	BucketHeader string `json:"bucketHeader,omitempty"`
	TTLMs        int64  `json:"ttlMs,omitempty"`
}

// LimitHint is how a caller class's public reads are counted (Mode): for
// ModeBinding, by the rate-limiting binding Binding in windows of
// WindowMs, a cached answer within the limit carrying Within's headers,
// and Over the answer beyond it.
type LimitHint struct {
	Mode     string      `json:"mode"`
	Binding  string      `json:"binding,omitempty"`
	WindowMs int64       `json:"windowMs,omitempty"`
	Within   *AnswerHint `json:"within,omitempty"`
	Over     *AnswerHint `json:"over,omitempty"`
}

// AnswerHint is an answer Go made for the front to give (a status of 0:
// only headers, to add to another answer); the headers Reset names are
// set to the seconds left in the limit's window when it is given.
type AnswerHint struct {
	Status  int         `json:"status,omitempty"`
	Headers [][2]string `json:"headers"`
	Body    string      `json:"body,omitempty"`
	Reset   []string    `json:"reset"`
}

// StoreHint says how the front keeps an answer: for TTL seconds at most
// (and never past HintFresh), under caller class Class, without the
// headers Drop names and with Set's. It is kept with the entry, which a
// hit answers by it: Limited, a public read, is counted by the caller's
// limit; a request with header Unless is not answered from the entry;
// NotModified answers 304 for the If-None-Match values Pattern matches,
// without the headers Omit names.
type StoreHint struct {
	TTL         int              `json:"ttl"`
	Class       string           `json:"class"`
	Limited     bool             `json:"limited,omitempty"`
	Unless      string           `json:"unless,omitempty"`
	NotModified *NotModifiedHint `json:"notModified,omitempty"`
	Drop        []string         `json:"drop"`
	Set         [][2]string      `json:"set"`
}

// NotModifiedHint is how a cached answer answers If-None-Match.
type NotModifiedHint struct {
	Pattern string   `json:"pattern"`
	Omit    []string `json:"omit"`
}

func headerPairs(h http.Header) [][2]string {
	pairs := [][2]string{}
	for _, name := range slices.Sorted(maps.Keys(h)) { // one order, answer after answer
		for _, v := range h[name] {
			pairs = append(pairs, [2]string{name, v})
		}
	}
	return pairs
}

// Hints implements server.FrontHints by recording hints on the request's
// call.
type Hints struct {
	// clientIPHeader is the header holding the client's IP
	// (server.Config.ClientIPHeader): an anonymous caller's bucket.
	clientIPHeader string

	mu    sync.Mutex
	hosts map[string]string // HostHint JSON by arena version and limits
}

// NewHints returns the hints of a server whose client IPs are in header
// clientIPHeader.
func NewHints(clientIPHeader string) *Hints {
	return &Hints{clientIPHeader: clientIPHeader, hosts: map[string]string{}}
}

var _ server.FrontHints = (*Hints)(nil)

// maxHostHints bounds the HostHints kept made; past it they start over.
const maxHostHints = 1024

// Tenant implements server.FrontHints. The host hint of an arena version
// is made once.
func (h *Hints) Tenant(ctx context.Context, a *core.Arena, fresh time.Duration) {
	if fresh <= 0 || fresh > server.CacheLifetime {
		fresh = server.CacheLifetime
	}
	key := server.ArenaCacheKey(a) + "/" + strconv.Itoa(a.RateLimits.AnonymousPerMinute) + "/" + strconv.Itoa(a.RateLimits.KeyPerMinute)
	h.mu.Lock()
	host, ok := h.hosts[key]
	h.mu.Unlock()
	if !ok {
		host = hintJSON(HostHint{
			ArenaHint: arenaHint(a.Slug),
			Key:       cacheHost + "/" + server.ArenaCacheKey(a),
			Anonymous: h.caller(a, server.ClassAnonymous, ""),
			Limits:    map[string]LimitHint{limitAnonymous: limitHint(a.RateLimits, false), limitKey: limitHint(a.RateLimits, true)},
			Vary:      []string{strings.ToLower(server.PagesVaryBy)},
		})
		h.mu.Lock()
		if len(h.hosts) >= maxHostHints {
			h.hosts = map[string]string{}
		}
		h.hosts[key] = host
		h.mu.Unlock()
	}
	Hint(ctx, HintHost, host)
	Hint(ctx, HintFresh, strconv.FormatInt(fresh.Milliseconds(), 10))
}

// Caller implements server.FrontHints.
func (h *Hints) Caller(ctx context.Context, a *core.Arena, class, keyID string) {
	Hint(ctx, HintCaller, hintJSON(h.caller(a, class, keyID)))
	if c := callFrom(ctx); c != nil && keyID != "" {
		c.mu.Lock()
		c.streams = bindingKey(a.Slug, server.RateBucket(keyID, "")) // an arena's key ids are its own
		c.mu.Unlock()
	}
}

// caller is the CallerHint of a caller of class with API key keyID.
func (h *Hints) caller(a *core.Arena, class, keyID string) CallerHint {
	if class == server.ClassNone {
		return CallerHint{TTLMs: callerLifetime.Milliseconds()}
	}
	c := CallerHint{Class: class, Limit: limitAnonymous, Bucket: bindingKey(a.Slug, server.RateBucket(keyID, "")),
		TTLMs: callerLifetime.Milliseconds()}
	if keyID != "" {
		c.Limit = limitKey
	} else {
		c.BucketHeader = h.clientIPHeader
	}
	return c
}

// Changed implements server.FrontHints.
func (h *Hints) Changed(ctx context.Context, slug string) {
	Hint(ctx, HintChanged, ChangedHint([]string{slug}))
}

// LiveHint is how the front holds a live stream (js/live.mjs): After is
// the seq the page read the log up to (the next page's cursor: the front
// asks for the page with ?after=After); EveryMs is how often it asks
// (core.LiveRetry, the retry field the client was told); KeepAliveMs how
// long the stream may stay silent before the front sends a comment.
//
// The front holds the streams, so it caps them (per isolate: the memory
// and connections at risk are the isolate's): Streams, followed by the
// value of request header StreamsHeader when that is set, is what counts
// the caller's open streams (its API key, or its client IP, across the
// arenas); MaxStreams how many it may hold (core.LiveMaxStreamsKey,
// core.LiveMaxStreamsAnonymous); TooMany Go's answer to one more (429
// core.CodeTooManyStreams).
type LiveHint struct {
	After         int64       `json:"after"`
	EveryMs       int64       `json:"everyMs"`
	KeepAliveMs   int64       `json:"keepAliveMs"`
	Streams       string      `json:"streams"`
	StreamsHeader string      `json:"streamsHeader,omitempty"`
	MaxStreams    int         `json:"maxStreams"`
	TooMany       *AnswerHint `json:"tooMany"`
}

// tooManyStreams is Go's answer to a stream over its caller's cap.
var tooManyStreams = sync.OnceValue(func() *AnswerHint {
	w := &recorder{header: http.Header{}, status: http.StatusOK}
	server.WriteCode(w, new(http.Request), core.CodeTooManyStreams)
	return &AnswerHint{Status: w.status, Headers: headerPairs(w.header), Body: w.body.String(), Reset: []string{}}
})

// Live implements server.FrontHints. The caller is the one Caller named
// for this request (a live stream is admitted as a public read).
func (h *Hints) Live(ctx context.Context, last int64) {
	hint := LiveHint{After: last, EveryMs: core.LiveRetry.Milliseconds(), KeepAliveMs: core.LiveKeepAlive.Milliseconds(),
		Streams: server.RateBucket("", ""), StreamsHeader: h.clientIPHeader, MaxStreams: core.LiveMaxStreamsAnonymous,
		TooMany: tooManyStreams()}
	if c := callFrom(ctx); c != nil {
		c.mu.Lock()
		if c.streams != "" {
			hint.Streams, hint.StreamsHeader, hint.MaxStreams = c.streams, "", core.LiveMaxStreamsKey
		}
		c.mu.Unlock()
	}
	Hint(ctx, HintLive, hintJSON(hint))
}

// ChangedHint is the HintChanged value naming arenas slugs.
func ChangedHint(slugs []string) string {
	arenas := make([]ArenaHint, len(slugs))
	for i, slug := range slugs {
		arenas[i] = arenaHint(slug)
	}
	return hintJSON(arenas)
}

func hintJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the hint types always marshal
	}
	return string(b)
}

// perAnswer are the headers that describe one answer, not the resource:
// an entry never keeps them.
var perAnswer = func() []string {
	over := server.LimitAnswer(1, 2) // every rate-limit header
	names := []string{server.CacheHeader, "X-Request-Id"}
	for name := range over.Header {
		names = append(names, name)
	}
	return append(names, over.Reset...)
}()

// frontHints completes the call's hints once the handler answered res:
// an Authorization that is no API key is never answered by the front,
// and the answer's HintStore.
func frontHints(req *http.Request, res *Response, hints map[string]string) {
	if hints[HintHost] != "" && hints[HintCaller] == "" {
		if auth := req.Header.Get("Authorization"); auth != "" && server.CallerClass(auth, "") == server.ClassNone {
			hints[HintCaller] = hintJSON(CallerHint{TTLMs: callerLifetime.Milliseconds()})
		}
	}
	if s, ok := storeHint(req, res, hints); ok {
		hints[HintStore] = hintJSON(s)
	}
}

// storeHint decides whether the front may keep an answer, and how:
// public reads for as long as their Cache-Control allows, under their
// caller's class; anonymous pages (no cookie, no credentials) for
// server.CacheLifetime. Nothing personal, failed or cookie-setting is
// ever kept.
func storeHint(req *http.Request, res *Response, hints map[string]string) (StoreHint, bool) {
	if req.Method != http.MethodGet || res.Status != http.StatusOK || hints[HintHost] == "" ||
		res.Header.Get("Set-Cookie") != "" {
		return StoreHint{}, false
	}
	s := StoreHint{Drop: perAnswer, Set: [][2]string{{server.CacheHeader, server.CacheShared}}}
	if etag := res.Header.Get("ETag"); etag != "" {
		s.NotModified = &NotModifiedHint{Pattern: server.NotModifiedPattern(etag), Omit: server.NotModifiedOmits}
	}
	cc := res.Header.Get("Cache-Control")
	if raw := hints[HintCaller]; raw != "" {
		var caller CallerHint
		if json.Unmarshal([]byte(raw), &caller) != nil || caller.Class == server.ClassNone {
			return StoreHint{}, false
		}
		age, ok := publicMaxAge(cc)
		if !ok {
			return StoreHint{}, false
		}
		s.TTL, s.Class, s.Limited = age, caller.Class, true
		return s, true
	}
	if req.Header.Get("Cookie") != "" || req.Header.Get("Authorization") != "" || cc != "" ||
		!strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		return StoreHint{}, false
	}
	// A request with a cookie may be signed in: its page is personal.
	s.TTL, s.Class, s.Unless = int(server.CacheLifetime/time.Second), server.ClassAnonymous, "Cookie"
	return s, true
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
