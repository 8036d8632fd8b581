package web

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/a-h/templ"

	"arena/core"
	"arena/views"
	"arena/worker/server"
)

// publicTournamentActions is the account pages' hook for a tournament's
// page: when *Site has this method (defined in account*.go), its component
// fills the page's Actions slot (register, withdraw). l carries the viewer.
type publicTournamentActions interface {
	tournamentActions(r *http.Request, t *server.Tenant, l views.Layout, tour *core.Tournament, regs []core.Registration) templ.Component
}

// tournamentFor reads the {slug} tournament; a draft or an unknown slug
// answers the 404 page (ok false).
func (s *Site) tournamentFor(w http.ResponseWriter, r *http.Request, t *server.Tenant) (*core.Tournament, bool) {
	tour, err := t.Store.Tournament(r.Context(), r.PathValue("slug"))
	if core.ErrorCode(err) == core.CodeTournamentNotFound || (err == nil && !tour.Status.Public()) {
		s.publicNotFound(w, r, t, "There is no tournament here.")
		return nil, false
	}
	if err != nil {
		s.fail(w, r, t, err)
		return nil, false
	}
	return tour, true
}

// tournamentAndData is tournamentFor with the tournament's data
// (tournamentData); false: answered.
func (s *Site) tournamentAndData(w http.ResponseWriter, r *http.Request, t *server.Tenant) (*core.Tournament, *tournamentData, bool) {
	tour, ok := s.tournamentFor(w, r, t)
	if !ok {
		return nil, nil, false
	}
	data, err := s.tournamentData(r, t, tour)
	if err != nil {
		s.fail(w, r, t, err)
		return nil, nil, false
	}
	return tour, data, true
}

