package server

import (
	"net/http"

	"arena/core"
)

// The arena admin mints and revokes two kinds of bearer tokens with the
// same three routes each: admin tokens (this API) and API keys (the
// public read API's higher limits).

// tokenFields names a token kind's JSON fields: the secret in a mint's
// answer and the list in a listing.
var tokenFields = map[string]struct{ secret, list string }{
	core.TokenAdmin:  {"token", "adminTokens"},
	core.TokenAPIKey: {"key", "apiKeys"},
}

// handleMintToken mints a token of the kind: 201 with the token, shown
// this once.
func (s *Server) handleMintToken(kind string) tenantHandler {
	return func(w http.ResponseWriter, r *http.Request, t *Tenant) {
		var req core.TokenDraft
		if err := decodeJSON(w, r, &req); err != nil {
			writeError(w, r, err)
			return
		}
		minted, label, err := t.IssueToken(r.Context(), kind, req)
		if err != nil {
			writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusCreated, map[string]any{
			"id": minted.ID, tokenFields[kind].secret: minted.Token, "label": label, "createdAt": isoTime(t.Deps.Now),
		})
	}
}

// handleRevokeToken revokes a token of the kind at once (204); revoking
// twice is fine, the arena's last admin token stays (409
// last_admin_token). The admin token of the request may revoke itself.
func (s *Server) handleRevokeToken(kind string) tenantHandler {
	return func(w http.ResponseWriter, r *http.Request, t *Tenant) {
		if err := t.RevokeToken(r.Context(), kind, r.PathValue("id")); err != nil {
			writeError(w, r, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}
}

// handleListTokens lists the tokens of the kind without their secrets.
func (s *Server) handleListTokens(kind string) tenantHandler {
	return func(w http.ResponseWriter, r *http.Request, t *Tenant) {
		list, err := t.Tokens(r.Context(), kind)
		if err != nil {
			writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{tokenFields[kind].list: list})
	}
}
