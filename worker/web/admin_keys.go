package web

import (
	"net/http"

	"arena/core"
	"arena/views"
	"arena/worker/server"
)

// adminAPIKeys is GET /admin/api-keys: the keys without their secrets.
func (s *Site) adminAPIKeys(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	s.adminRenderAPIKeys(w, r, t, v, http.StatusOK, views.AdminAPIKeys{Notice: adminNotice(r)})
}

func (s *Site) adminRenderAPIKeys(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer, status int, p views.AdminAPIKeys) {
	keys, err := t.Store.APIKeys(r.Context())
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	for _, k := range keys {
		p.Keys = append(p.Keys, views.AdminAPIKey{ID: k.ID, Label: k.Label, CreatedAt: k.CreatedAt, RevokedAt: k.RevokedAt})
	}
	s.render(w, r, t, status, views.AdminAPIKeysPage(s.adminLayout(t, v, "API keys"), p))
}

// adminMintAPIKey is POST /admin/api-keys: mints a public-API key and
// answers with it in full (201). This answer is the only place the key
// ever appears, so it is not a redirect; reloading it mints another key.
func (s *Site) adminMintAPIKey(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	draft := core.TokenDraft{Label: r.PostFormValue("label")}
	label, problems := draft.Check()
	if len(problems) > 0 {
		s.adminRenderAPIKeys(w, r, t, v, http.StatusUnprocessableEntity, views.AdminAPIKeys{
			Label: label, LabelErrors: adminProblems(problems),
			Notice: views.AdminNotice{Error: true, Text: "No key was minted: see the marked field."},
		})
		return
	}
	minted, err := core.MintToken(core.TokenAPIKey, s.srv.Random())
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	if err := t.Store.AddAPIKey(r.Context(), minted.ID, minted.Hash, label, s.srv.Now()); err != nil {
		s.fail(w, r, t, err)
		return
	}
	s.adminRenderAPIKeys(w, r, t, v, http.StatusCreated, views.AdminAPIKeys{
		Minted: minted.Token, MintedID: minted.ID,
		Notice: views.AdminNotice{Text: "API key minted. Copy it now: it will not be shown again."},
	})
}

// adminRevokeAPIKey is POST /admin/api-keys/{id}/revoke: the key stops
// working at once; revoking twice is fine.
func (s *Site) adminRevokeAPIKey(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	err := t.Store.RevokeAPIKey(r.Context(), r.PathValue("id"), s.srv.Now())
	if adminErrorCode(err) == core.CodeNotFound {
		s.adminNotFound(w, r, t, v, "There is no API key "+r.PathValue("id")+".")
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/api-keys", "revoked", "")
}
