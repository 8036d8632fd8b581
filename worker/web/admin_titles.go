package web

import (
	"net/http"
	"strings"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// adminTitlesPage lists the arena's titles for the admin.
func (s *Site) adminTitlesPage(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	s.adminRenderTitles(w, r, t, v, http.StatusOK, views.AdminTitles{Notice: adminNotice(r)})
}

func (s *Site) adminRenderTitles(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer, status int, p views.AdminTitles) {
	ctx := r.Context()
	board, err := t.AdminTitles(ctx)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	book := publicBook(board.Players)
	for _, title := range board.Titles {
		row := views.AdminTitleRow{
			ID: title.ID, Slug: title.Slug, Name: title.Name, Environment: string(title.Environment),
			HolderID: title.Holder, ClockExpiresAt: title.ClockExpiresAt(), Challenged: title.OpenChallenge != nil,
			Reigns: len(title.Lineage), RetiredAt: title.RetiredAt,
		}
		if title.Holder != "" {
			row.HolderName = book.player(title.Holder).Name
		}
		if title.Match != nil {
			row.MatchID = title.Match.ID
		}
		p.Titles = append(p.Titles, row)
	}
	if p.Environment == "" {
		p.Environment = string(core.DefaultEnvironment)
	}
	s.render(w, r, t, status, views.AdminTitlesPage(s.adminLayout(t, v, i18n.From(ctx).T("admin.titles.title")), p))
}

// adminCreateTitle is POST /admin/titles: every problem of the form next
// to its field, or the new title.
func (s *Site) adminCreateTitle(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	tr := i18n.From(r.Context())
	draft := core.TitleDraft{Slug: strings.TrimSpace(r.PostFormValue("slug")), Name: r.PostFormValue("name"),
		Environment: core.Environment(r.PostFormValue("environment"))}
	again := views.AdminTitles{Slug: draft.Slug, Name: draft.Name, Environment: string(draft.Environment),
		Notice: views.AdminNotice{Error: true, Text: tr.T("admin.titles.error.notCreated")}}
	title, problems := draft.Check(s.srv.Now())
	if len(problems) > 0 {
		again.Errors = adminProblems(i18n.From(r.Context()), problems)
		s.adminRenderTitles(w, r, t, v, http.StatusUnprocessableEntity, again)
		return
	}
	err := t.AddTitle(r.Context(), title)
	if adminErrorCode(err) == core.CodeSlugTaken {
		again.Errors = views.AdminFieldErrors{"slug": tr.T("admin.titles.error.slugTaken")}
		s.adminRenderTitles(w, r, t, v, server.StatusOf(core.CodeSlugTaken), again)
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/titles", "title-created", "")
}

// adminRetireTitle is POST /admin/titles/{id}/retire.
func (s *Site) adminRetireTitle(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	id, err := core.ParseTitleID(r.PathValue("id"), core.CodeTitleNotFound)
	if err == nil {
		_, err = t.RetireTitle(r.Context(), id)
	}
	switch adminErrorCode(err) {
	case "":
		if err != nil {
			s.fail(w, r, t, err)
			return
		}
		adminRedirect(w, r, "/admin/titles", "title-retired", "")
	case core.CodeTitleNotFound:
		s.adminNotFound(w, r, t, v, i18n.From(r.Context()).T("admin.titles.error.notFound", "ID", r.PathValue("id")))
	default:
		s.fail(w, r, t, err)
	}
}
