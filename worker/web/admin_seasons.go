package web

import (
	"net/http"
	"strconv"

	"arena/core"
	"arena/views"
	"arena/worker/server"
)

// The organizer's tools on a tournament under way (core/organizer.go):
// editing its details, taking a side out; and the seasons.

// adminDetailsFormOf is the details form of a tournament past draft that
// is not over, filled from it; nil otherwise.
func adminDetailsFormOf(t *core.Tournament) *views.AdminDetailsForm {
	if t.Status == core.StatusDraft || t.Status.Final() {
		return nil
	}
	return &views.AdminDetailsForm{
		Name: t.Name, Description: t.Description,
		RegistrationOpensAt: adminTimeValue(t.RegistrationOpensAt), RegistrationClosesAt: adminTimeValue(t.RegistrationClosesAt),
		StartsAt: adminTimeValue(t.StartsAt), CheckInMinutes: strconv.Itoa(t.CheckInMinutes),
		Schedule: t.Status == core.StatusRegistrationOpen || t.Status == core.StatusRegistrationClosed,
	}
}

// adminDetailsFields names the details form's inputs by the edit's fields.
var adminDetailsFields = map[string]string{
	"name": "detailsName", "description": "detailsDescription", "registrationOpensAt": "detailsRegistrationOpensAt",
	"registrationClosesAt": "detailsRegistrationClosesAt", "startsAt": "detailsStartsAt",
	"checkInMinutes": "detailsCheckInMinutes",
}

