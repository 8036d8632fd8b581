package web

import (
	"context"
	"net/http"
	"strconv"

	"arena/core"
	"arena/core/tournamentview"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// matchFor reads the {id} match of a public tournament, and from, the
// event log's last seq when the match was read (where the page's live
// stream starts: an event the page may have missed is replayed to it); a
// malformed or unknown id, or a draft's match, answers the 404 page (ok
// false).
func (s *Site) matchFor(w http.ResponseWriter, r *http.Request, t *server.Tenant) (st *core.MatchState, tour *core.Tournament, book publicBook, from int64, ok bool) {
	parts, book, ok := s.matchRead(w, r, t)
	if !ok {
		return nil, nil, nil, 0, false
	}
	return parts.State, parts.Tournament, book, parts.LogSeq, true
}

// matchRead reads the {id} match of a public tournament with everything
// its page shows, in one read (tournamentview.ReadMatch), and the book of
// the people it names; a malformed or unknown id, or a draft's match,
// answers the 404 page (ok false).
func (s *Site) matchRead(w http.ResponseWriter, r *http.Request, t *server.Tenant) (*tournamentview.MatchParts, publicBook, bool) {
	id, err := core.ParseMatchID(r.PathValue("id"))
	if err != nil {
		s.publicNotFound(w, r, t, i18n.From(r.Context()).T("match.notFound"))
		return nil, nil, false
	}
	parts, err := t.MatchView(r.Context(), id)
	if core.ErrorCode(err) == core.CodeMatchNotFound {
		s.publicNotFound(w, r, t, i18n.From(r.Context()).T("match.notFound"))
		return nil, nil, false
	}
	if err != nil {
		s.fail(w, r, t, err)
		return nil, nil, false
	}
	return parts, publicBook(parts.Players), true
}

// matchPage shows one match of a public tournament.
func (s *Site) matchPage(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	parts, book, ok := s.matchRead(w, r, t)
	if !ok {
		return
	}
	st, tour, from := parts.State, parts.Tournament, parts.LogSeq
	l := s.layout(r, t, publicMatchTitle(r.Context(), book, &st.Match))
	l.Share = s.share(r, "", publicMatchDescription(r.Context(), book, st, tour))
	p := views.MatchPage{Layout: l, Match: s.matchDetail(st, tour, book)}
	region, err := s.matchRegion(r, t, l, tour, st, p.Match, from)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	p.Live = region
	if err := s.matchWatch(r, t, parts, book, &p); err != nil {
		s.fail(w, r, t, err)
		return
	}
	if p.Embed != nil {
		setPagePolicy(w.Header(), core.StreamEmbedOrigin)
	}
	s.render(w, r, t, http.StatusOK, views.MatchView(p))
}

// matchLive is GET /matches/{id}/live: the match page's live region.
func (s *Site) matchLive(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	st, tour, book, _, ok := s.matchFor(w, r, t)
	if !ok {
		return
	}
	l := s.layout(r, t, "")
	region, err := s.matchRegion(r, t, l, tour, st, s.matchDetail(st, tour, book), liveNow)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	s.answerLive(w, r, t, region, false)
}

// matchDetail is the match as its page shows it.
func (s *Site) matchDetail(st *core.MatchState, tour *core.Tournament, book publicBook) views.MatchDetail {
	m := &st.Match
	d := views.MatchDetail{
		MatchSummary: book.summary(m, views.TournamentRef{Slug: tour.Slug, Name: tour.Name, Title: tour.Format == core.FormatTitle}, s.srv.Now()),
		BracketSlot:  m.BracketSlot,
		LiveAt:       m.LiveAt, EndedAt: m.EndedAt, ResolvedAt: m.ResolvedAt,
	}
	if tour.IsTeam() {
		d.P1Roster, d.P2Roster = book.roster(st.P1Roster), book.roster(st.P2Roster)
	}
	return d
}

// matchRegion is the match page's live region for the viewer in l: it
// refreshes until the match is decided, following the match's event
// stream from seq from.
func (s *Site) matchRegion(r *http.Request, t *server.Tenant, l views.Layout, tour *core.Tournament, st *core.MatchState, d views.MatchDetail, from int64) (views.LiveRegion, error) {
	live := views.MatchLive{Now: s.srv.Now(), Match: d}
	if l.Viewer != nil {
		live.ViewerSide = st.SideOf(l.Viewer.PlatformID)
	}
	live.Actions = s.matchActions(r, t, l, tour, st)
	id := strconv.FormatInt(st.ID, 10)
	stream := ""
	if !st.Status.Resolved() {
		stream = liveStream("/api/v1/matches/"+id+"/live", from)
	}
	return s.liveRegion(r.Context(), "match-live", "/matches/"+id+"/live", stream, views.MatchLiveView(live))
}

// publicMatchTitle is a match page's title: "Ada vs Blaise".
func publicMatchTitle(ctx context.Context, book publicBook, m *core.Match) string {
	tr := i18n.From(ctx)
	name := func(id string) string {
		if id == "" {
			return tr.T("match.tbd")
		}
		return book.player(id).Name
	}
	return tr.T("match.title", "P1", name(m.P1), "P2", name(m.P2))
}

// publicMatchDescription is a match's link preview: where it is played
// and how it stands.
func publicMatchDescription(ctx context.Context, book publicBook, st *core.MatchState, tour *core.Tournament) string {
	tr := i18n.From(ctx)
	args := []any{"Tournament", tour.Name, "Round", views.RoundLabel(ctx, st.Round), "Status", views.MatchStatusLabel(ctx, st.Status)}
	if st.Status.Resolved() && st.Winner != "" {
		winner := 1
		if st.Winner == st.P2 {
			winner = 2
		}
		args = append(args, "Name", book.player(st.Winner).Name)
		if score := views.WinnerScore(publicScore(st.Score), winner); score != "" {
			return tr.T("match.share.wonScore", append(args, "Score", score)...)
		}
		return tr.T("match.share.won", args...)
	}
	return tr.T("match.share.status", args...)
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
