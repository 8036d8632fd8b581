// Package web is the arena website: server-rendered pages (templ components
// from views/), sign-in and sessions, the players' actions and the admin
// pages. It plugs into the server's route table and tenancy; every page
// works without JavaScript.
package web

import (
	"bytes"
	"io/fs"
	"log/slog"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/a-h/templ"

	"arena/core"
	"arena/i18n"
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
	// LiveEvery is how often live regions ask for news; 10 s when zero.
	LiveEvery time.Duration
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
	srv.Handle("GET /static/{file}", http.HandlerFunc(serveStatic))
	srv.Handle("GET /favicon.ico", http.HandlerFunc(serveStatic))
	srv.Handle("GET /sw.js", http.HandlerFunc(serveStatic))
	srv.SetPageNotFound(s.notFound)
	srv.SetPageFailed(s.tenantFailed)
	srv.SetSessionPlayer(s.sessionPlayer)
	s.routes()
	return s
}

// staticTypes are the assets' content types, the same on every platform
// (mime's table depends on the machine).
var staticTypes = map[string]string{
	".css": "text/css; charset=utf-8",
	".js":  "text/javascript; charset=utf-8",
	".svg": "image/svg+xml",
	".ico": "image/x-icon",
	".png": "image/png",
}

// serveStatic serves an embedded asset: under its content-hashed name
// (views.StaticPath) for a year, immutable; under its plain name (or an
// outdated hash) for an hour; the service worker at /sw.js (its scope is
// the path it is served at) revalidated each time, so a new one reaches
// every device at once. Anything else is 404, never 500.
func serveStatic(w http.ResponseWriter, r *http.Request) {
	requested := r.PathValue("file")
	switch r.URL.Path {
	case "/favicon.ico", "/sw.js":
		requested = strings.TrimPrefix(r.URL.Path, "/")
	}
	name, current, ok := views.StaticFile(requested)
	if !ok {
		http.NotFound(w, r)
		return
	}
	b, err := fs.ReadFile(views.Static, "static/"+name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	switch {
	case r.URL.Path == "/sw.js":
		h.Set("Cache-Control", "no-cache")
	case current:
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	default:
		h.Set("Cache-Control", "public, max-age=3600")
	}
	h.Set("ETag", `"`+views.StaticHash(name)+`"`)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Type", staticTypes[path.Ext(name)])
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(b))
}

// page registers a GET page for one arena.
func (s *Site) page(pattern string, h func(w http.ResponseWriter, r *http.Request, t *server.Tenant)) {
	s.srv.HandleTenant(pattern, func(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
		h(w, s.withViewerMemo(s.withLocale(w, r, t), t), t)
	})
}

// action registers a state-changing form route: cross-site requests are
// refused (403) before the handler runs.
func (s *Site) action(pattern string, h func(w http.ResponseWriter, r *http.Request, t *server.Tenant)) {
	s.srv.HandleTenant(pattern, func(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
		r = s.withViewerMemo(s.withLocale(w, r, t), t)
		if err := s.csrf.Check(r); err != nil {
			tr := i18n.From(r.Context())
			s.render(w, r, t, http.StatusForbidden, views.ErrorPage(s.layout(r, t, tr.T("error.forbidden")), http.StatusForbidden, tr.T("error.crossSite")))
			return
		}
		h(w, r, t)
	})
}

// render writes a page. Pages refuse to be framed and take the page
// policy (setPagePolicy), except a page that set its own first (an
// embed, a match page embedding a stream).
func (s *Site) render(w http.ResponseWriter, r *http.Request, t *server.Tenant, status int, c templ.Component) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	if h.Get("Content-Security-Policy") == "" {
		setPagePolicy(h)
	}
	w.WriteHeader(status)
	if err := c.Render(r.Context(), w); err != nil {
		s.cfg.Logger.ErrorContext(r.Context(), "render", slog.String("path", r.URL.Path), slog.String("error", err.Error()))
	}
}

// fail answers a page request that failed: the error page, the details in
// the log only; 503 with Retry-After when the database did not answer.
func (s *Site) fail(w http.ResponseWriter, r *http.Request, t *server.Tenant, err error) {
	if server.ErrorCode(err) == core.CodeDatabaseUnavailable {
		s.unavailable(w, r, t, err)
		return
	}
	s.cfg.Logger.ErrorContext(r.Context(), "page failed", slog.String("path", r.URL.Path), slog.String("error", err.Error()))
	tr := i18n.From(r.Context())
	s.render(w, r, t, http.StatusInternalServerError, views.ErrorPage(s.layout(r, t, tr.T("error.failed")), http.StatusInternalServerError, tr.T("error.failed.text")))
}

