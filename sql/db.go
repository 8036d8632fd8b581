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
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
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

	// timeout bounds each call (Opener.Timeout): remotely every request,
	// in the Hrana driver; locally each call of the methods below.
	timeout time.Duration

	// writer runs every write. For a local file it is a one-connection
	// pool beside the reading pool: writes queue in the process instead of
	// contending for SQLite's lock (WAL lets reads go on meanwhile).
	// Remotely it is the same pool as reads.
	writer *sql.DB

	version atomic.Uint64 // bumped after every write made through this DB
	changed changeSignal  // closed after the next write (Changed)

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

// query runs a reading query (prepared once on a local database). Close
// the rows when done: that also ends a local call's deadline.
func (db *DB) query(ctx context.Context, query string, args ...any) (*rows, error) {
	if err := db.gaveUp(ctx); err != nil {
		return nil, err
	}
	query, args, err := bind(query, args)
	if err != nil {
		return nil, err
	}
	ctx, cancel := db.bound(ctx)
	var r *sql.Rows
	if db.Local {
		var st *sql.Stmt
		if st, err = prepared(ctx, db.DB, &db.readStmts, query); err == nil {
			r, err = st.QueryContext(ctx, args...)
		}
	} else {
		r, err = db.QueryContext(ctx, query, args...)
	}
	if err != nil {
		cancel()
		return nil, db.failed(ctx, err)
	}
	return &rows{Rows: r, db: db, ctx: ctx, cancel: cancel}, nil
}

// rows are a query's rows under the call's deadline.
type rows struct {
	*sql.Rows
	db     *DB
	ctx    context.Context
	cancel context.CancelFunc
}

// Close closes the rows and ends the call's deadline.
func (r *rows) Close() error {
	err := r.Rows.Close()
	r.cancel()
	return err
}

// Err is the error that ended the rows (failed's).
func (r *rows) Err() error { return r.db.failed(r.ctx, r.Rows.Err()) }

// queryRow runs a reading query expected to return one row, when the
// row is scanned.
func (db *DB) queryRow(ctx context.Context, query string, args ...any) scanner {
	return row{db: db, ctx: ctx, query: query, args: args, pool: db.DB, stmts: &db.readStmts}
}

// row is a one-row statement, run when scanned, under the call's
// deadline (which must last until the row is scanned).
type row struct {
	db    *DB
	ctx   context.Context
	query string
	args  []any
	pool  *sql.DB
	stmts *sync.Map // the pool's prepared statements (a local database)
	write bool      // a write: Version moves once it ran
}

func (r row) Scan(dest ...any) error {
	if err := r.db.gaveUp(r.ctx); err != nil {
		return err
	}
	query, args, err := bind(r.query, r.args)
	if err != nil {
		return err
	}
	if r.write {
		r.db.countWrite(r.ctx) // reads planned to follow an earlier write are stale now
		defer r.db.wrote()
	}
	ctx, cancel := r.db.bound(r.ctx)
	defer cancel()
	if !r.db.Local {
		return r.db.failed(ctx, r.pool.QueryRowContext(ctx, query, args...).Scan(dest...))
	}
	st, err := prepared(ctx, r.pool, r.stmts, query)
	if err != nil {
		return r.db.failed(ctx, err)
	}
	return r.db.failed(ctx, st.QueryRowContext(ctx, args...).Scan(dest...))
}

// readOnWriter runs a one-row read and hands the row to scan. On a local
// database it runs on the writing connection, queued with the batches
// (groupcommit.go): the readers' page caches are dropped whenever another
// connection commits, so reading rows the hot paths have just written (a
// match being submitted) costs a reader many page reads; the writer made
// those writes and its cache is warm. Remotely it is queryRow. scan runs
// while the writer waits: it should only copy the row out.
func (db *DB) readOnWriter(ctx context.Context, scan func(scanner) error, query string, args ...any) error {
	if !db.Local {
		return scan(db.queryRow(ctx, query, args...))
	}
	if err := db.gaveUp(ctx); err != nil {
		return err
	}
	query, args, err := bind(query, args)
	if err != nil {
		return err
	}
	ctx, cancel := db.bound(ctx)
	defer cancel()
	return db.failed(ctx, db.localReadOnWriter(ctx, scan, query, args))
}

