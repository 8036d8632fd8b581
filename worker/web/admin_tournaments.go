package web

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// adminMaxForm caps an admin form's body.
const adminMaxForm = 64 << 10

// adminParseForm reads a form's body (at most adminMaxForm bytes); on
// failure it answers 400 and returns false.
func (s *Site) adminParseForm(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) bool {
	r.Body = http.MaxBytesReader(w, r.Body, adminMaxForm)
	if err := r.ParseForm(); err != nil {
		tr := i18n.From(r.Context())
		s.render(w, r, t, http.StatusBadRequest, views.ErrorPage(s.adminLayout(t, v, tr.T("error.badRequest")), http.StatusBadRequest,
			tr.T("admin.tournament.form.unreadable")))
		return false
	}
	return true
}

// adminNewTournament is GET /admin/tournaments/new.
func (s *Site) adminNewTournament(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	seasons, err := t.Seasons(r.Context())
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	tr := i18n.From(r.Context())
	form := views.AdminTournamentForm{
		Action: "/admin/tournaments", Submit: tr.T("admin.tournament.form.create"),
		Values: adminNewTournamentValues(s.srv.Now()), Seasons: adminSeasonOptions(seasons),
	}
	s.render(w, r, t, http.StatusOK, views.AdminTournamentNewPage(s.adminLayout(t, v, tr.T("admin.tournament.new.title")), views.AdminTournamentNew{Form: form}))
}

