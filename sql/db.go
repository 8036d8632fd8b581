// Package store (directory sql/) keeps Arena's data in libSQL: the
// directory database and one database per arena, reached through
// database/sql: modernc.org/sqlite for a local file, Arena's own Hrana
// driver (sql/hrana) for a remote libSQL server. The same SQLite dialect
// runs on both. Queries and migrations are embedded .sql files; this
// package implements core's store ports.
package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"arena/sql/hrana"
)

// DB is one libSQL database, local file or remote.
type DB struct {
	*sql.DB
	// Local is true for a file: database opened in this process.
	Local bool
	// URL is the database URL without credentials.
	URL string

	// writer runs every write. For a local file it is a one-connection
	// pool beside the reading pool: writes queue in the process instead of
	// contending for SQLite's lock (WAL lets reads go on meanwhile).
	// Remotely it is the same pool as reads.
	writer *sql.DB

	version atomic.Uint64 // bumped after every write made through this DB

	// Prepared statements of a local database, by query text, for the
	// reading pool and the writer: SQLite then parses each query once per
	// connection instead of on every call.
	readStmts, writeStmts sync.Map

	group groupCommit  // a local database's batches waiting for the writer
	ckpt  checkpointer // a local database's checkpoints beside the writer
}

// prepared returns pool's prepared statement for query, preparing it once.
func prepared(ctx context.Context, pool *sql.DB, cache *sync.Map, query string) (*sql.Stmt, error) {
	if st, ok := cache.Load(query); ok {
		return st.(*sql.Stmt), nil
	}
	st, err := pool.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if prev, loaded := cache.LoadOrStore(query, st); loaded {
		st.Close()
		return prev.(*sql.Stmt), nil
	}
	return st, nil
}

// query runs a reading query (prepared once on a local database).
func (db *DB) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if !db.Local {
		return db.QueryContext(ctx, query, args...)
	}
	st, err := prepared(ctx, db.DB, &db.readStmts, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// queryRow runs a reading query expected to return one row.
func (db *DB) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	if db.Local {
		if st, err := prepared(ctx, db.DB, &db.readStmts, query); err == nil {
			return st.QueryRowContext(ctx, args...)
		}
	}
	return db.QueryRowContext(ctx, query, args...)
}

// readOnWriter runs a one-row read and hands the row to scan. On a local
// database it runs on the writing connection, queued with the batches
// (groupcommit.go): the readers' page caches are dropped whenever another
// connection commits, so reading rows the hot paths have just written (a
// match being submitted) costs a reader many page reads; the writer made
// those writes and its cache is warm. Remotely it is queryRow. scan runs
// while the writer waits: it should only copy the row out.
func (db *DB) readOnWriter(ctx context.Context, scan func(scanner) error, query string, args ...any) error {
	if db.Local {
		return db.localReadOnWriter(ctx, scan, query, args)
	}
	return scan(db.queryRow(ctx, query, args...))
}

// Version counts the writes made through this DB value. A process that is
// the only writer of a database (the native server) can key caches by it:
// an unchanged version means unchanged data. Each DB value counts from its
// own base (a multiple of 2^32 no other DB of the process started from),
// so a database closed and opened again never repeats a version a cache
// saw before.
func (db *DB) Version() uint64 { return db.version.Load() }

// versionBases hands each opened DB the base of its Version.
var versionBases atomic.Uint64

// write executes a statement that changes data and bumps Version.
func (db *DB) write(ctx context.Context, query string, args ...any) (sql.Result, error) {
	defer db.wrote()
	if db.Local {
		st, err := prepared(ctx, db.writer, &db.writeStmts, query)
		if err != nil {
			return nil, err
		}
		return st.ExecContext(ctx, args...)
	}
	return db.writer.ExecContext(ctx, query, args...)
}

// writeRow executes a data-changing statement with RETURNING and bumps
// Version.
func (db *DB) writeRow(ctx context.Context, query string, args ...any) *sql.Row {
	defer db.wrote()
	if db.Local {
		if st, err := prepared(ctx, db.writer, &db.writeStmts, query); err == nil {
			return st.QueryRowContext(ctx, args...)
		}
	}
	return db.writer.QueryRowContext(ctx, query, args...)
}

