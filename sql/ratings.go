package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"arena/core"
)

var _ core.RatingStore = (*Arena)(nil)

// Ratings implements core.RatingStore and core.TournamentStore.
func (s *Arena) Ratings(ctx context.Context, ids []string) (map[string]core.PlayerRating, error) {
	out := map[string]core.PlayerRating{}
	if len(ids) == 0 {
		return out, nil
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.query(ctx, q("ratings_in"), sql.Named("players", string(list)))
	if err != nil {
		return nil, fmt.Errorf("store: unable to read ratings: %w", err)
	}
	return out, scanRatings(rows, func(p core.PlayerRating) { out[p.PlatformID] = p })
}

// RatingLadder implements core.RatingLadderStore.
func (s *Arena) RatingLadder(ctx context.Context) ([]core.PlayerRating, error) {
	rows, err := s.db.query(ctx, q("rating_ladder"))
	if err != nil {
		return nil, fmt.Errorf("store: unable to read the rating ladder: %w", err)
	}
	out := []core.PlayerRating{}
	err = scanRatings(rows, func(p core.PlayerRating) { out = append(out, p) })
	return out, err
}

func scanRatings(rows *rows, each func(core.PlayerRating)) error {
	defer rows.Close()
	for rows.Next() {
		p, err := scanRating(rows)
		if err != nil {
			return err
		}
		each(p)
	}
	return rows.Err()
}

// scanRating reads a ratings_in or rating_ladder row.
func scanRating(row Scanner) (core.PlayerRating, error) {
	var p core.PlayerRating
	var through string
	if err := row.Scan(&p.PlatformID, &p.Rating.Rating, &p.Rating.Deviation, &p.Rating.Volatility, &p.Matches, &through); err != nil {
		return p, err
	}
	t, err := parseTime(through)
	p.RatedThrough = t
	return p, err
}

// RatingWork implements core.RatingStore.
func (s *Arena) RatingWork(ctx context.Context, before time.Time) (time.Time, *time.Time, error) {
	var through string
	var next sql.NullString
	if err := s.db.queryRow(ctx, q("rating_work"),
		sql.Named("before", formatTime(before))).Scan(&through, &next); err != nil {
		return time.Time{}, nil, fmt.Errorf("store: unable to read the rating work: %w", err)
	}
	var out time.Time
	if through != "" {
		t, err := parseTime(through)
		if err != nil {
			return time.Time{}, nil, err
		}
		out = t
	}
	n, err := parseNullTime(next)
	return out, n, err
}

// RatedMatches implements core.RatingStore.
func (s *Arena) RatedMatches(ctx context.Context, from, to time.Time) ([]core.RatedMatch, error) {
	rows, err := s.db.query(ctx, q("rated_matches"), sql.Named("from", formatTime(from)),
		sql.Named("to", formatTime(to)))
	if err != nil {
		return nil, fmt.Errorf("store: unable to read rated matches: %w", err)
	}
	defer rows.Close()
	var out []core.RatedMatch
	for rows.Next() {
		var m core.RatedMatch
		if err := rows.Scan(&m.P1, &m.P2, &m.Winner); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// ApplyRatingPeriod implements core.RatingStore: the period's record and
// its ratings in one batch; a period recorded already fails the batch on
// its key, and nothing is stored twice.
func (s *Arena) ApplyRatingPeriod(ctx context.Context, from, to time.Time, matches int, ratings []core.PlayerRating, at time.Time) (bool, error) {
	now := formatTime(at)
	stmts := []Stmt{{SQL: q("insert_rating_period"), Args: []any{sql.Named("from", formatTime(from)),
		sql.Named("to", formatTime(to)), sql.Named("matches", matches), sql.Named("now", now)}}}
	for _, p := range ratings {
		stmts = append(stmts, Stmt{SQL: q("upsert_rating"), Args: []any{sql.Named("player", p.PlatformID),
			sql.Named("rating", p.Rating.Rating),
			sql.Named("deviation", p.Rating.Deviation), sql.Named("volatility", p.Rating.Volatility),
			sql.Named("matches", p.Matches), sql.Named("rated_through", formatTime(p.RatedThrough)),
			sql.Named("now", now)}})
	}
	err := s.db.Batch(ctx, stmts...)
	if isUniqueViolation(err, "rating_periods.starts_at") {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: unable to rate the period from %s: %w", formatTime(from), err)
	}
	return true, nil
}
