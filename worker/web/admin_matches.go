package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// adminMatchID reads the {id} path value: a positive integer, else 0.
func adminMatchID(r *http.Request) int64 {
	id, err := core.ParseMatchID(r.PathValue("id"))
	if err != nil {
		return 0
	}
	return id
}

// adminMatchFor reads the {id} match; when there is none it answers 404
// and returns nil.
func (s *Site) adminMatchFor(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) *core.Match {
	id := adminMatchID(r)
	m, err := t.Match(r.Context(), id)
	if id == 0 || adminErrorCode(err) == core.CodeMatchNotFound {
		s.adminNotFound(w, r, t, v, i18n.From(r.Context()).T("admin.match.notFound"))
		return nil
	}
	if err != nil {
		s.fail(w, r, t, err)
		return nil
	}
	return m
}

// adminMatchGone answers 404 when err is a use case's answer that the
// {id} match is not there, and reports whether it did.
func (s *Site) adminMatchGone(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer, err error) bool {
	if adminErrorCode(err) != core.CodeMatchNotFound {
		return false
	}
	s.adminNotFound(w, r, t, v, i18n.From(r.Context()).T("admin.match.notFound"))
	return true
}

// adminMatch is GET /admin/matches/{id}.
func (s *Site) adminMatch(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	s.adminRenderMatch(w, r, t, v, http.StatusOK, func(p *views.AdminMatch) { p.Notice = adminNotice(r) })
}

