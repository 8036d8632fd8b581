package core

import (
	"context"
	"strings"
	"time"
)

// SeasonAll is the ladder's ?season= value that sums every season.
const SeasonAll = "all"

// LadderSeason is the season a ladder shows: one season, or every season
// summed (All, ID 0).
type LadderSeason struct {
	Slug   string
	Name   string
	ID     int64
	All    bool
	Season *Season // nil for All
}

// PickSeason returns the season ?season= picks: a season's slug, SeasonAll,
// or, for anything else (absent, unknown), the latest season (seasons come
// latest first). It returns nil when the arena has no season yet and want
// is not SeasonAll: the ladder is then empty.
func PickSeason(seasons []Season, want string) *LadderSeason {
	if want == SeasonAll {
		return &LadderSeason{Slug: SeasonAll, Name: "All seasons", All: true}
	}
	if len(seasons) == 0 {
		return nil
	}
	pick := 0
	for i, se := range seasons {
		if se.Slug == want {
			pick = i
		}
	}
	se := seasons[pick]
	return &LadderSeason{Slug: se.Slug, Name: se.Name, ID: se.ID, Season: &se}
}

// SeasonLadder is a ladder as the API and the site show it.
type SeasonLadder struct {
	Seasons []Season      // every season, latest first
	Season  *LadderSeason // nil: no season yet
	Rows    []RankedRow
}

// RankedRow is a ladder row with its rank.
type RankedRow struct {
	Rank int
	LadderRow
}

// SeasonStore reads an arena's seasons and their ladders.
type SeasonStore interface {
	// Seasons returns every season, the latest start first.
	Seasons(ctx context.Context) ([]Season, error)
	// Ladder returns the ladder of a season (seasonID 0: every season).
	Ladder(ctx context.Context, seasonID int64) ([]LadderRow, error)
}

// Ladder returns the ladder of the season want picks (PickSeason), ranked.
func Ladder(ctx context.Context, st SeasonStore, want string) (SeasonLadder, error) {
	seasons, err := st.Seasons(ctx)
	if err != nil {
		return SeasonLadder{}, err
	}
	out := SeasonLadder{Seasons: seasons, Season: PickSeason(seasons, want)}
	if out.Season == nil {
		return out, nil
	}
	rows, err := st.Ladder(ctx, out.Season.ID)
	if err != nil {
		return SeasonLadder{}, err
	}
	out.Rows = RankLadder(rows)
	return out, nil
}

// RankLadder ranks season rows that come best first (most points, then
// most tournaments): equal points share a rank and the places they take
// are skipped ("1, 2, 2, 4", competition ranking). The API and the site
// both show these ranks; the order of rows sharing a rank is kept.
func RankLadder(rows []LadderRow) []RankedRow {
	out := make([]RankedRow, 0, len(rows))
	for i, row := range rows {
		rank := i + 1
		if i > 0 && row.Points == rows[i-1].Points {
			rank = out[i-1].Rank
		}
		out = append(out, RankedRow{Rank: rank, LadderRow: row})
	}
	return out
}

// SeasonDraft is a ladder season as an admin gives it: the body of POST
// /api/v1/admin/seasons, or the admin pages' form read into the same type.
type SeasonDraft struct {
	Slug     string  `json:"slug"`
	Name     string  `json:"name"`
	StartsAt Instant `json:"startsAt"`
	EndsAt   Instant `json:"endsAt"`
}

// SeasonDraftOf is the draft of a stored season: an edit decodes onto
// it, so absent fields keep their value.
func SeasonDraftOf(se Season) SeasonDraft {
	return SeasonDraft{Slug: se.Slug, Name: se.Name, StartsAt: At(se.StartsAt), EndsAt: At(se.EndsAt)}
}

// Check returns the season (created at now), or its problems: a slug, a
// name, both dates, and the end after the start.
func (d *SeasonDraft) Check(now time.Time) (*Season, Problems) {
	var p Problems
	se := &Season{Slug: strings.TrimSpace(d.Slug), Name: strings.TrimSpace(d.Name), StartsAt: d.StartsAt.T, EndsAt: d.EndsAt.T, CreatedAt: now}
	if !ValidSlug(se.Slug) {
		p.invalid("slug", "Use 1 to 40 lowercase letters, digits and inner hyphens.")
	}
	checkName(&p, "name", se.Name, "Enter a name.")
	d.StartsAt.check(&p, "startsAt", true)
	d.EndsAt.check(&p, "endsAt", true)
	if !p.Has("startsAt") && !p.Has("endsAt") && !se.EndsAt.After(se.StartsAt) {
		p.invalid("endsAt", "The season must end after it starts.")
	}
	if len(p) > 0 {
		return nil, p
	}
	return se, nil
}

// LadderOrderRating is the ladder's ?order= value that ranks the arena's
// rated players by rating instead of the season's points; any other value
// keeps the spec's order.
const LadderOrderRating = "rating"

// RatedRow is a rating ladder's row: a rated player ranked by rating,
// with their season points (zero when they have none) and their rating
// as of now.
type RatedRow struct {
	Rank int
	LadderRow
	Rating  Rating
	Matches int
}

// RatingLadderStore is what the rating ladder reads: the seasons and the
// ratings. One value, the arena's store, serves it.
type RatingLadderStore interface {
	SeasonStore
	// RatingLadder returns every rated player, the highest rating first
	// (then the lower deviation, then the id).
	RatingLadder(ctx context.Context) ([]PlayerRating, error)
}

// RatingLadder returns the ladder of the season want picks (for its
// seasons and points) with every rated player ranked by their stored
// rating: the highest first, then the lower deviation, then the id. The
// ratings shown have their deviations grown to now for the rating periods
// (periodHours) a player sat out.
func RatingLadder(ctx context.Context, st RatingLadderStore, want string, now time.Time, periodHours int) (SeasonLadder, []RatedRow, error) {
	season, err := Ladder(ctx, st, want)
	if err != nil {
		return SeasonLadder{}, nil, err
	}
	ratings, err := st.RatingLadder(ctx)
	if err != nil {
		return SeasonLadder{}, nil, err
	}
	points := make(map[string]LadderRow, len(season.Rows))
	for _, row := range season.Rows {
		points[row.PlatformID] = row.LadderRow
	}
	rows := make([]RatedRow, 0, len(ratings))
	for i, p := range ratings {
		row := points[p.PlatformID]
		row.PlatformID = p.PlatformID
		rows = append(rows, RatedRow{Rank: i + 1, LadderRow: row, Rating: p.Now(now, periodHours), Matches: p.Matches})
	}
	return season, rows, nil
}