// Version counts the writes made through this DB value. A process that is
// the only writer of a database (the native server) can key caches by it:
// an unchanged version means unchanged data. Each DB value counts from its
// own base (a multiple of 2^32 no other DB of the process started from),
// so a database closed and opened again never repeats a version a cache
// saw before.
func (db *DB) Version() uint64 { return db.version.Load() }

// Changed returns a channel closed after the next write made through
// this DB (the channel of a write that already ran may be closed at
// once): a follower of the data waits on it instead of asking again.
func (db *DB) Changed() <-chan struct{} { return db.changed.wait() }

// changeSignal hands out the channel the next write closes; a write
// with nobody waiting costs one atomic load.
type changeSignal struct {
	mu sync.Mutex
	ch atomic.Pointer[chan struct{}]
}

func (c *changeSignal) wait() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.ch.Load(); p != nil {
		return *p
	}
	ch := make(chan struct{})
	c.ch.Store(&ch)
	return ch
}

func (c *changeSignal) fire() {
	if c.ch.Load() == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.ch.Swap(nil); p != nil {
		close(*p)
	}
}

// versionBases hands each opened DB the base of its Version.
var versionBases atomic.Uint64

// write executes a statement that changes data and bumps Version.
func (db *DB) write(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if err := db.gaveUp(ctx); err != nil {
		return nil, err
	}
	query, args, err := bind(query, args)
	if err != nil {
		return nil, err
	}
	db.countWrite(ctx) // reads planned to follow an earlier write are stale now
	defer db.wrote()
	ctx, cancel := db.bound(ctx)
	defer cancel()
	if !db.Local {
		res, err := db.writer.ExecContext(ctx, query, args...)
		return res, db.failed(ctx, err)
	}
	st, err := prepared(ctx, db.writer, &db.writeStmts, query)
	if err != nil {
		return nil, db.failed(ctx, err)
	}
	res, err := st.ExecContext(ctx, args...)
	return res, db.failed(ctx, err)
}

// writeRow executes a data-changing statement with RETURNING, when the
// row is scanned, and bumps Version.
func (db *DB) writeRow(ctx context.Context, query string, args ...any) scanner {
	return row{db: db, ctx: ctx, query: query, args: args, pool: db.writer, stmts: &db.writeStmts, write: true}
}

// DefaultTimeout is how long a database call may take when the
// deployment sets no other deadline (Opener.Timeout).
const DefaultTimeout = 5 * time.Second

// ErrUnavailable is wrapped by the error of a call the database did not
// answer within its deadline (a local call; a remote server that did not
// answer is hrana.ErrUnavailable). Unavailable tells both apart from real
// errors.
var ErrUnavailable = errors.New("store: the database did not answer in time")

// Unavailable reports whether err says the database did not answer: a
// call's deadline ran out, the server refused the connection or broke
// it off, or it answered 5xx (hrana.ErrUnavailable). Whether a write
// that failed so was applied is unknown: its caller answers that the
// database is unavailable, never that the write was done, and the
// client's retry must be safe. A refused statement (a constraint, a bug)
// is not Unavailable.
func Unavailable(err error) bool {
	return errors.Is(err, ErrUnavailable) || errors.Is(err, hrana.ErrUnavailable)
}

// FailFast returns ctx under which a database that did not answer one
// call (Unavailable) fails every later call made under ctx at once,
// instead of each waiting out a deadline of its own: a request that goes
// on after a failure it tolerates (a setting's default, a visitor's
// frame, nobody shown live) still answers within about one deadline.
// Each request and each arena's scheduled jobs run under one; other
// databases are not affected.
func FailFast(ctx context.Context) context.Context {
	return context.WithValue(ctx, failFastKey{}, &silentDBs{})
}

type failFastKey struct{}

// silentDBs are the databases that did not answer under one FailFast
// context, with the error of the call they did not answer.
type silentDBs struct {
	mu   sync.Mutex
	errs map[*DB]error
}

