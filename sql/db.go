// Package store (directory sql/) keeps Arena's data in libSQL: the
// directory database and one database per arena, reached through
// database/sql and libsql-client-go. The same SQLite dialect runs on a
// local file and on a remote libSQL server. Queries and migrations are
// embedded .sql files; this package implements core's store ports.
package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	_ "github.com/tursodatabase/libsql-client-go/libsql" // registers "libsql"
)

// DB is one libSQL database, local file or remote.
type DB struct {
	*sql.DB
	// Local is true for a file: database opened in this process.
	Local bool
	// URL is the database URL without credentials.
	URL string

	version atomic.Uint64 // bumped after every write made through this DB
}

// Version counts the writes made through this DB value. A process that is
// the only writer of a database (the native server) can key caches by it:
// an unchanged version means unchanged data.
func (db *DB) Version() uint64 { return db.version.Load() }

// write executes a statement that changes data and bumps Version.
func (db *DB) write(ctx context.Context, query string, args ...any) (sql.Result, error) {
	defer db.version.Add(1)
	return db.ExecContext(ctx, query, args...)
}

// writeRow executes a data-changing statement with RETURNING and bumps
// Version.
func (db *DB) writeRow(ctx context.Context, query string, args ...any) *sql.Row {
	defer db.version.Add(1)
	return db.QueryRowContext(ctx, query, args...)
}

// Open opens the database at rawURL. Remote URLs (libsql://, http://,
// https://, ws://, wss://) get token as their authToken; file: URLs are
// opened with WAL, foreign keys and a busy timeout through the sqlite
// driver registered by the native build. Open does not touch the
// database; the first query does.
func Open(rawURL, token string) (*DB, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("store: invalid database URL: %w", err)
	}
	db := &DB{URL: rawURL}
	switch u.Scheme {
	case "file":
		db.Local = true
		if strings.HasPrefix(rawURL, "file://") {
			return nil, fmt.Errorf("store: file URLs take one slash or none (file:/path or file:path)")
		}
		q := u.Query()
		for _, p := range []string{"busy_timeout(10000)", "journal_mode(WAL)", "foreign_keys(1)", "synchronous(NORMAL)"} {
			q.Add("_pragma", p)
		}
		q.Set("_txlock", "immediate")
		path := strings.TrimPrefix(rawURL, "file:")
		if i := strings.IndexByte(path, '?'); i >= 0 {
			path = path[:i]
		}
		rawURL = "file:" + path + "?" + q.Encode()
	case "libsql", "http", "https", "ws", "wss":
		if token != "" {
			q := u.Query()
			q.Set("authToken", token)
			u.RawQuery = q.Encode()
			rawURL = u.String()
		}
	default:
		return nil, fmt.Errorf("store: unsupported database URL scheme %q", u.Scheme)
	}
	sqlDB, err := sql.Open("libsql", rawURL)
	if err != nil {
		return nil, fmt.Errorf("store: unable to open database: %w", err)
	}
	if !db.Local {
		// Each remote connection is an HTTP stream; a few suffice.
		sqlDB.SetMaxIdleConns(4)
	}
	sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	db.DB = sqlDB
	return db, nil
}

// Stmt is one statement of a batch. Its SQL uses only positional ?
// placeholders, so a batch can be sent as one request.
type Stmt struct {
	SQL  string
	Args []any
}

// Batch runs the statements atomically: all of them or none. Remotely it
// is one request (BEGIN; ...; COMMIT in a single pipeline batch, rolled
// back when any step fails); locally it is a transaction on one
// connection. It is never an interactive transaction across round trips.
func (db *DB) Batch(ctx context.Context, stmts ...Stmt) error {
	if len(stmts) == 0 {
		return nil
	}
	defer db.version.Add(1)
	if db.Local {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		for _, s := range stmts {
			if _, err := tx.ExecContext(ctx, s.SQL, s.Args...); err != nil {
				_ = tx.Rollback()
				return err
			}
		}
		return tx.Commit()
	}
	var b strings.Builder
	var args []any
	b.WriteString("BEGIN;\n")
	for _, s := range stmts {
		b.WriteString(strings.TrimRight(strings.TrimSpace(s.SQL), ";"))
		b.WriteString(";\n")
		args = append(args, s.Args...)
	}
	b.WriteString("COMMIT;")
	_, err := db.ExecContext(ctx, b.String(), args...)
	return err
}

// timeLayout is how timestamps are stored: fixed-width UTC, so text order
// is time order.
const timeLayout = "2006-01-02T15:04:05.000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Parse(time.RFC3339Nano, s)
	}
	return t, nil
}

// isUniqueViolation reports whether err is a UNIQUE constraint failure on
// the given table.column, as both the local and the remote driver word it.
func isUniqueViolation(err error, column string) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") && strings.Contains(msg, column)
}