// Close closes the database's pools, once a checkpoint running beside
// the writer is done.
func (db *DB) Close() error {
	db.ckpt.wg.Wait()
	err := db.DB.Close()
	if db.writer != db.DB {
		if werr := db.writer.Close(); err == nil {
			err = werr
		}
	}
	return err
}

// sqliteDriver is the database/sql driver of file: URLs, registered by
// sql/sqlitedriver in native builds (the Workers build opens no files).
const sqliteDriver = "sqlite"

// Open opens the database at rawURL. Remote URLs (libsql://, http://,
// https://, and ws:// and wss://, reached over HTTP) go through the
// Hrana driver (sql/hrana) with token as their bearer token; file: URLs
// are opened with WAL, foreign keys and a busy timeout through the
// sqlite driver. Open does not touch the database; the first query does.
func Open(rawURL, token string) (*DB, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("store: invalid database URL: %w", err)
	}
	db := &DB{URL: rawURL}
	db.version.Store(versionBases.Add(1) << 32)
	if u.Scheme != "file" {
		connector, err := hrana.NewConnector(rawURL, token)
		if err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		// A remote connection holds nothing between statements (each is
		// one HTTP request), so the pool only bounds concurrency.
		sqlDB := sql.OpenDB(connector)
		sqlDB.SetConnMaxIdleTime(5 * time.Minute)
		sqlDB.SetMaxIdleConns(4)
		db.DB, db.writer = sqlDB, sqlDB
		return db, nil
	}
	db.Local = true
	if strings.HasPrefix(rawURL, "file://") {
		return nil, fmt.Errorf("store: file URLs take one slash or none (file:/path or file:path)")
	}
	q := u.Query()
	for _, p := range []string{"busy_timeout(10000)", "journal_mode(WAL)", "foreign_keys(1)", "synchronous(NORMAL)", "temp_store(MEMORY)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	path := strings.TrimPrefix(rawURL, "file:")
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	rawURL = "file:" + path + "?" + q.Encode()
	sqlDB, err := sql.Open(sqliteDriver, rawURL)
	if err != nil {
		return nil, fmt.Errorf("store: unable to open database: %w", err)
	}
	sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	db.DB, db.writer = sqlDB, sqlDB
	// SQLite prepares statements per connection: a few reading connections
	// keep their prepared statements warm. Reads run in-process and take
	// CPU rather than wait, so a few readers per database use the cores;
	// each holds two file handles, and a server keeps dozens of arena
	// databases open.
	sqlDB.SetMaxOpenConns(maxReaders)
	sqlDB.SetMaxIdleConns(maxIdleReaders)
	// The writer leaves checkpoints to a reading connection (checkpoint.go).
	q.Add("_pragma", "wal_autocheckpoint(0)")
	writer, err := sql.Open(sqliteDriver, "file:"+path+"?"+q.Encode())
	if err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("store: unable to open database: %w", err)
	}
	writer.SetMaxOpenConns(1)
	writer.SetConnMaxIdleTime(0)
	db.writer = writer
	return db, nil
}

// The reading pool of a local database: at most maxReaders connections,
// all kept open between reads (a connection closed after a read would be
// opened again, its statements parsed again, by the next burst), each
// closed after 5 idle minutes.
const (
	maxReaders     = 4
	maxIdleReaders = maxReaders
)

// Stmt is one statement of a batch: one SQL statement (never several)
// and its arguments.
type Stmt struct {
	SQL  string
	Args []any
}

// Batch runs the statements atomically: all of them or none. Remotely it
// is one request (hrana.Batcher: BEGIN, the statements, COMMIT in one
// Hrana batch, rolled back when any step fails; the error is the first
// failing statement's); locally it is a savepoint of a transaction on
// the writer that concurrent batches share (group commit,
// groupcommit.go). It is never an interactive transaction across round
// trips.
func (db *DB) Batch(ctx context.Context, stmts ...Stmt) error {
	if len(stmts) == 0 {
		return nil
	}
	return db.batch(ctx, stmts, nil, nil)
}

