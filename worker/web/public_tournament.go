package web

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"arena/core"
	"arena/core/tournamentview"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// tournamentAndData reads the {slug} tournament's data (tournamentData);
// a draft or an unknown slug answers the 404 page (ok false).
func (s *Site) tournamentAndData(w http.ResponseWriter, r *http.Request, t *server.Tenant) (*core.Tournament, *tournamentData, bool) {
	data, err := s.tournamentData(r, t, r.PathValue("slug"))
	if err != nil {
		s.tournamentReadFailed(w, r, t, err)
		return nil, nil, false
	}
	return data.view.Tournament, data, true
}

// tournamentReadFailed answers a failed read of the {slug} tournament:
// the 404 page for an unknown slug or a draft, the error page otherwise.
func (s *Site) tournamentReadFailed(w http.ResponseWriter, r *http.Request, t *server.Tenant, err error) {
	if core.ErrorCode(err) == core.CodeTournamentNotFound {
		s.publicNotFound(w, r, t, i18n.From(r.Context()).T("tournament.notFound"))
		return
	}
	s.fail(w, r, t, err)
}

// tournamentPage shows a public tournament; drafts and unknown slugs are
// the 404 page.
func (s *Site) tournamentPage(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	s.planViewerParts(r, t) // read with the tournament: the viewer's panel
	tour, data, ok := s.tournamentAndData(w, r, t)
	if !ok {
		return
	}
	regs := data.view.Registrations
	now := s.srv.Now()
	l := s.layout(r, t, tour.Name)
	l.Share = s.share(r, "", publicTournamentDescription(r.Context(), tour))
	p := views.TournamentPage{
		Layout: l, Now: now, Tournament: publicCard(tour, now),
		Registration: publicRegistration(tour, len(regs), now),
		Players:      data.players, Results: data.region, HasBracket: data.results.Bracket != nil,
		Actions: s.tournamentActions(r, t, l, tour, regs),
	}
	if v := l.Viewer; v != nil && core.SideOfPlayer(regs, v.PlatformID) != nil && !tour.Status.Final() {
		var err error
		if p.Next, err = s.nextRegion(r, t, v.PlatformID, nil, tour); err != nil {
			s.fail(w, r, t, err)
			return
		}
	}
	p.Follow = views.FollowButton(*s.followButton(r, t, core.FollowTournament, strconv.FormatInt(tour.ID, 10), "/tournaments/"+tour.Slug))
	s.render(w, r, t, http.StatusOK, views.TournamentView(p))
}

// tournamentLive is GET /tournaments/{slug}/live: the results region, the
// same for everyone.
func (s *Site) tournamentLive(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	_, data, ok := s.tournamentAndData(w, r, t)
	if !ok {
		return
	}
	s.answerLive(w, r, t, data.region, true)
}

// tournamentData is what every view of a tournament shows (its page, the
// results' poll, the embed, the bracket picture, the broadcast view): the
// read model (tournamentview) and its rendering, read and rendered once
// per write to the arena (server.Memo), per minute (the countdowns and
// open windows follow the clock) and per language (its texts are the
// request's locale's).
type tournamentData struct {
	view    *tournamentview.Tournament
	players []views.EnteredSide // the sides, seeded ones first by seed
	results views.TournamentResults
	region  views.LiveRegion // the results as the live region shows them
}

