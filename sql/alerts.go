package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"arena/core"
)

var (
	_ core.AlertJobStore = (*Arena)(nil)
	_ core.EventRecorder = (*Arena)(nil)
)

// RecordEvent implements core.EventRecorder.
func (s *Arena) RecordEvent(ctx context.Context, ev core.Event) error {
	_, err := s.db.write(ctx, q("record_event"), sql.Named("kind", ev.Kind), sql.Named("key", ev.Key),
		sql.Named("match", ev.MatchID), sql.Named("tournament", ev.TournamentID),
		sql.Named("player", ev.PlayerID), sql.Named("detail", ev.Detail),
		sql.Named("created_at", formatTime(ev.CreatedAt)))
	if err != nil {
		return fmt.Errorf("store: unable to record event %s: %w", ev.Key, err)
	}
	return nil
}

// RecordStateEvents implements core.AlertStore: one batch.
func (s *Arena) RecordStateEvents(ctx context.Context, since, at time.Time) error {
	now, from := formatTime(at), formatTime(since)
	err := s.db.Batch(ctx,
		Stmt{SQL: q("record_live_events"), Args: []any{sql.Named("now", now), sql.Named("from", from)}},
		Stmt{SQL: q("record_tournament_events"), Args: []any{sql.Named("now", now), sql.Named("from", from)}},
		Stmt{SQL: q("record_check_in_open_events"), Args: []any{sql.Named("now", now)}},
		Stmt{SQL: q("record_ready_events"), Args: []any{sql.Named("now", now), sql.Named("from", from)}},
		Stmt{SQL: q("record_report_events"), Args: []any{sql.Named("now", now), sql.Named("from", from)}},
	)
	if err != nil {
		return fmt.Errorf("store: unable to record state events: %w", err)
	}
	return nil
}

// StampUpcoming implements core.AlertStore: the events and the stamps in
// one batch, over the same matches.
func (s *Arena) StampUpcoming(ctx context.Context, now, openBy time.Time) error {
	at, by := formatTime(now), formatTime(openBy)
	err := s.db.Batch(ctx,
		Stmt{SQL: q("record_upcoming_events"), Args: []any{sql.Named("at", at), sql.Named("by", by)}},
		Stmt{SQL: q("stamp_upcoming"), Args: []any{sql.Named("at", at), sql.Named("by", by)}},
	)
	if err != nil {
		return fmt.Errorf("store: unable to stamp upcoming matches: %w", err)
	}
	return nil
}

// StampStale implements core.AlertStore: one batch records and stamps
// the stale matches, the windows closing soon and the overdue matches.
func (s *Arena) StampStale(ctx context.Context, c core.StaleCutoffs) error {
	at, closesBy, liveBy := formatTime(c.Now), formatTime(c.ClosesBy), liveByArg(c)
	since := formatTime(c.Now.Add(-core.OverdueAlertWithin))
	err := s.db.Batch(ctx,
		Stmt{SQL: q("record_stale_events"), Args: []any{sql.Named("at", at), sql.Named("live_by", liveBy)}},
		Stmt{SQL: q("stamp_stale"), Args: []any{sql.Named("at", at), sql.Named("live_by", liveBy)}},
		Stmt{SQL: q("record_closing_events"), Args: []any{sql.Named("at", at), sql.Named("closes_by", closesBy)}},
		Stmt{SQL: q("stamp_closing"), Args: []any{sql.Named("at", at), sql.Named("closes_by", closesBy)}},
		Stmt{SQL: q("record_overdue_events"), Args: []any{sql.Named("at", at), sql.Named("since", since)}},
		Stmt{SQL: q("stamp_overdue"), Args: []any{sql.Named("at", at), sql.Named("since", since)}},
	)
	if err != nil {
		return fmt.Errorf("store: unable to stamp stale matches: %w", err)
	}
	return nil
}

// liveByArg is the stale cutoff as a query argument: "" when there is
// none, which no live_at is at or before.
func liveByArg(c core.StaleCutoffs) string {
	if c.LiveBy.IsZero() {
		return ""
	}
	return formatTime(c.LiveBy)
}

// PendingEvents implements core.AlertStore.
func (s *Arena) PendingEvents(ctx context.Context, limit int) ([]core.Event, error) {
	rows, err := s.db.query(ctx, q("pending_events"), sql.Named("limit", limit))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list pending events: %w", err)
	}
	defer rows.Close()
	var out []core.Event
	for rows.Next() {
		var ev core.Event
		var created string
		if err := rows.Scan(&ev.ID, &ev.Kind, &ev.Key, &ev.MatchID, &ev.TournamentID, &ev.PlayerID, &ev.Detail, &created); err != nil {
			return nil, err
		}
		if ev.CreatedAt, err = parseTime(created); err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, rows.Err()
}

