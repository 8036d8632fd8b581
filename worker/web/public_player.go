package web

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"arena/app"
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

// planPlayerPage plans the player page's reads keyed by the player's id
// to go with its first (the player's card): its matches, the titles it
// holds, its entries and the tournaments, the seasons of the ladder, its
// channel. What depends on them (the other sides' names, the ladder's
// rows) follows.
func planPlayerPage(r *http.Request, t *server.Tenant, id string) {
	if !core.ValidPlatformID(id) {
		return
	}
	t.PlanPlayerPage(r.Context(), id)
}

// playerFor reads the player of a public page ({platformId}): its card,
// as the player API reads it (the session's PlayerCard); a malformed or
// unknown id is the 404 page (false: answered).
func (s *Site) playerFor(w http.ResponseWriter, r *http.Request, t *server.Tenant, id string) (*core.PlayerCard, bool) {
	if !core.ValidPlatformID(id) {
		s.publicNotFound(w, r, t, i18n.From(r.Context()).T("player.notFound"))
		return nil, false
	}
	card, err := t.PlayerCard(r.Context(), id)
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
	pp, err := t.PlayerPage(ctx, id, core.NumberText(r.URL.Query().Get("page")).N, playerRecentLimit, playerUpcomingLimit)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	page, upcoming, recent := pp.Page, pp.Upcoming, pp.Recent
	book := publicBook(pp.Players)
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
	if pp.HasOlder {
		p.OlderURL = "/players/" + id + "?page=" + strconv.Itoa(page+1) + "#history"
	}
	if page > 1 {
		p.NewerURL = "/players/" + id + "?page=" + strconv.Itoa(page-1) + "#history"
	}
	p.Entries = playerEntries(pp, id, now)
	p.Ladder = playerLadderPlace(pp.Ladder, id)
	for _, title := range pp.Titles {
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
	if p.Channel = pp.Channel; p.Channel != "" {
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
func playerEntries(pp *app.PlayerPage, id string, now time.Time) []views.PlayerEntry {
	if len(pp.Entries) == 0 {
		return nil
	}
	book := publicBook(pp.Captains)
	out := make([]views.PlayerEntry, 0, len(pp.Entries))
	for _, e := range pp.Entries {
		entry := views.PlayerEntry{Tournament: publicCard(e.Tournament, now)}
		if e.Captain != id {
			entry.CaptainName = book.player(e.Captain).Name
		}
		out = append(out, entry)
	}
	slices.SortStableFunc(out, func(a, b views.PlayerEntry) int { return a.Tournament.StartsAt.Compare(b.Tournament.StartsAt) })
	return out
}

// playerLadderPlace is the player's place on the latest season's ladder
// (core's ranks: equal points share one), nil when they have none.
func playerLadderPlace(ladder core.SeasonLadder, id string) *views.LadderPlace {
	if ladder.Season == nil {
		return nil
	}
	for i, row := range ladder.Rows {
		if row.PlatformID != id {
			continue
		}
		shared := (i > 0 && ladder.Rows[i-1].Rank == row.Rank) || (i+1 < len(ladder.Rows) && ladder.Rows[i+1].Rank == row.Rank)
		return &views.LadderPlace{Rank: row.Rank, Points: row.Points, SeasonName: ladder.Season.Name, Shared: shared}
	}
	return nil
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
	l, err := t.Ladder(ctx, query.Get("season"), byRating)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	ladder, rated := l.SeasonLadder, l.Rated
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
	book := publicBook(l.Players)
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
