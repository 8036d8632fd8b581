package app

import (
	"context"

	"arena/core"
	"arena/core/tournamentview"
)

// What the public reads: tournaments and matches as their readers see
// them (drafts are not found), the front page, the ladders and the
// calendars. The JSON API and the pages answer from the same reads.

// TournamentView is the public tournament with the slug as its readers
// see it (one read); a draft is core.CodeTournamentNotFound.
func (s *Session) TournamentView(ctx context.Context, slug string) (*tournamentview.Tournament, error) {
	return tournamentview.Read(ctx, s.store, slug)
}

// MatchView is the match with the id with everything its page shows (one
// read); a draft's match is core.CodeMatchNotFound.
func (s *Session) MatchView(ctx context.Context, id int64) (*tournamentview.MatchParts, error) {
	return tournamentview.ReadMatch(ctx, s.store, id)
}

// PublicMatch is the match with the id unless it is a draft's
// (core.CodeMatchNotFound); a match of an unknown tournament is
// core.CodeTournamentNotFound.
func (s *Session) PublicMatch(ctx context.Context, id int64) (*core.Match, error) {
	m, err := s.store.Match(ctx, id)
	if err != nil {
		return nil, err
	}
	if _, err := tournamentview.MatchTournament(ctx, s.store, m); err != nil {
		return nil, err
	}
	return m, nil
}

// Schedule is the public tournament with the slug and its matches'
// windows, as its calendar shows them.
func (s *Session) Schedule(ctx context.Context, slug string) (*tournamentview.Schedule, error) {
	return tournamentview.ReadSchedule(ctx, s.store, slug)
}

// FrontPage is what the front page lists: the public tournaments, the
// matches under way or soon, the players they name and who is on stream
// (one read).
func (s *Session) FrontPage(ctx context.Context) (*tournamentview.FrontParts, error) {
	return s.store.FrontParts(ctx)
}

// Ladder is a ladder as the API and the ladder page show it: the season
// ladder, the rated rows when ranked by rating, and the players both
// name.
type Ladder struct {
	core.SeasonLadder
	// Rated are the rows ranked by rating (core.RatingLadder); nil when
	// ranked by points.
	Rated []core.RatedRow
	// Players are the profiles of the players the rows name.
	Players tournamentview.Players
}

// Ladder is the ladder of the season with the slug ("all": every season
// summed; "" or unknown: the latest), ranked by points, or by rating
// (its deviations grown to now for the arena's rating periods), with the players it names.
func (s *Session) Ladder(ctx context.Context, season string, byRating bool) (*Ladder, error) {
	var out Ladder
	var err error
	if byRating {
		out.SeasonLadder, out.Rated, err = core.RatingLadder(ctx, s.store, season, s.Deps.Now, s.RatingPeriodHours(ctx))
	} else {
		out.SeasonLadder, err = core.Ladder(ctx, s.store, season)
	}
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(out.Rows)+len(out.Rated))
	for _, row := range out.Rows {
		ids = append(ids, row.PlatformID)
	}
	for _, row := range out.Rated {
		ids = append(ids, row.PlatformID)
	}
	if out.Players, err = s.PlayerBook(ctx, ids); err != nil {
		return nil, err
	}
	return &out, nil
}
