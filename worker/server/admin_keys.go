package server

import (
	"net/http"

	"arena/core"
)

// handleCreateAPIKey mints a public-API key; the key is shown once.
func (s *Server) handleCreateAPIKey(w http.ResponseWriter, r *http.Request, t *Tenant) {
	var req core.TokenDraft
	if err := decodeJSON(w, r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	label, problems := req.Check()
	if err := problems.Err(); err != nil {
		writeError(w, r, err)
		return
	}
	minted, err := core.MintToken(core.TokenAPIKey, s.rand)
	if err != nil {
		writeError(w, r, err)
		return
	}
	now := s.now()
	if err := t.Store.AddAPIKey(r.Context(), minted.ID, minted.Hash, label, now); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"id": minted.ID, "key": minted.Token, "label": label, "createdAt": isoTime(now)})
}

// handleRevokeAPIKey revokes a key at once; revoking twice is fine.
func (s *Server) handleRevokeAPIKey(w http.ResponseWriter, r *http.Request, t *Tenant) {
	if err := t.Store.RevokeAPIKey(r.Context(), r.PathValue("id"), s.now()); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleListAPIKeys lists keys without secrets.
func (s *Server) handleListAPIKeys(w http.ResponseWriter, r *http.Request, t *Tenant) {
	keys, err := t.Store.APIKeys(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"apiKeys": keys})
}
