package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"arena/core"
)

// tokenQueries names each token kind's queries (queries/arena.sql).
type tokenQueries struct{ insert, list, revoke, exists string }

var tokenQueriesByKind = map[string]tokenQueries{
	core.TokenAdmin:  {"insert_admin_token", "admin_tokens", "revoke_admin_token", "admin_token_exists"},
	core.TokenAPIKey: {"insert_api_key", "api_keys", "revoke_api_key", "api_key_exists"},
}

func queriesOf(kind string) tokenQueries {
	tq, ok := tokenQueriesByKind[kind]
	if !ok {
		panic("store: unknown token kind " + kind)
	}
	return tq
}

// AddToken implements core.TokenStore.
func (s *Arena) AddToken(ctx context.Context, kind string, t core.MintedToken, label string, at time.Time) error {
	if _, err := s.db.write(ctx, q(queriesOf(kind).insert), sql.Named("id", t.ID), sql.Named("hash", t.Hash),
		sql.Named("label", label), sql.Named("at", formatTime(at))); err != nil {
		return fmt.Errorf("store: unable to add a %s token: %w", kind, err)
	}
	return nil
}

// AddAdminToken implements core.ArenaStore.
func (s *Arena) AddAdminToken(ctx context.Context, t core.AdminTokenRecord) error {
	return s.AddToken(ctx, core.TokenAdmin, core.MintedToken{ID: t.ID, Hash: t.Hash}, t.Label, t.CreatedAt)
}

// RevokeToken revokes the token of the kind with the id, at once, in one
// conditional statement; revoking it again keeps the first time. Errors:
// core.CodeNotFound (no such token), core.CodeLastAdminToken (the arena's
// only unrevoked admin token: its API would be locked for good).
func (s *Arena) RevokeToken(ctx context.Context, kind, id string, at time.Time) error {
	tq := queriesOf(kind)
	var got string
	err := s.db.writeRow(ctx, q(tq.revoke), sql.Named("at", formatTime(at)), sql.Named("id", id)).Scan(&got)
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("store: unable to revoke %s token %s: %w", kind, id, err)
	}
	var n int
	if err := s.db.queryRow(ctx, q(tq.exists), sql.Named("id", id)).Scan(&n); err != nil {
		return fmt.Errorf("store: unable to read %s token %s: %w", kind, id, err)
	}
	if n == 0 {
		return core.Errorf(core.CodeNotFound, "no %s token %s", kind, id)
	}
	return core.Errorf(core.CodeLastAdminToken, "%s is the last admin token", id)
}

// Tokens lists every token of the kind, revoked ones too, oldest first.
func (s *Arena) Tokens(ctx context.Context, kind string) ([]core.ListedToken, error) {
	rows, err := s.db.query(ctx, q(queriesOf(kind).list))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list %s tokens: %w", kind, err)
	}
	defer rows.Close()
	out := []core.ListedToken{}
	for rows.Next() {
		var k core.ListedToken
		var created string
		var revoked sql.NullString
		if err := rows.Scan(&k.ID, &k.Label, &created, &revoked); err != nil {
			return nil, err
		}
		if k.CreatedAt, err = parseTime(created); err != nil {
			return nil, err
		}
		if k.RevokedAt, err = parseNullTime(revoked); err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// APIKeyHash returns the hash of the unrevoked key with the id, or ok
// false when there is none.
func (s *Arena) APIKeyHash(ctx context.Context, id string) (string, bool, error) {
	var hash string
	err := s.db.queryRow(ctx, q("api_key_hash"), sql.Named("id", id)).Scan(&hash)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("store: unable to read API key: %w", err)
	}
	return hash, true, nil
}
