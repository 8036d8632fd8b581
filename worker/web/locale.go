package web

import (
	"net/http"
	"time"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// LangCookie holds the language the viewer chose with the picker in
// every page's footer (DESIGN.md "Languages").
const LangCookie = "lang"

// langCookieLifetime is how long the picker's choice is kept.
const langCookieLifetime = 365 * 24 * time.Hour

// withLocale is r carrying its translator: the picker's choice, else the
// browser's Accept-Language, else the arena's defaultLocale
// (i18n.Negotiate). Pages say they vary by both.
func (s *Site) withLocale(w http.ResponseWriter, r *http.Request, t *server.Tenant) *http.Request {
	// The picker's cookie chooses too: a browser's cache that keeps a
	// page (a live region's fragment) keeps one per cookie as well. The
	// edge front answers no request with a cookie from its cache.
	w.Header().Add("Vary", server.PagesVaryBy)
	w.Header().Add("Vary", "Cookie")
	return s.localized(r, t)
}

// localized is r carrying its translator for a page answered outside the
// page routes (an arena whose database failed, an unknown host): the
// picker's choice, else Accept-Language, else t's defaultLocale (t may
// be nil). A request that carries one already keeps it.
func (s *Site) localized(r *http.Request, t *server.Tenant) *http.Request {
	if i18n.Has(r.Context()) {
		return r
	}
	arena := ""
	if t != nil {
		arena = t.Arena.Locale()
	}
	chosen := ""
	if c, err := r.Cookie(LangCookie); err == nil {
		chosen = c.Value
	}
	return r.WithContext(i18n.With(r.Context(), i18n.For(i18n.Negotiate(chosen, r.Header.Get("Accept-Language"), arena))))
}

// langAction is the picker: it keeps the chosen locale in the lang cookie
// (and, for a signed-in player, as the language of their alerts and
// pushes) and goes back to the page it was chosen on. A locale Arena does not
// speak is refused (422) and changes nothing.
func (s *Site) langAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	if !s.parseForm(w, r, t) {
		return
	}
	lang := r.PostFormValue("lang")
	if !core.IsLocale(lang) && lang != i18n.Pseudo {
		tr := i18n.From(r.Context())
		s.render(w, r, t, http.StatusUnprocessableEntity, views.ErrorPage(s.layout(r, t, tr.T("error.badRequest")), http.StatusUnprocessableEntity, tr.T("error.badLocale")))
		return
	}
	if v := s.viewer(r.Context(), r, t); v != nil && lang != i18n.Pseudo {
		// A signed-in player reads alerts and pushes in it too.
		if err := t.SetPlayerLocale(r.Context(), v.PlatformID, lang); err != nil {
			s.fail(w, r, t, err)
			return
		}
	}
	http.SetCookie(w, &http.Cookie{Name: LangCookie, Value: lang, Path: "/", MaxAge: int(langCookieLifetime / time.Second),
		HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteLaxMode})
	next := safeNext(r.PostFormValue("next"))
	if next == "" {
		next = "/"
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}
