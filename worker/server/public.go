package server

import (
	"crypto/subtle"
	"net/http"

	"arena/app"
	"arena/core"
)

// publicHandler answers a public read with the value to send as JSON.
type publicHandler func(r *http.Request, t *Tenant, authenticated bool) (any, error)

// publicRoute registers a public read endpoint (listed in the meta
// object): API key recognition, rate limits, then the handler; answers
// carry a strong ETag and Cache-Control, and If-None-Match answers 304.
func (s *Server) publicRoute(pattern string, h publicHandler) {
	s.publicRawRoute(pattern, "application/json", nil, h)
}

// rawBody is a public answer that is not JSON: its bytes as they are
// (publicRawRoute).
type rawBody []byte

// publicRawRoute is publicRoute for answers of another content type:
// the handler returns a rawBody; cacheControl, when not nil, chooses the
// answer's Cache-Control (the public cache policy otherwise).
func (s *Server) publicRawRoute(pattern, contentType string, cacheControl func(*http.Request) string, h publicHandler) {
	s.public = append(s.public, pattern)
	s.mux.HandleFunc(pattern, s.tenant(func(w http.ResponseWriter, r *http.Request, t *Tenant) {
		keyID, ok := s.admitPublic(w, r, t, true)
		if !ok {
			return
		}
		body, etag, hit, err := s.publicBody(r, t, keyID != "", h)
		if err != nil {
			writeError(w, r, err)
			return
		}
		hdr := w.Header()
		hdr.Set(CacheHeader, hit)
		hdr.Set("ETag", etag)
		hdr.Set("Cache-Control", publicCacheControl)
		if cacheControl != nil {
			hdr.Set("Cache-Control", cacheControl(r))
		}
		hdr.Set("Vary", "Authorization")
		hdr.Set("Content-Type", contentType)
		hdr.Set("X-Content-Type-Options", "nosniff")
		if etagMatches(r.Header.Get("If-None-Match"), etag) {
			for _, name := range NotModifiedOmits {
				hdr.Del(name)
			}
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
	}))
}

// admitPublic admits a public read: a presented API key must be one of
// the arena's (keyID is its id, "" for none), the front learns the
// caller's class (even when the read is then refused: it answers the
// class's later 429s itself), and the read counts against the read
// limits when counted is true. It answers the refusal itself.
func (s *Server) admitPublic(w http.ResponseWriter, r *http.Request, t *Tenant, counted bool) (keyID string, ok bool) {
	keyID, err := s.apiKey(r, t)
	if err != nil {
		writeError(w, r, err)
		return "", false
	}
	if s.cfg.FrontHints != nil {
		s.cfg.FrontHints.Caller(r.Context(), t.Arena, CallerClass(r.Header.Get("Authorization"), keyID), keyID)
	}
	if counted && !s.rateLimit(w, r, t, keyID) {
		return "", false
	}
	return keyID, true
}

// apiKeyHeader is an Authorization presenting an API key (spec 5.2).
var apiKeyHeader = core.LazyRegexp(`^Bearer (apikey_[0-9a-f]{8}_[A-Za-z0-9_-]+)$`)

// apiKey returns the id of the request's public-API key when it is a valid,
// unrevoked key of this arena (spec 5.2), else "". Malformed, unknown,
// revoked and other arenas' keys are anonymous, never an error; a
// database that did not answer is (app.Unavailable): the read that
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
		cacheKey, version = t.Arena.Slug+"/"+id, t.DataVersion()
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
	hash, found, err := t.APIKeyHash(r.Context(), id)
	if err != nil {
		if app.Unavailable(err) {
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

// apiKeys keeps what an arena's database says of its public-API keys in a
// process that is the databases' only writer (the native server), so a
// keyed public read touches no database while nothing changed: an entry
// is good while the arena database's write count is the one it was read
// at, so creating or revoking a key (a write) makes every entry of that
// arena stale at once. Entries are keyed by arena slug + "/" + key id.
type apiKeys = versionedCache[uint64, apiKeyEntry]

type apiKeyEntry struct {
	found bool
	hash  string
	// verified is the last token that matched hash: the same token again
	// is compared, not hashed again.
	verified string
}

// maxAPIKeyEntries bounds the cache.
const maxAPIKeyEntries = 8192

// sameToken compares a presented token with a verified one in constant
// time.
func sameToken(a, b string) bool {
	return len(a) == len(b) && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
