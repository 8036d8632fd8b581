package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"arena/core"
)

// The caching policy of public reads, decided here once for the native
// server and the edge alike: how long a cached read may be served
// (CacheLifetime), the key it is kept under (ArenaCacheKey), the caller
// classes whose answers differ (CallerClass), the ETag and what matches it
// (ETag, NotModifiedPattern). The edge's JS front (worker/edge) answers
// reads without Go from what FrontHints tells it of these decisions.

// CacheLifetime is how long anything learned of an arena may be reused by
// a cache that is not told of writes (a client, the edge's Cache API,
// another edge isolate's host lookups and front): the most a write to the
// arena can stay unseen there (docs/edge.md "Two isolates").
const CacheLifetime = 10 * time.Second

// PagesVaryBy is the request header the site's pages vary by besides the
// path (the viewer's language, DESIGN.md "Languages"): they say so in
// Vary, and the edge front keeps one entry per value.
const PagesVaryBy = "Accept-Language"

// CacheControl is the Cache-Control of an answer any cache may reuse for
// ttl.
func CacheControl(ttl time.Duration) string {
	return "public, max-age=" + strconv.Itoa(int(ttl/time.Second))
}

// publicCacheControl is the Cache-Control of a public read.
var publicCacheControl = CacheControl(CacheLifetime)

// ArenaCacheKey is the part of every cache key that names the arena: its
// slug and its settings version, so a settings change (the meta object's
// name, the rate limits) is seen at once, other writes within
// CacheLifetime.
func ArenaCacheKey(a *core.Arena) string {
	return a.Slug + "/" + strconv.FormatInt(a.UpdatedAt.UnixMilli(), 36)
}

// Caller classes: whom a public read is answered for. Answers differ
// between classes (the meta object's authenticated), never within one.
const (
	// ClassAnonymous: no Authorization, or one presenting an API key that
	// is not a valid key of the arena.
	ClassAnonymous = "anon"
	// ClassNone: an Authorization that is no API key (an admin's, a game
	// client's): never answered from a shared cache.
	ClassNone = ""
)

// CallerClass is the class of a public read's caller: ClassAnonymous,
// "key:<id>" for a valid API key of the arena (keyID, from Server.apiKey),
// or ClassNone for an Authorization that presents no API key. A keyed
// caller's class is also its rate-limit bucket.
func CallerClass(authorization, keyID string) string {
	switch {
	case keyID != "":
		return keyBucketPrefix + keyID
	case authorization == "" || apiKeyHeader().MatchString(authorization):
		return ClassAnonymous
	default:
		return ClassNone
	}
}

