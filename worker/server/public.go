package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"arena/core"
	store "arena/sql"
)

// publicMaxAge is how long clients and the edge may reuse a public read:
// the most a write to the arena can stay unseen.
const publicMaxAge = "public, max-age=10"

// publicHandler answers a public read with the value to send as JSON.
type publicHandler func(r *http.Request, t *Tenant, authenticated bool) (any, error)

// publicRoute registers a public read endpoint (listed in the meta
// object): API key recognition, rate limits, then the handler; answers
// carry a strong ETag and Cache-Control, and If-None-Match answers 304.
func (s *Server) publicRoute(pattern string, h publicHandler) {
	s.public = append(s.public, pattern)
	s.mux.HandleFunc(pattern, s.tenant(func(w http.ResponseWriter, r *http.Request, t *Tenant) {
		keyID, err := s.apiKey(r, t)
		if err != nil {
			writeError(w, r, err)
			return
		}
		if s.cfg.FrontHints != nil {
			s.cfg.FrontHints.PublicRead(r.Context(), keyID)
		}
		if !s.rateLimit(w, r, t, keyID) {
			return
		}
		body, etag, hit, err := s.publicBody(r, t, keyID != "", h)
		if err != nil {
			writeError(w, r, err)
			return
		}
		hdr := w.Header()
		hdr.Set("X-Arena-Cache", hit)
		hdr.Set("ETag", etag)
		hdr.Set("Cache-Control", publicMaxAge)
		hdr.Set("Vary", "Authorization")
		if etagMatches(r.Header.Get("If-None-Match"), etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		hdr.Set("Content-Type", "application/json")
		hdr.Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
	}))
}

// SharedCache is a response cache shared by every instance of the
// service: the Workers Cache API on the edge. Entries expire after ttl;
// that is how long a write can stay unseen there.
type SharedCache interface {
	Get(ctx context.Context, key string) (body []byte, etag string, ok bool)
	Put(ctx context.Context, key string, body []byte, etag string, ttl time.Duration)
}

// sharedCacheTTL matches publicMaxAge.
const sharedCacheTTL = 10 * time.Second

// publicBody renders the handler's answer, or takes it from a cache: the
// in-process cache while the arena's data is unchanged (native), or the
// shared cache for up to sharedCacheTTL (edge). hit says which ("memory",
// "shared" or "miss").
func (s *Server) publicBody(r *http.Request, t *Tenant, authenticated bool, h publicHandler) (body []byte, etag, hit string, err error) {
	// The arena's settings version is in the key: a settings change (the
	// meta object's name) is seen at once, other writes within the TTL.
	key := t.Arena.Slug + "/" + strconv.FormatInt(t.Arena.UpdatedAt.UnixMilli(), 36) + "/" + strings.TrimPrefix(r.URL.RequestURI(), "/")
	if authenticated {
		key += "#key"
	}
	var version publicVersion
	if s.cache != nil {
		version = publicVersion{data: t.Store.DB().Version(), directory: s.cfg.Directory.Version()}
		if e, ok := s.cache.get(key, version); ok {
			return e.body, e.etag, "memory", nil
		}
	}
	ctx := r.Context()
	if s.cfg.SharedCache != nil {
		if body, etag, ok := s.cfg.SharedCache.Get(ctx, key); ok {
			return body, etag, "shared", nil
		}
	}
	v, err := h(r, t, authenticated)
	if err != nil {
		return nil, "", "", err
	}
	if body, err = json.Marshal(v); err != nil {
		return nil, "", "", err
	}
	body = append(body, '\n')
	sum := sha256.Sum256(body)
	etag = `"` + hex.EncodeToString(sum[:16]) + `"`
	if s.cache != nil {
		s.cache.put(key, version, publicEntry{body: body, etag: etag})
	}
	if s.cfg.SharedCache != nil {
		s.cfg.SharedCache.Put(ctx, key, body, etag, sharedCacheTTL)
	}
	return body, etag, "miss", nil
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

// The cache's bounds: entries, and the bytes of their bodies (a large
// tournament's JSON is over 100 KB).
const (
	maxPublicEntries = 4096
	maxPublicBytes   = 64 << 20
)

func publicEntrySize(e publicEntry) int { return len(e.body) + len(e.etag) }

// etagMatches implements If-None-Match's comparison (weak, as RFC 9110
// asks for GET): any listed tag or "*".
func etagMatches(header, etag string) bool {
	if header == "" {
		return false
	}
	for _, tag := range strings.Split(header, ",") {
		tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
		if tag == etag || tag == "*" {
			return true
		}
	}
	return false
}

var apiKeyHeader = core.LazyRegexp(`^Bearer (apikey_[0-9a-f]{8}_[A-Za-z0-9_-]+)$`)

// apiKey returns the id of the request's public-API key when it is a valid,
// unrevoked key of this arena (spec 5.2), else "". Malformed, unknown,
// revoked and other arenas' keys are anonymous, never an error; a
// database that did not answer is (store.Unavailable): the read that
// follows would wait for it again.
func (s *Server) apiKey(r *http.Request, t *Tenant) (string, error) {
	m := apiKeyHeader().FindStringSubmatch(r.Header.Get("Authorization"))
	if m == nil {
		return "", nil
	}
	token := m[1]
	id, ok := core.ParseToken(core.TokenAPIKey, token)
	if !ok {
		return "", nil
	}
	var cacheKey string
	var version uint64
	if s.keys != nil {
		cacheKey, version = t.Arena.Slug+"/"+id, t.Store.DB().Version()
		if e, ok := s.keys.get(cacheKey, version); ok {
			if e.found && (sameToken(token, e.verified) || core.TokenMatches(token, e.hash)) {
				if e.verified != token {
					e.verified = token
					s.keys.put(cacheKey, version, e)
				}
				return id, nil
			}
			return "", nil
		}
	}
	hash, found, err := t.Store.APIKeyHash(r.Context(), id)
	if err != nil {
		if store.Unavailable(err) {
			return "", err
		}
		logger(r.Context()).WarnContext(r.Context(), "API key lookup failed", "error", err.Error())
		return "", nil
	}
	e := apiKeyEntry{found: found, hash: hash}
	if found && core.TokenMatches(token, hash) {
		e.verified = token
	}
	if s.keys != nil {
		s.keys.put(cacheKey, version, e)
	}
	if e.verified == "" {
		return "", nil
	}
	return id, nil
}
