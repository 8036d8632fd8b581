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

// PushKey implements core.PushStore.
func (s *Arena) PushKey(ctx context.Context) (*core.PushKey, error) {
	var k core.PushKey
	err := s.db.queryRow(ctx, q("push_key")).Scan(&k.PublicKey, &k.PrivateKey)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to read the push key: %w", err)
	}
	return &k, nil
}

// AddPushKey implements core.PushStore: the insert and the read in one
// batch.
func (s *Arena) AddPushKey(ctx context.Context, k core.PushKey, at time.Time) (core.PushKey, error) {
	var stored core.PushKey
	err := s.db.BatchRead(ctx, Stmt{SQL: q("push_key")}, []any{&stored.PublicKey, &stored.PrivateKey},
		Stmt{SQL: q("add_push_key"), Args: []any{sql.Named("public", k.PublicKey), sql.Named("private", k.PrivateKey),
			sql.Named("at", formatTime(at))}})
	if err != nil {
		return core.PushKey{}, fmt.Errorf("store: unable to store the push key: %w", err)
	}
	return stored, nil
}

// SavePushSubscription implements core.PushStore: one conditional
// statement.
func (s *Arena) SavePushSubscription(ctx context.Context, p core.PushSubscription, max int) (bool, error) {
	var id int64
	err := s.db.writeRow(ctx, q("save_push_subscription"), sql.Named("player", p.PlatformID),
		sql.Named("endpoint", p.Endpoint), sql.Named("p256dh", p.P256dh), sql.Named("auth", p.Auth),
		sql.Named("device", p.Device), sql.Named("at", formatTime(p.CreatedAt)), sql.Named("max", max)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: unable to store the device: %w", err)
	}
	return true, nil
}

// RemovePushSubscription forgets the player's device with the id, or
// with the endpoint when id is 0, and its pending pushes.
// One batch.
func (s *Arena) RemovePushSubscription(ctx context.Context, platformID string, id int64, endpoint string) error {
	args := []any{sql.Named("player", platformID), sql.Named("id", id), sql.Named("endpoint", endpoint)}
	if err := s.db.Batch(ctx, Stmt{SQL: q("drop_subscription_pushes"), Args: args},
		Stmt{SQL: q("remove_push_subscription"), Args: args}); err != nil {
		return fmt.Errorf("store: unable to remove the device: %w", err)
	}
	return nil
}

