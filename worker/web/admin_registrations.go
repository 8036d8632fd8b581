package web

import (
	"context"
	"net/http"
	"strings"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// The registration desk: finding a player, registering a side, and taking
// a side out of a tournament under way (core/organizer.go).

// adminRemoveSideProps describe taking the {platformId} side out of the
// {slug} tournament; ok false when the page was answered (404).
func (s *Site) adminRemoveSideProps(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) (*core.Tournament, views.AdminRemoveConfirm, bool) {
	tour := s.adminTournamentFor(w, r, t, v)
	if tour == nil {
		return nil, views.AdminRemoveConfirm{}, false
	}
	ctx := r.Context()
	id := r.PathValue("platformId")
	removal, err := t.SideRemoval(ctx, tour, id)
	if err != nil {
		s.fail(w, r, t, err)
		return nil, views.AdminRemoveConfirm{}, false
	}
	if removal.Side == nil {
		s.adminNotFound(w, r, t, v, i18n.From(ctx).T("admin.tournament.remove.noSide", "Tournament", tour.Name, "ID", id))
		return nil, views.AdminRemoveConfirm{}, false
	}
	p := views.AdminRemoveConfirm{Slug: tour.Slug, Tournament: tour.Name, PlatformID: id, Name: removal.Side.PersonaName,
		Disqualify: removal.Disqualify, OpenMatches: removal.OpenMatches}
	return tour, p, true
}

// adminConfirmRemove is GET /admin/tournaments/{slug}/registrations/{platformId}/remove:
// what removing (before the draw) or disqualifying (after it) does.
func (s *Site) adminConfirmRemove(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	tour, p, ok := s.adminRemoveSideProps(w, r, t, v)
	if !ok {
		return
	}
	s.render(w, r, t, http.StatusOK, views.AdminRemoveConfirmPage(s.adminLayout(t, v, adminRemoveTitle(r.Context(), tour)), p))
}

// adminRemoveTitle is the removal page's title: "Winter Cup: remove a
// side".
func adminRemoveTitle(ctx context.Context, tour *core.Tournament) string {
	return i18n.From(ctx).T("admin.tournament.remove.pageTitle", "Name", tour.Name)
}

// adminRemoveSide is POST .../remove: core.RemoveSide, the admin API's
// DELETE of a registration.
func (s *Site) adminRemoveSide(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	tour, p, ok := s.adminRemoveSideProps(w, r, t, v)
	if !ok {
		return
	}
	ctx := r.Context()
	_, err := t.RemoveSide(ctx, tour, p.PlatformID)
	if code := adminErrorCode(err); code != "" {
		p.Notice = views.AdminNotice{Error: true, Text: adminRefusal(ctx, adminRemoveRefusals, code)}
		s.render(w, r, t, server.StatusOf(code), views.AdminRemoveConfirmPage(s.adminLayout(t, v, adminRemoveTitle(ctx, tour)), p))
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	done := "removed"
	if p.Disqualify {
		done = "disqualified"
	}
	adminRedirect(w, r, "/admin/tournaments/"+tour.Slug, done, "registrations")
}

// adminRemoveRefusals explain a refused removal: the catalog's message
// by code.
var adminRemoveRefusals = map[string]string{
	core.CodeTournamentOver:    "admin.tournament.remove.refused.over",
	core.CodeInvalidTransition: "admin.tournament.remove.refused.movedOn",
	core.CodeNotRegistered:     "admin.tournament.remove.refused.notRegistered",
}

// adminRefusal is the sentence refusals gives code, in the request's
// locale; "" for a code it does not explain.
func adminRefusal(ctx context.Context, refusals map[string]string, code string) string {
	id, ok := refusals[code]
	if !ok {
		return ""
	}
	return i18n.From(ctx).T(id)
}

// adminPlayerChoices is how many players a name search offers.
const adminPlayerChoices = 8

// adminFindPlayer reads the register form's player given by name: the
// player chosen among the matches shown before, or the one player whose
// name contains the text. Otherwise it sets the field's message (and the
// matches to choose from) and answers false; an internal error is
// answered here (false, no message).
func (s *Site) adminFindPlayer(w http.ResponseWriter, r *http.Request, t *server.Tenant, form *views.AdminRegisterForm) (string, bool) {
	if choice := r.PostFormValue("choice"); core.ValidPlatformID(choice) {
		return choice, true
	}
	found, err := t.PlayersNamed(r.Context(), form.PlatformID, adminPlayerChoices+1)
	if err != nil {
		s.fail(w, r, t, err)
		return "", false
	}
	tr := i18n.From(r.Context())
	switch {
	case len(found) == 1:
		return found[0].PlatformID, true
	case len(found) == 0:
		form.Errors["platformId"] = tr.T("admin.tournament.register.noMatch")
	case len(found) > adminPlayerChoices:
		form.Errors["platformId"] = tr.T("admin.tournament.register.manyMatch")
	default:
		form.Errors["platformId"] = tr.T("admin.tournament.register.severalMatch")
		for _, p := range found {
			form.Choices = append(form.Choices, views.AdminPlayerChoice{PlatformID: p.PlatformID, Name: p.PersonaName})
		}
	}
	return "", false
}

// adminRegister is POST /admin/tournaments/{slug}/registrations: registers
// a side through core.Register, the admin API's rules. The player is given
// by 17-digit account id or found by name (adminFindPlayer).
func (s *Site) adminRegister(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	tour := s.adminTournamentFor(w, r, t, v)
	if tour == nil {
		return
	}
	form := views.AdminRegisterForm{
		PlatformID: strings.TrimSpace(r.PostFormValue("platformId")), PersonaName: strings.TrimSpace(r.PostFormValue("personaName")),
		Seed: strings.TrimSpace(r.PostFormValue("seed")), Roster: r.PostFormValue("roster"), Errors: views.AdminFieldErrors{},
	}
	tr := i18n.From(r.Context())
	again := func(status int, notice string) {
		s.adminRenderTournament(w, r, t, v, tour, status, func(p *views.AdminTournament) {
			p.RegisterForm = form
			p.Notice = views.AdminNotice{Error: true, Text: notice}
		})
	}
	if strings.Trim(form.PlatformID, "0123456789") != "" { // a name: an id is digits
		id, ok := s.adminFindPlayer(w, r, t, &form)
		if !ok {
			if len(form.Errors) > 0 {
				again(http.StatusUnprocessableEntity, tr.T("admin.tournament.register.notRegistered"))
			}
			return
		}
		form.PlatformID = id
	}
	draft := core.RegistrationDraft{PlatformID: form.PlatformID, PersonaName: form.PersonaName,
		Seed: core.NumberText(form.Seed), Roster: core.ListText(form.Roster)}
	if problems := draft.Check(); len(problems) > 0 {
		form.Errors = adminProblems(i18n.From(r.Context()), problems)
		again(http.StatusUnprocessableEntity, tr.T("admin.tournament.register.notRegistered"))
		return
	}
	_, err := t.RegisterSide(r.Context(), tour, draft)
	if err == nil {
		adminRedirect(w, r, "/admin/tournaments/"+tour.Slug, "registered", "registrations")
		return
	}
	code := adminErrorCode(err)
	if code == "" {
		s.fail(w, r, t, err)
		return
	}
	if field := adminErrorField(err); field != "" {
		form.Errors[field] = adminErrorMessage(r.Context(), err)
	}
	switch code {
	case core.CodeAlreadyRegistered:
		form.Errors["platformId"] = tr.T("admin.tournament.register.alreadyOnSide")
		again(server.StatusOf(code), tr.T("admin.tournament.register.alreadyRegistered"))
	case core.CodeTournamentFull:
		again(server.StatusOf(code), tr.T("admin.tournament.register.full"))
	case core.CodeRegistrationClosed:
		msg := tr.T("admin.tournament.register.closed")
		if now := s.srv.Now(); tour.Status == core.StatusRegistrationOpen && now.Before(tour.RegistrationOpensAt) {
			msg = tr.T("admin.tournament.register.windowNotOpen", "When", tr.Time(tour.RegistrationOpensAt))
		}
		again(server.StatusOf(code), msg)
	default:
		again(http.StatusUnprocessableEntity, tr.T("admin.tournament.register.notRegistered"))
	}
}
