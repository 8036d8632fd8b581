package web

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"time"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// Home page limits: enough to fill a screen, not a whole tournament.
const (
	homeLiveLimit     = 12
	homeOpenLimit     = 8
	homeUpcomingLimit = 8
)

// publicNotFound answers the arena's 404 page with a message saying what
// was not found.
func (s *Site) publicNotFound(w http.ResponseWriter, r *http.Request, t *server.Tenant, message string) {
	s.render(w, r, t, http.StatusNotFound, views.ErrorPage(s.layout(r, t, "Not found"), http.StatusNotFound, message))
}

// home is the arena's front page: the signed-in player's next steps, then
// the matches being played, open now and coming up across the running
// tournaments, and the tournaments by status.
func (s *Site) home(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	now := s.srv.Now()
	s.planViewerParts(r, t) // read with the lists: the viewer's panel
	lists, err := s.homeListsNow(r, t, now)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	tr := i18n.From(r.Context())
	l := s.layout(r, t, tr.T("home.pageTitle"))
	l.Share = s.share(r, "", tr.T("home.share", "Arena", t.Arena.Name))
	p := views.HomePage{Layout: l, Now: now, Live: lists.live, OpenNow: lists.open, Upcoming: lists.upcoming, Sections: lists.sections}
	playing, err := s.nowPlayingRegion(r, lists, now)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	p.NowPlaying = &playing
	if l.Viewer != nil {
		region, err := s.nextRegion(r, t, l.Viewer.PlatformID, lists.tournaments, nil)
		if err != nil {
			s.fail(w, r, t, err)
			return
		}
		p.Next = region
	}
	s.render(w, r, t, http.StatusOK, views.HomeView(p))
}

// nowPlayingRegion is the front page's matches being played and open now,
// as a live region following the arena's event stream while any
// tournament is not over.
func (s *Site) nowPlayingRegion(r *http.Request, lists *homeLists, now time.Time) (views.LiveRegion, error) {
	stream := ""
	for _, tour := range lists.tournaments {
		if !tour.Status.Final() {
			stream = liveStream("/api/v1/live", tour.LogSeq)
			break
		}
	}
	return s.liveRegion(r.Context(), "now-playing", "/live/now-playing", stream, views.NowPlayingView(lists.live, lists.open, now))
}

// nowPlayingLive is GET /live/now-playing: the front page's now-playing
// region, the same for everyone.
func (s *Site) nowPlayingLive(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	now := s.srv.Now()
	s.planViewerParts(r, t) // read with the lists: the viewer's panel
	lists, err := s.homeListsNow(r, t, now)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	region, err := s.nowPlayingRegion(r, lists, now)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	s.answerLive(w, r, t, region, true)
}

// homeLists are the home page's part that is the same for everyone, read
// once per write to the arena and per minute (server.Memo): data, no
// text in a language (the page words it in the viewer's).
type homeLists struct {
	tournaments          []core.Tournament
	live, open, upcoming []views.MatchSummary
	sections             []views.TournamentSection
}

// homeListsNow is homeLists, read once per write and per minute.
func (s *Site) homeListsNow(r *http.Request, t *server.Tenant, now time.Time) (*homeLists, error) {
	v, err := s.srv.Memo(t, "home/"+strconv.FormatInt(now.Unix()/60, 10), func() (any, error) { return s.homeLists(r, t, now) })
	if err != nil {
		return nil, err
	}
	return v.(*homeLists), nil
}

