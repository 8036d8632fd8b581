package web

import (
	"errors"
	"net/http"
	"net/url"

	"arena/core"
	"arena/views"
	"arena/worker/server"
)

// adminHandler serves one admin page for the signed-in admin v.
type adminHandler func(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer)

// adminPage registers an admin GET page.
func (s *Site) adminPage(pattern string, h adminHandler) {
	s.page(pattern, s.adminOnly(h))
}

// adminAction registers an admin form: the cross-site check first, then
// the admin check.
func (s *Site) adminAction(pattern string, h adminHandler) {
	s.action(pattern, s.adminOnly(h))
}

// adminOnly admits the arena's admin players: a visitor gets 303 to the
// sign-in page (coming back to the page, or to /admin after a form), a
// signed-in player who is not an admin gets 403. Admin pages are never
// cached.
func (s *Site) adminOnly(h adminHandler) func(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	return func(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
		v := s.viewer(r.Context(), r, t)
		if v == nil {
			next := "/admin"
			if r.Method == http.MethodGet {
				next = r.URL.RequestURI()
			}
			s.signInFirst(w, r, t, next)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		if !v.IsAdmin {
			s.render(w, r, t, http.StatusForbidden, views.ErrorPage(s.adminLayout(t, v, "Forbidden"), http.StatusForbidden,
				"These pages are for the arena's admins. Ask an admin to add your account if you need them."))
			return
		}
		h(w, r, t, v)
	}
}

// adminLayout is the frame of an admin page. The viewer is already known,
// so the layout does not look it up again.
func (s *Site) adminLayout(t *server.Tenant, v *views.Viewer, title string) views.Layout {
	return views.Layout{Title: title, ArenaName: t.Arena.Name, Viewer: v}
}

// adminNotices are the outcomes a redirect after a form names (?done=):
// fixed texts, so a link cannot put words on the page.
var adminNotices = map[string]string{
	"created":          "Tournament created as a draft: only admins see it until registration opens.",
	"saved":            "Changes saved.",
	"status":           "The tournament moved to its next step.",
	"registered":       "Side registered.",
	"entrants":         "The list's entrants are registered.",
	"seeds":            "Seeds saved.",
	"checkin":          "Check-in saved.",
	"rating-seeds":     "Every side is seeded by rating. You can still change any seed until the draw.",
	"resolved":         "Match resolved.",
	"game-decided":     "Game decided.",
	"reopened":         "Match reopened: it is scheduled again, with a fresh window from now.",
	"round-opened":     "The round's matches are open now.",
	"window":           "The match window moved.",
	"details":          "Details saved.",
	"removed":          "The side was removed.",
	"disqualified":     "The side was disqualified: its open matches went to its opponents.",
	"season":           "Season saved.",
	"key-revoked":      "API key revoked: it stops working at once.",
	"token-revoked":    "Admin token revoked: it stops working at once.",
	"settings":         "Settings saved.",
	"discord":          "Discord saved.",
	"discord_commands": "The /arena command is registered with Discord.",
	"caster":           "Official caster added: the match's casters list it.",
	"admin-added":      "Admin added.",
	"admin-present":    "That player already is an admin.",
	"admin-removed":    "Admin removed.",
	"title-created":    "Title created, vacant: players volunteer for its coronation.",
	"title-retired":    "Title retired: it keeps its lineage and takes no more challenges.",

	"domain-added":   "Domain added.",
	"domain-removed": "Domain removed: it no longer serves this arena.",

	"webhook-paused":   "Webhook paused: its events are kept for when it resumes.",
	"webhook-resumed":  "Webhook resumed: what it missed goes out with the next run.",
	"webhook-deleted":  "Webhook deleted.",
	"webhook-replayed": "Replay queued: the deliveries go out with the next run, with their webhook-ids.",
}

// adminNotice reads the notice of a redirect.
func adminNotice(r *http.Request) views.AdminNotice {
	return views.AdminNotice{Text: adminNotices[r.URL.Query().Get("done")]}
}

// adminRedirect ends a successful form: 303 to the page with the notice.
func adminRedirect(w http.ResponseWriter, r *http.Request, path, done, fragment string) {
	target := path + "?done=" + url.QueryEscape(done)
	if fragment != "" {
		target += "#" + fragment
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// adminNotFound answers a path naming nothing (unknown tournament, match,
// key).
func (s *Site) adminNotFound(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer, what string) {
	s.render(w, r, t, http.StatusNotFound, views.ErrorPage(s.adminLayout(t, v, "Not found"), http.StatusNotFound, what))
}

// adminErrorCode returns the domain code of err, or "" for an internal
// error (which the caller logs and answers with fail).
func adminErrorCode(err error) string {
	var e *core.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// adminErrorField returns the field a domain error names, if any.
func adminErrorField(err error) string {
	var e *core.Error
	if errors.As(err, &e) {
		return e.Field
	}
	return ""
}

// adminErrorMessage returns a field error's message for people (core
// writes them for the fields of the inputs it checks).
func adminErrorMessage(err error) string {
	var e *core.Error
	if errors.As(err, &e) {
		return e.Message
	}
	return ""
}

// adminDashboard is GET /admin: the queue and the tournaments.
func (s *Site) adminDashboard(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	ctx := r.Context()
	now := s.srv.Now()
	queue, err := core.OrganizerQueue(ctx, t.Store, now)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	tours, err := t.Store.Tournaments(ctx, true)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	p := views.AdminDashboard{Notice: adminNotice(r)}
	for _, m := range queue {
		p.Queue = append(p.Queue, views.AdminQueueMatch{
			ID: m.ID, TournamentSlug: m.Tournament.Slug, TournamentName: m.Tournament.Name, Title: m.Tournament.Format == core.FormatTitle,
			Round: adminRoundLabel(&m.Match), Status: m.Status, P1: m.P1, P2: m.P2,
			P1Name: m.P1Name, P2Name: m.P2Name, ClosesAt: m.ClosesAt, Reason: m.Reason,
		})
	}
	for _, tour := range tours {
		p.Tournaments = append(p.Tournaments, views.AdminTournamentRow{
			Slug: tour.Slug, Name: tour.Name, Status: tour.Status, PlayerCount: tour.PlayerCount,
			MaxPlayers: tour.MaxPlayers, StartsAt: tour.StartsAt, StartedAt: tour.PlayStartedAt(now), Public: tour.Status.Public(),
		})
	}
	s.render(w, r, t, http.StatusOK, views.AdminDashboardPage(s.adminLayout(t, v, "Admin"), p))
}

// adminRoundLabel names a match's place in its tournament: "Group A ·
// Round 2", "Semifinals (SF1)", "Final".
func adminRoundLabel(m *core.Match) string {
	switch {
	case m.GroupName != "":
		return "Group " + m.GroupName + " · " + m.Round
	case m.BracketSlot != "" && m.BracketSlot != core.BracketSlotFinal && m.BracketSlot != core.BracketSlotSmallFinal:
		return m.Round + " (" + m.BracketSlot + ")"
	}
	return m.Round
}

// adminTournamentsRedirect sends the tournaments list's address to the
// dashboard, where the list is.
func (s *Site) adminTournamentsRedirect(w http.ResponseWriter, r *http.Request, _ *server.Tenant, _ *views.Viewer) {
	http.Redirect(w, r, "/admin#tournaments-title", http.StatusSeeOther)
}
