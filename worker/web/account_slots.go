package web

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/a-h/templ"

	"arena/core"
	"arena/views"
	"arena/worker/server"
)

// The account pages' parts of the public pages: the viewer's registration
// box on a tournament page and the viewer's box on their own match page.
// Each returns nil when the viewer has nothing to do or see there.

// TournamentActions is the viewer's registration box on tour's page (the
// request r is that page's): register or withdraw while registration is
// open, otherwise what the viewer's registration is.
func (s *Site) TournamentActions(r *http.Request, t *server.Tenant, tour *core.Tournament) templ.Component {
	regs, err := t.Registrations(r.Context(), tour.ID)
	if err != nil {
		s.cfg.Logger.ErrorContext(r.Context(), "tournament actions", slog.String("error", err.Error()))
		return nil
	}
	return s.tournamentActions(r, t, views.Layout{}, tour, regs)
}

// tournamentActions is the public tournament page's registration box
// (tournamentPage): the same box from what the page already read.
func (s *Site) tournamentActions(r *http.Request, t *server.Tenant, l views.Layout, tour *core.Tournament, regs []core.Registration) templ.Component {
	viewer := s.sessionPlayer(r, t)
	if l.Viewer != nil {
		viewer = l.Viewer.PlatformID
	}
	p := s.tournamentActionsProps(t, tour, regs, viewer, r.URL.Path)
	if p == nil {
		return nil
	}
	p.Fresh = fresh(r)
	return views.TournamentActions(*p)
}

// tournamentActionsProps decides the viewer's registration box (nil:
// nothing to show). next is the page the forms come back to.
func (s *Site) tournamentActionsProps(t *server.Tenant, tour *core.Tournament, regs []core.Registration, viewer, next string) *views.TournamentActionsProps {
	if !tour.Status.Public() {
		return nil
	}
	p := &views.TournamentActionsProps{
		Slug: tour.Slug, Next: next, Team: tour.IsTeam(),
		TeamMin: max(tour.TeamMinPlayers, 1), TeamMax: max(tour.TeamMaxPlayers, 1), ClosesAt: tour.RegistrationClosesAt,
		StartsAt: tour.StartsAt,
	}
	now := s.srv.Now()
	open := tour.RegistrationOpenAt(now)
	var side *core.Registration
	if viewer != "" {
		side = core.SideOfPlayer(regs, viewer)
	}
	if side != nil && tour.CheckInApplies() {
		opens, _, _ := tour.CheckInWindow()
		p.CheckIn = &views.CheckInState{OpensAt: opens, Open: tour.CheckInOpenAt(now), Done: side.CheckedInAt != nil}
	}
	switch {
	case viewer == "" && open:
		p.State = views.TournamentSignInToRegister
	case viewer == "":
		return nil
	case side != nil && side.PlatformID != viewer:
		p.State, p.CaptainName = views.TournamentOnRoster, orPlaceholder(side.PersonaName, side.PlatformID)
	case side != nil && open:
		p.State = views.TournamentRegistered
	case side != nil && !tour.Status.Final():
		p.State = views.TournamentEntered
	case open && len(regs) >= tour.MaxPlayers:
		p.State = views.TournamentFull
	case open:
		p.State = views.TournamentCanRegister
	default:
		return nil
	}
	return p
}

func orPlaceholder(name, id string) string {
	if name == "" {
		return core.PlaceholderName(id)
	}
	return name
}

// MatchActions is the viewer's box on their own match's page (the request
// r is that page's): ready, report, confirm or dispute as the match
// stands; nil for anyone who does not play in it.
func (s *Site) MatchActions(r *http.Request, t *server.Tenant, m *core.MatchState) templ.Component {
	return s.matchActions(r, t, views.Layout{}, nil, m)
}

// matchActions is the public match page's box (matchRegion).
// Its forms come back to the match's page, also when the box was
// rendered for the page's live poll (GET /matches/{id}/live).
func (s *Site) matchActions(r *http.Request, t *server.Tenant, l views.Layout, _ *core.Tournament, st *core.MatchState) templ.Component {
	viewer := s.sessionPlayer(r, t)
	if l.Viewer != nil {
		viewer = l.Viewer.PlatformID
	}
	p, err := s.matchActionsProps(r.Context(), t, st, viewer, "/matches/"+strconv.FormatInt(st.ID, 10))
	if err != nil {
		s.cfg.Logger.ErrorContext(r.Context(), "match actions", slog.String("error", err.Error()))
		return nil
	}
	if p == nil || p.State == views.MatchNothing {
		return nil // a decided match: nothing left to do
	}
	p.Fresh = freshMatch(r, st.ID)
	return views.MatchActions(*p)
}

// matchActionsProps decides the viewer's box on st (nil: the viewer does
// not play in it; MatchNothing: it is over). It reads the match's report only while
// one can be pending.
func (s *Site) matchActionsProps(ctx context.Context, t *server.Tenant, st *core.MatchState, viewer, next string) (*views.MatchActionsProps, error) {
	var rep *core.MatchReport
	if st.Status == core.MatchAwaitingResult && st.SideOf(viewer) != 0 {
		var err error
		if rep, err = t.MatchReport(ctx, st.ID); err != nil {
			return nil, err
		}
	}
	return s.matchActionsOf(t, st, rep, viewer, next), nil
}

// matchActionsOf is matchActionsProps with the match's report read
// already (nil: none).
func (s *Site) matchActionsOf(t *server.Tenant, st *core.MatchState, rep *core.MatchReport, viewer, next string) *views.MatchActionsProps {
	side := st.SideOf(viewer)
	if side == 0 || st.P1 == "" || st.P2 == "" {
		return nil
	}
	now := s.srv.Now()
	p := &views.MatchActionsProps{
		MatchID: st.ID, Next: next, Now: now, OpensAt: st.OpensAt, ClosesAt: st.ClosesAt,
		P1: views.MatchActionSide{ID: st.P1, Name: orPlaceholder(st.P1Name, st.P1)},
		P2: views.MatchActionSide{ID: st.P2, Name: orPlaceholder(st.P2Name, st.P2)},
	}
	if n := st.SeriesLen(); n > 1 {
		p.BestOf, p.Game = n, st.CurrentGame()
	}
	switch st.Status {
	case core.MatchScheduled:
		self, other := st.ReadySides()
		if side == 2 {
			self, other = other, self
		}
		p.OpponentReady = other
		switch window := st.Window(now); {
		case window == core.WindowBefore:
			p.State = views.MatchWindowNotOpen
		case window == core.WindowClosed:
			p.State = views.MatchWindowClosed
		case self:
			p.State = views.MatchWaitingOpponent
		default:
			p.State = views.MatchReadyUp
		}
	case core.MatchLive:
		p.State = views.MatchReport
	case core.MatchAwaitingResult:
		if rep == nil || rep.Status != core.ReportPending {
			p.State = views.MatchClientPending
			break
		}
		p.Report = &views.MatchReportSummary{WinnerName: p.P1.Name, ConfirmsAt: rep.ReportedAt.Add(st.Tournament.GracePeriod(t.Arena))}
		if rep.Winner == st.P2 {
			p.Report.WinnerName = p.P2.Name
		}
		if rep.Score != nil {
			p.Report.Score = &views.ReportedScore{P1: rep.Score.P1, P2: rep.Score.P2}
		}
		p.State = views.MatchReportDecide
		if rep.Side == side {
			p.State = views.MatchReportWaiting
		}
	case core.MatchDisputed:
		p.State = views.MatchDisputed
	default:
		p.State = views.MatchNothing
	}
	return p
}
