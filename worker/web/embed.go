package web

import (
	"net/http"

	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// Embeds: a tournament's bracket and standings for other sites' iframes
// (GET /tournaments/{slug}/embed, framing allowed, no navigation), and
// its bracket as a standalone picture (GET /tournaments/{slug}/bracket.svg)
// for chat apps and forums. Both draw the page's own view model
// (tournamentData), so the three never disagree.

// tournamentEmbed serves the embed; its results refresh like the page's.
func (s *Site) tournamentEmbed(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	tour, data, ok := s.tournamentAndData(w, r, t)
	if !ok {
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", "frame-ancestors *")
	h.Set("Cache-Control", server.CacheControl(server.CacheLifetime))
	s.render(w, r, t, http.StatusOK, views.EmbedView(views.EmbedPage{
		ArenaName: t.Arena.Name, Tournament: publicCard(tour, s.srv.Now()), PageURL: origin(r) + "/tournaments/" + tour.Slug,
		Now: s.srv.Now(), Results: data.region,
	}))
}

// bracketSVG serves the bracket picture; a tournament without a bracket
// yet (before its playoffs, a format without one) is 404.
func (s *Site) bracketSVG(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	ctx := r.Context()
	tour, data, ok := s.tournamentAndData(w, r, t)
	if !ok {
		return
	}
	results := data.results
	if results.Bracket == nil {
		s.publicNotFound(w, r, t, i18n.From(ctx).T("broadcast.embed.noBracket"))
		return
	}
	svgHeaders(w, "public, max-age=60")
	if err := views.BracketSVG(views.LayOutBracketSVG(tour.Name, *results.Bracket)).Render(ctx, w); err != nil {
		s.cfg.Logger.ErrorContext(ctx, "bracket picture", "error", err.Error())
	}
}

// svgHeaders are the headers of a picture the site draws (a bracket, a
// placeholder avatar): SVG that runs no script and loads nothing, cached
// as cacheControl says.
func svgHeaders(w http.ResponseWriter, cacheControl string) {
	h := w.Header()
	h.Set("Content-Type", "image/svg+xml")
	h.Set("Cache-Control", cacheControl)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
}
