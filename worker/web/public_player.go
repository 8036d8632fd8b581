package web

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// Player page limits: a history page holds playerRecentLimit matches.
const (
	playerRecentLimit   = 20
	playerUpcomingLimit = 10
)

// publicAllStatuses are every match status, for a player's whole history.
var publicAllStatuses = []core.MatchStatus{
	core.MatchScheduled, core.MatchLive, core.MatchAwaitingResult,
	core.MatchConfirmed, core.MatchDisputed, core.MatchForfeited,
}

// planPlayerPage plans the player page's reads keyed by the player's id
// to go with its first (the player's card): its matches, the titles it
// holds, its entries and the tournaments, the seasons of the ladder, its
// channel. What depends on them (the other sides' names, the ladder's
// rows) follows.
func planPlayerPage(r *http.Request, t *server.Tenant, id string) {
	if !core.ValidPlatformID(id) {
		return
	}
	ctx, st := r.Context(), t.Store
	st.PlanPlayerMatches(ctx, id, publicAllStatuses...)
	st.PlanTitlesHeldBy(ctx, id)
	st.PlanRosterCaptains(ctx, id)
	st.PlanTournaments(ctx, false)
	st.PlanSeasons(ctx)
	st.PlanStreamLogin(ctx, id)
}

// playerFor reads the player of a public page ({platformId}): its card,
// as the player API reads it (server.PlayerCard); a malformed or unknown
// id is the 404 page (false: answered).
func (s *Site) playerFor(w http.ResponseWriter, r *http.Request, t *server.Tenant, id string) (*core.PlayerCard, bool) {
	if !core.ValidPlatformID(id) {
		s.publicNotFound(w, r, t, i18n.From(r.Context()).T("player.notFound"))
		return nil, false
	}
	card, err := server.PlayerCard(r.Context(), t.Store, id, s.srv.Now())
	if core.ErrorCode(err) == core.CodePlayerNotFound {
		s.publicNotFound(w, r, t, actionMessageIn(i18n.From(r.Context()), err))
		return nil, false
	}
	if err != nil {
		s.fail(w, r, t, err)
		return nil, false
	}
	return card, true
}

// playerPage is a player's profile: stats, trophies, upcoming and recent
// matches. A malformed or unknown account id is the 404 page.
func (s *Site) playerPage(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	ctx := r.Context()
	id := r.PathValue("platformId")
	planPlayerPage(r, t, id)
	card, ok := s.playerFor(w, r, t, id)
	if !ok {
		return
	}
	profile, stats := &card.Profile, card.Stats
	matches, err := t.Store.PlayerMatches(ctx, id, publicAllStatuses...)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	var upcoming, recent []*core.MatchState
	for i := range matches {
		if matches[i].Status.Resolved() {
			recent = append(recent, &matches[i])
		} else {
			upcoming = append(upcoming, &matches[i])
		}
	}
	slices.Reverse(recent) // newest first
	page := max(1, core.NumberText(r.URL.Query().Get("page")).N)
	pages := max(1, (len(recent)+playerRecentLimit-1)/playerRecentLimit)
	if page > pages {
		page = pages
	}
	hasOlder := len(recent) > page*playerRecentLimit
	recent = recent[(page-1)*playerRecentLimit : min(len(recent), page*playerRecentLimit)]
	upcoming = upcoming[:min(len(upcoming), playerUpcomingLimit)]
	var ids []string
	for _, st := range slices.Concat(recent, upcoming) {
		ids = append(ids, st.P1, st.P2)
	}
	book, err := publicPlayers(ctx, t, ids)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	held, err := t.Store.TitlesHeldBy(ctx, id)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	book[id] = *profile
	me := book.player(id)
	now := s.srv.Now()
	l := s.layout(r, t, me.Name)
	l.Share = s.share(r, "", publicPlayerDescription(ctx, me, stats))
	l.Share.Type = "profile"
	if pic := me.AvatarURL; pic != "" && !strings.HasPrefix(pic, "/") {
		l.Share.Image = pic
	}
	p := views.PlayerPage{
		Layout: l, Player: me, Now: now, Page: page,
		Stats: views.PlayerStats{MatchesPlayed: stats.MatchesPlayed, Wins: stats.Wins, Losses: stats.Losses, WinRate: stats.WinRate},
		Own:   l.Viewer != nil && l.Viewer.PlatformID == id,
	}
	if hasOlder {
		p.OlderURL = "/players/" + id + "?page=" + strconv.Itoa(page+1) + "#history"
	}
	if page > 1 {
		p.NewerURL = "/players/" + id + "?page=" + strconv.Itoa(page-1) + "#history"
	}
	if p.Entries, err = s.playerEntries(r, t, id); err != nil {
		s.fail(w, r, t, err)
		return
	}
	if p.Ladder, err = playerLadderPlace(r, t, id); err != nil {
		s.fail(w, r, t, err)
		return
	}
	for _, title := range held {
		if reign := title.CurrentReign(); reign != nil {
			p.Titles = append(p.Titles, views.HeldTitle{Slug: title.Slug, Name: title.Name, Since: reign.Since})
		}
	}
	for _, tr := range stats.Trophies {
		p.Trophies = append(p.Trophies, views.Trophy{Rank: tr.Rank, Tournament: views.TournamentRef{Slug: tr.TournamentSlug, Name: tr.TournamentName}})
	}
	for _, st := range upcoming {
		p.Upcoming = append(p.Upcoming, book.summary(&st.Match, publicTournamentRef(st), now))
	}
	for _, st := range recent {
		p.Recent = append(p.Recent, publicResult(book, st, id, now))
	}
	if p.Channel, err = t.Store.StreamLogin(ctx, id); err != nil {
		s.fail(w, r, t, err)
		return
	}
	if p.Channel != "" {
		p.ChannelURL = core.StreamURL(p.Channel)
		_, p.ChannelLive = s.srv.LiveNow(ctx, t)[p.Channel]
	}
	p.Follow = views.FollowButton(*s.followButton(r, t, core.FollowPlayer, id, "/players/"+id))
	if rating := card.Rating; rating != nil {
		p.Rating = publicRating(rating.Rating, rating.Matches)
	}
	s.render(w, r, t, http.StatusOK, views.PlayerView(p))
}