// gaveUp returns an error when db did not answer an earlier call under
// ctx's FailFast.
func (db *DB) gaveUp(ctx context.Context) error {
	s, _ := ctx.Value(failFastKey{}).(*silentDBs)
	if s == nil {
		return nil
	}
	s.mu.Lock()
	err := s.errs[db]
	s.mu.Unlock()
	if err != nil {
		return fmt.Errorf("store: not asked, an earlier call got no answer: %w", err)
	}
	return nil
}

// failed returns a call's error, ErrUnavailable when ctx's deadline ran
// out, and remembers under ctx's FailFast that db did not answer.
func (db *DB) failed(ctx context.Context, err error) error {
	err = unanswered(ctx, err)
	if err == nil || !Unavailable(err) {
		return err
	}
	if s, _ := ctx.Value(failFastKey{}).(*silentDBs); s != nil {
		s.mu.Lock()
		if s.errs == nil {
			s.errs = map[*DB]error{}
		}
		if s.errs[db] == nil {
			s.errs[db] = err
		}
		s.mu.Unlock()
	}
	return err
}

// bound gives a local database's call its deadline (remote calls get
// theirs per request, in the Hrana driver).
func (db *DB) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if !db.Local || db.timeout <= 0 {
		return ctx, noDeadline
	}
	return context.WithTimeout(ctx, db.timeout)
}

func noDeadline() {}

// unanswered marks err as ErrUnavailable when ctx's deadline ran out.
func unanswered(ctx context.Context, err error) error {
	if err == nil || ctx.Err() != context.DeadlineExceeded || Unavailable(err) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrUnavailable, err)
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

// Open opens the database at rawURL with the default deadline
// (Opener.Open).
func Open(rawURL, token string) (*DB, error) { return Opener{}.Open(rawURL, token) }

// Opener opens databases with a deployment's settings.
type Opener struct {
	// Dir resolves relative file: URLs (the data directory); empty
	// leaves them relative to the working directory.
	Dir string
	// Timeout bounds every call to a database it opens: each request to
	// a remote server, each local statement or batch, including the wait
	// for the local writer. DefaultTimeout when 0. A call past it fails
	// with an error Unavailable recognizes.
	Timeout time.Duration
}

// Open opens the database at rawURL. Remote URLs (libsql://, http://,
// https://, and ws:// and wss://, reached over HTTP) go through the
// Hrana driver (sql/hrana) with token as their bearer token; file: URLs
// are opened with WAL, foreign keys and a busy timeout through the
// sqlite driver. Open does not touch the database; the first query does.
func (o Opener) Open(rawURL, token string) (*DB, error) {
	if path, ok := cutFilePrefix(rawURL); ok && o.Dir != "" && !filepath.IsAbs(path) {
		rawURL = "file:" + filepath.Join(o.Dir, path)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("store: invalid database URL: %w", err)
	}
	db := &DB{URL: rawURL, timeout: o.Timeout}
	if db.timeout <= 0 {
		db.timeout = DefaultTimeout
	}
	db.version.Store(versionBases.Add(1) << 32)
	if u.Scheme != "file" {
		connector, err := hrana.NewConnector(rawURL, token)
		if err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		connector.Timeout = db.timeout
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
	opening := new(sync.Mutex) // shared by the reading pool and the writer
	sqlDB, err := openSerial(rawURL, opening)
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
	writer, err := openSerial("file:"+path+"?"+q.Encode(), opening)
	if err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("store: unable to open database: %w", err)
	}
	writer.SetMaxOpenConns(1)
	writer.SetConnMaxIdleTime(0)
	db.writer = writer
	return db, nil
}

// openSerial opens a pool of the sqlite driver whose connections open
// one at a time under opening. A new connection sets WAL mode: on a file
// not in WAL mode yet (a new arena's), two connections doing that at once
// both hold a shared lock and want an exclusive one, and SQLite fails one
// of them at once with SQLITE_BUSY (its busy handler would deadlock).
// Once the file is in WAL mode the setting only reads it.
func openSerial(dsn string, opening *sync.Mutex) (*sql.DB, error) {
	probe, err := sql.Open(sqliteDriver, dsn)
	if err != nil {
		return nil, err
	}
	drv := probe.Driver()
	probe.Close() // it opened no connection
	return sql.OpenDB(serialConnector{drv: drv, dsn: dsn, opening: opening}), nil
}