// adminCreateTournament is POST /admin/tournaments: a draft from the form,
// or the form again with its messages (422; 409 for a taken slug).
func (s *Site) adminCreateTournament(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	ctx := r.Context()
	seasons, err := t.Seasons(ctx)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	values := adminTournamentValues(r)
	tr := i18n.From(ctx)
	again := func(status int, errs views.AdminFieldErrors) {
		form := views.AdminTournamentForm{Action: "/admin/tournaments", Submit: tr.T("admin.tournament.form.create"),
			Values: values, Errors: errs, Seasons: adminSeasonOptions(seasons)}
		s.render(w, r, t, status, views.AdminTournamentNewPage(s.adminLayout(t, v, tr.T("admin.tournament.new.title")), views.AdminTournamentNew{Form: form}))
	}
	tour, errs := adminTournamentFrom(i18n.From(r.Context()), values, seasons, s.srv.Now())
	if len(errs) > 0 {
		again(http.StatusUnprocessableEntity, errs)
		return
	}
	if err := t.AddTournament(ctx, tour); err != nil {
		if adminErrorCode(err) == core.CodeSlugTaken {
			again(server.StatusOf(core.CodeSlugTaken), views.AdminFieldErrors{"slug": tr.T("admin.tournament.form.slugTaken")})
			return
		}
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/tournaments/"+tour.Slug, "created", "")
}

// adminTournamentFor reads the {slug} tournament; when there is none it
// answers 404 and returns nil.
func (s *Site) adminTournamentFor(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) *core.Tournament {
	tour, err := t.Tournament(r.Context(), r.PathValue("slug"))
	if adminErrorCode(err) == core.CodeTournamentNotFound {
		s.adminNotFound(w, r, t, v, i18n.From(r.Context()).T("admin.tournament.notFound", "Slug", r.PathValue("slug")))
		return nil
	}
	if err != nil {
		s.fail(w, r, t, err)
		return nil
	}
	return tour
}

// adminTournament is GET /admin/tournaments/{slug}.
func (s *Site) adminTournament(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	tour := s.adminTournamentFor(w, r, t, v)
	if tour == nil {
		return
	}
	s.adminRenderTournament(w, r, t, v, tour, http.StatusOK, func(p *views.AdminTournament) { p.Notice = adminNotice(r) })
}

// adminSteps are the lifecycle steps in order; each button's label is
// the catalog's admin.tournament.step.<status>.
var adminSteps = []core.TournamentStatus{
	core.StatusRegistrationOpen, core.StatusRegistrationClosed, core.StatusGroupStage,
	core.StatusPlayoffs, core.StatusCompleted, core.StatusCancelled,
}

// adminSeriesText says a tournament's series' lengths and pace: "groups
// best of 1, playoffs best of 3, final best of 5; pace scheduled".
func adminSeriesText(ctx context.Context, tour *core.Tournament) string {
	tr := i18n.From(ctx)
	pace := string(tour.PacingOrDefault())
	if label := tr.T("admin.tournament.series.pace." + pace); label != "admin.tournament.series.pace."+pace {
		pace = label
	}
	return tr.T("admin.tournament.series.text", "Group", tr.Number(tour.SeriesLength(core.StageGroup)),
		"Playoff", tr.Number(tour.SeriesLength(core.StagePlayoff)), "Final", tr.Number(tour.SeriesLength(core.StageFinal)), "Pace", pace)
}

// adminRenderTournament renders the tournament page with status; adjust
// sets what the request adds (notice, a refused form as typed).
func (s *Site) adminRenderTournament(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer, tour *core.Tournament, status int, adjust func(p *views.AdminTournament)) {
	ctx := r.Context()
	desk, err := t.TournamentDesk(ctx, tour)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	regs, matches := desk.Registrations, desk.Matches
	now := s.srv.Now()
	tr := i18n.From(ctx)
	p := views.AdminTournament{
		Slug: tour.Slug, Name: tour.Name, Description: tour.Description, Status: tour.Status,
		Format: string(tour.Format), Environment: string(tour.Environment), Season: tour.SeasonSlug,
		MaxPlayers: tour.MaxPlayers, PlayerCount: len(regs), RegistrationOpensAt: tour.RegistrationOpensAt,
		RegistrationClosesAt: tour.RegistrationClosesAt, StartsAt: tour.StartsAt, StartedAt: tour.PlayStartedAt(now),
		TeamMinPlayers: tour.TeamMinPlayers, TeamMaxPlayers: tour.TeamMaxPlayers, GroupCount: tour.GroupCount,
		AdvancePerGroup: tour.AdvancePerGroup, SmallFinal: tour.SmallFinal, MatchWindowMinutes: tour.MatchWindowMinutes,
		HandMode: tour.Cast.HandMode, DelaySeconds: tour.Cast.DelaySeconds, AllowSpectators: tour.AllowSpectators,
		GrandFinalReset: tour.GrandFinalReset, SwissRounds: tour.SwissRounds, TopCut: tour.TopCut,
		SeedFromRatings: tour.SeedFromRatings,
		CheckInMinutes:  tour.CheckInMinutes, GraceMinutes: int(tour.GracePeriod(t.Arena).Minutes()), GraceOwn: tour.GracePeriodMinutes > 0, CheckInApplies: tour.CheckInApplies(), CheckInOpen: tour.CheckInOpenAt(s.srv.Now()), GroupFormat: string(tour.GroupFormat),
		Public:      tour.Status.Public(),
		CanRegister: tour.RegistrationOpenAt(now), Now: now,
		SeedsEditable: len(regs) > 0 && (tour.Status == core.StatusRegistrationOpen || tour.Status == core.StatusRegistrationClosed),
		Details:       adminDetailsFormOf(tour),
		Series:        adminSeriesText(ctx, tour),
	}
	switch tour.Status {
	case core.StatusRegistrationOpen, core.StatusRegistrationClosed:
		p.RemoveLabel = tr.T("admin.tournament.remove.remove")
	case core.StatusGroupStage, core.StatusPlayoffs:
		p.RemoveLabel = tr.T("admin.tournament.remove.disqualify")
	}
	if tour.Status == core.StatusDraft {
		p.Edit = &views.AdminTournamentForm{Action: "/admin/tournaments/" + tour.Slug, Submit: tr.T("admin.tournament.form.save"),
			Values: adminValuesOf(tour), Seasons: adminSeasonOptions(desk.Seasons)}
	}
	for _, to := range adminSteps {
		if tour.NextStatusAllowed(to) == nil {
			p.Steps = append(p.Steps, views.AdminStep{To: to, Label: tr.T("admin.tournament.step." + string(to))})
		}
	}
	names := map[string]string{}
	for _, reg := range core.RegistrationsBySeed(regs) {
		names[reg.PlatformID] = reg.PersonaName
		p.Registrations = append(p.Registrations, views.AdminRegistration{
			PlatformID: reg.PlatformID, Name: reg.PersonaName, Seed: reg.Seed, Group: reg.GroupName,
			Roster: reg.Roster, RegisteredAt: reg.RegisteredAt, Disqualified: reg.DisqualifiedAt != nil,
			CheckedIn: reg.CheckedInAt != nil,
		})
		if reg.CheckedInAt != nil {
			p.CheckedIn++
		}
	}
	for i := range matches {
		m := &matches[i]
		row := views.AdminMatchRow{
			ID: m.ID, Round: adminRoundText(ctx, m), Status: m.Status, P1: m.P1, P2: m.P2,
			P1Name: names[m.P1], P2Name: names[m.P2], OpensAt: m.OpensAt, ClosesAt: m.ClosesAt, ResultSource: m.ResultSource,
			Window: m.Window(now),
		}
		row.P1Ready, row.P2Ready = m.ReadySides()
		if m.Status.Resolved() {
			row.Winner = m.Winner
		}
		p.Matches = append(p.Matches, row)
		if m.Status == core.MatchScheduled && m.P1 != "" && m.P2 != "" && m.Window(now) != core.WindowOpen && !slices.Contains(p.OpenRounds, m.Round) {
			p.OpenRounds = append(p.OpenRounds, m.Round)
		}
	}
	if adjust != nil {
		adjust(&p)
	}
	s.render(w, r, t, status, views.AdminTournamentPage(s.adminLayout(t, v, tour.Name), p))
}

// adminUpdateTournament is POST /admin/tournaments/{slug}: saves a draft's
// settings. A tournament past draft is refused (409): players signed up
// under its settings.
func (s *Site) adminUpdateTournament(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	tour := s.adminTournamentFor(w, r, t, v)
	if tour == nil {
		return
	}
	tr := i18n.From(r.Context())
	notDraft := func() {
		s.adminRenderTournament(w, r, t, v, tour, server.StatusOf(core.CodeTournamentNotDraft), func(p *views.AdminTournament) {
			p.Notice = views.AdminNotice{Error: true, Text: tr.T("admin.tournament.notDraft", "Status", adminStatusInSentence(r.Context(), tour.Status))}
		})
	}
	if tour.Status != core.StatusDraft {
		notDraft()
		return
	}
	ctx := r.Context()
	seasons, err := t.Seasons(ctx)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	values := adminTournamentValues(r)
	again := func(status int, errs views.AdminFieldErrors) {
		s.adminRenderTournament(w, r, t, v, tour, status, func(p *views.AdminTournament) {
			p.Edit.Values, p.Edit.Errors = values, errs
			p.Notice = views.AdminNotice{Error: true, Text: tr.T("admin.tournament.notSaved")}
		})
	}
	now := s.srv.Now()
	edited, errs := adminTournamentFrom(i18n.From(r.Context()), values, seasons, now)
	if len(errs) > 0 {
		again(http.StatusUnprocessableEntity, errs)
		return
	}
	edited.ID, edited.Status, edited.CreatedAt = tour.ID, tour.Status, tour.CreatedAt
	switch err := t.SaveDraftTournament(ctx, edited); adminErrorCode(err) {
	case "":
		if err != nil {
			s.fail(w, r, t, err)
			return
		}
	case core.CodeSlugTaken:
		again(server.StatusOf(core.CodeSlugTaken), views.AdminFieldErrors{"slug": tr.T("admin.tournament.form.slugTaken")})
		return
	case core.CodeTournamentNotDraft:
		if tour, err = t.TournamentByID(ctx, tour.ID); err != nil {
			s.fail(w, r, t, err)
			return
		}
		notDraft()
		return
	default:
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/tournaments/"+edited.Slug, "saved", "")
}

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
		GracePeriodMinutes: adminMinutesOrEmpty(t.GracePeriodMinutes),
		Schedule:           t.Status == core.StatusRegistrationOpen || t.Status == core.StatusRegistrationClosed,
	}
}

