package web

import (
	"net/http"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// The pages of the arena's bearer tokens: admin tokens (the admin API) and
// API keys (the public read API), one page each, the same three routes:
// the list, mint, revoke.

// tokenPageKinds pairs each token kind with what its page says.
var tokenPageKinds = map[string]views.AdminTokenKind{
	core.TokenAPIKey: views.AdminAPIKeysKind,
	core.TokenAdmin:  views.AdminTokensKind,
}

// adminTokenRoutes registers the token pages of the kind under
// /admin/<menu>.
func (s *Site) adminTokenRoutes(kind string) {
	path := "/admin/" + tokenPageKinds[kind].Menu
	s.adminPage("GET "+path, func(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
		s.adminRenderTokens(w, r, t, v, kind, http.StatusOK, views.AdminTokens{Notice: adminNotice(r)})
	})
	s.adminAction("POST "+path, s.adminMintToken(kind))
	s.adminAction("POST "+path+"/{id}/revoke", s.adminRevokeToken(kind, path))
}

func (s *Site) adminRenderTokens(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer, kind string, status int, p views.AdminTokens) {
	list, err := t.Tokens(r.Context(), kind)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	p.Kind, p.MaxLabel = tokenPageKinds[kind], core.MaxTokenLabelRunes
	for _, k := range list {
		p.Tokens = append(p.Tokens, views.AdminToken{ID: k.ID, Label: k.Label, CreatedAt: k.CreatedAt, RevokedAt: k.RevokedAt})
	}
	s.render(w, r, t, status, views.AdminTokensPage(s.adminLayout(t, v, p.Kind.Text(r.Context(), "title")), p))
}

// adminMintToken is POST /admin/<menu>: mints a token of the kind and
// answers with it in full (201). This answer is the only place the token
// ever appears, so it is not a redirect; reloading it mints another one.
func (s *Site) adminMintToken(kind string) adminHandler {
	return func(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
		if !s.adminParseForm(w, r, t, v) {
			return
		}
		k := tokenPageKinds[kind]
		minted, label, err := t.IssueToken(r.Context(), kind, core.TokenDraft{Label: r.PostFormValue("label")})
		if adminErrorField(err) == "label" {
			s.adminRenderTokens(w, r, t, v, kind, http.StatusUnprocessableEntity, views.AdminTokens{
				Label: label, LabelErrors: views.AdminFieldErrors{"label": adminErrorMessage(r.Context(), err)},
				Notice: views.AdminNotice{Error: true, Text: k.Text(r.Context(), "error.notMinted")},
			})
			return
		}
		if err != nil {
			s.fail(w, r, t, err)
			return
		}
		s.adminRenderTokens(w, r, t, v, kind, http.StatusCreated, views.AdminTokens{
			Minted: minted.Token, MintedID: minted.ID,
			Notice: views.AdminNotice{Text: k.Text(r.Context(), "notice.minted")},
		})
	}
}

// adminRevokeToken is POST /admin/<menu>/{id}/revoke: the token stops
// working at once; revoking twice is fine. The arena's last admin token
// stays (409, the page again with the reason).
func (s *Site) adminRevokeToken(kind, path string) adminHandler {
	return func(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
		k := tokenPageKinds[kind]
		err := t.RevokeToken(r.Context(), kind, r.PathValue("id"))
		switch code := adminErrorCode(err); {
		case err == nil:
			adminRedirect(w, r, path, k.Noun+"-revoked", "")
		case code == core.CodeNotFound:
			s.adminNotFound(w, r, t, v, k.Text(r.Context(), "error.notFound", "ID", r.PathValue("id")))
		case code != "":
			text := adminErrorMessage(r.Context(), err)
			if code == core.CodeLastAdminToken {
				text = i18n.From(r.Context()).T("admin.adminTokens.error.last")
			}
			s.adminRenderTokens(w, r, t, v, kind, server.StatusOf(code), views.AdminTokens{
				Notice: views.AdminNotice{Error: true, Text: text},
			})
		default:
			s.fail(w, r, t, err)
		}
	}
}
