package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// The broadcast views (views.BroadcastView): a tournament's open stages,
// or one match, for a stream's 1920×1080 browser source. They draw the
// page's own view model (tournamentData), so the stream and the site
// never disagree.

// Broadcast timings: each scene shows this long; the page asks for fresh
// results this often.
const (
	broadcastCycleSeconds   = 12
	broadcastRecheckSeconds = 20
)

// broadcastHeaders let any page frame the view (a stream tool's overlay)
// and caches it briefly.
func broadcastHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", "frame-ancestors *")
	h.Set("Cache-Control", "public, max-age=5")
}

// tournamentBroadcast is GET /tournaments/{slug}/broadcast.
func (s *Site) tournamentBroadcast(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	tour, data, ok := s.tournamentAndData(w, r, t)
	if !ok {
		return
	}
	ctx := r.Context()
	scenes := broadcastScenes(ctx, data)
	if group, round := r.URL.Query().Get("group"), r.URL.Query().Get("round"); group != "" || round != "" {
		pinned, ok := broadcastPinned(ctx, data, group, round)
		if !ok {
			s.publicNotFound(w, r, t, i18n.From(ctx).T("broadcast.notFound"))
			return
		}
		scenes = pinned
	}
	broadcastHeaders(w)
	s.render(w, r, t, http.StatusOK, views.BroadcastView(views.BroadcastPage{
		ArenaName: t.Arena.Name, Name: tour.Name, Status: tour.Status,
		Transparent:  r.URL.Query().Get("transparent") == "1",
		CycleSeconds: broadcastCycleSeconds, RecheckSeconds: broadcastRecheckSeconds,
		Stream: data.region.Stream, Scenes: scenes,
	}))
}

// broadcastPinned is the one scene a stream pins with ?group= (a group's
// name, "A") or ?round= (a bracket round's label, "Semifinals"; a Swiss
// round as "Round 2", in English or as the scene names it), whatever is
// left to play in it, case aside; false when the tournament has none.
func broadcastPinned(ctx context.Context, data *tournamentData, group, round string) ([]views.BroadcastScene, bool) {
	tr, res := i18n.From(ctx), data.results
	if group != "" {
		for _, g := range res.Groups {
			if strings.EqualFold(g.Name, group) {
				scene := views.BroadcastScene{Title: broadcastGroupTitle(tr, g.Name), Rows: g.Rows, NoPoints: res.GSL}
				for _, m := range g.Matches {
					scene.Matches = append(scene.Matches, broadcastSummary(m))
				}
				return []views.BroadcastScene{scene}, true
			}
		}
		return nil, false
	}
	if sw := res.Swiss; sw != nil {
		for _, rm := range sw.RoundMatches {
			if strings.EqualFold(swissRoundTitle(rm.Number), round) || strings.EqualFold(swissRoundName(tr, rm.Number), round) {
				return []views.BroadcastScene{swissScene(tr, sw, rm, false)}, true
			}
		}
	}
	if res.Bracket == nil {
		return nil, false
	}
	var pinned *views.BroadcastScene
	for _, col := range res.Bracket.Columns { // a round may stand on both sides of the final
		if !strings.EqualFold(col.Label, round) && !strings.EqualFold(views.RoundLabel(ctx, col.Label), round) {
			continue
		}
		scene := broadcastRound(ctx, col)
		if pinned == nil {
			pinned = &scene
		} else {
			pinned.Matches = append(pinned.Matches, scene.Matches...)
		}
	}
	if pinned == nil {
		return nil, false
	}
	return []views.BroadcastScene{*pinned}, true
}