type serialConnector struct {
	drv     driver.Driver
	dsn     string
	opening *sync.Mutex
}

func (c serialConnector) Connect(context.Context) (driver.Conn, error) {
	c.opening.Lock()
	defer c.opening.Unlock()
	return c.drv.Open(c.dsn)
}

func (c serialConnector) Driver() driver.Driver { return c.drv }

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
// that finds no row answers sql.ErrNoRows and the batch stands, on a
// local file as on a libSQL server (whose batch cannot be undone by what
// a read finds); a failing read rolls the batch back, as a failing
// statement does. dest holds *string, *int64 or sql.Scanner values.
func (db *DB) BatchRead(ctx context.Context, read Stmt, dest []any, stmts ...Stmt) error {
	return db.batch(ctx, stmts, &read, func(row scanner) error { return row.Scan(dest...) })
}

// BatchScan is BatchRead with the read's row handed to scan (which should
// only copy it out: locally the writer waits).
func (db *DB) BatchScan(ctx context.Context, read Stmt, scan func(Scanner) error, stmts ...Stmt) error {
	return db.batch(ctx, stmts, &read, func(row scanner) error { return scan(row) })
}

// batch runs Batch, BatchRead and BatchScan (read nil: no read). The
// reads the request planned to follow its write (plan.go) run after the
// statements, in the same transaction and request.
func (db *DB) batch(ctx context.Context, stmts []Stmt, read *Stmt, scan func(scanner) error) (err error) {
	if err := db.gaveUp(ctx); err != nil {
		return err
	}
	behind := db.wrotePlanned(ctx)
	if len(behind) > 0 {
		defer func() { settle(behind, err) }()
	}
	var reads []Read
	for _, r := range behind {
		for _, rd := range r.reads {
			if rd.SQL, rd.Args, err = bind(rd.SQL, rd.Args); err != nil {
				return err
			}
			reads = append(reads, rd)
		}
	}
	stmts, err = bindStmts(stmts)
	if err != nil {
		return err
	}
	if read != nil {
		r := *read
		if r.SQL, r.Args, err = bind(r.SQL, r.Args); err != nil {
			return err
		}
		read = &r
	}
	defer db.wrote()
	ctx, cancel := db.bound(ctx)
	defer cancel()
	if db.Local {
		return db.failed(ctx, db.localBatch(ctx, stmts, read, scan, reads)) // groupcommit.go
	}
	return db.failed(ctx, db.remoteBatch(ctx, stmts, read, scan, reads))
}

// remoteBatch runs a batch in one request (hrana.Batcher).
func (db *DB) remoteBatch(ctx context.Context, stmts []Stmt, read *Stmt, scan func(scanner) error, reads []Read) error {
	steps := make([]hrana.Statement, len(stmts))
	for i, s := range stmts {
		steps[i] = hrana.Statement(s)
	}
	conn, err := db.writer.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if len(reads) > 0 {
		return db.remoteBatchReads(ctx, conn, steps, read, scan, reads)
	}
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
	return scan(valuesRow(row))
}

// remoteBatchReads is remoteBatch with reads after the statements (and
// read, when set, last), all in the one request.
func (db *DB) remoteBatchReads(ctx context.Context, conn *sql.Conn, steps []hrana.Statement, read *Stmt, scan func(scanner) error, reads []Read) error {
	queries := make([]hrana.Statement, 0, len(reads)+1)
	for _, r := range reads {
		queries = append(queries, hrana.Statement{SQL: r.SQL, Args: r.Args})
	}
	if read != nil {
		queries = append(queries, hrana.Statement(*read))
	}
	var results [][][]driver.Value
	err := conn.Raw(func(dc any) (err error) {
		results, err = dc.(hrana.Batcher).BatchReadAll(ctx, steps, queries)
		return err
	})
	if err != nil {
		return err
	}
	for i, r := range reads {
		for _, row := range results[i] {
			if err := r.Row(valuesRow(row)); err != nil {
				return err
			}
		}
	}
	if read == nil {
		return nil
	}
	if last := results[len(reads)]; len(last) > 0 {
		return scan(valuesRow(last[0]))
	}
	return sql.ErrNoRows
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
