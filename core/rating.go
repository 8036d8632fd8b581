package core

import (
	"context"
	"slices"
	"time"
)

// Ratings: each arena rates its players with Glicko-2 (glicko.go) from
// every resolved 1v1 match (byes and team tournaments are not rated), in
// rating periods of the arena's setting (RatingPeriodHoursRange, default a
// day). Periods are aligned to whole multiples of their length since the
// Unix epoch (UTC midnights for days); a period is rated once it is over,
// by the scheduled job RunRatingPeriods, each in one batch recorded with
// the period, so running it twice or concurrently rates nothing twice.
// A player who sits out periods is not written: their deviation grows
// for those periods when they next play (Rating.Idle), and the profile
// shows it grown to now.

// SettingRatingPeriodHours is the arena setting holding the rating
// period's length in hours (a JSON number).
const SettingRatingPeriodHours = "rating_period_hours"

// Rating period limits: an hour to 30 days, a day unless set.
var RatingPeriodHoursRange = Range{Min: 1, Max: 720}

// DefaultRatingPeriodHours is a day.
const DefaultRatingPeriodHours = 24

// maxRatingPeriodsPerRun bounds one job run; the next run goes on.
const maxRatingPeriodsPerRun = 64

// PlayerRating is a player's stored rating: Rating after the last period
// they played in, which ended at RatedThrough, over Matches rated matches.
type PlayerRating struct {
	PlatformID   string
	Rating       Rating
	Matches      int
	RatedThrough time.Time
}

// Now is the rating as of now: the deviation grown for every whole
// period since RatedThrough.
func (p PlayerRating) Now(now time.Time, periodHours int) Rating {
	return p.Rating.Idle(idlePeriods(p.RatedThrough, now, periodHours))
}

func idlePeriods(since, until time.Time, periodHours int) int {
	if since.IsZero() || !until.After(since) {
		return 0
	}
	return int(until.Sub(since) / (time.Duration(periodHours) * time.Hour))
}

// RatedMatch is a resolved 1v1 match as the ratings see it.
type RatedMatch struct {
	P1, P2, Winner string
}

// RatingReader reads players' ratings.
type RatingReader interface {
	// Ratings returns the stored ratings of the ids that have one (the
	// draw seeds by them).
	Ratings(ctx context.Context, ids []string) (map[string]PlayerRating, error)
}

// RatingStore keeps an arena's ratings.
type RatingStore interface {
	RatingReader
	// RatingWork returns the end of the last rated period (zero if none)
	// and when the first rateable match resolved at or after it and before
	// `before` was resolved (nil if none).
	RatingWork(ctx context.Context, before time.Time) (through time.Time, next *time.Time, err error)
	// RatedMatches returns the rateable matches resolved in [from, to).
	RatedMatches(ctx context.Context, from, to time.Time) ([]RatedMatch, error)
	// ApplyRatingPeriod records the period [from, to) and stores the
	// ratings in one batch; false (and nothing stored) when the period was
	// recorded already.
	ApplyRatingPeriod(ctx context.Context, from, to time.Time, matches int, ratings []PlayerRating, at time.Time) (bool, error)
}

// RatingPeriodOf returns the period of periodHours holding t: [start, end).
func RatingPeriodOf(t time.Time, periodHours int) (start, end time.Time) {
	length := time.Duration(periodHours) * time.Hour
	start = t.UTC().Truncate(length)
	return start, start.Add(length)
}

// RunRatingPeriods rates every period that is over and has rateable
// matches not rated yet, oldest first (at most maxRatingPeriodsPerRun a
// run), and returns how many it rated.
func RunRatingPeriods(ctx context.Context, rs RatingStore, periodHours int, now time.Time) (int, error) {
	current, _ := RatingPeriodOf(now, periodHours)
	done := 0
	for done < maxRatingPeriodsPerRun {
		through, next, err := rs.RatingWork(ctx, current)
		if err != nil || next == nil {
			return done, err
		}
		start, end := RatingPeriodOf(*next, periodHours)
		if start.Before(through) { // the period's length changed: the rest of the period
			start = through
		}
		matches, err := rs.RatedMatches(ctx, start, end)
		if err != nil {
			return done, err
		}
		ratings, err := RatePeriod(ctx, rs, matches, start, end, periodHours)
		if err != nil {
			return done, err
		}
		if _, err := rs.ApplyRatingPeriod(ctx, start, end, len(matches), ratings, now); err != nil {
			return done, err
		}
		done++
	}
	return done, nil
}

// RatePeriod returns the new rating of every player of the period's
// matches (Glicko-2, every opponent at their rating at the period's
// start, grown for the periods they sat out), ordered by id.
func RatePeriod(ctx context.Context, rs RatingStore, matches []RatedMatch, start, end time.Time, periodHours int) ([]PlayerRating, error) {
	results := map[string][]RatedMatch{}
	for _, m := range matches {
		results[m.P1] = append(results[m.P1], m)
		results[m.P2] = append(results[m.P2], m)
	}
	ids := make([]string, 0, len(results))
	for id := range results {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	stored, err := rs.Ratings(ctx, ids)
	if err != nil {
		return nil, err
	}
	before := make(map[string]PlayerRating, len(ids))
	for _, id := range ids {
		p, ok := stored[id]
		if !ok {
			p = PlayerRating{PlatformID: id, Rating: NewRating()}
		}
		p.Rating = p.Now(start, periodHours)
		before[id] = p
	}
	out := make([]PlayerRating, 0, len(ids))
	for _, id := range ids {
		var rs []GlickoResult
		for _, m := range results[id] {
			opp := m.P2
			if opp == id {
				opp = m.P1
			}
			score := 0.0
			if m.Winner == id {
				score = 1
			}
			rs = append(rs, GlickoResult{Opponent: before[opp].Rating, Score: score})
		}
		p := before[id]
		out = append(out, PlayerRating{PlatformID: id, Rating: GlickoUpdate(p.Rating, rs, GlickoTau),
			Matches: p.Matches + len(rs), RatedThrough: end})
	}
	return out, nil
}