// adminMinutesOrEmpty is a duration a form shows empty when it is 0 (the
// default it stands for).
func adminMinutesOrEmpty(minutes int) string {
	if minutes <= 0 {
		return ""
	}
	return strconv.Itoa(minutes)
}

// adminDetailsFields names the details form's inputs by the edit's fields.
var adminDetailsFields = map[string]string{
	"name": "detailsName", "description": "detailsDescription", "registrationOpensAt": "detailsRegistrationOpensAt",
	"registrationClosesAt": "detailsRegistrationClosesAt", "startsAt": "detailsStartsAt",
	"checkInMinutes": "detailsCheckInMinutes", "gracePeriodMinutes": "detailsGracePeriodMinutes",
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
	tr := i18n.From(r.Context())
	form := adminDetailsFormOf(tour)
	if form == nil {
		s.adminRenderTournament(w, r, t, v, tour, server.StatusOf(core.CodeTournamentOver), func(p *views.AdminTournament) {
			p.Notice = views.AdminNotice{Error: true, Text: tr.T("admin.tournament.details.notEditable")}
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
	form.GracePeriodMinutes = adminFormMinutes(r, "detailsGracePeriodMinutes")
	edit.GracePeriodMinutes = core.NumberText(form.GracePeriodMinutes)
	again := func(status int, text string, problems core.Problems) {
		form.Errors = views.AdminFieldErrors{}
		for field, msg := range problems.ByField(i18n.From(r.Context())) {
			form.Errors[adminDetailsFields[field]] = msg
		}
		s.adminRenderTournament(w, r, t, v, tour, status, func(p *views.AdminTournament) {
			p.Details = form
			p.Notice = views.AdminNotice{Error: true, Text: text}
		})
	}
	if _, problems := edit.Apply(*tour, s.srv.Now()); len(problems) > 0 {
		again(adminFormStatus(problems), tr.T("admin.tournament.details.notSaved"), problems)
		return
	}
	_, err := t.EditTournamentDetails(r.Context(), tour, &edit)
	if adminErrorCode(err) == core.CodeInvalidTransition {
		again(server.StatusOf(core.CodeInvalidTransition), tr.T("admin.tournament.details.movedOn"), nil)
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/tournaments/"+tour.Slug, "details", "settings-title")
}

// adminOpenRound is POST /admin/tournaments/{slug}/open-round: opens now
// every scheduled match of the round (its label, as the admin API's
// open-round takes it) whose sides are known (core.OpenRound).
func (s *Site) adminOpenRound(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	tour := s.adminTournamentFor(w, r, t, v)
	if tour == nil {
		return
	}
	round := strings.TrimSpace(r.PostFormValue("round"))
	code := core.CodeRoundNotFound
	var err error
	if round != "" {
		_, err = t.OpenRound(r.Context(), tour, round)
		code = adminErrorCode(err)
	}
	if code == core.CodeRoundNotFound {
		s.adminRenderTournament(w, r, t, v, tour, server.StatusOf(code), func(p *views.AdminTournament) {
			p.Notice = views.AdminNotice{Error: true, Text: adminMatchRefusal(r.Context(), code)}
		})
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/tournaments/"+tour.Slug, "round-opened", "matches-title")
}
