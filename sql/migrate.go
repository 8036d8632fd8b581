package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
)

//go:embed migrations/*/*.sql
var migrationFiles embed.FS

// A MigrationSet names the migrations of one kind of database.
type MigrationSet string

// The two kinds of database.
const (
	DirectoryMigrations MigrationSet = "directory"
	ArenaMigrations     MigrationSet = "arena"
)

// Migration is one numbered, embedded schema change.
type Migration struct {
	Version int
	Name    string
	SQL     string
	// Statements are SQL's statements one by one (splitScript): a remote
	// database runs them as the steps of one batch.
	Statements []string
}

// Migrations returns the set's migrations in version order. Files are
// named NNNN_name.sql; a gap or duplicate number panics at start.
func (set MigrationSet) Migrations() []Migration {
	if m, ok := migrationsRead.Load(set); ok {
		return m.([]Migration)
	}
	m := set.read()
	migrationsRead.Store(set, m)
	return m
}

// migrationsRead keeps each set's migrations once read: Latest is asked
// on every request.
var migrationsRead sync.Map

func (set MigrationSet) read() []Migration {
	files, err := fs.Glob(migrationFiles, "migrations/"+string(set)+"/*.sql")
	if err != nil {
		panic(err)
	}
	var out []Migration
	for _, f := range files {
		base := path.Base(f)
		num, name, ok := strings.Cut(strings.TrimSuffix(base, ".sql"), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			panic("store: migration file name must be NNNN_name.sql: " + f)
		}
		b, err := fs.ReadFile(migrationFiles, f)
		if err != nil {
			panic(err)
		}
		out = append(out, Migration{Version: v, Name: name, SQL: string(b), Statements: splitScript(string(b))})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	for i, m := range out {
		if m.Version != i+1 {
			panic(fmt.Sprintf("store: %s migrations must be numbered 1..n without gaps (found %d at position %d)", set, m.Version, i+1))
		}
	}
	return out
}

// Latest returns the highest migration version of the set.
func (set MigrationSet) Latest() int { return len(set.Migrations()) }

const createMigrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version INTEGER PRIMARY KEY,
	name TEXT NOT NULL,
	applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
)`

// Migrate applies the set's pending migrations to db in order, each in one
// atomic batch together with its schema_migrations row, and returns the
// database's version afterwards. Two processes migrating at once are
// safe: the loser's batch fails on the version row and rolls back, and
// Migrate then sees the version applied.
func Migrate(ctx context.Context, db *DB, set MigrationSet) (int, error) {
	if _, err := db.writer.ExecContext(ctx, createMigrationsTable); err != nil {
		return 0, fmt.Errorf("store: unable to create schema_migrations: %w", err)
	}
	applied, err := appliedVersions(ctx, db)
	if err != nil {
		return 0, err
	}
	version := 0
	for _, m := range set.Migrations() {
		if applied[m.Version] {
			version = m.Version
			continue
		}
		record := Stmt{SQL: "INSERT INTO schema_migrations (version, name) VALUES (?, ?)", Args: []any{m.Version, m.Name}}
		var err error
		if db.Local {
			err = migrateLocal(ctx, db, m.SQL, record)
		} else {
			stmts := make([]Stmt, 0, len(m.Statements)+1)
			for _, st := range m.Statements {
				stmts = append(stmts, Stmt{SQL: st})
			}
			err = db.Batch(ctx, append(stmts, record)...)
		}
		if err != nil {
			again, rerr := appliedVersions(ctx, db)
			if rerr != nil || !again[m.Version] {
				return version, fmt.Errorf("store: %s migration %04d_%s failed: %w", set, m.Version, m.Name, err)
			}
		}
		version = m.Version
	}
	return version, nil
}

// migrateLocal applies one migration to a local file the way SQLite
// documents for schema changes that rebuild a table: on the writer's one
// connection, foreign keys off while the migration's transaction runs
// (a rebuilt table is dropped and renamed under its children), then
// checked for the whole database (PRAGMA foreign_key_check) before the
// commit. Remote libSQL servers do not enforce foreign keys, so there the
// migration is a plain batch of its statements and its record.
func migrateLocal(ctx context.Context, db *DB, migration string, record Stmt) (err error) {
	defer db.wrote()
	conn, err := db.writer.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
		return err
	}
	defer func() {
		if _, ferr := conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA foreign_keys = ON"); ferr != nil && err == nil {
			err = ferr
		}
	}()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, migration); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, record.SQL, record.Args...); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		return err
	}
	broken := rows.Next()
	rows.Close()
	if broken {
		return fmt.Errorf("store: the migration leaves rows whose foreign keys point nowhere")
	}
	return tx.Commit()
}

func appliedVersions(ctx context.Context, db *DB) (map[int]bool, error) {
	rows, err := db.QueryContext(ctx, "SELECT version FROM schema_migrations")
	if err != nil {
		return nil, fmt.Errorf("store: unable to read schema_migrations: %w", err)
	}
	defer rows.Close()
	out := map[int]bool{}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out[v] = true
	}
	return out, rows.Err()
}