// broadcastScenes are the stages a stream cycles through: each group with
// matches left, each bracket round with matches left; once nothing is
// left the podium (or the last round played); before the draw, who is in.
func broadcastScenes(ctx context.Context, data *tournamentData) []views.BroadcastScene {
	tr, res := i18n.From(ctx), data.results
	var scenes []views.BroadcastScene
	for _, g := range res.Groups {
		if g.Decided {
			continue
		}
		scene := views.BroadcastScene{Title: broadcastGroupTitle(tr, g.Name), Rows: g.Rows, NoPoints: res.GSL}
		for _, m := range g.Matches {
			if m.Winner == 0 {
				scene.Matches = append(scene.Matches, broadcastSummary(m))
			}
		}
		scenes = append(scenes, scene)
	}
	var swissLast *views.BroadcastScene
	if sw := res.Swiss; sw != nil && len(sw.RoundMatches) > 0 {
		// The latest round (the first listed): what is left of it, then
		// the standings; once it is played, the standings alone.
		standings := swissStandings(tr, sw)
		if scene := swissScene(tr, sw, sw.RoundMatches[0], true); len(scene.Matches) > 0 {
			scenes = append(scenes, scene, standings)
		} else {
			swissLast = &standings
		}
	}
	var lastPlayed *views.BroadcastScene
	if res.Bracket != nil {
		for _, col := range res.Bracket.Columns {
			scene := broadcastRound(ctx, col)
			open := false
			for _, m := range scene.Matches {
				if m.Winner == 0 {
					open = true
				}
			}
			if open {
				scenes = append(scenes, scene)
			} else if len(scene.Matches) > 0 {
				lastPlayed = &scene
			}
		}
	}
	if len(scenes) > 0 {
		return scenes
	}
	switch {
	case len(res.Podium) > 0:
		return []views.BroadcastScene{{Title: tr.T("broadcast.scene.podium"), Podium: res.Podium}}
	case lastPlayed != nil:
		return []views.BroadcastScene{*lastPlayed}
	case swissLast != nil:
		return []views.BroadcastScene{*swissLast}
	case len(res.Groups) > 0:
		g := res.Groups[len(res.Groups)-1]
		return []views.BroadcastScene{{Title: broadcastGroupTitle(tr, g.Name), Rows: g.Rows}}
	}
	players := make([]views.PlayerRef, len(data.players))
	for i, side := range data.players {
		players[i] = side.Player
	}
	return []views.BroadcastScene{{Title: tr.T("broadcast.scene.players"), Players: players}}
}

// broadcastGroupTitle is a group's scene: "Group A".
func broadcastGroupTitle(tr *i18n.Tr, name string) string {
	return tr.T("broadcast.scene.group", "Name", name)
}

// swissRoundTitle is a Swiss round as ?round= pins it in any language:
// "Round 3".
func swissRoundTitle(n int) string { return "Round " + strconv.Itoa(n) }

// swissRoundName is a Swiss round as the broadcast names it: "Round 3"
// in the viewer's language.
func swissRoundName(tr *i18n.Tr, n int) string {
	return tr.T("broadcast.scene.swissRound", "N", tr.Number(n))
}

// broadcastStandingsRows is how many of the Swiss standings' rows a
// scene shows: the top of the table, within the 1080-pixel canvas.
const broadcastStandingsRows = 10

// swissStandings is the Swiss standings' scene: its top rows.
func swissStandings(tr *i18n.Tr, sw *views.SwissStage) views.BroadcastScene {
	scene := views.BroadcastScene{Title: tr.T("broadcast.scene.standings")}
	if len(sw.Rows) > broadcastStandingsRows {
		scene.Title = tr.T("broadcast.scene.standingsTop", "N", tr.Number(broadcastStandingsRows))
	}
	for _, r := range sw.Rows[:min(len(sw.Rows), broadcastStandingsRows)] {
		scene.Rows = append(scene.Rows, views.StandingRow{Rank: r.Rank, Player: r.Player, Played: r.Played,
			Wins: r.Wins, Losses: r.Losses, Points: r.Points, Advances: r.Advances})
	}
	return scene
}

