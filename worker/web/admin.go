package web

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"arena/core"
	"arena/i18n"
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
			tr := i18n.From(r.Context())
			s.render(w, r, t, http.StatusForbidden, views.ErrorPage(s.adminLayout(t, v, tr.T("error.forbidden")), http.StatusForbidden,
				tr.T("admin.forbidden")))
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

// adminNotices are the outcomes a redirect after a form names (?done=),
// as message ids: fixed texts, so a link cannot put words on the page.
var adminNotices = map[string]string{
	"created":          "admin.notice.created",
	"saved":            "admin.notice.saved",
	"status":           "admin.notice.status",
	"registered":       "admin.notice.registered",
	"entrants":         "admin.notice.entrants",
	"seeds":            "admin.notice.seeds",
	"checkin":          "admin.notice.checkin",
	"rating-seeds":     "admin.notice.ratingSeeds",
	"resolved":         "admin.notice.resolved",
	"game-decided":     "admin.notice.gameDecided",
	"reopened":         "admin.notice.reopened",
	"round-opened":     "admin.notice.roundOpened",
	"window":           "admin.notice.window",
	"details":          "admin.notice.details",
	"removed":          "admin.notice.removed",
	"disqualified":     "admin.notice.disqualified",
	"season":           "admin.notice.season",
	"key-revoked":      "admin.notice.keyRevoked",
	"token-revoked":    "admin.notice.tokenRevoked",
	"settings":         "admin.notice.settings",
	"discord":          "admin.notice.discord",
	"discord_commands": "admin.notice.discordCommands",
	"caster":           "admin.notice.caster",
	"admin-added":      "admin.notice.adminAdded",
	"admin-present":    "admin.notice.adminPresent",
	"admin-removed":    "admin.notice.adminRemoved",
	"title-created":    "admin.notice.titleCreated",
	"title-retired":    "admin.notice.titleRetired",

	"domain-added":   "admin.notice.domainAdded",
	"domain-removed": "admin.notice.domainRemoved",

	"webhook-paused":   "admin.notice.webhookPaused",
	"webhook-resumed":  "admin.notice.webhookResumed",
	"webhook-deleted":  "admin.notice.webhookDeleted",
	"webhook-replayed": "admin.notice.webhookReplayed",
}

// adminNotice reads the notice of a redirect, in the request's locale.
func adminNotice(r *http.Request) views.AdminNotice {
	id, ok := adminNotices[r.URL.Query().Get("done")]
	if !ok {
		return views.AdminNotice{}
	}
	return views.AdminNotice{Text: i18n.From(r.Context()).T(id)}
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
	s.render(w, r, t, http.StatusNotFound, views.ErrorPage(s.adminLayout(t, v, i18n.From(r.Context()).T("error.notFound")), http.StatusNotFound, what))
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

// adminErrorMessage returns a field error's message for people in ctx's
// language (core.Error.Text: the problems core writes for the inputs it
// checks are in the catalog; other errors' messages are core's).
func adminErrorMessage(ctx context.Context, err error) string {
	var e *core.Error
	if errors.As(err, &e) {
		return e.Text(i18n.From(ctx))
	}
	return ""
}

// adminDashboard is GET /admin: the queue and the tournaments.
func (s *Site) adminDashboard(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	ctx := r.Context()
	now := t.Deps.Now
	queue, tours, err := t.OrganizerDashboard(ctx)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	p := views.AdminDashboard{Notice: adminNotice(r)}
	for _, m := range queue {
		p.Queue = append(p.Queue, views.AdminQueueMatch{
			ID: m.ID, TournamentSlug: m.Tournament.Slug, TournamentName: m.Tournament.Name, Title: m.Tournament.Format == core.FormatTitle,
			Round: adminRoundText(ctx, &m.Match), Status: m.Status, P1: m.P1, P2: m.P2,
			P1Name: m.P1Name, P2Name: m.P2Name, ClosesAt: m.ClosesAt, Reason: m.Reason,
		})
	}
	for _, tour := range tours {
		p.Tournaments = append(p.Tournaments, views.AdminTournamentRow{
			Slug: tour.Slug, Name: tour.Name, Status: tour.Status, PlayerCount: tour.PlayerCount,
			MaxPlayers: tour.MaxPlayers, StartsAt: tour.StartsAt, StartedAt: tour.PlayStartedAt(now), Public: tour.Status.Public(),
		})
	}
	s.render(w, r, t, http.StatusOK, views.AdminDashboardPage(s.adminLayout(t, v, i18n.From(ctx).T("admin.dashboard.title")), p))
}

// adminRoundText names a match's place in its tournament in ctx's
// locale: "Group A · Round 2", "Semifinals (SF1)", "Final".
func adminRoundText(ctx context.Context, m *core.Match) string {
	tr, round := i18n.From(ctx), views.RoundLabel(ctx, m.Round)
	switch {
	case m.GroupName != "":
		return tr.T("admin.round.group", "Group", m.GroupName, "Round", round)
	case m.BracketSlot != "" && m.BracketSlot != core.BracketSlotFinal && m.BracketSlot != core.BracketSlotSmallFinal:
		return tr.T("admin.round.slot", "Round", round, "Slot", m.BracketSlot)
	}
	return round
}

// adminTournamentsRedirect sends the tournaments list's address to the
// dashboard, where the list is.
func (s *Site) adminTournamentsRedirect(w http.ResponseWriter, r *http.Request, _ *server.Tenant, _ *views.Viewer) {
	http.Redirect(w, r, "/admin#tournaments-title", http.StatusSeeOther)
}
