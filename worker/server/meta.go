package server

import (
	"crypto/ed25519"
	"net/http"

	"arena/core"
	"arena/openapi"
)

// metaAPI names the service in the meta object (spec 2.4).
const metaAPI = "arena"

// meta is the GET /api/v1 object of spec 2.4.
type meta struct {
	API           string     `json:"api"`
	Version       string     `json:"version"`
	Tenant        metaTenant `json:"tenant"`
	Authenticated bool       `json:"authenticated"`
	Endpoints     []string   `json:"endpoints"`
	Log           metaLog    `json:"log"`
}

// metaLog names the key that signs the event log's head and its
// checkpoints (docs/events.md): the base64 public key, the log's origin
// and its note verifier key.
type metaLog struct {
	PublicKey   string `json:"publicKey"`
	Origin      string `json:"origin"`
	VerifierKey string `json:"verifierKey"`
}

type metaTenant struct {
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// handleMeta describes the API for this arena. authenticated tells
// whether the request carried a valid key of this arena (spec 5.2).
func (s *Server) handleMeta(r *http.Request, t *Tenant, authenticated bool) (any, error) {
	key, err := t.EventLogKey(r.Context())
	if err != nil {
		return nil, err
	}
	origin := logOrigin(t)
	vkey, err := core.LogVerifierKey(origin, key.Public().(ed25519.PublicKey))
	if err != nil {
		return nil, err
	}
	return meta{
		API:           metaAPI,
		Version:       "1",
		Tenant:        metaTenant{Slug: t.Arena.Slug, Name: t.Arena.Name},
		Authenticated: authenticated,
		Endpoints:     s.public,
		Log:           metaLog{PublicKey: core.EventLogPublicKey(key), Origin: origin, VerifierKey: vkey},
	}, nil
}

// handleHealth is the liveness probe: the process answers.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// handleOpenAPI serves the OpenAPI document of every API, on any host.
func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	doc := openapi.Document()
	etag := ETag(doc)
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "public, max-age=3600")
	if etagMatches(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "application/json")
	_, _ = w.Write(doc)
}
