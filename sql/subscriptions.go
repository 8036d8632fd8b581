package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"arena/core"
)

// Integrator webhook subscriptions (queries/subscriptions.sql): the
// store's side of core.SubscriptionStore.

var _ core.SubscriptionStore = (*Arena)(nil)

// CreateSubscription implements core.SubscriptionStore.
func (s *Arena) CreateSubscription(ctx context.Context, sub core.WebhookSubscription, at time.Time) (int64, error) {
	events, err := json.Marshal(sub.Events)
	if err != nil {
		return 0, err
	}
	var cursor int64
	err = s.db.writeRow(ctx, q("subscription_create"), sql.Named("id", sub.ID), sql.Named("url", sub.URL),
		sql.Named("secret", sub.Secret), sql.Named("format", sub.Format), sql.Named("events", string(events)),
		sql.Named("paused", sub.Paused), sql.Named("at", formatTime(at)), sql.Named("max", core.MaxSubscriptions)).Scan(&cursor)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, core.Errorf(core.CodeTooManySubscriptions, "the arena has %d webhook subscriptions", core.MaxSubscriptions)
	}
	if err != nil {
		return 0, fmt.Errorf("store: unable to create webhook subscription: %w", err)
	}
	return cursor, nil
}

// Subscriptions implements core.SubscriptionStore.
func (s *Arena) Subscriptions(ctx context.Context) ([]core.WebhookSubscription, error) {
	return s.subscriptions(ctx, q("subscriptions"))
}

// Subscription implements core.SubscriptionStore.
func (s *Arena) Subscription(ctx context.Context, id string) (*core.WebhookSubscription, error) {
	subs, err := s.subscriptions(ctx, q("subscription"), sql.Named("id", id))
	if err != nil || len(subs) == 0 {
		return nil, err
	}
	return &subs[0], nil
}

func (s *Arena) subscriptions(ctx context.Context, query string, args ...any) ([]core.WebhookSubscription, error) {
	rows, err := s.db.query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: unable to read webhook subscriptions: %w", err)
	}
	defer rows.Close()
	var out []core.WebhookSubscription
	for rows.Next() {
		var sub core.WebhookSubscription
		var events, created string
		if err := rows.Scan(&sub.ID, &sub.URL, &sub.Secret, &sub.Format, &events, &sub.Paused, &sub.Cursor, &created); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(events), &sub.Events); err != nil {
			return nil, fmt.Errorf("store: subscription %s's events: %w", sub.ID, err)
		}
		if sub.CreatedAt, err = parseTime(created); err != nil {
			return nil, err
		}
		out = append(out, sub)
	}
	return out, rows.Err()
}

// UpdateSubscription implements core.SubscriptionStore.
func (s *Arena) UpdateSubscription(ctx context.Context, sub core.WebhookSubscription, at time.Time) error {
	events, err := json.Marshal(sub.Events)
	if err != nil {
		return err
	}
	if _, err := s.db.write(ctx, q("subscription_update"), sql.Named("url", sub.URL), sql.Named("events", string(events)),
		sql.Named("paused", sub.Paused), sql.Named("at", formatTime(at)), sql.Named("id", sub.ID)); err != nil {
		return fmt.Errorf("store: unable to update webhook subscription %s: %w", sub.ID, err)
	}
	return nil
}

// DeleteSubscription implements core.SubscriptionStore: one batch.
func (s *Arena) DeleteSubscription(ctx context.Context, id string) error {
	if err := s.db.Batch(ctx, Stmt{SQL: q("subscription_delete"), Args: []any{sql.Named("id", id)}},
		Stmt{SQL: q("subscription_drop_deliveries"), Args: []any{sql.Named("id", id)}}); err != nil {
		return fmt.Errorf("store: unable to delete webhook subscription %s: %w", id, err)
	}
	return nil
}

// QueueDeliveries implements core.SubscriptionStore: one batch.
func (s *Arena) QueueDeliveries(ctx context.Context, id string, deliveries []core.SubscriptionDelivery, cursor int64, at time.Time) error {
	stmts := s.deliveryStmts(q("subscription_queue"), id, deliveries, at)
	stmts = append(stmts, Stmt{SQL: q("subscription_advance"), Args: []any{sql.Named("cursor", cursor), sql.Named("id", id)}})
	if err := s.db.Batch(ctx, stmts...); err != nil {
		return fmt.Errorf("store: unable to queue deliveries of webhook subscription %s: %w", id, err)
	}
	return nil
}

// RequeueDeliveries implements core.SubscriptionStore: one batch.
func (s *Arena) RequeueDeliveries(ctx context.Context, id string, deliveries []core.SubscriptionDelivery, at time.Time) error {
	if len(deliveries) == 0 {
		return nil
	}
	if err := s.db.Batch(ctx, s.deliveryStmts(q("subscription_requeue"), id, deliveries, at)...); err != nil {
		return fmt.Errorf("store: unable to replay deliveries of webhook subscription %s: %w", id, err)
	}
	return nil
}