func (s *Site) homeLists(r *http.Request, t *server.Tenant, now time.Time) (*homeLists, error) {
	ctx := r.Context()
	parts, err := t.FrontPage(ctx)
	if err != nil {
		return nil, err
	}
	list := parts.Tournaments
	type found struct {
		m    core.Match
		tour views.TournamentRef
	}
	// onStream are the channels live now on each match (casters and the
	// players' own views): a match on stream is being played, whatever its
	// players pressed.
	onStream := map[int64][]string{}
	if liveSet := core.FreshLive(parts.Live, parts.LivePolledAt, now); len(liveSet) > 0 {
		seats, povs := parts.Casters, parts.Streams
		for _, c := range seats {
			if _, on := liveSet[c.StreamLogin]; on {
				onStream[c.MatchID] = append(onStream[c.MatchID], c.StreamLogin)
			}
		}
		for _, p := range povs {
			if _, on := liveSet[p.StreamLogin]; on {
				onStream[p.MatchID] = append(onStream[p.MatchID], p.StreamLogin)
			}
		}
	}
	var live, open, upcoming []found
	refs := map[int64]views.TournamentRef{}
	for _, tour := range list {
		refs[tour.ID] = views.TournamentRef{Slug: tour.Slug, Name: tour.Name}
	}
	for _, m := range parts.Matches {
		ref := refs[m.TournamentID]
		switch {
		case m.Status == core.MatchLive || m.Status == core.MatchAwaitingResult,
			len(onStream[m.ID]) > 0 && !m.Status.Resolved():
			live = append(live, found{m, ref})
		case m.Status != core.MatchScheduled || m.P1 == "" || m.P2 == "":
		case m.Window(now) == core.WindowOpen:
			open = append(open, found{m, ref})
		case m.Window(now) == core.WindowBefore:
			upcoming = append(upcoming, found{m, ref})
		}
	}
	byClose := func(a, b found) int { return cmp.Or(a.m.ClosesAt.Compare(b.m.ClosesAt), cmp.Compare(a.m.ID, b.m.ID)) }
	slices.SortFunc(live, byClose)
	slices.SortFunc(open, byClose)
	slices.SortFunc(upcoming, func(a, b found) int {
		return cmp.Or(a.m.OpensAt.Compare(b.m.OpensAt), cmp.Compare(a.m.ID, b.m.ID))
	})
	live, open, upcoming = live[:min(len(live), homeLiveLimit)], open[:min(len(open), homeOpenLimit)], upcoming[:min(len(upcoming), homeUpcomingLimit)]
	book := publicBook(parts.Players)
	out := &homeLists{tournaments: list, sections: publicSections(list, now)}
	for _, f := range live {
		sum := book.summary(&f.m, f.tour, now)
		sum.OnStream = onStream[f.m.ID]
		out.live = append(out.live, sum)
	}
	for _, f := range open {
		out.open = append(out.open, book.summary(&f.m, f.tour, now))
	}
	for _, f := range upcoming {
		out.upcoming = append(out.upcoming, book.summary(&f.m, f.tour, now))
	}
	return out, nil
}

// publicSectionOrder is how the home page groups tournaments: each
// section's catalog key (home.section.<key>) and its statuses.
var publicSectionOrder = []struct {
	key      string
	statuses []core.TournamentStatus
}{
	{"running", []core.TournamentStatus{core.StatusGroupStage, core.StatusPlayoffs}},
	{"registrationOpen", []core.TournamentStatus{core.StatusRegistrationOpen}},
	{"startingSoon", []core.TournamentStatus{core.StatusRegistrationClosed}},
	{"completed", []core.TournamentStatus{core.StatusCompleted}},
	{"cancelled", []core.TournamentStatus{core.StatusCancelled}},
}

// publicSections groups the tournaments by status, keeping their order
// within a group and leaving out empty groups.
func publicSections(list []core.Tournament, now time.Time) []views.TournamentSection {
	var out []views.TournamentSection
	for _, sec := range publicSectionOrder {
		var cards []views.TournamentCard
		for i := range list {
			if slices.Contains(sec.statuses, list[i].Status) {
				cards = append(cards, publicCard(&list[i], now))
			}
		}
		if len(cards) > 0 {
			out = append(out, views.TournamentSection{Key: sec.key, Tournaments: cards})
		}
	}
	return out
}

// tournamentList lists every public tournament, newest start first.
func (s *Site) tournamentList(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	list, err := t.Tournaments(r.Context(), false)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	p := views.TournamentsPage{Layout: s.layout(r, t, i18n.From(r.Context()).T("home.list.title")), Tournaments: make([]views.TournamentCard, 0, len(list))}
	now := s.srv.Now()
	for i := range list {
		p.Tournaments = append(p.Tournaments, publicCard(&list[i], now))
	}
	s.render(w, r, t, http.StatusOK, views.TournamentsView(p))
}
