package store

import (
	"context"
	"database/sql"
	"fmt"
)

// CountRequest adds one request to bucket's window and returns the
// window's count so far, in one statement: concurrent requests each get
// their own count.
func (s *Arena) CountRequest(ctx context.Context, bucket string, windowStart int64) (int, error) {
	query, args, err := bind(q("count_request"), []any{sql.Named("bucket", bucket),
		sql.Named("window_start", windowStart)})
	if err != nil {
		return 0, err
	}
	var n int
	if err := s.db.writer.QueryRowContext(ctx, query, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: unable to count request: %w", err)
	}
	return n, nil
}

// SweepRateCounters deletes the windows that started before cutoff.
func (s *Arena) SweepRateCounters(ctx context.Context, cutoff int64) error {
	query, args, err := bind(q("sweep_rate_counters"), []any{sql.Named("cutoff", cutoff)})
	if err != nil {
		return err
	}
	if _, err := s.db.writer.ExecContext(ctx, query, args...); err != nil {
		return fmt.Errorf("store: unable to sweep rate counters: %w", err)
	}
	return nil
}
