package server

import (
	"net/http"

	"arena/core"
)

// handleTournaments lists every public (non-draft) tournament.
func (s *Server) handleTournaments(r *http.Request, t *Tenant, _ bool) (any, error) {
	list, err := t.Tournaments(r.Context(), false)
	if err != nil {
		return nil, err
	}
	out := make([]tournamentSummary, 0, len(list))
	for i := range list {
		out = append(out, summaryOf(&list[i]))
	}
	return map[string]any{"tournaments": out}, nil
}

// handleTournament answers the full tournament; drafts are not found.
func (s *Server) handleTournament(r *http.Request, t *Tenant, _ bool) (any, error) {
	v, err := t.TournamentView(r.Context(), r.PathValue("slug"))
	if err != nil {
		return nil, err
	}
	full := fullTournamentOf(v)
	s.decorateCasters(r.Context(), t, v, full)
	return full, nil
}

// publicMatchView is the public match object of GET /api/v1/matches/{id}:
// the match object of the tournament's groups and bracket, plus the
// tournament it belongs to (null for a title's match).
type publicMatchView struct {
	matchView
	Tournament *tournamentRef `json:"tournament"`
}

// handleMatch answers one match by id, the look-up of a game client whose
// answer to a submission was lost; a match of a draft tournament is not
// found.
func (s *Server) handleMatch(r *http.Request, t *Tenant, _ bool) (any, error) {
	ctx := r.Context()
	id, err := core.ParseMatchID(r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	parts, err := t.MatchView(ctx, id)
	if err != nil {
		return nil, err
	}
	tour := parts.Tournament
	v := publicMatchView{matchView: playerBook(parts.Players).match(&parts.State.Match)}
	if tour.Format != core.FormatTitle {
		v.Tournament = &tournamentRef{Slug: tour.Slug, Name: tour.Name}
	}
	return v, nil
}

// seasonView is a season in the ladder response. The "all" pseudo-season
// has no dates.
type seasonView struct {
	Slug     string  `json:"slug"`
	Name     string  `json:"name"`
	StartsAt *string `json:"startsAt"`
	EndsAt   *string `json:"endsAt"`
}

type ladderRowView struct {
	Rank        int                 `json:"rank"`
	Player      *core.PlayerProfile `json:"player"`
	Points      int                 `json:"points"`
	Tournaments int                 `json:"tournaments"`
	// Rating is shown on the rating ladder (?order=rating) only.
	Rating *ratingView `json:"rating,omitempty"`
}

// ratingView is a player's Glicko-2 rating as the API shows it.
type ratingView struct {
	Rating     float64 `json:"rating"`
	Deviation  float64 `json:"deviation"`
	Volatility float64 `json:"volatility"`
	Matches    int     `json:"matches"`
}

func ratingOf(r core.Rating, matches int) *ratingView {
	r = r.Rounded()
	return &ratingView{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility, Matches: matches}
}

func seasonOf(s core.Season) seasonView {
	starts, ends := isoTime(s.StartsAt), isoTime(s.EndsAt)
	return seasonView{Slug: s.Slug, Name: s.Name, StartsAt: &starts, EndsAt: &ends}
}

// handleLadder answers { season, seasons, ladder }: ?season= names a
// season slug or "all" (every season summed); absent or unknown means the
// latest season. season is null when the arena has no season yet.
// ?order=rating ranks every rated player by rating instead (with the
// season's points and their rating in each row); any other order is the
// spec's.
func (s *Server) handleLadder(r *http.Request, t *Tenant, _ bool) (any, error) {
	query := r.URL.Query()
	l, err := t.Ladder(r.Context(), query.Get("season"), query.Get("order") == core.LadderOrderRating)
	if err != nil {
		return nil, err
	}
	ladder, rated := l.SeasonLadder, l.Rated
	views := make([]seasonView, 0, len(ladder.Seasons))
	for _, se := range ladder.Seasons {
		views = append(views, seasonOf(se))
	}
	var current *seasonView
	switch {
	case ladder.Season == nil:
	case ladder.Season.All:
		current = &seasonView{Slug: ladder.Season.Slug, Name: ladder.Season.Name}
	default:
		v := seasonOf(*ladder.Season.Season)
		current = &v
	}
	book := playerBook(l.Players)
	rows := make([]ladderRowView, 0, len(ladder.Rows))
	if rated != nil {
		for _, row := range rated {
			rows = append(rows, ladderRowView{Rank: row.Rank, Player: book.player(row.PlatformID), Points: row.Points,
				Tournaments: row.Tournaments, Rating: ratingOf(row.Rating, row.Matches)})
		}
	} else {
		for _, row := range ladder.Rows {
			rows = append(rows, ladderRowView{Rank: row.Rank, Player: book.player(row.PlatformID), Points: row.Points, Tournaments: row.Tournaments})
		}
	}
	return map[string]any{"season": current, "seasons": views, "ladder": rows}, nil
}

type trophyView struct {
	Rank         int           `json:"rank"`
	TournamentID int64         `json:"tournamentId"`
	Tournament   tournamentRef `json:"tournament"`
}

type tournamentRef struct {
	Slug string `json:"slug"`
	Name string `json:"name"`
}

type playerStatsView struct {
	MatchesPlayed int          `json:"matchesPlayed"`
	Wins          int          `json:"wins"`
	Losses        int          `json:"losses"`
	WinRate       int          `json:"winRate"`
	Trophies      []trophyView `json:"trophies"`
}

// handlePlayer answers { player, stats, rating } for a 17-digit account
// id the arena knows; rating is null until the player's first rated
// period, its deviation grown to now.
func (s *Server) handlePlayer(r *http.Request, t *Tenant, _ bool) (any, error) {
	id := r.PathValue("platformId")
	if !core.ValidPlatformID(id) {
		return nil, core.Errorf(core.CodeInvalidSteamID, "not 17 digits")
	}
	c, err := t.PlayerCard(r.Context(), id)
	if err != nil {
		return nil, err
	}
	stats := playerStatsView{MatchesPlayed: c.Stats.MatchesPlayed, Wins: c.Stats.Wins, Losses: c.Stats.Losses, WinRate: c.Stats.WinRate, Trophies: []trophyView{}}
	for _, tr := range c.Stats.Trophies {
		stats.Trophies = append(stats.Trophies, trophyView{Rank: tr.Rank, TournamentID: tr.TournamentID, Tournament: tournamentRef{Slug: tr.TournamentSlug, Name: tr.TournamentName}})
	}
	var rv *ratingView
	if c.Rating != nil {
		rv = ratingOf(c.Rating.Rating, c.Rating.Matches)
	}
	return map[string]any{"player": c.Profile, "stats": stats, "rating": rv}, nil
}
