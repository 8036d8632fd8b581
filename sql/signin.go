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

// ClaimOpenIDNonce records a platform sign-in's response nonce and reports
// whether it was new: an assertion signs a player in once. Nonces seen
// before keepSince are swept.
func (s *Arena) ClaimOpenIDNonce(ctx context.Context, nonce string, at, keepSince time.Time) (bool, error) {
	var got string
	err := s.db.writeRow(ctx, q("claim_openid_nonce"), nonce, formatTime(at)).Scan(&got)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: unable to claim the sign-in nonce: %w", err)
	}
	if _, err := s.db.write(ctx, q("sweep_openid_nonces"), formatTime(keepSince)); err != nil {
		return false, fmt.Errorf("store: unable to sweep sign-in nonces: %w", err)
	}
	return true, nil
}

// SignInMockPlayer stores a player signed in with the mock form: a new
// player gets p's placeholder name and avatar; a known one keeps their
// name and gains the avatar if they had none.
func (s *Arena) SignInMockPlayer(ctx context.Context, p core.PlayerProfile, at time.Time) error {
	now := formatTime(at)
	if _, err := s.db.write(ctx, q("mock_signin_player"), p.PlatformID, p.PersonaName, p.AvatarURL, now, now); err != nil {
		return fmt.Errorf("store: unable to store the signed-in player: %w", err)
	}
	return nil
}

// FreshSummaries returns which of ids had their platform summary read at
// or after since.
func (s *Arena) FreshSummaries(ctx context.Context, ids []string, since time.Time) (map[string]bool, error) {
	out := map[string]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.query(ctx, q("fresh_summaries"), string(list), formatTime(since))
	if err != nil {
		return nil, fmt.Errorf("store: unable to read summary freshness: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rows.Err()
}

// CacheSummaries stores the platform's names and avatars of found and
// marks the known players among missing (the platform returned nothing
// for them) as read, in one batch.
func (s *Arena) CacheSummaries(ctx context.Context, found []core.PlayerProfile, missing []string, at time.Time) error {
	now := formatTime(at)
	stmts := make([]Stmt, 0, len(found)+len(missing))
	for _, p := range found {
		stmts = append(stmts, Stmt{SQL: q("cache_summary"), Args: []any{p.PlatformID, p.PersonaName, p.AvatarURL, now, now, now}})
	}
	for _, id := range missing {
		stmts = append(stmts, Stmt{SQL: q("summary_missing"), Args: []any{now, id}})
	}
	if err := s.db.Batch(ctx, stmts...); err != nil {
		return fmt.Errorf("store: unable to cache player summaries: %w", err)
	}
	return nil
}
