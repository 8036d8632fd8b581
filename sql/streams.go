package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"arena/core"
)

var (
	_ core.StreamStore  = (*Arena)(nil)
	_ core.CastStore    = (*Arena)(nil)
	_ core.AlertStore   = (*Arena)(nil)
	_ core.WebhookStore = (*Arena)(nil)
)

// SetStreamLogin implements core.StreamStore.
func (s *Arena) SetStreamLogin(ctx context.Context, platformID, login string, at time.Time) error {
	now := formatTime(at)
	_, err := s.db.write(ctx, q("set_stream_login"), sql.Named("player", platformID),
		sql.Named("name", core.PlaceholderName(platformID)), sql.Named("now", now),
		sql.Named("login", nullString(login)))
	if isUniqueViolation(err, "stream_login") {
		return core.Errorf(core.CodeStreamLoginTaken, "another player linked %s", login)
	}
	if err != nil {
		return fmt.Errorf("store: unable to link the channel: %w", err)
	}
	return nil
}

// StreamLogin implements core.CastingStore.
func (s *Arena) StreamLogin(ctx context.Context, platformID string) (string, error) {
	login, err := readPlanned(ctx, s.db, "stream_login "+platformID, func() (*string, []Read) { return streamLoginRead(platformID) })
	if err != nil {
		return "", fmt.Errorf("store: unable to read the linked channel: %w", err)
	}
	return *login, nil
}

// PlanStreamLogin plans StreamLogin's read with the request's first
// ReadAll (plan.go).
func (s *Arena) PlanStreamLogin(ctx context.Context, platformID string) {
	planAhead(ctx, s.db, "stream_login "+platformID, func() (*string, []Read) { return streamLoginRead(platformID) })
}

// streamLoginRead reads a player's linked channel; "" for none (or no
// such player).
func streamLoginRead(platformID string) (*string, []Read) {
	var login string
	return &login, []Read{{SQL: q("stream_login"), Args: []any{sql.Named("player", platformID)}, Row: func(row Scanner) error {
		return row.Scan(&login)
	}}}
}

// LinkedChannels implements core.CastStore.
func (s *Arena) LinkedChannels(ctx context.Context) (map[string]string, error) {
	rows, err := s.db.query(ctx, q("linked_channels"))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list linked channels: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var login, id string
		if err := rows.Scan(&login, &id); err != nil {
			return nil, err
		}
		out[login] = id
	}
	return out, rows.Err()
}

// SaveLinkState stores a link in progress (sweeping expired ones).
func (s *Arena) SaveLinkState(ctx context.Context, ls core.LinkState) error {
	err := s.db.Batch(ctx,
		Stmt{SQL: q("sweep_link_states"), Args: []any{sql.Named("created_at", formatTime(ls.CreatedAt))}},
		Stmt{SQL: q("insert_link_state"), Args: []any{sql.Named("state", ls.State),
			sql.Named("player", ls.PlatformID), sql.Named("return_to", ls.ReturnTo),
			sql.Named("created_at", formatTime(ls.CreatedAt)),
			sql.Named("expires_at", formatTime(ls.ExpiresAt))}},
	)
	if err != nil {
		return fmt.Errorf("store: unable to store the link state: %w", err)
	}
	return nil
}

// TakeLinkState deletes and returns the state if it is still valid at
// now; nil when unknown, used or expired. Used once, whatever races.
func (s *Arena) TakeLinkState(ctx context.Context, state string, now time.Time) (*core.LinkState, error) {
	ls := core.LinkState{State: state}
	var created, expires string
	err := s.db.writeRow(ctx, q("take_link_state"), sql.Named("state", state),
		sql.Named("now", formatTime(now))).Scan(&ls.PlatformID, &ls.ReturnTo, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to take the link state: %w", err)
	}
	if ls.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	if ls.ExpiresAt, err = parseTime(expires); err != nil {
		return nil, err
	}
	return &ls, nil
}

// PolledLogins implements core.StreamStore.
func (s *Arena) PolledLogins(ctx context.Context) ([]string, error) {
	return s.strings(ctx, "polled logins", q("polled_logins"))
}

// LiveSet implements core.StreamStore.
func (s *Arena) LiveSet(ctx context.Context) (map[string]core.LiveStream, time.Time, error) {
	rows, err := s.db.query(ctx, q("live_set"))
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("store: unable to read the live set: %w", err)
	}
	defer rows.Close()
	live := map[string]core.LiveStream{}
	var polledAt time.Time
	for rows.Next() {
		if err := scanLiveRow(rows, live, &polledAt); err != nil {
			return nil, time.Time{}, err
		}
	}
	return live, polledAt, rows.Err()
}

// scanLiveRow reads a live_set row into live, or, the row with an empty
// login, into polledAt.
func scanLiveRow(row scanner, live map[string]core.LiveStream, polledAt *time.Time) error {
	var l core.LiveStream
	var started string
	err := row.Scan(&l.Login, &l.StreamID, &started)
	switch {
	case err != nil:
	case l.Login == "": // the polled-at row (a JSON string)
		if len(started) > 2 {
			*polledAt, err = parseTime(started[1 : len(started)-1])
		}
	default:
		if l.StartedAt, err = parseTime(started); err == nil {
			live[l.Login] = l
		}
	}
	return err
}

// SaveLiveSet implements core.StreamStore: one batch.
func (s *Arena) SaveLiveSet(ctx context.Context, live []core.LiveStream, polledAt time.Time) error {
	at := formatTime(polledAt)
	stmts := []Stmt{
		{SQL: q("clear_live_set")},
		{SQL: q("set_live_polled_at"), Args: []any{sql.Named("polled_at", `"`+at+`"`)}},
	}
	for _, l := range live {
		stmts = append(stmts,
			Stmt{SQL: q("insert_live"), Args: []any{sql.Named("login", l.Login),
				sql.Named("stream", l.StreamID), sql.Named("started_at", formatTime(l.StartedAt))}},
			Stmt{SQL: q("record_streaming_event"), Args: []any{sql.Named("stream", l.StreamID),
				sql.Named("at", at), sql.Named("login", l.Login)}},
		)
	}
	if err := s.db.Batch(ctx, stmts...); err != nil {
		return fmt.Errorf("store: unable to store the live set: %w", err)
	}
	return nil
}

// ExpireLiveSet forgets when the live set was polled, so the next poll
// asks the provider (dev mode's /__dev/stream-live).
func (s *Arena) ExpireLiveSet(ctx context.Context) error {
	if _, err := s.db.write(ctx, q("expire_live_set")); err != nil {
		return fmt.Errorf("store: unable to expire the live set: %w", err)
	}
	return nil
}
