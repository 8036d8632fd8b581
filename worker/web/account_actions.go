package web

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"arena/app"
	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// The players' actions. Each one: read the form, require a signed-in
// player (a visitor is sent to sign in, coming back to the page), call the
// same core rule as the API, then redirect back to the page with a notice
// (303, see noticeMessages), or answer a page showing the action's box
// again with the refusal's message (4xx).

// actionStart reads the form and the viewer. next is the form's return
// page when it is local, else fallback. ok is false when the request was
// answered (bad form, or a visitor redirected to sign in).
func (s *Site) actionStart(w http.ResponseWriter, r *http.Request, t *server.Tenant, fallback string) (viewer, next string, ok bool) {
	if !s.parseForm(w, r, t) {
		return "", "", false
	}
	w.Header().Set("Cache-Control", "no-store")
	next = safeNext(r.PostFormValue("next"))
	if next == "" {
		next = fallback
	}
	viewer = s.sessionPlayer(r, t)
	if viewer == "" {
		s.signInFirst(w, r, t, next)
		return "", "", false
	}
	return viewer, next, true
}

// actionTournament returns the tournament of the {slug} path value, or
// answers the 404 page (unknown slug, or a draft).
func (s *Site) actionTournament(w http.ResponseWriter, r *http.Request, t *server.Tenant) (*core.Tournament, bool) {
	tour, err := t.PublicTournament(r.Context(), r.PathValue("slug"))
	if core.ErrorCode(err) == core.CodeTournamentNotFound {
		tr := i18n.From(r.Context())
		s.render(w, r, t, http.StatusNotFound, views.ErrorPage(s.layout(r, t, tr.T("error.notFound")), http.StatusNotFound, tr.T("account.error.noTournament")))
		return nil, false
	}
	if err != nil {
		s.fail(w, r, t, err)
		return nil, false
	}
	return tour, true
}

// registerAction registers the viewer's side: the viewer as captain, plus
// the roster field's ids in team tournaments. Same rules and errors as the
// admin API (core.Register).
func (s *Site) registerAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	tour, ok := s.actionTournament(w, r, t)
	if !ok {
		return
	}
	viewer, next, ok := s.actionStart(w, r, t, "/tournaments/"+tour.Slug)
	if !ok {
		return
	}
	ctx := r.Context()
	rosterText := r.PostFormValue("roster")
	var roster []string
	if tour.IsTeam() {
		roster = core.ListText(rosterText)
	}
	if err := t.RegisterPlayer(ctx, tour, viewer, roster); err != nil {
		s.tournamentActionRefused(w, r, t, tour, viewer, next, rosterText, err)
		return
	}
	if err := s.refreshSummaries(ctx, t, append([]string{viewer}, roster...), false); err != nil {
		s.cfg.Logger.WarnContext(ctx, "player summaries unavailable", slog.String("arena", t.Arena.Slug), slog.String("error", err.Error()))
	}
	http.Redirect(w, r, withNotice(next, "registered"), http.StatusSeeOther)
}

// withdrawAction takes the viewer's side out while registration is open
// (captains only).
func (s *Site) withdrawAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	s.sideAction(w, r, t, "withdrawn", func(ctx context.Context, tour *core.Tournament, viewer string) error {
		return t.WithdrawPlayer(ctx, tour, viewer)
	})
}

// checkInAction checks the viewer's side in (core.CheckIn, the game
// client's rule).
func (s *Site) checkInAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	s.sideAction(w, r, t, "checked_in", func(ctx context.Context, tour *core.Tournament, viewer string) error {
		return t.CheckIn(ctx, tour, nil, viewer)
	})
}

// sideAction runs one of the viewer's actions on their side of the
// tournament in the path and returns to the page with notice, or shows
// why it was refused.
func (s *Site) sideAction(w http.ResponseWriter, r *http.Request, t *server.Tenant, notice string,
	apply func(ctx context.Context, tour *core.Tournament, viewer string) error) {
	tour, ok := s.actionTournament(w, r, t)
	if !ok {
		return
	}
	viewer, next, ok := s.actionStart(w, r, t, "/tournaments/"+tour.Slug)
	if !ok {
		return
	}
	if err := apply(r.Context(), tour, viewer); err != nil {
		s.tournamentActionRefused(w, r, t, tour, viewer, next, "", err)
		return
	}
	http.Redirect(w, r, withNotice(next, notice), http.StatusSeeOther)
}

// parseRoster reads the roster field: ids one per line, or separated by
// commas, semicolons or spaces.

// tournamentActionRefused answers a refused registration action: the
// registration box again with the message (the roster as typed).
func (s *Site) tournamentActionRefused(w http.ResponseWriter, r *http.Request, t *server.Tenant, tour *core.Tournament, viewer, next, roster string, err error) {
	message := actionMessageIn(i18n.From(r.Context()), err)
	if message == "" {
		s.fail(w, r, t, err)
		return
	}
	regs, rerr := t.Registrations(r.Context(), tour.ID)
	if rerr != nil {
		s.fail(w, r, t, rerr)
		return
	}
	p := s.tournamentActionsProps(t, tour, regs, viewer, next)
	if p == nil {
		p = &views.TournamentActionsProps{Slug: tour.Slug, Next: next, State: views.TournamentNotOpen}
	}
	p.Error, p.Roster = message, roster
	s.render(w, r, t, server.StatusOf(core.ErrorCode(err)), views.AccountActionPage(s.layout(r, t, tour.Name), next, views.TournamentActions(*p)))
}