// BatchRead is Batch followed, in the same transaction, by read, whose
// one row is scanned into dest: what the batch did, seen by the batch
// itself, without another read (remotely: no other round trip). A read
// that finds no row fails with sql.ErrNoRows and rolls the batch back, as
// a failing statement does. dest holds *string, *int64 or sql.Scanner
// values.
func (db *DB) BatchRead(ctx context.Context, read Stmt, dest []any, stmts ...Stmt) error {
	return db.batch(ctx, stmts, &read, dest)
}

// batch runs Batch and BatchRead (read nil: no read).
func (db *DB) batch(ctx context.Context, stmts []Stmt, read *Stmt, dest []any) error {
	defer db.wrote()
	if db.Local {
		return db.localBatch(ctx, stmts, read, dest) // groupcommit.go
	}
	steps := make([]hrana.Statement, len(stmts))
	for i, s := range stmts {
		steps[i] = hrana.Statement(s)
	}
	conn, err := db.writer.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var row []driver.Value
	err = conn.Raw(func(dc any) error {
		b := dc.(hrana.Batcher)
		if read == nil {
			return b.Batch(ctx, steps)
		}
		row, err = b.BatchRead(ctx, steps, hrana.Statement(*read))
		return err
	})
	if err != nil || read == nil {
		return err
	}
	if row == nil {
		return sql.ErrNoRows
	}
	return assignRow(row, dest)
}

// assignRow stores a row's values into dest (BatchRead's remote side).
func assignRow(row []driver.Value, dest []any) error {
	if len(row) != len(dest) {
		return fmt.Errorf("store: %d columns read into %d values", len(row), len(dest))
	}
	for i, v := range row {
		switch d := dest[i].(type) {
		case sql.Scanner:
			if err := d.Scan(v); err != nil {
				return err
			}
		case *string:
			switch v := v.(type) {
			case string:
				*d = v
			case []byte:
				*d = string(v)
			default:
				return fmt.Errorf("store: column %d is %T, not text", i, v)
			}
		case *int64:
			n, ok := v.(int64)
			if !ok {
				return fmt.Errorf("store: column %d is %T, not an integer", i, v)
			}
			*d = n
		default:
			return fmt.Errorf("store: cannot read into %T", d)
		}
	}
	return nil
}

// timeLayout is how timestamps are stored: fixed-width UTC, so text order
// is time order.
const timeLayout = "2006-01-02T15:04:05.000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// parseTime reads a stored timestamp. The layout the store writes is read
// by hand (pages scan thousands of them); anything else goes through
// time.Parse.
func parseTime(s string) (time.Time, error) {
	if t, ok := parseStoredTime(s); ok {
		return t, nil
	}
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Parse(time.RFC3339Nano, s)
	}
	return t, nil
}

// parseStoredTime parses exactly "2006-01-02T15:04:05.000Z".
func parseStoredTime(s string) (time.Time, bool) {
	if len(s) != len(timeLayout) || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
		s[16] != ':' || s[19] != '.' || s[23] != 'Z' {
		return time.Time{}, false
	}
	num := func(from, to int) (int, bool) {
		n := 0
		for i := from; i < to; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	year, ok1 := num(0, 4)
	month, ok2 := num(5, 7)
	day, ok3 := num(8, 10)
	hour, ok4 := num(11, 13)
	minute, ok5 := num(14, 16)
	sec, ok6 := num(17, 19)
	milli, ok7 := num(20, 23)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7) || month < 1 || month > 12 || day < 1 || day > 31 ||
		hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, milli*int(time.Millisecond), time.UTC)
	if t.Day() != day { // February 30th and the like
		return time.Time{}, false
	}
	return t, true
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

// isNotNullViolation reports whether err is SQLite's NOT NULL failure on
// column ("table.column").
func isNotNullViolation(err error, column string) bool {
	return err != nil && strings.Contains(err.Error(), "NOT NULL constraint failed") && strings.Contains(err.Error(), column)
}