// ETag is the strong ETag of a body.
func ETag(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

// NotModifiedPattern is the regular expression (RE2 and JavaScript alike)
// of the If-None-Match values that match etag: a list holding etag or "*",
// each optionally weak (the weak comparison RFC 9110 asks for GET).
func NotModifiedPattern(etag string) string {
	return `^(?:.*,)?[ \t]*(?:W/)?(?:` + regexp.QuoteMeta(etag) + `|\*)[ \t]*(?:,.*)?$`
}

// etagMatches reports whether an If-None-Match header matches etag: the
// rule of NotModifiedPattern, read member by member so that a conditional
// read compiles nothing (TestETagMatchesItsPattern holds the two equal).
func etagMatches(header, etag string) bool {
	for member := range strings.SplitSeq(header, ",") {
		member = strings.TrimPrefix(strings.Trim(member, " \t"), "W/")
		if member == etag || member == "*" {
			return true
		}
	}
	return false
}

// NotModifiedOmits are the headers of a 200 answer that its 304 leaves
// out: they describe the body.
var NotModifiedOmits = []string{"Content-Type", "Content-Length", "X-Content-Type-Options"}

// CacheHeader says which cache answered a read: CacheMemory (the native
// server's), CacheShared (the edge's Cache API) or CacheMiss (rendered
// anew).
const (
	CacheHeader = "X-Arena-Cache"
	CacheMemory = "memory"
	CacheShared = "shared"
	CacheMiss   = "miss"
)

// SharedCache is a response cache shared by every instance of the
// service: the Workers Cache API on the edge. Entries expire after ttl;
// that is how long a write can stay unseen there.
type SharedCache interface {
	Get(ctx context.Context, key string) (body []byte, etag string, ok bool)
	Put(ctx context.Context, key string, body []byte, etag string, ttl time.Duration)
}

// FrontHints receives facts about a request that a cache in front of the
// server (the edge's JS entry) needs to answer later requests without
// it: which arena a host reaches, and which public reads are cacheable for
// which caller class. Nil natively.
type FrontHints interface {
	// Tenant: the request reached arena a, as the server knew it; that
	// knowledge may be trusted for fresh more at most (0: no bound). What
	// the front learns from the answer must not outlive it: that is what
	// keeps another instance's write seen within one bound, not two.
	Tenant(ctx context.Context, a *core.Arena, fresh time.Duration)
	// Caller: the request is a public read of arena a answered for a
	// caller of class (CallerClass); keyID is its API key's id, "" for
	// none.
	Caller(ctx context.Context, a *core.Arena, class, keyID string)
	// Changed: the request changed arena slug in the directory from
	// another host (the operator's routes): whatever the front learned of
	// the arena's hosts, and its cached reads, are stale.
	Changed(ctx context.Context, slug string)
	// Live: the request is one page of a live stream, which read the log
	// up to seq last (shown or not): the front holds the stream and asks
	// for the page after last next (live.go).
	Live(ctx context.Context, last int64)
}

// publicBody renders the handler's answer, or takes it from a cache: the
// in-process cache while the arena's data is unchanged (native), or the
// shared cache for up to CacheLifetime (edge). hit says which (CacheMemory,
// CacheShared or CacheMiss).
func (s *Server) publicBody(r *http.Request, t *Tenant, authenticated bool, h publicHandler) (body []byte, etag, hit string, err error) {
	key := ArenaCacheKey(t.Arena) + "/" + strings.TrimPrefix(r.URL.RequestURI(), "/")
	if authenticated {
		key += "#key"
	}
	var version publicVersion
	if s.cache != nil {
		version = s.publicVersion(t)
		if e, ok := s.cache.get(key, version); ok {
			return e.body, e.etag, CacheMemory, nil
		}
	}
	ctx := r.Context()
	if s.cfg.SharedCache != nil {
		if body, etag, ok := s.cfg.SharedCache.Get(ctx, key); ok {
			return body, etag, CacheShared, nil
		}
	}
	v, err := h(r, t, authenticated)
	if err != nil {
		return nil, "", "", err
	}
	if raw, ok := v.(rawBody); ok {
		body = raw
	} else if body, err = json.Marshal(v); err != nil {
		return nil, "", "", err
	} else {
		body = append(body, '\n')
	}
	etag = ETag(body)
	if s.cache != nil {
		s.cache.put(key, version, publicEntry{body: body, etag: etag})
	}
	if s.cfg.SharedCache != nil {
		s.cfg.SharedCache.Put(ctx, key, body, etag, CacheLifetime)
	}
	return body, etag, CacheMiss, nil
}

// Memo returns what build makes for key on the tenant's arena, kept in
// memory while the arena's data and settings stay unchanged: natively,
// where this process is its databases' only writer (Config.SoleWriter),
// a page's expensive part is built once per write. Elsewhere (the edge)
// build runs every time. The value is shared between requests: it must
// not be changed after build returns.
func (s *Server) Memo(t *Tenant, key string, build func() (any, error)) (any, error) {
	if s.memo == nil {
		return build()
	}
	key = ArenaCacheKey(t.Arena) + "/" + key
	version := s.publicVersion(t)
	if v, ok := s.memo.get(key, version); ok {
		return v, nil
	}
	v, err := build()
	if err != nil {
		return nil, err
	}
	s.memo.put(key, version, v)
	return v, nil
}

// publicVersion is the version of what a public read of the tenant's
// arena is computed from, for the in-process caches.
func (s *Server) publicVersion(t *Tenant) publicVersion {
	return publicVersion{data: t.DataVersion(), directory: s.cfg.Directory.Version()}
}

// publicBodies keeps rendered public reads of a process that is its arena
// databases' only writer (the native server): an entry is good while the
// arena database's write count and the arena's settings are unchanged.
type publicBodies = versionedCache[publicVersion, publicEntry]

type publicVersion struct {
	data      uint64 // writes to the arena database
	directory uint64 // writes to the directory (arena settings)
}

type publicEntry struct {
	body []byte
	etag string
}

// memos keeps Memo's values, each with the data version it was built at.
type memos = versionedCache[publicVersion, any]

// The in-process caches' bounds: entries, and the bytes of the public
// bodies (a large tournament's JSON is over 100 KB).
const (
	maxPublicEntries = 4096
	maxPublicBytes   = 64 << 20
	maxMemoEntries   = 1024
)

func publicEntrySize(e publicEntry) int { return len(e.body) + len(e.etag) }
