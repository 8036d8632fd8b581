package web

import (
	"net/http"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// adminSeasons is GET /admin/seasons.
func (s *Site) adminSeasons(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	s.adminRenderSeasons(w, r, t, v, http.StatusOK, views.AdminSeasons{Notice: adminNotice(r)})
}

func (s *Site) adminRenderSeasons(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer, status int, p views.AdminSeasons) {
	seasons, err := t.Seasons(r.Context())
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	for _, se := range seasons {
		p.Seasons = append(p.Seasons, views.AdminSeasonRow{Slug: se.Slug, Name: se.Name, StartsAt: se.StartsAt, EndsAt: se.EndsAt})
	}
	s.render(w, r, t, status, views.AdminSeasonsPage(s.adminLayout(t, v, i18n.From(r.Context()).T("admin.seasons.title")), p))
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
	tr := i18n.From(r.Context())
	form := adminSeasonFormOf(r)
	draft := adminSeasonDraft(form)
	season, problems := draft.Check(s.srv.Now())
	if len(problems) == 0 {
		err := t.CreateSeason(r.Context(), season)
		if adminErrorCode(err) == core.CodeSlugTaken {
			problems = core.Problems{{Code: core.CodeSlugTaken, Field: "slug", Message: tr.T("admin.seasons.error.slugTaken")}}
		} else if err != nil {
			s.fail(w, r, t, err)
			return
		}
	}
	if len(problems) > 0 {
		form.Errors = adminProblems(i18n.From(r.Context()), problems)
		s.adminRenderSeasons(w, r, t, v, adminFormStatus(problems), views.AdminSeasons{New: form,
			Notice: views.AdminNotice{Error: true, Text: tr.T("admin.seasons.error.notCreated")}})
		return
	}
	adminRedirect(w, r, "/admin/seasons", "season", "")
}

// adminSeasonFor reads the {slug} season; 404 (and nil) when there is none.
func (s *Site) adminSeasonFor(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) *core.Season {
	seasons, err := t.Seasons(r.Context())
	if err != nil {
		s.fail(w, r, t, err)
		return nil
	}
	for i := range seasons {
		if seasons[i].Slug == r.PathValue("slug") {
			return &seasons[i]
		}
	}
	s.adminNotFound(w, r, t, v, i18n.From(r.Context()).T("admin.seasons.error.notFound", "Slug", r.PathValue("slug")))
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
		form.Errors = adminProblems(i18n.From(r.Context()), problems)
		s.render(w, r, t, adminFormStatus(problems), views.AdminSeasonEditPage(s.adminLayout(t, v, se.Name), views.AdminSeasonEdit{Form: form,
			Notice: views.AdminNotice{Error: true, Text: i18n.From(r.Context()).T("admin.seasons.error.notSaved")}}))
		return
	}
	if err := t.UpdateSeason(r.Context(), season); err != nil {
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/seasons/"+se.Slug, "season", "")
}
