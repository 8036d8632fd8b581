package web

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// Calendar feeds (iCalendar): a player's match windows and a tournament's,
// linked from their pages; calendar apps subscribe to them by URL.

// calendarMaxAge is how long a feed may be reused: calendar apps poll
// hours apart anyway.
const calendarMaxAge = "public, max-age=300"

// playerCalendar is GET /players/{platformId}/calendar.ics: every match
// of the player with both sides known.
func (s *Site) playerCalendar(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	ctx := r.Context()
	id := r.PathValue("platformId")
	card, ok := s.playerFor(w, r, t, id)
	if !ok {
		return
	}
	profile := &card.Profile
	states, players, err := t.PlayerSchedule(ctx, id)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	book := publicBook(players)
	name := orPlaceholder(profile.PersonaName, id)
	cal := s.calendar(r, t, i18n.From(ctx).T("calendar.player.name", "Name", name, "Arena", t.Arena.Name))
	for i := range states {
		st := &states[i]
		cal.Events = append(cal.Events, matchEvent(r, book, &st.Match, st.Tournament.Name))
	}
	writeCalendar(w, cal, "matches-"+id+".ics")
}

// tournamentCalendar is GET /tournaments/{slug}/calendar.ics: the
// tournament's start and every match window.
func (s *Site) tournamentCalendar(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	sched, err := t.Schedule(r.Context(), r.PathValue("slug"))
	if err != nil {
		s.tournamentReadFailed(w, r, t, err)
		return
	}
	tr := i18n.From(r.Context())
	tour, book := sched.Tournament, publicBook(sched.Players)
	cal := s.calendar(r, t, tour.Name+" · "+t.Arena.Name)
	start := tour.StartsAt
	if tour.FirstMatchAt != nil {
		start = *tour.FirstMatchAt // when play starts, an early or late start too
	}
	cal.Events = append(cal.Events, views.CalendarEvent{
		UID: "tournament-" + strconv.FormatInt(tour.ID, 10), Start: start, End: start.Add(tour.MatchWindow()),
		Summary:     tr.T("calendar.tournament.starts", "Tournament", tour.Name),
		Description: tr.T("calendar.status", "Status", views.TournamentStatusLabel(r.Context(), tour.Status)),
		URL:         origin(r) + "/tournaments/" + tour.Slug, Cancelled: tour.Status == core.StatusCancelled,
	})
	for i := range sched.Matches {
		cal.Events = append(cal.Events, matchEvent(r, book, &sched.Matches[i], tour.Name))
	}
	writeCalendar(w, cal, tour.Slug+".ics")
}

func (s *Site) calendar(r *http.Request, t *server.Tenant, name string) views.Calendar {
	return views.Calendar{Name: name, ID: core.NormalizeHost(r.Host), Stamp: s.srv.Now()}
}

// matchEvent is a match's window as an event, in the request's language.
func matchEvent(r *http.Request, book publicBook, m *core.Match, tournament string) views.CalendarEvent {
	tr := i18n.From(r.Context())
	name := func(id string) string {
		if id == "" {
			return tr.T("calendar.tbd")
		}
		return book.player(id).Name
	}
	round := views.RoundLabel(r.Context(), m.Round)
	if m.GroupName != "" {
		round = tr.T("calendar.match.groupRound", "Group", m.GroupName, "Round", round)
	}
	return views.CalendarEvent{
		UID: "match-" + strconv.FormatInt(m.ID, 10), Start: m.OpensAt, End: m.ClosesAt,
		Summary:     tr.T("calendar.match.summary", "Tournament", tournament, "P1", name(m.P1), "P2", name(m.P2)),
		Description: tr.T("calendar.match.description", "Round", round, "State", matchEventState(r.Context(), m, name)),
		URL:         origin(r) + "/matches/" + strconv.FormatInt(m.ID, 10),
	}
}

// matchEventState says where a match stands in its calendar event: what
// to do while it is to be played, its result once decided (a past event
// asks nobody to ready up).
func matchEventState(ctx context.Context, m *core.Match, name func(string) string) string {
	tr := i18n.From(ctx)
	switch {
	case m.Status == core.MatchScheduled:
		return tr.T("calendar.match.window", "Window", calendarRange(tr, m.OpensAt, m.ClosesAt))
	case m.Status.Resolved() && m.Winner != "":
		id := "calendar.match.won"
		if m.Status == core.MatchForfeited {
			id = "calendar.match.wonByForfeit"
		}
		if score := views.WinnerScore(publicScore(m.Score), publicWinnerSlot(m)); score != "" {
			return tr.T(id+"Score", "Name", name(m.Winner), "Score", score)
		}
		return tr.T(id, "Name", name(m.Winner))
	}
	return tr.T("calendar.status", "Status", views.MatchStatusLabel(ctx, m.Status))
}

// calendarRange is a window as a calendar event's text says it, in UTC
// (core.FormatRange in the translator's language): the end's day left out
// when both fall on one day, "20 Nov 2026, 10:00 – 12:00 UTC".
func calendarRange(tr *i18n.Tr, from, to time.Time) string {
	if core.SameDay(from.UTC(), to) {
		return tr.T("time.full", "Date", tr.Date(from), "Clock", tr.Clock(from)+" – "+tr.Clock(to), "Zone", "UTC")
	}
	return tr.Time(from) + " – " + tr.Time(to)
}

func writeCalendar(w http.ResponseWriter, cal views.Calendar, filename string) {
	h := w.Header()
	h.Set("Content-Type", "text/calendar; charset=utf-8")
	h.Set("Content-Disposition", `inline; filename="`+filename+`"`)
	h.Set("Cache-Control", calendarMaxAge)
	h.Set("X-Content-Type-Options", "nosniff")
	_ = cal.WriteICS(w)
}