// matchAction is one action on the {id} match by the signed-in viewer;
// it returns the notice code to redirect with, or the refusal.
type matchAction func(r *http.Request, t *server.Tenant, st *core.MatchState, viewer string) (string, error)

// matchActionRoute reads the match and the viewer, runs act, and answers.
func (s *Site) matchActionRoute(act matchAction) func(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	return func(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
		id, err := core.ParseMatchID(r.PathValue("id"))
		if err != nil {
			s.noMatchHere(w, r, t)
			return
		}
		page := "/matches/" + strconv.FormatInt(id, 10)
		viewer, next, ok := s.actionStart(w, r, t, page)
		if !ok {
			return
		}
		ctx := r.Context()
		st, err := t.MatchState(ctx, id)
		if core.ErrorCode(err) == core.CodeMatchNotFound {
			s.noMatchHere(w, r, t)
			return
		}
		if err != nil {
			s.fail(w, r, t, err)
			return
		}
		code, err := act(r, t, st, viewer)
		if err != nil {
			s.matchActionRefused(w, r, t, id, viewer, next, err)
			return
		}
		http.Redirect(w, r, withMatchNotice(next, code, id), http.StatusSeeOther)
	}
}

// noMatchHere is the 404 page of a match action on no match.
func (s *Site) noMatchHere(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	tr := i18n.From(r.Context())
	s.render(w, r, t, http.StatusNotFound, views.ErrorPage(s.layout(r, t, tr.T("error.notFound")), http.StatusNotFound, tr.T("account.error.noMatch")))
}

// matchActionRefused answers a refused match action: the match box as the
// match now stands, with the message.
func (s *Site) matchActionRefused(w http.ResponseWriter, r *http.Request, t *server.Tenant, id int64, viewer, next string, err error) {
	tr := i18n.From(r.Context())
	message := actionMessageIn(tr, err)
	if message == "" {
		s.fail(w, r, t, err)
		return
	}
	ctx := r.Context()
	p := &views.MatchActionsProps{MatchID: id, Next: next, State: views.MatchNothing}
	if st, serr := t.MatchState(ctx, id); serr == nil {
		if q, perr := s.matchActionsProps(ctx, t, st, viewer, next); perr == nil && q != nil {
			p = q
		}
	}
	p.Error = message
	s.render(w, r, t, server.StatusOf(core.ErrorCode(err)), views.AccountActionPage(s.layout(r, t, tr.T("account.match.title")), next, views.MatchActions(*p)))
}

// readyAction is the website's ready button: core.Ready, the very rule
// the game client's POST .../ready runs, for the viewer.
func (s *Site) readyAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	s.matchActionRoute(func(r *http.Request, t *server.Tenant, st *core.MatchState, viewer string) (string, error) {
		caller := core.Caller{PlatformID: viewer, AppID: app.SiteAppID(t.Arena, st.Tournament.Environment)}
		out, err := t.Ready(r.Context(), caller, st.ID)
		if err != nil {
			return "", err
		}
		if out.Live {
			return "live", nil
		}
		return "ready", nil
	})(w, r, t)
}

// reportAction reports the result of the viewer's live match: the
// winner (a side's captain) and optional scores.
func (s *Site) reportAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	s.matchActionRoute(func(r *http.Request, t *server.Tenant, st *core.MatchState, viewer string) (string, error) {
		score, err := parseReportedScore(r.PostFormValue("score_p1"), r.PostFormValue("score_p2"))
		if err == nil {
			_, err = t.ReportResult(r.Context(), st, viewer, r.PostFormValue("winner"), score)
		}
		if n := st.SeriesLen(); n > 1 && core.ErrorCode(err) == core.CodeInvalidScore {
			return "", seriesScoreError{err: err, bestOf: n}
		}
		if err != nil {
			return "", err
		}
		return "reported", nil
	})(w, r, t)
}

// parseReportedScore reads the optional score fields: both empty is no
// score; otherwise both must be whole numbers (the range is core's).
func parseReportedScore(p1, p2 string) (*core.OutcomeScore, error) {
	p1, p2 = strings.TrimSpace(p1), strings.TrimSpace(p2)
	if p1 == "" && p2 == "" {
		return nil, nil
	}
	a, err1 := strconv.Atoi(p1)
	b, err2 := strconv.Atoi(p2)
	if err1 != nil || err2 != nil {
		return nil, core.FieldError(core.CodeInvalidScore, "score")
	}
	return &core.OutcomeScore{P1: a, P2: b}, nil
}

// confirmReportAction confirms the opponent's report.
func (s *Site) confirmReportAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	s.matchActionRoute(func(r *http.Request, t *server.Tenant, st *core.MatchState, viewer string) (string, error) {
		status, err := t.ConfirmReport(r.Context(), st, viewer)
		if err != nil {
			return "", err
		}
		if status == core.MatchDisputed {
			return "confirm_disputed", nil
		}
		return "confirmed", nil
	})(w, r, t)
}

// disputeReportAction disputes the opponent's report: the admin decides.
func (s *Site) disputeReportAction(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	s.matchActionRoute(func(r *http.Request, t *server.Tenant, st *core.MatchState, viewer string) (string, error) {
		if _, err := t.DisputeReport(r.Context(), st, viewer, r.PostFormValue("reason")); err != nil {
			return "", err
		}
		return "disputed", nil
	})(w, r, t)
}
