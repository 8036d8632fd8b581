package web

import (
	"cmp"
	"context"
	"net/http"
	"slices"

	"arena/core"
	"arena/core/playerview"
	"arena/views"
	"arena/worker/server"
)

// The signed-in player's next steps: the panel on the home page (every
// tournament) and on a tournament's page (that one), a live region that
// GET /me/next refreshes.

// Next-step limits: a screen's worth.
const (
	nextMatchLimit    = 6
	nextRegisterLimit = 3
)

// nextStatuses are the statuses of a match that may still ask something
// of its players.
var nextStatuses = []core.MatchStatus{core.MatchScheduled, core.MatchLive, core.MatchAwaitingResult, core.MatchDisputed}

// nextMe is GET /me/next[?tournament=slug]: the panel's poll. A visitor,
// or an unknown tournament, gets 204: there is nothing to refresh.
func (s *Site) nextMe(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	v := s.viewer(r.Context(), r, t)
	if v == nil {
		w.Header().Set("Cache-Control", "private, no-store")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	list, err := t.Tournaments(r.Context(), false)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	var tour *core.Tournament
	if slug := r.URL.Query().Get("tournament"); slug != "" {
		for i := range list {
			if list[i].Slug == slug {
				tour = &list[i]
			}
		}
		if tour == nil {
			w.Header().Set("Cache-Control", "private, no-store")
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	region, err := s.nextRegion(r, t, v.PlatformID, list, tour)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	s.answerLive(w, r, t, *region, false)
}

// nextRegion is the viewer's panel as a live region: for every tournament
// (tour nil; list is every public tournament), or for tour alone. It
// refreshes itself while it shows anything.
func (s *Site) nextRegion(r *http.Request, t *server.Tenant, viewer string, list []core.Tournament, tour *core.Tournament) (*views.LiveRegion, error) {
	// Where the log stood when the tournaments were read (before the
	// viewer's matches and entries).
	var from int64
	switch {
	case tour != nil:
		from = tour.LogSeq
	case len(list) > 0:
		from = list[0].LogSeq
	default:
		var err error
		if from, err = liveFrom(r.Context(), t); err != nil {
			return nil, err
		}
	}
	page, url, stream := "/", "/me/next", "/api/v1/live"
	if tour != nil {
		page, url, stream = "/tournaments/"+tour.Slug, "/me/next?tournament="+tour.Slug, "/api/v1/tournaments/"+tour.Slug+"/live"
	}
	n, err := s.nextActions(r, t, viewer, list, tour, page)
	if err != nil {
		return nil, err
	}
	if n.Empty() && tour == nil {
		stream = ""
	} else {
		stream = liveStream(stream, from)
	}
	region, err := s.liveRegion(r.Context(), "next-actions", url, stream, views.NextActionsPanel(n))
	if err != nil {
		return nil, err
	}
	return &region, nil
}

// nextActions gathers the viewer's panel. page is where its forms come
// back to.
func (s *Site) nextActions(r *http.Request, t *server.Tenant, viewer string, list []core.Tournament, tour *core.Tournament, page string) (views.NextActions, error) {
	ctx := r.Context()
	now := s.srv.Now()
	n := views.NextActions{Now: now}
	if tour != nil {
		n.Tournament = tour.Name
	}
	// The viewer's things in one read (playerview): their matches with
	// their reports, their sides' captains and check-ins, the names.
	// Keyed by the session, planned by the page with its own reads when
	// it knew it would show the panel (planViewerParts).
	read := s.planViewerParts(r, t)
	if read == nil {
		read = func(ctx context.Context) (*playerview.Parts, error) {
			return t.ViewerParts(ctx, viewer, nextStatuses...)
		}
	}
	mineRead, err := read(ctx)
	if err != nil {
		return n, err
	}
	states := mineRead.Matches
	type pending struct {
		st      *core.MatchState
		actions *views.MatchActionsProps
	}
	var mine []pending
	for i := range states {
		st := &states[i]
		if tour != nil && st.TournamentID != tour.ID {
			continue
		}
		if st.Status == core.MatchScheduled && st.Window(now) == core.WindowClosed {
			continue // the admin's now
		}
		p := s.matchActionsOf(t, st, mineRead.Reports[st.ID], viewer, page)
		if p == nil {
			continue
		}
		p.Fresh = freshMatch(r, st.ID)
		mine = append(mine, pending{st, p})
	}
	// Whatever waits on the viewer first, then what waits on the other
	// side, then windows opening later; soonest first within each.
	slices.SortStableFunc(mine, func(a, b pending) int {
		return cmp.Or(cmp.Compare(nextUrgency(a.actions.State), nextUrgency(b.actions.State)),
			a.st.ClosesAt.Compare(b.st.ClosesAt), cmp.Compare(a.st.ID, b.st.ID))
	})
	mine = mine[:min(len(mine), nextMatchLimit)]
	book := publicBook(mineRead.Players)
	for _, m := range mine {
		side := m.st.SideOf(viewer)
		opponent := m.st.P2
		if side == 2 {
			opponent = m.st.P1
		}
		n.Matches = append(n.Matches, views.NextMatch{
			Match: book.summary(&m.st.Match, publicTournamentRef(m.st), now), Opponent: book.side(opponent), Actions: *m.actions, Side: side,
		})
	}
	if tour != nil {
		return n, nil
	}
	captains := mineRead.Captains
	registerable := 0
	for i := range list {
		tr := &list[i]
		captain, entered := captains[tr.ID]
		switch {
		case entered && (tr.Status == core.StatusRegistrationOpen || tr.Status == core.StatusRegistrationClosed):
			e := views.NextEntry{Tournament: publicCard(tr, now), State: views.EntryRegistered}
			if tr.CheckInOpenAt(now) {
				checkedIn, registered := mineRead.CheckedIn[tr.ID]
				e.CheckInDue = registered && !checkedIn
			}
			if captain != viewer {
				e.CaptainName = book.player(captain).Name
			}
			n.Entries = append(n.Entries, e)
		case !entered && tr.RegistrationOpenAt(now) && tr.PlayerCount < tr.MaxPlayers && !tr.IsTeam() && registerable < nextRegisterLimit:
			n.Entries = append(n.Entries, views.NextEntry{Tournament: publicCard(tr, now), State: views.EntryCanRegister})
			registerable++
		}
	}
	// Their own tournaments first, starting soonest.
	slices.SortStableFunc(n.Entries, func(a, b views.NextEntry) int {
		return cmp.Or(cmp.Compare(nextEntryOrder(a), nextEntryOrder(b)), a.Tournament.StartsAt.Compare(b.Tournament.StartsAt))
	})
	return n, nil
}

// nextUrgency orders the viewer's matches: theirs to act on first.
func nextUrgency(st views.MatchActionState) int {
	switch st {
	case views.MatchReadyUp, views.MatchReportDecide, views.MatchReport:
		return 0
	case views.MatchWaitingOpponent, views.MatchReportWaiting, views.MatchClientPending, views.MatchDisputed:
		return 1
	}
	return 2
}

func nextEntryOrder(e views.NextEntry) int {
	if e.State == views.EntryRegistered {
		return 0
	}
	return 1
}