func (s *Arena) deliveryStmts(query, id string, deliveries []core.SubscriptionDelivery, at time.Time) []Stmt {
	now := formatTime(at)
	stmts := make([]Stmt, 0, len(deliveries)+1)
	for _, d := range deliveries {
		stmts = append(stmts, Stmt{SQL: query, Args: []any{sql.Named("id", id), sql.Named("seq", d.Seq),
			sql.Named("webhook_id", d.WebhookID), sql.Named("at", now)}})
	}
	return stmts
}

// RequeueDelivery implements core.SubscriptionStore.
func (s *Arena) RequeueDelivery(ctx context.Context, id string, delivery int64, at time.Time) (bool, error) {
	var got int64
	err := s.db.writeRow(ctx, q("subscription_requeue_one"), sql.Named("at", formatTime(at)),
		sql.Named("delivery", delivery), sql.Named("id", id)).Scan(&got)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: unable to replay delivery %d: %w", delivery, err)
	}
	return true, nil
}

// SubscriptionDeliveries returns the subscription's latest
// deliveries, newest first.
func (s *Arena) SubscriptionDeliveries(ctx context.Context, id string, limit int) ([]core.SubscriptionDelivery, error) {
	rows, err := s.db.query(ctx, q("subscription_deliveries"), sql.Named("id", id), sql.Named("limit", limit))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list deliveries of webhook subscription %s: %w", id, err)
	}
	defer rows.Close()
	var out []core.SubscriptionDelivery
	for rows.Next() {
		var d core.SubscriptionDelivery
		if err := scanDelivery(rows, &d); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// scanDelivery reads a delivery's columns, then extra.
func scanDelivery(row scanner, d *core.SubscriptionDelivery, extra ...any) error {
	var next, created string
	var latency sql.NullInt64
	var attempted, sent sql.NullString
	dest := append([]any{&d.ID, &d.SubscriptionID, &d.Seq, &d.WebhookID, &d.State, &d.Attempts, &next, &d.LastStatus,
		&latency, &created, &attempted, &sent}, extra...)
	if err := row.Scan(dest...); err != nil {
		return err
	}
	var err error
	if d.NextAttemptAt, err = parseTime(next); err != nil {
		return err
	}
	if d.CreatedAt, err = parseTime(created); err != nil {
		return err
	}
	if latency.Valid {
		d.LatencyMS = &latency.Int64
	}
	if d.LastAttemptAt, err = parseNullTime(attempted); err != nil {
		return err
	}
	d.SentAt, err = parseNullTime(sent)
	return err
}

// DueSubscriptionDeliveries implements core.SubscriptionStore.
func (s *Arena) DueSubscriptionDeliveries(ctx context.Context, subscription string, now time.Time, limit int) ([]core.DueSubscriptionDelivery, error) {
	rows, err := s.db.query(ctx, q("subscription_due"), sql.Named("subscription", subscription), sql.Named("now", formatTime(now)),
		sql.Named("limit", limit))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list due subscription deliveries: %w", err)
	}
	defer rows.Close()
	var out []core.DueSubscriptionDelivery
	for rows.Next() {
		var d core.DueSubscriptionDelivery
		cols := logEventColumns{event: &d.Event}
		if err := scanDelivery(rows, &d.SubscriptionDelivery, append([]any{&d.URL, &d.Secret, &d.Format}, cols.dest(true)...)...); err != nil {
			return nil, err
		}
		cols.fill()
		out = append(out, d)
	}
	return out, rows.Err()
}

// ClaimSubscriptionDelivery implements core.SubscriptionStore: one
// conditional statement.
func (s *Arena) ClaimSubscriptionDelivery(ctx context.Context, d core.SubscriptionDelivery, next, now time.Time) (bool, error) {
	var id int64
	err := s.db.writeRow(ctx, q("subscription_claim"), sql.Named("next", formatTime(next)),
		sql.Named("delivery", d.ID), sql.Named("attempts", d.Attempts), sql.Named("now", formatTime(now))).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: unable to claim subscription delivery %d: %w", d.ID, err)
	}
	return true, nil
}

// SubscriptionAttempted implements core.SubscriptionStore.
func (s *Arena) SubscriptionAttempted(ctx context.Context, id int64, attempt int, state string, status int, latency time.Duration, at time.Time) error {
	if _, err := s.db.write(ctx, q("subscription_attempted"), sql.Named("attempt", attempt), sql.Named("state", state), sql.Named("status", status),
		sql.Named("latency", latency.Milliseconds()), sql.Named("at", formatTime(at)), sql.Named("delivery", id)); err != nil {
		return fmt.Errorf("store: unable to record subscription delivery %d's attempt: %w", id, err)
	}
	return nil
}