// tournamentData reads the public tournament with the slug
// (tournamentview.Read: CodeTournamentNotFound for a draft) and renders
// it.
func (s *Site) tournamentData(r *http.Request, t *server.Tenant, slug string) (*tournamentData, error) {
	now := s.srv.Now()
	ctx := r.Context()
	key := "tournament/" + strconv.FormatInt(now.Unix()/60, 10) + "/" + i18n.From(ctx).Locale() + "/" + slug
	v, err := s.srv.Memo(t, key, func() (any, error) {
		view, err := t.TournamentView(ctx, slug)
		if err != nil {
			return nil, err
		}
		book := publicBook(view.Players)
		d := &tournamentData{view: view, results: tournamentResults(ctx, view, now), players: make([]views.EnteredSide, 0, len(view.Entrants))}
		for _, e := range view.Entrants {
			d.players = append(d.players, views.EnteredSide{Player: book.player(e.ID), Seed: e.Seed})
		}
		if d.region, err = s.resultsRegion(r, view.Tournament, d.results); err != nil {
			return nil, err
		}
		return d, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*tournamentData), nil
}

// resultsRegion is a tournament's results as a live region: it refreshes
// from the draw until the tournament is over, following the tournament's
// event stream from where the log stood when it was read.
func (s *Site) resultsRegion(r *http.Request, tour *core.Tournament, results views.TournamentResults) (views.LiveRegion, error) {
	stream := ""
	if tour.Status == core.StatusRegistrationClosed || tour.Status == core.StatusGroupStage || tour.Status == core.StatusPlayoffs {
		stream = liveStream("/api/v1/tournaments/"+tour.Slug+"/live", tour.LogSeq)
	}
	return s.liveRegion(r.Context(), "tournament-results", "/tournaments/"+tour.Slug+"/live", stream, views.TournamentResultsView(results))
}

// publicTournamentDescription is a tournament's link preview.
func publicTournamentDescription(ctx context.Context, t *core.Tournament) string {
	tr := i18n.From(ctx)
	d := tr.N("tournament.share.summary", t.MaxPlayers, "Status", views.TournamentStatusLabel(ctx, t.Status), "Players", tr.Number(t.PlayerCount))
	if t.Description != "" {
		d = tr.T("tournament.share.description", "Summary", d, "Description", t.Description)
	}
	return d
}

// tournamentResults renders the read model's results at now, its texts
// in ctx's language.
func tournamentResults(ctx context.Context, v *tournamentview.Tournament, now time.Time) views.TournamentResults {
	tour, book := v.Tournament, publicBook(v.Players)
	ref := views.TournamentRef{Slug: tour.Slug, Name: tour.Name}
	p := views.TournamentResults{Now: now, Format: string(tour.Format), Groups: publicGroups(v.Groups, book, ref, now),
		RoundRobin: tour.Format == core.FormatRoundRobin,
		GSL:        tour.Format == core.FormatGroupsPlayoffs && tour.GroupFormat == core.GroupFormatGSL,
	}
	if v.Swiss != nil {
		p.Swiss = publicSwiss(v.Swiss, book, ref, now)
	}
	if v.Bracket != nil {
		p.Bracket = publicBracket(ctx, v.Bracket, book, now)
	}
	for _, pl := range v.Podium {
		p.Podium = append(p.Podium, views.PodiumPlace{Rank: pl.Rank, Player: book.player(pl.PlayerID)})
	}
	return p
}

// publicRegistration says where registration stands at now.
func publicRegistration(t *core.Tournament, count int, now time.Time) views.RegistrationState {
	r := views.RegistrationState{State: views.RegistrationClosed, Count: count, Max: t.MaxPlayers}
	switch {
	case t.Status == core.StatusRegistrationOpen && now.Before(t.RegistrationOpensAt):
		r.State = views.RegistrationUpcoming
	case t.RegistrationOpenAt(now) && count >= t.MaxPlayers:
		r.State = views.RegistrationFull
	case t.RegistrationOpenAt(now):
		r.State = views.RegistrationOpen
	}
	return r
}

// publicGroups renders the group tables with their matches; nil before
// the group stage.
func publicGroups(groups []tournamentview.Group, book publicBook, ref views.TournamentRef, now time.Time) []views.GroupTable {
	if groups == nil {
		return nil
	}
	out := make([]views.GroupTable, 0, len(groups))
	for _, g := range groups {
		gt := views.GroupTable{Name: g.Name, Rows: make([]views.StandingRow, 0, len(g.Standings)), Decided: g.Decided}
		for _, row := range g.Standings {
			gt.Rows = append(gt.Rows, views.StandingRow{
				Rank: row.Rank, Player: book.player(row.PlayerID), Played: row.Played, Wins: row.Wins,
				Losses: row.Losses, ScoreDiff: row.ScoreDiff, Points: row.Points, Advances: row.Advances,
				SeparatedBy: string(row.SeparatedBy),
			})
		}
		for _, m := range g.Matches {
			gt.Matches = append(gt.Matches, book.summary(m, ref, now))
		}
		out = append(out, gt)
	}
	return out
}

// publicSwiss renders a Swiss stage's standings and rounds (the latest
// first).
func publicSwiss(sw *tournamentview.Swiss, book publicBook, ref views.TournamentRef, now time.Time) *views.SwissStage {
	out := &views.SwissStage{Rounds: sw.Rounds, Round: sw.Round, TopCut: sw.TopCut, Decided: sw.Decided}
	for _, row := range sw.Standings {
		out.Rows = append(out.Rows, views.SwissRow{Rank: row.Rank, Player: book.player(row.PlayerID), Played: row.Played,
			Wins: row.Wins, Losses: row.Losses, Byes: row.Byes, Points: row.Points, Buchholz: row.Buchholz,
			SonnebornBerger: row.SonnebornBerger, Advances: row.Advances, SeparatedBy: string(row.SeparatedBy)})
	}
	for _, round := range sw.RoundMatches {
		rm := views.SwissRoundMatches{Number: round.Number}
		for _, m := range round.Matches {
			rm.Matches = append(rm.Matches, book.summary(m, ref, now))
		}
		out.RoundMatches = append(out.RoundMatches, rm)
	}
	return out
}

// publicBracket draws the read model's bracket at now, its texts in
// ctx's language.
func publicBracket(ctx context.Context, b *tournamentview.Bracket, book publicBook, now time.Time) *views.Bracket {
	out := &views.Bracket{Columns: make([]views.BracketColumn, 0, len(b.Columns)), Double: b.Double}
	for _, col := range b.Columns {
		vc := views.BracketColumn{Label: col.Label, Side: col.Side, Section: col.Section, Slots: col.Slots, Matches: make([]views.BracketBox, 0, len(col.Boxes))}
		for _, bx := range col.Boxes {
			m := bx.Match
			box := views.BracketBox{ID: m.ID, Slot: m.BracketSlot, Status: m.Status, Score: publicScore(m.Score),
				Window: m.Window(now), OpensAt: m.OpensAt, ClosesAt: m.ClosesAt, Position: bx.Position}
			if n := m.SeriesLen(); n > 1 {
				box.BestOf = n
				if so := m.Series(); box.Score == nil && so.P1+so.P2 > 0 {
					box.Score = &views.Score{P1: so.P1, P2: so.P2}
				}
			}
			winner := publicWinnerSlot(m)
			for i, seat := range bx.Seats {
				box.Seats[i] = views.BracketSeat{Player: book.side(seat.PlayerID), Seed: seat.Seed, Bye: seat.Bye,
					From: publicSeatSource(ctx, seat), Winner: winner == i+1}
				if !seat.FromLoser {
					box.Seats[i].FedBy = seat.FromSlot
				}
			}
			vc.Matches = append(vc.Matches, box)
		}
		out.Columns = append(out.Columns, vc)
	}
	return out
}

// publicSeatSource says where an undecided seat's player comes from:
// "Winner of QF1", "Loser of W1M2"; "" when nothing fills it.
func publicSeatSource(ctx context.Context, seat tournamentview.Seat) string {
	switch {
	case seat.FromSlot == "":
		return ""
	case seat.FromLoser:
		return i18n.From(ctx).T("bracket.seat.loserOf", "Slot", seat.FromSlot)
	}
	return i18n.From(ctx).T("bracket.seat.winnerOf", "Slot", seat.FromSlot)
}