func publicTournamentRef(st *core.MatchState) views.TournamentRef {
	return views.TournamentRef{Slug: st.Tournament.Slug, Name: st.Tournament.Name, Title: st.Tournament.Format == core.FormatTitle}
}

// publicResult is a decided match seen from the side the player is on.
func publicResult(book publicBook, st *core.MatchState, id string, now time.Time) views.PlayerResult {
	side := st.SideOf(id)
	if side == 0 { // a captain whose roster was not stored
		side = 1
		if st.P2 == id {
			side = 2
		}
	}
	mine, theirs := st.P1, st.P2
	if side == 2 {
		mine, theirs = st.P2, st.P1
	}
	res := views.PlayerResult{
		Match:    book.summary(&st.Match, publicTournamentRef(st), now),
		Opponent: book.side(theirs),
		Won:      st.Winner == mine,
		Forfeit:  st.Status == core.MatchForfeited,
	}
	if sc := st.Score; sc != nil {
		res.Score = &views.Score{P1: sc.P1, P2: sc.P2}
		if side == 2 {
			res.Score = &views.Score{P1: sc.P2, P2: sc.P1}
		}
	}
	return res
}

// playerEntries are the tournaments the player is entered in that are
// not over, starting soonest first.
func (s *Site) playerEntries(r *http.Request, t *server.Tenant, id string) ([]views.PlayerEntry, error) {
	ctx := r.Context()
	captains, err := t.Store.RosterCaptains(ctx, id)
	if err != nil || len(captains) == 0 {
		return nil, err
	}
	list, err := t.Store.Tournaments(ctx, false)
	if err != nil {
		return nil, err
	}
	var out []views.PlayerEntry
	var others []string
	now := s.srv.Now()
	for i := range list {
		tour := &list[i]
		captain, ok := captains[tour.ID]
		if !ok || tour.Status.Final() {
			continue
		}
		out = append(out, views.PlayerEntry{Tournament: publicCard(tour, now), CaptainName: captain})
		if captain != id {
			others = append(others, captain)
		}
	}
	book, err := publicPlayers(ctx, t, others)
	if err != nil {
		return nil, err
	}
	for i := range out {
		if c := out[i].CaptainName; c == id {
			out[i].CaptainName = ""
		} else {
			out[i].CaptainName = book.player(c).Name
		}
	}
	slices.SortStableFunc(out, func(a, b views.PlayerEntry) int { return a.Tournament.StartsAt.Compare(b.Tournament.StartsAt) })
	return out, nil
}

