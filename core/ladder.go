package core

import "context"

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

// Ladder returns the ladder of the season want picks (PickSeason), ranked.
func Ladder(ctx context.Context, st TournamentStore, want string) (SeasonLadder, error) {
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
	for i, row := range rows {
		out.Rows = append(out.Rows, RankedRow{Rank: i + 1, LadderRow: row})
	}
	return out, nil
}
