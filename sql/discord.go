package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"arena/core"
)

// DiscordLinkOf implements discordbot.Store.
func (s *Arena) DiscordLinkOf(ctx context.Context, discordUserID string) (string, error) {
	var id string
	err := s.db.queryRow(ctx, q("discord_link_of"), sql.Named("discord", discordUserID)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: unable to read a Discord link: %w", err)
	}
	return id, nil
}

// DiscordLinkFor returns the player's link, or nil.
func (s *Arena) DiscordLinkFor(ctx context.Context, platformID string) (*core.DiscordLink, error) {
	var l core.DiscordLink
	var at string
	err := s.db.queryRow(ctx, q("discord_link_for"), sql.Named("player", platformID)).Scan(&l.DiscordUserID, &l.Username, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to read a Discord link: %w", err)
	}
	if l.LinkedAt, err = parseTime(at); err != nil {
		return nil, err
	}
	l.PlatformID = platformID
	return &l, nil
}

// LinkDiscord implements core.DiscordLinkStore: one batch.
func (s *Arena) LinkDiscord(ctx context.Context, l core.DiscordLink) error {
	args := []any{sql.Named("player", l.PlatformID), sql.Named("discord", l.DiscordUserID),
		sql.Named("username", l.Username), sql.Named("at", formatTime(l.LinkedAt))}
	if err := s.db.Batch(ctx, Stmt{SQL: q("discord_unlink"), Args: args[:2]}, Stmt{SQL: q("discord_link"), Args: args}); err != nil {
		return fmt.Errorf("store: unable to link a Discord account: %w", err)
	}
	return nil
}

// UnlinkDiscord drops the player's Discord link.
func (s *Arena) UnlinkDiscord(ctx context.Context, platformID string) error {
	if _, err := s.db.write(ctx, q("discord_unlink"), sql.Named("player", platformID), sql.Named("discord", "")); err != nil {
		return fmt.Errorf("store: unable to unlink a Discord account: %w", err)
	}
	return nil
}

// AddDiscordLinkState implements core.DiscordLinkStore: the stale states
// swept in the same batch.
func (s *Arena) AddDiscordLinkState(ctx context.Context, state, platformID string, at, staleBefore time.Time) error {
	if err := s.db.Batch(ctx,
		Stmt{SQL: q("discord_states_sweep"), Args: []any{sql.Named("since", formatTime(staleBefore))}},
		Stmt{SQL: q("discord_state_add"), Args: []any{sql.Named("state", state), sql.Named("player", platformID), sql.Named("at", formatTime(at))}},
	); err != nil {
		return fmt.Errorf("store: unable to store a Discord link state: %w", err)
	}
	return nil
}

// TakeDiscordLinkState implements core.DiscordLinkStore.
func (s *Arena) TakeDiscordLinkState(ctx context.Context, state string, since time.Time) (string, error) {
	var id string
	err := s.db.writeRow(ctx, q("discord_state_take"), sql.Named("state", state), sql.Named("since", formatTime(since))).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: unable to take a Discord link state: %w", err)
	}
	return id, nil
}