// playerLadderPlace is the player's place on the latest season's ladder
// (core's ranks: equal points share one), nil when they have none.
func playerLadderPlace(r *http.Request, t *server.Tenant, id string) (*views.LadderPlace, error) {
	ladder, err := core.Ladder(r.Context(), t.Store, "")
	if err != nil || ladder.Season == nil {
		return nil, err
	}
	for i, row := range ladder.Rows {
		if row.PlatformID != id {
			continue
		}
		shared := (i > 0 && ladder.Rows[i-1].Rank == row.Rank) || (i+1 < len(ladder.Rows) && ladder.Rows[i+1].Rank == row.Rank)
		return &views.LadderPlace{Rank: row.Rank, Points: row.Points, SeasonName: ladder.Season.Name, Shared: shared}, nil
	}
	return nil, nil
}

// publicPlayerDescription is a profile's link preview.
func publicPlayerDescription(ctx context.Context, me views.PlayerRef, st core.PlayerStats) string {
	tr := i18n.From(ctx)
	if st.MatchesPlayed == 0 {
		return tr.T("player.share.new", "Name", me.Name)
	}
	return tr.T("player.share.stats", "Name", me.Name, "Matches", tr.N("player.share.matches", st.MatchesPlayed),
		"Wins", tr.N("player.share.wins", st.Wins), "Rate", tr.T("player.winRate", "Rate", tr.Number(st.WinRate)))
}

// publicRating is a rating as the pages show it.
func publicRating(r core.Rating, matches int) *views.RatingFigures {
	r = r.Rounded()
	return &views.RatingFigures{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility, Matches: matches}
}

// ladderPage is the ladder of ?season= (a season's slug or "all"; absent
// or unknown means the latest season), like the API's; ?order=rating
// ranks the rated players by rating.
func (s *Site) ladderPage(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	ctx := r.Context()
	query := r.URL.Query()
	byRating := query.Get("order") == core.LadderOrderRating
	var ladder core.SeasonLadder
	var rated []core.RatedRow
	var err error
	if byRating {
		ladder, rated, err = core.RatingLadder(ctx, t.Store, query.Get("season"), s.srv.Now(), server.RatingPeriodHours(ctx, t.Store))
	} else {
		ladder, err = core.Ladder(ctx, t.Store, query.Get("season"))
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	p := views.LadderPage{Layout: s.layout(r, t, i18n.From(ctx).T("ladder.title")), Seasons: make([]views.SeasonOption, 0, len(ladder.Seasons)), ByRating: byRating}
	for _, se := range ladder.Seasons {
		p.Seasons = append(p.Seasons, views.SeasonOption{Slug: se.Slug, Name: se.Name})
	}
	if se := ladder.Season; se != nil {
		p.Season, p.SeasonName = se.Slug, se.Name
		if se.Season != nil {
			p.SeasonStarts, p.SeasonEnds = &se.Season.StartsAt, &se.Season.EndsAt
		}
	}
	ids := make([]string, 0, len(ladder.Rows)+len(rated))
	for _, row := range ladder.Rows {
		ids = append(ids, row.PlatformID)
	}
	for _, row := range rated {
		ids = append(ids, row.PlatformID)
	}
	book, err := publicPlayers(ctx, t, ids)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	if byRating {
		for _, row := range rated {
			p.Rows = append(p.Rows, views.LadderRow{Rank: row.Rank, Player: book.player(row.PlatformID), Points: row.Points,
				Tournaments: row.Tournaments, Rating: publicRating(row.Rating, row.Matches)})
		}
	} else {
		for _, row := range ladder.Rows {
			p.Rows = append(p.Rows, views.LadderRow{Rank: row.Rank, Player: book.player(row.PlatformID), Points: row.Points, Tournaments: row.Tournaments})
		}
	}
	s.render(w, r, t, http.StatusOK, views.LadderView(p))
}