// adminEditDetails is POST /admin/tournaments/{slug}/details: the name,
// description and (before the start) schedule of a tournament past draft
// (core.EditTournament, the admin API's PATCH rules).
func (s *Site) adminEditDetails(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	tour := s.adminTournamentFor(w, r, t, v)
	if tour == nil {
		return
	}
	form := adminDetailsFormOf(tour)
	if form == nil {
		s.adminRenderTournament(w, r, t, v, tour, server.StatusOf(core.CodeTournamentOver), func(p *views.AdminTournament) {
			p.Notice = views.AdminNotice{Error: true, Text: "This tournament's details change through its draft form, or no more once it is over."}
		})
		return
	}
	f := r.PostFormValue
	form.Name, form.Description = f("detailsName"), f("detailsDescription")
	edit := core.TournamentEdit{Name: &form.Name, Description: &form.Description}
	if form.Schedule {
		at := func(name string) string { return adminFormTime(r, name) }
		form.RegistrationOpensAt, form.RegistrationClosesAt, form.StartsAt = at("detailsRegistrationOpensAt"), at("detailsRegistrationClosesAt"), at("detailsStartsAt")
		edit.RegistrationOpensAt = adminFormInstant(form.RegistrationOpensAt)
		edit.RegistrationClosesAt = adminFormInstant(form.RegistrationClosesAt)
		edit.StartsAt = adminFormInstant(form.StartsAt)
		form.CheckInMinutes = adminFormMinutes(r, "detailsCheckInMinutes")
		edit.CheckInMinutes = core.NumberText(form.CheckInMinutes)
	}
	again := func(status int, text string, problems core.Problems) {
		form.Errors = views.AdminFieldErrors{}
		for field, msg := range problems.ByField() {
			form.Errors[adminDetailsFields[field]] = msg
		}
		s.adminRenderTournament(w, r, t, v, tour, status, func(p *views.AdminTournament) {
			p.Details = form
			p.Notice = views.AdminNotice{Error: true, Text: text}
		})
	}
	if _, problems := edit.Apply(*tour, s.srv.Now()); len(problems) > 0 {
		again(adminFormStatus(problems), "The details were not saved: see the marked fields.", problems)
		return
	}
	_, err := core.EditTournament(r.Context(), t.Store, tour, &edit, s.srv.Now())
	if adminErrorCode(err) == core.CodeInvalidTransition {
		again(server.StatusOf(core.CodeInvalidTransition), "The tournament moved on meanwhile; check the details again.", nil)
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/tournaments/"+tour.Slug, "details", "settings-title")
}

// adminRemoveSideProps describe taking the {platformId} side out of the
// {slug} tournament; ok false when the page was answered (404).
func (s *Site) adminRemoveSideProps(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) (*core.Tournament, views.AdminRemoveConfirm, bool) {
	tour := s.adminTournamentFor(w, r, t, v)
	if tour == nil {
		return nil, views.AdminRemoveConfirm{}, false
	}
	ctx := r.Context()
	regs, err := t.Store.Registrations(ctx, tour.ID)
	if err != nil {
		s.fail(w, r, t, err)
		return nil, views.AdminRemoveConfirm{}, false
	}
	id := r.PathValue("platformId")
	var reg *core.Registration
	for i := range regs {
		if regs[i].PlatformID == id {
			reg = &regs[i]
		}
	}
	if reg == nil {
		s.adminNotFound(w, r, t, v, "No side of "+tour.Name+" is captained by "+id+".")
		return nil, views.AdminRemoveConfirm{}, false
	}
	p := views.AdminRemoveConfirm{Slug: tour.Slug, Tournament: tour.Name, PlatformID: id, Name: reg.PersonaName,
		Disqualify: tour.Status == core.StatusGroupStage || tour.Status == core.StatusPlayoffs}
	if p.Disqualify {
		matches, err := t.Store.Matches(ctx, tour.ID)
		if err != nil {
			s.fail(w, r, t, err)
			return nil, views.AdminRemoveConfirm{}, false
		}
		for _, m := range matches {
			if !m.Status.Resolved() && m.P1 != "" && m.P2 != "" && (m.P1 == id || m.P2 == id) {
				p.OpenMatches++
			}
		}
	}
	return tour, p, true
}

// adminConfirmRemove is GET /admin/tournaments/{slug}/registrations/{platformId}/remove:
// what removing (before the draw) or disqualifying (after it) does.
func (s *Site) adminConfirmRemove(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	tour, p, ok := s.adminRemoveSideProps(w, r, t, v)
	if !ok {
		return
	}
	s.render(w, r, t, http.StatusOK, views.AdminRemoveConfirmPage(s.adminLayout(t, v, tour.Name+": remove a side"), p))
}

// adminRemoveSide is POST .../remove: core.RemoveSide, the admin API's
// DELETE of a registration.
func (s *Site) adminRemoveSide(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	tour, p, ok := s.adminRemoveSideProps(w, r, t, v)
	if !ok {
		return
	}
	ctx := r.Context()
	_, err := core.RemoveSide(ctx, t.Store, t.Store, tour, p.PlatformID, s.srv.Now(), s.srv.Random(), server.PlacementPoints(ctx, t.Store))
	if code := adminErrorCode(err); code != "" {
		p.Notice = views.AdminNotice{Error: true, Text: adminRemoveRefusals[code]}
		s.render(w, r, t, server.StatusOf(code), views.AdminRemoveConfirmPage(s.adminLayout(t, v, tour.Name+": remove a side"), p))
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

// adminRemoveRefusals explain a refused removal.
var adminRemoveRefusals = map[string]string{
	core.CodeTournamentOver:    "This tournament is over: its sides stay as they are.",
	core.CodeInvalidTransition: "The tournament moved on meanwhile; check again.",
	core.CodeNotRegistered:     "This player captains no side of the tournament.",
}

// adminSeasons is GET /admin/seasons.
func (s *Site) adminSeasons(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	s.adminRenderSeasons(w, r, t, v, http.StatusOK, views.AdminSeasons{Notice: adminNotice(r)})
}

func (s *Site) adminRenderSeasons(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer, status int, p views.AdminSeasons) {
	seasons, err := t.Store.Seasons(r.Context())
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	for _, se := range seasons {
		p.Seasons = append(p.Seasons, views.AdminSeasonRow{Slug: se.Slug, Name: se.Name, StartsAt: se.StartsAt, EndsAt: se.EndsAt})
	}
	s.render(w, r, t, status, views.AdminSeasonsPage(s.adminLayout(t, v, "Seasons"), p))
}

// adminSeasonDraft reads the season form into the admin API's draft.
func adminSeasonDraft(f views.AdminSeasonForm) core.SeasonDraft {
	return core.SeasonDraft{Slug: f.Slug, Name: f.Name, StartsAt: adminFormInstant(f.StartsAt), EndsAt: adminFormInstant(f.EndsAt)}
}

// adminSeasonFormOf reads the posted season form.
func adminSeasonFormOf(r *http.Request) views.AdminSeasonForm {
	f := r.PostFormValue
	return views.AdminSeasonForm{Slug: f("slug"), Name: f("name"), StartsAt: adminFormTime(r, "startsAt"), EndsAt: adminFormTime(r, "endsAt")}
}

// adminCreateSeason is POST /admin/seasons (core.SeasonDraft, the admin
// API's rules).
func (s *Site) adminCreateSeason(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	form := adminSeasonFormOf(r)
	draft := adminSeasonDraft(form)
	season, problems := draft.Check(s.srv.Now())
	if len(problems) == 0 {
		err := t.Store.CreateSeason(r.Context(), season)
		if adminErrorCode(err) == core.CodeSlugTaken {
			problems = core.Problems{{Code: core.CodeSlugTaken, Field: "slug", Message: "Another season has this slug."}}
		} else if err != nil {
			s.fail(w, r, t, err)
			return
		}
	}
	if len(problems) > 0 {
		form.Errors = adminProblems(problems)
		s.adminRenderSeasons(w, r, t, v, adminFormStatus(problems), views.AdminSeasons{New: form,
			Notice: views.AdminNotice{Error: true, Text: "The season was not created: see the marked fields."}})
		return
	}
	adminRedirect(w, r, "/admin/seasons", "season", "")
}

// adminSeasonFor reads the {slug} season; 404 (and nil) when there is none.
func (s *Site) adminSeasonFor(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) *core.Season {
	seasons, err := t.Store.Seasons(r.Context())
	if err != nil {
		s.fail(w, r, t, err)
		return nil
	}
	for i := range seasons {
		if seasons[i].Slug == r.PathValue("slug") {
			return &seasons[i]
		}
	}
	s.adminNotFound(w, r, t, v, "There is no season "+r.PathValue("slug")+".")
	return nil
}

// adminSeason is GET /admin/seasons/{slug}.
func (s *Site) adminSeason(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	se := s.adminSeasonFor(w, r, t, v)
	if se == nil {
		return
	}
	form := views.AdminSeasonForm{Slug: se.Slug, Name: se.Name, StartsAt: adminTimeValue(se.StartsAt), EndsAt: adminTimeValue(se.EndsAt)}
	s.render(w, r, t, http.StatusOK, views.AdminSeasonEditPage(s.adminLayout(t, v, se.Name), views.AdminSeasonEdit{Notice: adminNotice(r), Form: form}))
}

// adminEditSeason is POST /admin/seasons/{slug}: the name and dates (the
// admin API's PATCH rules; the slug stays).
func (s *Site) adminEditSeason(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	se := s.adminSeasonFor(w, r, t, v)
	if se == nil {
		return
	}
	form := adminSeasonFormOf(r)
	form.Slug = se.Slug
	draft := adminSeasonDraft(form)
	season, problems := draft.Check(s.srv.Now())
	if len(problems) > 0 {
		form.Errors = adminProblems(problems)
		s.render(w, r, t, adminFormStatus(problems), views.AdminSeasonEditPage(s.adminLayout(t, v, se.Name), views.AdminSeasonEdit{Form: form,
			Notice: views.AdminNotice{Error: true, Text: "The season was not saved: see the marked fields."}}))
		return
	}
	if err := t.Store.UpdateSeason(r.Context(), season); err != nil {
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/seasons/"+se.Slug, "season", "")
}

// adminFormStatus is the status of a form refused for its problems: the
// first problem's code's (422 invalid_field, 409 slug_taken, ...).
func adminFormStatus(problems core.Problems) int {
	return server.StatusOf(problems[0].Code)
}