// Followers implements core.AlertStore.
func (s *Arena) Followers(ctx context.Context, tournamentID int64, players []string) ([]string, error) {
	if players == nil {
		players = []string{}
	}
	list, err := json.Marshal(players)
	if err != nil {
		return nil, err
	}
	tid := ""
	if tournamentID > 0 {
		tid = strconv.FormatInt(tournamentID, 10)
	}
	return s.strings(ctx, "followers", q("followers"), sql.Named("tournament", tid), sql.Named("players", string(list)))
}

// FanOut implements core.AlertStore: one batch.
func (s *Arena) FanOut(ctx context.Context, f core.EventFanOut, at time.Time) error {
	now, ev := formatTime(at), f.Event
	stmts := make([]Stmt, 0, len(f.Recipients)+len(f.Deliveries)+len(f.Pushes)+1)
	for _, id := range f.Recipients {
		stmts = append(stmts, Stmt{SQL: q("insert_alert"), Args: []any{sql.Named("player", id),
			sql.Named("event", ev.ID), sql.Named("title", f.Personal[id]), sql.Named("now", now)}})
	}
	for _, d := range f.Deliveries {
		stmts = append(stmts, Stmt{SQL: q("insert_delivery"), Args: []any{sql.Named("owner", d.Owner),
			sql.Named("event", ev.ID), sql.Named("url", d.URL), sql.Named("body", d.Body),
			sql.Named("next_attempt_at", formatTime(d.NextAttemptAt)), sql.Named("now", now)}})
	}
	stmts = append(stmts, insertPushes(ev, f.Pushes, now)...)
	stmts = append(stmts, Stmt{SQL: q("event_fanned_out"), Args: []any{sql.Named("title", f.Title),
		sql.Named("path", f.Path), sql.Named("now", now), sql.Named("event", ev.ID)}})
	if err := s.db.Batch(ctx, stmts...); err != nil {
		return fmt.Errorf("store: unable to fan out event %d: %w", ev.ID, err)
	}
	return nil
}

