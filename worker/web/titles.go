package web

import (
	"context"
	"net/http"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// titlesPage is GET /titles: every title, with the viewer's buttons.
func (s *Site) titlesPage(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	s.renderTitles(w, r, t, http.StatusOK, "", "") // the action's notice is the page's flash
}

// renderTitles answers the titles page with a notice or a refusal.
func (s *Site) renderTitles(w http.ResponseWriter, r *http.Request, t *server.Tenant, status int, notice, problem string) {
	ctx := r.Context()
	board, err := t.SiteTitles(ctx)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	list, book := board.Titles, publicBook(board.Players)
	l := s.layout(r, t, i18n.From(ctx).T("titles.title"))
	viewer := ""
	if l.Viewer != nil {
		viewer = l.Viewer.PlatformID
	}
	p := views.TitlesPage{Layout: l, Notice: notice, Error: problem, Now: s.srv.Now()}
	for i := range list {
		p.Titles = append(p.Titles, titleCard(book, &list[i], viewer))
	}
	s.render(w, r, t, status, views.TitlesView(p))
}

// titleCard is a title as the page shows it to viewer ("" for a visitor).
func titleCard(book publicBook, t *core.Title, viewer string) views.TitleCard {
	c := views.TitleCard{
		ID: t.ID, Slug: t.Slug, Name: t.Name, Holder: book.side(t.Holder), ClockExpiresAt: t.ClockExpiresAt(),
		Retired: t.RetiredAt != nil, Actions: titleActions(t, viewer),
	}
	if r := t.CurrentReign(); r != nil {
		c.Since, c.Defenses = r.Since, r.Defenses
	}
	if ch := t.OpenChallenge; ch != nil {
		c.Challenge = &views.TitleChallengeCard{ID: ch.ID, Challenger: book.player(ch.Challenger), At: ch.At, Declined: ch.Status == core.ChallengeDeclined}
	}
	if m := t.Match; m != nil {
		c.Match = &views.TitleMatchCard{ID: m.ID, Coronation: m.Round == core.RoundCoronation, P1: book.player(m.P1), P2: book.player(m.P2),
			Status: m.Status, ClosesAt: m.ClosesAt}
	}
	for _, v := range t.Volunteers {
		c.Volunteers = append(c.Volunteers, book.player(v.PlatformID))
	}
	for _, r := range t.Lineage {
		c.Lineage = append(c.Lineage, views.TitleReignCard{Player: book.player(r.Holder), Since: r.Since, Until: r.Until, Defenses: r.Defenses, Ended: r.Ended})
	}
	return c
}

// titleActions are the viewer's buttons on t: the ones core's rules allow
// now (a visitor is asked to sign in).
func titleActions(t *core.Title, viewer string) views.TitleActions {
	a := views.TitleActions{Next: string(views.TitleURL(t.Slug))}
	if viewer == "" {
		a.SignIn = t.RetiredAt == nil
		return a
	}
	a.Volunteer = t.CheckVolunteer(viewer) == nil
	a.Volunteered = t.Match == nil && t.Volunteered(viewer)
	a.Challenge = t.CheckChallenge(viewer) == nil
	a.Respond = t.OpenChallenge != nil && t.OpenChallenge.Status == core.ChallengePending && t.Holder == viewer
	a.InMatch = t.Match != nil && (t.Match.P1 == viewer || t.Match.P2 == viewer)
	return a
}

// titleAct is one title action by the signed-in viewer on the {id} path
// value; it returns the notice code to redirect with, or the refusal.
type titleAct func(ctx context.Context, t *server.Tenant, id int64, viewer string) (string, error)

// titleAction reads the id (anything but an integer is notFound) and the
// viewer, runs act, and redirects back with its notice, or answers the
// titles page with the refusal at its code's status.
func (s *Site) titleAction(notFound string, act titleAct) func(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	return func(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
		viewer, next, ok := s.actionStart(w, r, t, "/titles")
		if !ok {
			return
		}
		id, err := core.ParseTitleID(r.PathValue("id"), notFound)
		if err == nil {
			var code string
			if code, err = act(r.Context(), t, id, viewer); err == nil {
				http.Redirect(w, r, withNotice(next, code), http.StatusSeeOther)
				return
			}
		}
		message := actionMessageIn(i18n.From(r.Context()), err)
		if message == "" {
			s.fail(w, r, t, err)
			return
		}
		s.renderTitles(w, r, t, server.StatusOf(core.ErrorCode(err)), "", message)
	}
}

// volunteer is the volunteer button: core.Volunteer, as the build the
// environment gate shows the title to (app.SiteAppID).
func (s *Site) volunteer(ctx context.Context, t *server.Tenant, id int64, viewer string) (string, error) {
	title, err := t.VolunteerFromSite(ctx, id, viewer)
	if err != nil {
		return "", err
	}
	if title.Match != nil {
		return "coronation", nil
	}
	return "volunteered", nil
}

// challenge is the challenge button: core.Challenge.
func (s *Site) challenge(ctx context.Context, t *server.Tenant, id int64, viewer string) (string, error) {
	if _, err := t.ChallengeFromSite(ctx, id, viewer); err != nil {
		return "", err
	}
	return "challenged", nil
}

// answer is the holder's accept or decline button: core.RespondToChallenge.
func (s *Site) answer(accept bool) titleAct {
	return func(ctx context.Context, t *server.Tenant, id int64, viewer string) (string, error) {
		if _, err := t.RespondFromSite(ctx, id, viewer, accept); err != nil {
			return "", err
		}
		if accept {
			return "accepted", nil
		}
		return "declined", nil
	}
}
