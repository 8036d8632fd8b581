package web

import (
	"net/http"

	"github.com/a-h/templ"

	"arena/core"
	"arena/views"
	"arena/worker/server"
)

// publicMatchActions is the account pages' hook for a match's page: when
// *Site has this method (defined in account*.go), its component fills the
// page's Actions slot (ready, report). l carries the viewer; st has the
// rosters, ready stamps and submissions.
type publicMatchActions interface {
	matchActions(r *http.Request, t *server.Tenant, l views.Layout, tour *core.Tournament, st *core.MatchState) templ.Component
}

// matchPage shows one match of a public tournament; a malformed or
// unknown id, or a draft's match, is the 404 page.
func (s *Site) matchPage(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	ctx := r.Context()
	id, err := core.ParseMatchID(r.PathValue("id"))
	if err != nil {
		s.publicNotFound(w, r, t, "There is no match here.")
		return
	}
	st, err := t.Store.MatchState(ctx, id)
	if core.ErrorCode(err) == core.CodeMatchNotFound {
		s.publicNotFound(w, r, t, "There is no match here.")
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	tour, err := t.Store.TournamentByID(ctx, st.TournamentID)
	if core.ErrorCode(err) == core.CodeTournamentNotFound || (err == nil && !tour.Status.Public()) {
		s.publicNotFound(w, r, t, "There is no match here.")
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	book, err := publicPlayers(ctx, t, append([]string{st.P1, st.P2}, append(st.P1Roster, st.P2Roster...)...))
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	m := &st.Match
	p := views.MatchPage{
		Layout: s.layout(r, t, publicMatchTitle(book, m)),
		Match: views.MatchDetail{
			MatchSummary: book.summary(m, views.TournamentRef{Slug: tour.Slug, Name: tour.Name, Title: tour.Format == core.FormatTitle}),
			BracketSlot:  m.BracketSlot,
			LiveAt:       m.LiveAt, EndedAt: m.EndedAt, ResolvedAt: m.ResolvedAt,
		},
	}
	if tour.IsTeam() {
		p.Match.P1Roster, p.Match.P2Roster = book.roster(st.P1Roster), book.roster(st.P2Roster)
	}
	if a, ok := any(s).(publicMatchActions); ok {
		p.Actions = a.matchActions(r, t, p.Layout, tour, st)
	}
	if err := s.matchWatch(r, t, st, book, &p); err != nil {
		s.fail(w, r, t, err)
		return
	}
	s.render(w, r, t, http.StatusOK, views.MatchView(p))
}

// publicMatchTitle is a match page's title: "Ada vs Blaise".
func publicMatchTitle(book publicBook, m *core.Match) string {
	name := func(id string) string {
		if id == "" {
			return "TBD"
		}
		return book.player(id).Name
	}
	return name(m.P1) + " vs " + name(m.P2)
}

func (b publicBook) roster(ids []string) []views.PlayerRef {
	out := make([]views.PlayerRef, 0, len(ids))
	for _, id := range ids {
		if id != "" {
			out = append(out, b.player(id))
		}
	}
	return out
}