// PushSubscriptions returns the player's devices, oldest first.
func (s *Arena) PushSubscriptions(ctx context.Context, platformID string) ([]core.PushSubscription, error) {
	rows, err := s.db.query(ctx, q("push_subscriptions"), sql.Named("player", platformID))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list devices: %w", err)
	}
	defer rows.Close()
	var out []core.PushSubscription
	for rows.Next() {
		var p core.PushSubscription
		var created string
		var sent sql.NullString
		if err := rows.Scan(&p.ID, &p.PlatformID, &p.Endpoint, &p.P256dh, &p.Auth, &p.Device, &created, &sent); err != nil {
			return nil, err
		}
		if p.CreatedAt, err = parseTime(created); err != nil {
			return nil, err
		}
		if p.LastSentAt, err = parseNullTime(sent); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// MutedPushKinds returns the kinds the player turned off.
func (s *Arena) MutedPushKinds(ctx context.Context, platformID string) ([]core.PushKind, error) {
	names, err := s.strings(ctx, "muted push kinds", q("muted_push_kinds"), sql.Named("player", platformID))
	out := make([]core.PushKind, len(names))
	for i, n := range names {
		out[i] = core.PushKind(n)
	}
	return out, err
}

// SetMutedPushKinds replaces the kinds the player turned off.
// One batch.
func (s *Arena) SetMutedPushKinds(ctx context.Context, platformID string, kinds []core.PushKind) error {
	if kinds == nil {
		kinds = []core.PushKind{}
	}
	list, err := json.Marshal(kinds)
	if err != nil {
		return err
	}
	if err := s.db.Batch(ctx,
		Stmt{SQL: q("unmute_push_kinds"), Args: []any{sql.Named("player", platformID)}},
		Stmt{SQL: q("mute_push_kinds"), Args: []any{sql.Named("player", platformID), sql.Named("kinds", string(list))}},
	); err != nil {
		return fmt.Errorf("store: unable to store the kinds of push: %w", err)
	}
	return nil
}

// insertPushes are the fan-out's statements queuing its pushes.
func insertPushes(ev core.Event, pushes []core.PushTarget, now string) []Stmt {
	stmts := make([]Stmt, 0, len(pushes))
	for _, p := range pushes {
		stmts = append(stmts, Stmt{SQL: q("insert_pushes"), Args: []any{sql.Named("event", ev.ID),
			sql.Named("payload", p.Payload), sql.Named("urgency", p.Urgency), sql.Named("now", now),
			sql.Named("player", p.PlatformID), sql.Named("kind", string(p.Kind))}})
	}
	return stmts
}

// DuePushes implements core.PushStore.
func (s *Arena) DuePushes(ctx context.Context, now time.Time, limit int) ([]core.PushDelivery, error) {
	rows, err := s.db.query(ctx, q("due_pushes"), sql.Named("now", formatTime(now)), sql.Named("limit", limit))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list due pushes: %w", err)
	}
	defer rows.Close()
	var out []core.PushDelivery
	for rows.Next() {
		var d core.PushDelivery
		var next, created string
		if err := rows.Scan(&d.ID, &d.SubscriptionID, &d.EventID, &d.Endpoint, &d.P256dh, &d.Auth, &d.Payload,
			&d.Urgency, &d.Attempts, &next, &created); err != nil {
			return nil, err
		}
		if d.NextAttemptAt, err = parseTime(next); err != nil {
			return nil, err
		}
		if d.CreatedAt, err = parseTime(created); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// ClaimPush implements core.PushStore: one conditional statement.
func (s *Arena) ClaimPush(ctx context.Context, d core.PushDelivery, next, now time.Time) (bool, error) {
	var id int64
	err := s.db.writeRow(ctx, q("claim_push"), sql.Named("next", formatTime(next)), sql.Named("push", d.ID),
		sql.Named("attempts", d.Attempts), sql.Named("now", formatTime(now))).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: unable to claim push %d: %w", d.ID, err)
	}
	return true, nil
}

// PushSent implements core.PushStore: one batch.
func (s *Arena) PushSent(ctx context.Context, d core.PushDelivery, status int, at time.Time) error {
	when := formatTime(at)
	if err := s.db.Batch(ctx,
		Stmt{SQL: q("push_sent"), Args: []any{sql.Named("status", status), sql.Named("at", when), sql.Named("push", d.ID)}},
		Stmt{SQL: q("push_device_used"), Args: []any{sql.Named("at", when), sql.Named("subscription", d.SubscriptionID)}},
	); err != nil {
		return fmt.Errorf("store: unable to mark push %d sent: %w", d.ID, err)
	}
	return nil
}

// PushFailed implements core.PushStore: one batch.
func (s *Arena) PushFailed(ctx context.Context, d core.PushDelivery, status int, giveUp, gone bool, at time.Time) error {
	stmts := []Stmt{{SQL: q("push_failed"), Args: []any{sql.Named("status", status), sql.Named("give_up", giveUp),
		sql.Named("push", d.ID)}}}
	if gone {
		sub := sql.Named("subscription", d.SubscriptionID)
		stmts = append(stmts, Stmt{SQL: q("drop_device_pushes"), Args: []any{sub}},
			Stmt{SQL: q("push_device_gone"), Args: []any{sub}})
	}
	if err := s.db.Batch(ctx, stmts...); err != nil {
		return fmt.Errorf("store: unable to record push %d failing: %w", d.ID, err)
	}
	return nil
}