// adminRenderMatch renders the match page with status; adjust sets what
// the request adds.
func (s *Site) adminRenderMatch(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer, status int, adjust func(p *views.AdminMatch)) {
	ctx := r.Context()
	tr := i18n.From(ctx)
	id := adminMatchID(r)
	if id == 0 {
		s.adminNotFound(w, r, t, v, tr.T("admin.match.notFound"))
		return
	}
	om, err := t.OrganizerMatch(ctx, id)
	if adminErrorCode(err) == core.CodeMatchNotFound {
		s.adminNotFound(w, r, t, v, tr.T("admin.match.notFoundID", "ID", r.PathValue("id")))
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	st, subs := om.MatchState, om.Submissions
	m := &st.Match
	p := views.AdminMatch{
		ID: m.ID, TournamentSlug: st.Tournament.Slug, TournamentName: st.Tournament.Name, Round: adminRoundText(ctx, m),
		Title:  st.Tournament.Format == core.FormatTitle,
		Status: m.Status, P1: m.P1, P2: m.P2, P1Name: st.P1Name, P2Name: st.P2Name,
		P1Roster: st.P1Roster, P2Roster: st.P2Roster, OpensAt: m.OpensAt, ClosesAt: m.ClosesAt,
		P1ReadyAt: m.P1ReadyAt, P2ReadyAt: m.P2ReadyAt, LiveAt: m.LiveAt, EndedAt: m.EndedAt, ResolvedAt: m.ResolvedAt,
		CanResolve:  !m.Status.Resolved() && m.P1 != "" && m.P2 != "",
		ViewerPlays: st.SideOf(v.PlatformID) != 0,
	}
	if !m.Status.Resolved() {
		p.Reschedule = &views.AdminRescheduleForm{OpensAt: adminTimeValue(m.OpensAt), ClosesAt: adminTimeValue(m.ClosesAt)}
	}
	if m.Status.Resolved() {
		p.Winner, p.ResultSource = m.Winner, m.ResultSource
		if m.Score != nil {
			p.HasScore, p.ScoreP1, p.ScoreP2 = true, m.Score.P1, m.Score.P2
		}
	}
	nameOf := func(id string) string {
		switch {
		case id == "":
			return ""
		case id == m.P1:
			return st.P1Name
		case id == m.P2:
			return st.P2Name
		}
		return ""
	}
	if n := m.SeriesLen(); n > 1 {
		so := m.Series()
		p.BestOf, p.SeriesP1, p.SeriesP2 = n, so.P1, so.P2
		if !m.Status.Resolved() {
			p.Game = m.CurrentGame()
		}
		for _, g := range m.GamesShown() {
			ag := views.AdminGame{Number: g.Game, Status: g.Status, Winner: g.Winner, WinnerName: nameOf(g.Winner), Source: g.ResultSource}
			if g.Score != nil {
				ag.HasScore, ag.ScoreP1, ag.ScoreP2 = true, g.Score.P1, g.Score.P2
			}
			p.Games = append(p.Games, ag)
		}
	}
	p.CanReopen = adminReopenable(st.Tournament.Format, m)
	for i := range subs {
		sub := &subs[i]
		if sub.Side != 1 && sub.Side != 2 {
			continue
		}
		p.Submissions[sub.Side-1] = &views.AdminSubmission{
			SubmitterID: sub.SubmitterID, SubmitterName: nameOf(sub.SubmitterID), AppID: sub.AppID,
			ClientRole: sub.ClientRole, Result: sub.Result, ResultHash: sub.ResultHash,
			Winner: sub.WinnerID, WinnerName: nameOf(sub.WinnerSideID),
			StartedAt: sub.StartedAt, EndedAt: sub.EndedAt, ReceivedAt: sub.ReceivedAt,
		}
	}
	if rep := om.Report; rep != nil {
		ar := views.AdminReport{
			Side: rep.Side, ReporterID: rep.ReporterID, ReporterName: nameOf(rep.ReporterID),
			Winner: rep.Winner, WinnerName: nameOf(rep.Winner), Status: rep.Status,
			ReportedAt: rep.ReportedAt, DecidedAt: rep.DecidedAt, DecidedBy: rep.DecidedBy, DecidedByName: nameOf(rep.DecidedBy),
			DisputeReason: rep.DisputeReason,
		}
		p.CanAcceptReport = p.CanResolve
		if rep.Score != nil {
			ar.ScoreP1, ar.ScoreP2 = &rep.Score.P1, &rep.Score.P2
		}
		p.Reports = append(p.Reports, ar)
	}
	p.Casters.Open = !m.Status.Resolved() && st.Tournament.AllowSpectators
	for _, c := range om.Casters {
		p.Casters.Casters = append(p.Casters.Casters, views.Caster{Name: c.StreamLogin, StreamURL: core.StreamURL(c.StreamLogin), Source: c.Source})
	}
	if adjust != nil {
		adjust(&p)
	}
	s.render(w, r, t, status, views.AdminMatchPage(s.adminLayout(t, v, tr.T("admin.match.title", "ID", strconv.FormatInt(id, 10))), p))
}

// adminResolveMatch is POST /admin/matches/{id}/resolve: the admin's
// decision through core.ResolveMatch (result source admin; status
// forfeited when the forfeit box is ticked). With game (the series' game
// form) it decides that game only, the one being played (409
// game_not_current for another). A resolved match answers 409
// already_resolved: reopening it is its own step. With back=tournament
// (the tournament page's score dialog) a decision returns to the
// tournament page; a refusal renders the match page, the fallback.
func (s *Site) adminResolveMatch(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	form := views.AdminResolveForm{
		Winner: strings.TrimSpace(r.PostFormValue("winner")), ScoreP1: strings.TrimSpace(r.PostFormValue("scoreP1")),
		ScoreP2: strings.TrimSpace(r.PostFormValue("scoreP2")), Forfeit: r.PostFormValue("forfeit") != "",
		Errors: views.AdminFieldErrors{},
	}
	game := strings.TrimSpace(r.PostFormValue("game"))
	tr := i18n.From(r.Context())
	notDone, done := tr.T("admin.match.resolve.notResolved"), "resolved"
	if game != "" {
		notDone, done = tr.T("admin.match.resolve.notDecided"), "game-decided"
	}
	again := func(status int, notice string) {
		s.adminRenderMatch(w, r, t, v, status, func(p *views.AdminMatch) {
			if game != "" {
				p.ResolveGame = form
			} else {
				p.Resolve = form
			}
			p.Notice = views.AdminNotice{Error: true, Text: notice}
		})
	}
	ctx := r.Context()
	id := adminMatchID(r)
	draft := core.ResolutionDraft{Winner: form.Winner, Forfeit: form.Forfeit}
	if game != "" {
		draft.Game = core.NumberText(game)
	}
	if form.ScoreP1 != "" || form.ScoreP2 != "" {
		draft.Score = &core.ScoreDraft{P1: core.NumberText(form.ScoreP1), P2: core.NumberText(form.ScoreP2)}
	}
	res, problems := draft.Check(s.srv.Now())
	if len(problems) > 0 {
		form.Errors = adminProblems(i18n.From(r.Context()), problems)
		again(http.StatusUnprocessableEntity, notDone)
		return
	}
	_, tour, err := t.ResolveMatch(ctx, id, res)
	if s.adminMatchGone(w, r, t, v, err) {
		return
	}
	switch adminErrorCode(err) {
	case "":
		if err != nil {
			s.fail(w, r, t, err)
			return
		}
	case core.CodeAlreadyResolved, core.CodeGameNotCurrent:
		code := adminErrorCode(err)
		form.Errors = nil
		again(server.StatusOf(code), adminMatchRefusal(ctx, code))
		return
	case core.CodeInvalidWinner:
		form.Errors["winner"] = adminErrorMessage(r.Context(), err)
		again(http.StatusUnprocessableEntity, notDone)
		return
	default:
		s.fail(w, r, t, err)
		return
	}
	if r.PostFormValue("back") == "tournament" && tour.Format != core.FormatTitle {
		// The admin tournament page's score dialog: back to the page, at
		// the match's row.
		adminRedirect(w, r, "/admin/tournaments/"+tour.Slug, done, "match-"+strconv.FormatInt(id, 10))
		return
	}
	adminRedirect(w, r, "/admin/matches/"+strconv.FormatInt(id, 10), done, "")
}

// adminConfirmReopen is GET /admin/matches/{id}/reopen: what reopening
// the decided match does, and the button doing it.
func (s *Site) adminConfirmReopen(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	m := s.adminMatchFor(w, r, t, v)
	if m == nil {
		return
	}
	page := "/admin/matches/" + strconv.FormatInt(m.ID, 10)
	tour, err := t.TournamentByID(r.Context(), m.TournamentID)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	if !adminReopenable(tour.Format, m) {
		s.adminRenderMatch(w, r, t, v, server.StatusOf(core.CodeInvalidTransition), func(p *views.AdminMatch) {
			p.Notice = views.AdminNotice{Error: true, Text: adminMatchRefusal(r.Context(), core.CodeInvalidTransition)}
		})
		return
	}
	ctx := r.Context()
	tr := i18n.From(ctx)
	p := views.AdminConfirm{
		Title: tr.T("admin.match.reopen.title", "ID", strconv.FormatInt(m.ID, 10)),
		Effects: []templ.Component{
			views.AdminHTML(ctx, "admin.match.reopen.rescheduled"),
			views.AdminHTML(ctx, "admin.match.reopen.sidesLeave"),
			views.AdminHTML(ctx, "admin.match.reopen.playsOn"),
			views.AdminHTML(ctx, "admin.match.reopen.refused"),
		},
		Action: page + "/reopen", Button: tr.T("admin.match.reopen.button"), Back: page,
	}
	s.render(w, r, t, http.StatusOK, views.AdminConfirmPage(s.adminLayout(t, v, tr.T("admin.match.reopen.pageTitle")), p))
}

// adminReopenable tells whether the page offers to reopen m: a decided
// match, not a bye, not a title's. core.ReopenMatch holds the rule (and
// refuses the rest, invalid_transition); this only hides a button it
// would refuse.
func adminReopenable(format core.TournamentFormat, m *core.Match) bool {
	return m.Status.Resolved() && m.ResultSource != core.SourceBye && format != core.FormatTitle
}

// adminReopenMatch is POST /admin/matches/{id}/reopen: takes the decided
// match back (core.ReopenMatch, the admin API's rules); a refusal (409
// downstream_started, invalid_transition) shows the match page with why.
func (s *Site) adminReopenMatch(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	ctx := r.Context()
	id := adminMatchID(r)
	_, err := t.ReopenMatch(ctx, id, "")
	if s.adminMatchGone(w, r, t, v, err) {
		return
	}
	if code := adminErrorCode(err); code != "" {
		msg := adminMatchRefusal(ctx, code)
		if msg == "" {
			s.fail(w, r, t, err)
			return
		}
		s.adminRenderMatch(w, r, t, v, server.StatusOf(code), func(p *views.AdminMatch) {
			p.Notice = views.AdminNotice{Error: true, Text: msg}
		})
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/matches/"+strconv.FormatInt(id, 10), "reopened", "")
}

// adminAcceptReport is POST /admin/matches/{id}/accept-report: the admin's
// decision for the result a player reported (core.AcceptReport).
func (s *Site) adminAcceptReport(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	ctx := r.Context()
	id := adminMatchID(r)
	_, err := t.AcceptReport(ctx, id)
	if s.adminMatchGone(w, r, t, v, err) {
		return
	}
	if code := adminErrorCode(err); code != "" {
		s.adminRenderMatch(w, r, t, v, server.StatusOf(code), func(p *views.AdminMatch) {
			p.Notice = views.AdminNotice{Error: true, Text: adminMatchRefusal(ctx, code)}
		})
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/matches/"+strconv.FormatInt(id, 10), "resolved", "")
}

// adminConfirmAcceptReport is GET /admin/matches/{id}/accept-report: the
// reported result the admin is about to make final, and the button that
// does it (a decision that cannot be undone asks first, as the lifecycle's
// steps do).
func (s *Site) adminConfirmAcceptReport(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	ctx := r.Context()
	m := s.adminMatchFor(w, r, t, v)
	if m == nil {
		return
	}
	page := "/admin/matches/" + strconv.FormatInt(m.ID, 10)
	rep, names, err := t.ReportToAccept(ctx, m)
	if code := adminErrorCode(err); code == core.CodeNoReport || (err == nil && (rep == nil || m.Status.Resolved())) {
		code = core.CodeNoReport
		if m.Status.Resolved() {
			code = core.CodeAlreadyResolved
		}
		s.adminRenderMatch(w, r, t, v, server.StatusOf(code), func(p *views.AdminMatch) {
			p.Notice = views.AdminNotice{Error: true, Text: adminMatchRefusal(ctx, code)}
		})
		return
	} else if err != nil {
		s.fail(w, r, t, err)
		return
	}
	name := func(id string) any { return views.AdminName(orPlaceholder(names[id].PersonaName, id)) }
	loser := m.P1
	if rep.Winner == m.P1 {
		loser = m.P2
	}
	tr := i18n.From(ctx)
	result := views.AdminHTML(ctx, "admin.match.acceptReport.result", "Winner", name(rep.Winner), "Loser", name(loser), "Reporter", name(rep.ReporterID))
	if rep.Score != nil {
		result = views.AdminHTML(ctx, "admin.match.acceptReport.resultScore", "Winner", name(rep.Winner), "Loser", name(loser),
			"P1", strconv.Itoa(rep.Score.P1), "P2", strconv.Itoa(rep.Score.P2), "Reporter", name(rep.ReporterID))
	}
	p := views.AdminConfirm{
		Title: tr.T("admin.match.acceptReport.title", "ID", strconv.FormatInt(m.ID, 10)),
		Effects: []templ.Component{
			result,
			views.AdminHTML(ctx, "admin.match.acceptReport.movesOn"),
			views.AdminHTML(ctx, "admin.match.acceptReport.onlyReopen"),
		},
		Action: page + "/accept-report", Button: tr.T("admin.match.acceptReport.button"), Back: page,
	}
	s.render(w, r, t, http.StatusOK, views.AdminConfirmPage(s.adminLayout(t, v, tr.T("admin.match.acceptReport.pageTitle")), p))
}

// adminMatchRefusals explain the refusals of the match actions (deciding
// a match or one of its games, accepting a report, reopening a match,
// opening a round): one sentence per code, the catalog's message.
var adminMatchRefusals = map[string]string{
	core.CodeNoReport:          "admin.match.refused.noReport",
	core.CodeAlreadyResolved:   "admin.match.refused.alreadyResolved",
	core.CodeInvalidWinner:     "admin.match.refused.invalidWinner",
	core.CodeGameNotCurrent:    "admin.match.refused.gameNotCurrent",
	core.CodeDownstreamStarted: "admin.match.refused.downstreamStarted",
	core.CodeInvalidTransition: "admin.match.refused.invalidTransition",
	core.CodeRoundNotFound:     "admin.match.refused.roundNotFound",
}

// adminMatchRefusal explains a match action's refusal with code in the
// request's locale; "" for a code adminMatchRefusals does not explain.
func adminMatchRefusal(ctx context.Context, code string) string {
	return adminRefusal(ctx, adminMatchRefusals, code)
}

// adminMoveWindow is POST /admin/matches/{id}/window: moves an undecided
// match's window (core.Reschedule, the admin API's rules).
func (s *Site) adminMoveWindow(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	ctx := r.Context()
	id := adminMatchID(r)
	form := views.AdminRescheduleForm{OpensAt: adminFormTime(r, "opensAt"), ClosesAt: adminFormTime(r, "closesAt")}
	draft := core.WindowDraft{OpensAt: adminFormInstant(form.OpensAt), ClosesAt: adminFormInstant(form.ClosesAt)}
	_, err := t.RescheduleMatch(ctx, id, draft)
	if s.adminMatchGone(w, r, t, v, err) {
		return
	}
	if code := adminErrorCode(err); code != "" {
		if field := adminErrorField(err); field != "" {
			form.Errors = views.AdminFieldErrors{field: adminErrorMessage(r.Context(), err)}
		}
		s.adminRenderMatch(w, r, t, v, server.StatusOf(code), func(p *views.AdminMatch) {
			if p.Reschedule != nil {
				*p.Reschedule = form
			}
			// The reason is core's message (in English) when it gives one.
			tr := i18n.From(ctx)
			p.Notice = views.AdminNotice{Error: true, Text: tr.T("admin.match.reschedule.notMoved",
				"Reason", adminOr(adminErrorMessage(r.Context(), err), tr.T("admin.match.reschedule.resolved")))}
		})
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/matches/"+strconv.FormatInt(id, 10), "window", "decision")
}

// adminOr is s, or fallback when s is empty.
func adminOr(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// adminAddCaster is POST /admin/matches/{id}/casters: the arena's
// official channel (core.AddArenaCaster, as the admin API).
func (s *Site) adminAddCaster(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	id := adminMatchID(r)
	login := strings.TrimSpace(r.PostFormValue("streamLogin"))
	_, err := t.AddArenaCaster(r.Context(), id, login)
	if err != nil {
		msg := streamMessageIn(i18n.From(r.Context()), err)
		if msg == "" {
			s.fail(w, r, t, err)
			return
		}
		s.adminRenderMatch(w, r, t, v, server.StatusOf(core.ErrorCode(err)), func(p *views.AdminMatch) {
			p.Casters.Login, p.Casters.Error = login, msg
		})
		return
	}
	adminRedirect(w, r, "/admin/matches/"+strconv.FormatInt(id, 10), "caster", "casters")
}
