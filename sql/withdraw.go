package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"arena/core"
)

var _ core.WithdrawStore = (*Arena)(nil)

// Withdraw implements core.WithdrawStore: one batch deletes the side's
// roster and registration, each only while the tournament takes
// registrations; one query then checks the registration is gone.
func (s *Arena) Withdraw(ctx context.Context, t *core.Tournament, captain string, at time.Time) error {
	now := formatTime(at)
	err := s.db.Batch(ctx,
		Stmt{SQL: q("withdraw_roster"), Args: []any{sql.Named("tournament", t.ID),
			sql.Named("captain", captain), sql.Named("now", now)}},
		Stmt{SQL: q("withdraw_registration"), Args: []any{sql.Named("tournament", t.ID),
			sql.Named("captain", captain), sql.Named("now", now)}},
	)
	if err != nil {
		return fmt.Errorf("store: unable to withdraw %s from %s: %w", captain, t.Slug, err)
	}
	var n int
	if err := s.db.queryRow(ctx, q("registration_exists"), sql.Named("tournament", t.ID),
		sql.Named("captain", captain)).Scan(&n); err != nil {
		return fmt.Errorf("store: unable to check the withdrawal: %w", err)
	}
	if n > 0 {
		return core.Errorf(core.CodeRegistrationClosed, "%s takes no registrations", t.Slug)
	}
	return nil
}
