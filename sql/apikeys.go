package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"arena/core"
)

// APIKey is a public-API key as listed to the arena admin: never its
// secret or hash.
type APIKey struct {
	ID        string     `json:"id"`
	Label     string     `json:"label"`
	CreatedAt time.Time  `json:"createdAt"`
	RevokedAt *time.Time `json:"revokedAt"`
}

// AddAPIKey stores a minted key's id and hash.
func (s *Arena) AddAPIKey(ctx context.Context, id, hash, label string, at time.Time) error {
	if _, err := s.db.write(ctx, q("insert_api_key"), id, hash, label, formatTime(at)); err != nil {
		return fmt.Errorf("store: unable to add API key: %w", err)
	}
	return nil
}

// APIKeyHash returns the hash of the unrevoked key with the id, or ok
// false when there is none.
func (s *Arena) APIKeyHash(ctx context.Context, id string) (string, bool, error) {
	var hash string
	err := s.db.queryRow(ctx, q("api_key_hash"), id).Scan(&hash)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("store: unable to read API key: %w", err)
	}
	return hash, true, nil
}

// RevokeAPIKey revokes the key (again is a no-op); core.CodeNotFound when
// there is no such key.
func (s *Arena) RevokeAPIKey(ctx context.Context, id string, at time.Time) error {
	var got string
	err := s.db.writeRow(ctx, q("revoke_api_key"), formatTime(at), id).Scan(&got)
	if errors.Is(err, sql.ErrNoRows) {
		return core.Errorf(core.CodeNotFound, "no API key %s", id)
	}
	if err != nil {
		return fmt.Errorf("store: unable to revoke API key: %w", err)
	}
	return nil
}

// APIKeys lists every key, oldest first.
func (s *Arena) APIKeys(ctx context.Context) ([]APIKey, error) {
	rows, err := s.db.query(ctx, q("api_keys"))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list API keys: %w", err)
	}
	defer rows.Close()
	out := []APIKey{}
	for rows.Next() {
		var k APIKey
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
