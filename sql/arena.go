package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"arena/core"
)

// Arena is one arena's own database.
type Arena struct {
	db *DB
}

var _ core.ArenaStore = (*Arena)(nil)

// NewArena returns the arena store kept in db. Call Migrate on db with
// ArenaMigrations first.
func NewArena(db *DB) *Arena { return &Arena{db: db} }

// DB returns the underlying database.
func (s *Arena) DB() *DB { return s.db }

// AdminToken implements core.ArenaStore.
func (s *Arena) AdminToken(ctx context.Context, id string) (*core.AdminTokenRecord, error) {
	// A ReadAll: the reads the route planned go with it (plan.go).
	var found *core.AdminTokenRecord
	err := s.db.ReadAll(ctx, Read{SQL: q("admin_token"), Args: []any{sql.Named("id", id)}, Row: func(row Scanner) error {
		var t core.AdminTokenRecord
		var created string
		err := row.Scan(&t.ID, &t.Hash, &t.Label, &created)
		if err == nil {
			t.CreatedAt, err = parseTime(created)
		}
		found = &t
		return err
	}})
	if err != nil {
		return nil, fmt.Errorf("store: unable to read admin token: %w", err)
	}
	if found == nil {
		return nil, core.Errorf(core.CodeUnauthorized, "no admin token %s", id)
	}
	return found, nil
}

// AddArenaAdmins implements core.ArenaStore.
func (s *Arena) AddArenaAdmins(ctx context.Context, platformIDs []string, at time.Time) error {
	stmts := make([]Stmt, 0, len(platformIDs))
	for _, id := range platformIDs {
		stmts = append(stmts, Stmt{SQL: q("insert_arena_admin"), Args: []any{sql.Named("player", id),
			sql.Named("at", formatTime(at))}})
	}
	if err := s.db.Batch(ctx, stmts...); err != nil {
		return fmt.Errorf("store: unable to add arena admins: %w", err)
	}
	return nil
}

// ArenaAdmins implements core.ArenaStore.
func (s *Arena) ArenaAdmins(ctx context.Context) ([]string, error) {
	return s.strings(ctx, "arena admins", q("arena_admins"))
}

// strings runs a query of one text column and returns its values; what
// names the list in the error.
func (s *Arena) strings(ctx context.Context, what, query string, args ...any) ([]string, error) {
	rows, err := s.db.query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: unable to list %s: %w", what, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// UpsertPlayers implements core.ArenaStore.
func (s *Arena) UpsertPlayers(ctx context.Context, players []core.PlayerProfile, at time.Time) error {
	stmts := make([]Stmt, 0, len(players))
	for _, p := range players {
		stmts = append(stmts, Stmt{SQL: q("upsert_player"), Args: []any{
			sql.Named("player", p.PlatformID), sql.Named("persona_name", p.PersonaName),
			sql.Named("avatar_url", p.AvatarURL), sql.Named("at", formatTime(at)),
		}})
	}
	if err := s.db.Batch(ctx, stmts...); err != nil {
		return fmt.Errorf("store: unable to store players: %w", err)
	}
	return nil
}

// PlayerCount implements core.ArenaStore.
func (s *Arena) PlayerCount(ctx context.Context) (int, error) {
	var n int
	if err := s.db.queryRow(ctx, q("player_count")).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: unable to count players: %w", err)
	}
	return n, nil
}