// tournamentPage shows a public tournament; drafts and unknown slugs are
// the 404 page.
func (s *Site) tournamentPage(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	tour, data, ok := s.tournamentAndData(w, r, t)
	if !ok {
		return
	}
	now := s.srv.Now()
	l := s.layout(r, t, tour.Name)
	l.Share = s.share(r, "", publicTournamentDescription(tour))
	p := views.TournamentPage{
		Layout: l, Now: now, Tournament: publicCard(tour, now),
		Registration: publicRegistration(tour, len(data.regs), now),
		Players:      data.players, Results: data.region, HasBracket: data.results.Bracket != nil,
	}
	if a, ok := any(s).(publicTournamentActions); ok {
		p.Actions = a.tournamentActions(r, t, l, tour, data.regs)
	}
	if v := l.Viewer; v != nil && core.SideOfPlayer(data.regs, v.PlatformID) != nil && !tour.Status.Final() {
		var err error
		if p.Next, err = s.nextRegion(r, t, v.PlatformID, nil, tour); err != nil {
			s.fail(w, r, t, err)
			return
		}
	}
	p.Layout.HTMX = p.Results.Every > 0 || (p.Next != nil && p.Next.Every > 0)
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
// results' poll, the embed, the bracket picture): the sides and the
// results, read and rendered once per write to the arena (server.Memo)
// and per minute (the countdowns and open windows follow the clock).
type tournamentData struct {
	regs    []core.Registration
	players []views.EnteredSide // the sides, seeded ones first by seed
	results views.TournamentResults
	region  views.LiveRegion // the results as the live region shows them
}

func (s *Site) tournamentData(r *http.Request, t *server.Tenant, tour *core.Tournament) (*tournamentData, error) {
	ctx := r.Context()
	now := s.srv.Now()
	key := "tournament/" + strconv.FormatInt(tour.ID, 10) + "/" + strconv.FormatInt(now.Unix()/60, 10)
	v, err := s.srv.Memo(t, key, func() (any, error) {
		regs, err := t.Store.Registrations(ctx, tour.ID)
		if err != nil {
			return nil, err
		}
		results, book, err := publicResults(ctx, t, tour, regs, now)
		if err != nil {
			return nil, err
		}
		d := &tournamentData{regs: regs, results: results, players: make([]views.EnteredSide, 0, len(regs))}
		sides := make([]core.Entrant, len(regs))
		for i, reg := range regs {
			sides[i] = core.Entrant{ID: reg.PlatformID, Seed: reg.Seed}
		}
		for _, e := range core.SeedOrder(sides) {
			d.players = append(d.players, views.EnteredSide{Player: book.player(e.ID), Seed: e.Seed})
		}
		if d.region, err = s.resultsRegion(r, tour, results); err != nil {
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
// from the draw until the tournament is over.
func (s *Site) resultsRegion(r *http.Request, tour *core.Tournament, results views.TournamentResults) (views.LiveRegion, error) {
	live := tour.Status == core.StatusRegistrationClosed || tour.Status == core.StatusGroupStage || tour.Status == core.StatusPlayoffs
	return s.liveRegion(r.Context(), "tournament-results", "/tournaments/"+tour.Slug+"/live", live, views.TournamentResultsView(results))
}

// publicTournamentDescription is a tournament's link preview.
func publicTournamentDescription(t *core.Tournament) string {
	d := views.TournamentStatusLabel(string(t.Status)) + " · " + strconv.Itoa(t.PlayerCount) + " of " + strconv.Itoa(t.MaxPlayers) + " players"
	if t.Description != "" {
		d += ". " + t.Description
	}
	return d
}

// publicResults builds a tournament's results (the same data as the
// API's full tournament) and the book of its players.
func publicResults(ctx context.Context, t *server.Tenant, tour *core.Tournament, regs []core.Registration, now time.Time) (views.TournamentResults, publicBook, error) {
	matches, err := t.Store.Matches(ctx, tour.ID)
	if err != nil {
		return views.TournamentResults{}, nil, err
	}
	var podium []core.PodiumPlace
	if tour.Status == core.StatusCompleted {
		if podium, err = t.Store.Podium(ctx, tour.ID); err != nil {
			return views.TournamentResults{}, nil, err
		}
	}
	ids := make([]string, 0, len(regs))
	for _, reg := range regs {
		ids = append(ids, reg.PlatformID)
	}
	book, err := publicPlayers(ctx, t, ids)
	if err != nil {
		return views.TournamentResults{}, nil, err
	}
	p := views.TournamentResults{Now: now, Format: string(tour.Format)}
	if p.Groups, err = publicGroups(tour, regs, matches, book, now); err != nil {
		return views.TournamentResults{}, nil, err
	}
	p.RoundRobin = tour.Format == core.FormatRoundRobin
	p.GSL = tour.Format == core.FormatGroupsPlayoffs && tour.GroupFormat == core.GroupFormatGSL
	if tour.Format == core.FormatSwiss {
		if p.Swiss, err = publicSwiss(tour, regs, matches, book, now); err != nil {
			return views.TournamentResults{}, nil, err
		}
	}
	p.Bracket = publicBracket(matches, book, now)
	for _, pl := range podium {
		p.Podium = append(p.Podium, views.PodiumPlace{Rank: pl.Rank, Player: book.player(pl.PlayerID)})
	}
	return p, book, nil
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

// publicGroups builds the group tables with their matches; the places
// that advance are marked in groups_playoffs tournaments.
func publicGroups(tour *core.Tournament, regs []core.Registration, matches []core.Match, book publicBook, now time.Time) ([]views.GroupTable, error) {
	tables, names, err := core.GroupTables(tour, regs, matches)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, nil
	}
	ref := views.TournamentRef{Slug: tour.Slug, Name: tour.Name}
	byGroup := make(map[string][]views.MatchSummary, len(names))
	open := map[string]bool{} // groups with a match still to decide
	for i := range matches {
		if m := &matches[i]; m.Stage == core.StageGroup || m.Stage == core.StageRoundRobin {
			byGroup[m.GroupName] = append(byGroup[m.GroupName], book.summary(m, ref, now))
			if !m.Status.Resolved() {
				open[m.GroupName] = true
			}
		}
	}
	out := make([]views.GroupTable, 0, len(names))
	for _, g := range names {
		gt := views.GroupTable{Name: g, Rows: make([]views.StandingRow, 0, len(tables[g])), Matches: byGroup[g], Decided: !open[g]}
		for _, row := range tables[g] {
			gt.Rows = append(gt.Rows, views.StandingRow{
				Rank: row.Rank, Player: book.player(row.PlayerID), Played: row.Played, Wins: row.Wins,
				Losses: row.Losses, ScoreDiff: row.ScoreDiff, Points: row.Points,
				Advances:    tour.Format == core.FormatGroupsPlayoffs && row.Rank <= tour.AdvancePerGroup,
				SeparatedBy: string(row.SeparatedBy),
			})
		}
		out = append(out, gt)
	}
	return out, nil
}

// publicSwiss builds a Swiss stage's standings and rounds (the latest
// first); the top cut's places are marked.
func publicSwiss(tour *core.Tournament, regs []core.Registration, matches []core.Match, book publicBook, now time.Time) (*views.SwissStage, error) {
	rows, swiss, err := core.SwissTable(tour, regs, matches)
	if err != nil {
		return nil, err
	}
	sw := &views.SwissStage{Rounds: tour.SwissRoundsFor(len(regs)), TopCut: tour.TopCut}
	for _, row := range rows {
		sw.Rows = append(sw.Rows, views.SwissRow{Rank: row.Rank, Player: book.player(row.PlayerID), Played: row.Played,
			Wins: row.Wins, Losses: row.Losses, Byes: row.Byes, Points: row.Points, Buchholz: row.Buchholz,
			SonnebornBerger: row.SonnebornBerger, Advances: row.Rank <= tour.TopCut, SeparatedBy: string(row.SeparatedBy)})
	}
	decided := len(swiss) > 0
	ref := views.TournamentRef{Slug: tour.Slug, Name: tour.Name}
	for i := range swiss {
		m := &swiss[i]
		if m.RoundNumber > sw.Round {
			sw.Round = m.RoundNumber
			sw.RoundMatches = append([]views.SwissRoundMatches{{Number: m.RoundNumber}}, sw.RoundMatches...)
		}
		for j := range sw.RoundMatches {
			if sw.RoundMatches[j].Number == m.RoundNumber {
				sw.RoundMatches[j].Matches = append(sw.RoundMatches[j].Matches, book.summary(m, ref, now))
			}
		}
		if !m.Status.Resolved() {
			decided = false
		}
	}
	sw.Decided = decided && sw.Round >= sw.Rounds
	return sw, nil
}

// publicBracket draws the stored playoff matches as core.BracketColumns
// lays them out; nil before the playoffs. A double elimination's columns
// keep every match position of their round (empty where byes left no
// match), so the picture lines up.
func publicBracket(matches []core.Match, book publicBook, now time.Time) *views.Bracket {
	bySlot := map[string]*core.Match{}
	for i := range matches {
		if m := &matches[i]; core.IsBracketStage(m.Stage) {
			bySlot[m.BracketSlot] = m
		}
	}
	if len(bySlot) == 0 {
		return nil
	}
	plan := core.StoredBracket(matches)
	seeds := publicSeeds(plan)
	// An undecided seat names the match that fills it.
	from := map[core.SeatRef]string{}
	for _, m := range plan.Matches {
		if m.WinnerTo.BracketSlot != "" {
			from[m.WinnerTo] = "Winner of " + m.BracketSlot
		}
		if m.LoserTo.BracketSlot != "" {
			from[m.LoserTo] = "Loser of " + m.BracketSlot
		}
	}
	cols := core.BracketColumns(plan)
	out := &views.Bracket{Columns: make([]views.BracketColumn, 0, len(cols)), Double: plan.Double}
	for _, col := range cols {
		vc := views.BracketColumn{Label: col.Label, Side: col.Side, Section: col.Section, Matches: make([]views.BracketBox, 0, len(col.Matches))}
		if plan.Double && len(col.Matches) > 0 {
			vc.Slots = core.DoubleEliminationRoundMatches(plan.Size, col.Section, col.Matches[0].SectionRound)
		}
		for _, bm := range col.Matches {
			m := bySlot[bm.BracketSlot]
			box := views.BracketBox{ID: m.ID, Slot: m.BracketSlot, Status: string(m.Status), Score: publicScore(m.Score), Window: string(m.Window(now))}
			if _, _, i, ok := core.ParseBracketSlot(m.BracketSlot); ok {
				box.Position = i
			}
			winner := publicWinnerSlot(m)
			for i, seat := range [2]core.BracketSeat{bm.P1, bm.P2} {
				vs := views.BracketSeat{Bye: seat.Bye, Winner: winner == i+1}
				switch {
				case seat.PlayerID != "":
					vs.Player, vs.Seed = book.side(seat.PlayerID), seeds[seat.PlayerID]
				case !seat.Bye:
					vs.From = from[core.SeatRef{BracketSlot: bm.BracketSlot, Side: i + 1}]
				}
				box.Seats[i] = vs
			}
			vc.Matches = append(vc.Matches, box)
		}
		out.Columns = append(out.Columns, vc)
	}
	return out
}

// publicSeeds maps each first-round player to their bracket seed. Seeds
// are not stored with the matches, but the first round holds them in the
// standard bracket order, which core.PlanBracket lays out for a full
// bracket of the same size.
func publicSeeds(plan core.BracketPlan) map[string]int {
	if plan.Size < 2 {
		return nil
	}
	ids := make([]string, plan.Size)
	for i := range ids {
		ids[i] = strconv.Itoa(i + 1)
	}
	layout, err := core.PlanBracket(ids, false)
	if err != nil {
		return nil
	}
	seeds := make(map[string]int, plan.Size)
	i := 0
	for _, m := range plan.Matches {
		if m.RoundNumber != 1 || m.Stage == core.StageSmallFinal || i >= len(layout.Matches) {
			continue
		}
		order := layout.Matches[i]
		if m.P1.PlayerID != "" {
			seeds[m.P1.PlayerID] = order.P1.Seed
		}
		if m.P2.PlayerID != "" {
			seeds[m.P2.PlayerID] = order.P2.Seed
		}
		i++
	}
	return seeds
}
