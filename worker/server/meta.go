package server

import (
	"net/http"
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
}

type metaTenant struct {
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// handleMeta describes the API for this arena. authenticated tells
// whether the request carried a valid key of this arena (spec 5.2);
// keys never cause a rejection.
func (s *Server) handleMeta(w http.ResponseWriter, r *http.Request, t *Tenant) {
	writeJSON(w, http.StatusOK, meta{
		API:           metaAPI,
		Version:       "1",
		Tenant:        metaTenant{Slug: t.Arena.Slug, Name: t.Arena.Name},
		Authenticated: s.apiKeyValid(r, t),
		Endpoints:     s.public,
	})
}

// apiKeyValid reports whether the request bears a valid public-API key of
// the tenant. API keys arrive with the public API (they are minted by the
// admin API); until an arena has minted one, no key is valid.
func (s *Server) apiKeyValid(r *http.Request, t *Tenant) bool {
	return false
}

// handleHealth is the liveness probe: the process answers.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}
