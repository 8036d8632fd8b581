// Package web is the arena website: server-rendered pages (templ components
// from views/), sign-in and sessions, the players' actions and the admin
// pages. It plugs into the server's route table and tenancy; every page
// works without JavaScript.
package web

import (
	"io/fs"
	"log/slog"
	"net/http"
	"path"
	"strings"

	"github.com/a-h/templ"

	"arena/views"
	"arena/worker/server"
)

// Config holds the site's settings.
type Config struct {
	// SessionKey is the master key of session cookies; each arena signs
	// with its own key derived from it.
	SessionKey []byte
	// OpenIDEndpoint is the platform's OpenID 2.0 endpoint (real sign-in);
	// empty means the platform's public one.
	OpenIDEndpoint string
	// PlayerAPI is the platform's web API base (player summaries); empty
	// means the public one.
	PlayerAPI string
	// HTTP makes the outgoing calls (OpenID verification, summaries).
	HTTP *http.Client
	// Logger logs what the pages cannot show.
	Logger *slog.Logger
}

// Site serves the pages.
type Site struct {
	srv  *server.Server
	cfg  Config
	csrf *http.CrossOriginProtection
}

// Register adds the site's routes to srv and returns the site.
func Register(srv *server.Server, cfg Config) *Site {
	if cfg.HTTP == nil {
		cfg.HTTP = http.DefaultClient
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Site{srv: srv, cfg: cfg, csrf: http.NewCrossOriginProtection()}
	static, err := fs.Sub(views.Static, "static")
	if err != nil {
		panic(err)
	}
	srv.Handle("GET /static/", http.StripPrefix("/static/", staticHandler(http.FileServerFS(static))))
	srv.SetPageNotFound(s.notFound)
	srv.SetSessionPlayer(s.sessionPlayer)
	s.routes()
	return s
}

// staticHandler lets browsers keep assets for a day. A name no file can
// have (not UTF-8, say) is 404 like a missing file; the file server would
// call it an internal error.
func staticHandler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/"); name != "" && !fs.ValidPath(name) {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=86400")
		h.ServeHTTP(w, r)
	})
}

// page registers a GET page for one arena.
func (s *Site) page(pattern string, h func(w http.ResponseWriter, r *http.Request, t *server.Tenant)) {
	s.srv.HandleTenant(pattern, func(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
		h(w, withViewerMemo(r), t)
	})
}

// action registers a state-changing form route: cross-site requests are
// refused (403) before the handler runs.
func (s *Site) action(pattern string, h func(w http.ResponseWriter, r *http.Request, t *server.Tenant)) {
	s.srv.HandleTenant(pattern, func(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
		r = withViewerMemo(r)
		if err := s.csrf.Check(r); err != nil {
			s.render(w, r, t, http.StatusForbidden, views.ErrorPage(s.layout(r, t, "Forbidden"), http.StatusForbidden, "This form was sent from another site, so it was refused."))
			return
		}
		h(w, r, t)
	})
}

// render writes a page.
func (s *Site) render(w http.ResponseWriter, r *http.Request, t *server.Tenant, status int, c templ.Component) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "same-origin")
	w.Header().Set("X-Frame-Options", "DENY")
	w.WriteHeader(status)
	if err := c.Render(r.Context(), w); err != nil {
		s.cfg.Logger.ErrorContext(r.Context(), "render", slog.String("path", r.URL.Path), slog.String("error", err.Error()))
	}
}

// fail answers a page request that failed: the error page, the details in
// the log only.
func (s *Site) fail(w http.ResponseWriter, r *http.Request, t *server.Tenant, err error) {
	s.cfg.Logger.ErrorContext(r.Context(), "page failed", slog.String("path", r.URL.Path), slog.String("error", err.Error()))
	s.render(w, r, t, http.StatusInternalServerError, views.ErrorPage(s.layout(r, t, "Something went wrong"), http.StatusInternalServerError, "Something went wrong on our side. Please try again."))
}

// notFound is the site's 404 page (also for unknown hosts, without an arena).
func (s *Site) notFound(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, nil, http.StatusNotFound, views.ErrorPage(views.Layout{Title: "Not found"}, http.StatusNotFound, "There is no page here."))
}

// layout returns the props every page's frame needs.
func (s *Site) layout(r *http.Request, t *server.Tenant, title string) views.Layout {
	l := views.Layout{Title: title}
	if t == nil {
		return l
	}
	l.ArenaName = t.Arena.Name
	if v := s.viewer(r.Context(), r, t); v != nil {
		l.Viewer = v
	}
	return l
}
