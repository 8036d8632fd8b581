package web

import (
	"net/http"

	"arena/views"
	"arena/worker/server"
)

// Embeds: a tournament's bracket and standings for other sites' iframes
// (GET /tournaments/{slug}/embed, framing allowed, no navigation), and
// its bracket as a standalone picture (GET /tournaments/{slug}/bracket.svg)
// for chat apps and forums. Both draw the page's own view model
// (publicResults), so the three never disagree.

// tournamentEmbed serves the embed; its results refresh like the page's.
func (s *Site) tournamentEmbed(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	ctx := r.Context()
	tour, ok := s.tournamentFor(w, r, t)
	if !ok {
		return
	}
	regs, err := t.Store.Registrations(ctx, tour.ID)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	now := s.srv.Now()
	results, _, err := publicResults(ctx, t, tour, regs, now)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	region, err := s.resultsRegion(r, tour, results)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", "frame-ancestors *")
	h.Set("Cache-Control", "public, max-age=10")
	s.render(w, r, t, http.StatusOK, views.EmbedView(views.EmbedPage{
		ArenaName: t.Arena.Name, Tournament: publicCard(tour), PageURL: origin(r) + "/tournaments/" + tour.Slug,
		Now: now, Results: region,
	}))
}

// bracketSVG serves the bracket picture; a tournament without a bracket
// yet (before its playoffs, a format without one) is 404.
func (s *Site) bracketSVG(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	ctx := r.Context()
	tour, ok := s.tournamentFor(w, r, t)
	if !ok {
		return
	}
	regs, err := t.Store.Registrations(ctx, tour.ID)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	results, _, err := publicResults(ctx, t, tour, regs, s.srv.Now())
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	if results.Bracket == nil {
		s.publicNotFound(w, r, t, "This tournament has no bracket yet.")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "image/svg+xml")
	h.Set("Cache-Control", "public, max-age=60")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	if err := views.BracketSVG(views.LayOutBracketSVG(tour.Name, *results.Bracket)).Render(ctx, w); err != nil {
		s.cfg.Logger.ErrorContext(ctx, "bracket picture", "error", err.Error())
	}
}