// unavailable answers a page whose arena's database (or the directory,
// t nil) did not answer: the error page, 503 with Retry-After. Its frame
// names the arena but not the viewer: looking up the session would wait
// on the same database again.
func (s *Site) unavailable(w http.ResponseWriter, r *http.Request, t *server.Tenant, err error) {
	s.cfg.Logger.WarnContext(r.Context(), "page: database unavailable", slog.String("path", r.URL.Path), slog.String("error", err.Error()))
	r = s.localized(r, t)
	tr := i18n.From(r.Context())
	l := views.Layout{Title: tr.T("error.unavailable")}
	if t != nil {
		l.ArenaName, l.Now = t.Arena.Name, s.srv.Now()
	}
	server.SetRetryAfter(w.Header(), core.CodeDatabaseUnavailable)
	status := server.StatusOf(core.CodeDatabaseUnavailable)
	s.render(w, r, t, status, views.ErrorPage(l, status, tr.T("error.unavailable.text")))
}

// tenantFailed answers a page whose arena could not be served before the
// page ran (server.SetPageFailed): its database or the directory failed.
// t, when set, has no store to read.
func (s *Site) tenantFailed(w http.ResponseWriter, r *http.Request, t *server.Tenant, err error) {
	if server.ErrorCode(err) == core.CodeDatabaseUnavailable {
		s.unavailable(w, r, t, err)
		return
	}
	s.cfg.Logger.ErrorContext(r.Context(), "page failed", slog.String("path", r.URL.Path), slog.String("error", err.Error()))
	r = s.localized(r, t)
	tr := i18n.From(r.Context())
	l := views.Layout{Title: tr.T("error.failed")}
	if t != nil {
		l.ArenaName = t.Arena.Name
	}
	s.render(w, r, t, http.StatusInternalServerError, views.ErrorPage(l, http.StatusInternalServerError, tr.T("error.failed.text")))
}

// notFound is the site's 404 page: on an arena's host with the arena's
// frame (its name, the viewer, sign-in), else a bare one.
func (s *Site) notFound(w http.ResponseWriter, r *http.Request) {
	if _, err := s.srv.Directory().ArenaByHost(r.Context(), core.NormalizeHost(r.Host)); err == nil {
		s.srv.Tenanted(func(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
			r = s.withViewerMemo(s.withLocale(w, r, t), t)
			s.publicNotFound(w, r, t, i18n.From(r.Context()).T("error.notFound.text"))
		})(w, r)
		return
	} else if server.ErrorCode(err) == core.CodeDatabaseUnavailable {
		s.unavailable(w, r, nil, err)
		return
	}
	r = s.localized(r, nil)
	tr := i18n.From(r.Context())
	s.render(w, r, nil, http.StatusNotFound, views.ErrorPage(views.Layout{Title: tr.T("error.notFound")}, http.StatusNotFound, tr.T("error.notFound.text")))
}

// layout returns the props every page's frame needs: the arena, the
// viewer, the action's flash message and the service's time.
func (s *Site) layout(r *http.Request, t *server.Tenant, title string) views.Layout {
	l := views.Layout{Title: title}
	if t == nil {
		return l
	}
	l.ArenaName, l.Flash, l.Now = t.Arena.Name, flash(r), s.srv.Now()
	if r.Method == http.MethodGet && r.URL.Path != "/signin" {
		l.Here = r.URL.Path
	}
	if v := s.viewer(r.Context(), r, t); v != nil {
		l.Viewer = v
		// Players name themselves where the platform does not (mock
		// sign-in): a new one is asked to, on every page until they do.
		l.AskName = t.Arena.MockProfiles() && v.Name == core.PlaceholderName(v.PlatformID) && r.URL.Path != "/account"
	}
	return l
}

// share describes a page to link previews: its absolute URL on this host
// (path "" is the request's own), a description and an image (the
// arena's card; a page may put its own).
func (s *Site) share(r *http.Request, path, description string) views.Share {
	if path == "" {
		path = r.URL.Path
	}
	return views.Share{URL: origin(r) + path, Description: description, Image: origin(r) + views.StaticPath("share.png")}
}

// origin is the request's scheme and host: the arena as the viewer reached it.
func origin(r *http.Request) string {
	if secureRequest(r) {
		return "https://" + r.Host
	}
	return "http://" + r.Host
}

// setPagePolicy gives a page its Content-Security-Policy, the one home of
// the site's policy: scripts, styles and requests from the arena itself
// (no inline script or style), pictures from anywhere
// (platform avatars), no plugins, never framed. Frames load
// from the arena itself (its embeds) and from frameSrc: nothing more,
// unless the page embeds a stream player.
func setPagePolicy(h http.Header, frameSrc ...string) {
	frames := strings.Join(append([]string{"'self'"}, frameSrc...), " ")
	h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src * data:; "+
		"object-src 'none'; base-uri 'self'; frame-ancestors 'none'; frame-src "+frames)
	h.Set("X-Frame-Options", "DENY")
}