// Alerts returns the player's latest alerts, newest first.
func (s *Arena) Alerts(ctx context.Context, platformID string, limit int) ([]core.Alert, error) {
	rows, err := s.db.query(ctx, q("alerts"), sql.Named("player", platformID), sql.Named("limit", limit))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list alerts: %w", err)
	}
	defer rows.Close()
	var out []core.Alert
	for rows.Next() {
		var a core.Alert
		var created string
		if err := rows.Scan(&a.ID, &a.Kind, &a.Title, &a.Path, &created, &a.Read); err != nil {
			return nil, err
		}
		if a.CreatedAt, err = parseTime(created); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// MarkAlertsRead marks the player's alerts up to id (all when 0) read.
func (s *Arena) MarkAlertsRead(ctx context.Context, platformID string, upTo int64, at time.Time) error {
	if _, err := s.db.write(ctx, q("mark_alerts_read"), sql.Named("at", formatTime(at)),
		sql.Named("player", platformID), sql.Named("up_to", upTo)); err != nil {
		return fmt.Errorf("store: unable to mark alerts read: %w", err)
	}
	return nil
}

// SetWebhook implements core.WebhookStore.
func (s *Arena) SetWebhook(ctx context.Context, owner, url, secret string, at time.Time) error {
	var err error
	if url == "" {
		err = s.db.Batch(ctx,
			Stmt{SQL: q("delete_webhook"), Args: []any{sql.Named("owner", owner)}},
			Stmt{SQL: q("drop_pending_deliveries"), Args: []any{sql.Named("owner", owner)}},
		)
	} else {
		_, err = s.db.write(ctx, q("set_webhook"), sql.Named("owner", owner), sql.Named("url", url),
			sql.Named("secret", secret), sql.Named("at", formatTime(at)))
	}
	if err != nil {
		return fmt.Errorf("store: unable to store the webhook: %w", err)
	}
	return nil
}

// Webhook implements core.WebhookStore.
func (s *Arena) Webhook(ctx context.Context, owner string) (*core.Webhook, error) {
	hooks, err := s.webhooks(ctx, q("webhook"), sql.Named("owner", owner))
	if err != nil || len(hooks) == 0 {
		return nil, err
	}
	return &hooks[0], nil
}

// Webhooks implements core.AlertJobStore.
func (s *Arena) Webhooks(ctx context.Context, owners []string) ([]core.Webhook, error) {
	list, err := json.Marshal(owners)
	if err != nil {
		return nil, err
	}
	return s.webhooks(ctx, q("enabled_webhooks"), sql.Named("owners", string(list)))
}

func (s *Arena) webhooks(ctx context.Context, query string, args ...any) ([]core.Webhook, error) {
	rows, err := s.db.query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: unable to read webhooks: %w", err)
	}
	defer rows.Close()
	var out []core.Webhook
	for rows.Next() {
		var w core.Webhook
		var created string
		var disabled sql.NullString
		if err := rows.Scan(&w.Owner, &w.URL, &w.Secret, &created, &disabled); err != nil {
			return nil, err
		}
		if w.CreatedAt, err = parseTime(created); err != nil {
			return nil, err
		}
		if w.DisabledAt, err = parseNullTime(disabled); err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// DueDeliveries implements core.WebhookStore.
func (s *Arena) DueDeliveries(ctx context.Context, now time.Time, limit int) ([]core.WebhookDelivery, error) {
	rows, err := s.db.query(ctx, q("due_deliveries"), sql.Named("now", formatTime(now)), sql.Named("limit", limit))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list due deliveries: %w", err)
	}
	defer rows.Close()
	var out []core.WebhookDelivery
	for rows.Next() {
		var d core.WebhookDelivery
		var next string
		if err := rows.Scan(&d.ID, &d.Owner, &d.EventID, &d.URL, &d.Body, &d.Attempts, &next); err != nil {
			return nil, err
		}
		if d.NextAttemptAt, err = parseTime(next); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// ClaimDelivery implements core.WebhookStore: one conditional statement.
func (s *Arena) ClaimDelivery(ctx context.Context, d core.WebhookDelivery, next, now time.Time) (bool, error) {
	var id int64
	err := s.db.writeRow(ctx, q("claim_delivery"), sql.Named("next", formatTime(next)),
		sql.Named("delivery", d.ID), sql.Named("attempts", d.Attempts),
		sql.Named("now", formatTime(now))).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: unable to claim delivery %d: %w", d.ID, err)
	}
	return true, nil
}

// DeliverySent implements core.WebhookStore.
func (s *Arena) DeliverySent(ctx context.Context, id int64, status int, at time.Time) error {
	err := s.db.Batch(ctx,
		Stmt{SQL: q("delivery_sent"), Args: []any{sql.Named("status", status), sql.Named("at", formatTime(at)),
			sql.Named("delivery", id)}},
		Stmt{SQL: q("webhook_succeeded"), Args: []any{sql.Named("webhook", id)}},
	)
	if err != nil {
		return fmt.Errorf("store: unable to mark delivery %d sent: %w", id, err)
	}
	return nil
}

// DeliveryFailed implements core.WebhookStore.
func (s *Arena) DeliveryFailed(ctx context.Context, d core.WebhookDelivery, status int, giveUp bool, at time.Time) (bool, error) {
	if !giveUp {
		if _, err := s.db.write(ctx, q("delivery_attempt_failed"), sql.Named("status", status),
			sql.Named("delivery", d.ID)); err != nil {
			return false, fmt.Errorf("store: unable to record delivery %d's failure: %w", d.ID, err)
		}
		return false, nil
	}
	now := formatTime(at)
	err := s.db.Batch(ctx,
		Stmt{SQL: q("delivery_given_up"), Args: []any{sql.Named("status", status), sql.Named("delivery", d.ID)}},
		Stmt{SQL: q("disable_webhook"), Args: []any{sql.Named("now", now), sql.Named("owner", d.Owner),
			sql.Named("url", d.URL)}},
		Stmt{SQL: q("drop_pending_deliveries"), Args: []any{sql.Named("owner", d.Owner)}},
	)
	if err != nil {
		return false, fmt.Errorf("store: unable to give up delivery %d: %w", d.ID, err)
	}
	h, err := s.Webhook(ctx, d.Owner)
	if err != nil {
		return false, err
	}
	return h != nil && h.DisabledAt != nil && formatTime(*h.DisabledAt) == now, nil
}

// DropPendingEvents marks every pending event fanned out, alerting
// nobody (the demo's seeded history).
func (s *Arena) DropPendingEvents(ctx context.Context, at time.Time) error {
	if _, err := s.db.write(ctx, q("drop_pending_events"), sql.Named("at", formatTime(at))); err != nil {
		return fmt.Errorf("store: unable to drop pending events: %w", err)
	}
	return nil
}