// swissScene is a Swiss round's scene: its matches (only those left to
// play, with open).
func swissScene(tr *i18n.Tr, sw *views.SwissStage, rm views.SwissRoundMatches, open bool) views.BroadcastScene {
	scene := views.BroadcastScene{Title: tr.T("broadcast.scene.swiss", "Round", swissRoundName(tr, rm.Number), "Rounds", tr.Number(sw.Rounds))}
	for _, m := range rm.Matches {
		if m.P2 == nil || (open && m.Winner != 0) {
			continue // a bye, or decided
		}
		scene.Matches = append(scene.Matches, broadcastSummary(m))
	}
	return scene
}

// broadcastRound is a bracket round's scene: its matches, byes left out.
func broadcastRound(ctx context.Context, col views.BracketColumn) views.BroadcastScene {
	scene := views.BroadcastScene{Title: views.RoundLabel(ctx, col.Label)}
	for _, b := range col.Matches {
		if b.Seats[1].Bye {
			continue
		}
		m := views.BroadcastMatch{ID: b.ID, Round: col.Label, Status: b.Status, Score: b.Score,
			P1: broadcastSeat(b.Seats[0]), P2: broadcastSeat(b.Seats[1]), BestOf: b.BestOf,
			Window: b.Window, OpensAt: b.OpensAt, ClosesAt: b.ClosesAt}
		switch {
		case b.Seats[0].Winner:
			m.Winner = 1
		case b.Seats[1].Winner:
			m.Winner = 2
		}
		scene.Matches = append(scene.Matches, m)
	}
	return scene
}

func broadcastSeat(seat views.BracketSeat) string {
	if seat.Player == nil {
		return ""
	}
	return seat.Player.Name
}

func broadcastSummary(m views.MatchSummary) views.BroadcastMatch {
	out := views.BroadcastMatch{ID: m.ID, Round: m.Round, Status: m.Status, Winner: m.Winner, Score: m.Score,
		Window: m.Window, OpensAt: m.OpensAt, ClosesAt: m.ClosesAt}
	if m.IsSeries() {
		out.BestOf = m.BestOf
		if out.Score == nil && m.Series.P1+m.Series.P2 > 0 {
			out.Score = &views.Score{P1: m.Series.P1, P2: m.Series.P2}
		}
	}
	if m.P1 != nil {
		out.P1 = m.P1.Name
	}
	if m.P2 != nil {
		out.P2 = m.P2.Name
	}
	return out
}

// matchBroadcast is GET /matches/{id}/broadcast: one match, large. A
// match of a tournament that is not public is not found.
func (s *Site) matchBroadcast(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	st, tour, book, from, ok := s.matchFor(w, r, t)
	if !ok {
		return
	}
	m := views.BroadcastMatch{ID: st.ID, Round: st.Round, Status: st.Status, Tournament: tour.Name}
	if st.P1 != "" {
		m.P1 = book.player(st.P1).Name
	}
	if st.P2 != "" {
		m.P2 = book.player(st.P2).Name
	}
	if st.Score != nil {
		m.Score = &views.Score{P1: st.Score.P1, P2: st.Score.P2}
	}
	if n := st.SeriesLen(); n > 1 {
		m.BestOf = n
		if so := st.Series(); m.Score == nil && so.P1+so.P2 > 0 {
			m.Score = &views.Score{P1: so.P1, P2: so.P2}
		}
		if !st.Status.Resolved() {
			m.Game = st.CurrentGame()
		}
	}
	stream := liveStream("/api/v1/matches/"+strconv.FormatInt(st.ID, 10)+"/live", from)
	if st.Status.Resolved() {
		m.Winner, stream = st.SideOf(st.Winner), ""
	}
	broadcastHeaders(w)
	s.render(w, r, t, http.StatusOK, views.BroadcastMatchView(views.BroadcastMatchPage{
		ArenaName: t.Arena.Name, Transparent: r.URL.Query().Get("transparent") == "1",
		RecheckSeconds: broadcastRecheckSeconds, Stream: stream, Match: m,
	}))
}
