package store

import (
	"context"
	"fmt"
)

// CountRequest adds one request to bucket's window and returns the
// window's count so far, in one statement: concurrent requests each get
// their own count.
func (s *Arena) CountRequest(ctx context.Context, bucket string, windowStart int64) (int, error) {
	var n int
	if err := s.db.writer.QueryRowContext(ctx, q("count_request"), bucket, windowStart).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: unable to count request: %w", err)
	}
	return n, nil
}

// SweepRateCounters deletes the windows that started before cutoff.
func (s *Arena) SweepRateCounters(ctx context.Context, cutoff int64) error {
	if _, err := s.db.writer.ExecContext(ctx, q("sweep_rate_counters"), cutoff); err != nil {
		return fmt.Errorf("store: unable to sweep rate counters: %w", err)
	}
	return nil
}
