package hrana

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
)

// conn is one database/sql connection. It holds no stream of its own
// outside a transaction: each statement is a request on a new stream.
type conn struct {
	c      *Connector
	tx     *tx // the open transaction, nil outside one
	closed bool
}

var (
	_ driver.Conn               = (*conn)(nil)
	_ driver.ConnBeginTx        = (*conn)(nil)
	_ driver.ConnPrepareContext = (*conn)(nil)
	_ driver.ExecerContext      = (*conn)(nil)
	_ driver.QueryerContext     = (*conn)(nil)
	_ driver.NamedValueChecker  = (*conn)(nil)
	_ driver.Pinger             = (*conn)(nil)
	_ driver.SessionResetter    = (*conn)(nil)
	_ driver.Validator          = (*conn)(nil)
	_ Batcher                   = (*conn)(nil)
)

// statement builds the wire statement of query and its arguments:
// unnamed ones positional, named ones under their names.
func statement(query string, args []driver.NamedValue, wantRows bool) (stmt, error) {
	s := stmt{SQL: query, WantRows: wantRows}
	for _, a := range args {
		v, err := encodeValue(a.Value)
		if err != nil {
			return stmt{}, err
		}
		if a.Name == "" {
			s.Args = append(s.Args, v)
		} else {
			s.NamedArgs = append(s.NamedArgs, namedArg{Name: a.Name, Value: v})
		}
	}
	return s, nil
}

// run executes s: in the open transaction, else on a stream of its own.
func (c *conn) run(ctx context.Context, s stmt) (*stmtResult, error) {
	if c.closed {
		return nil, driver.ErrBadConn
	}
	if c.tx != nil {
		return c.tx.run(ctx, s)
	}
	results, err := c.c.oneShot(ctx, executeRequest(s))
	if err != nil {
		return nil, err
	}
	return stmtOutcome(results[0])
}

// ExecContext runs a statement and reports its changes.
func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	s, err := statement(query, args, false)
	if err != nil {
		return nil, err
	}
	r, err := c.run(ctx, s)
	if err != nil {
		return nil, err
	}
	return resultOf(r)
}

// QueryContext runs a statement and returns its rows, all of which came
// in the answer.
func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	s, err := statement(query, args, true)
	if err != nil {
		return nil, err
	}
	r, err := c.run(ctx, s)
	if err != nil {
		return nil, err
	}
	return newRows(r), nil
}

// CheckNamedValue accepts the types the wire carries (int64, float64,
// bool, string, []byte, time.Time, nil) and converts others as
// database/sql's default converter does (other integer kinds, named
// string types, driver.Valuer).
func (c *conn) CheckNamedValue(nv *driver.NamedValue) error {
	v, err := driver.DefaultParameterConverter.ConvertValue(nv.Value)
	if err != nil {
		return fmt.Errorf("hrana: %w", err)
	}
	nv.Value = v
	return nil
}

// PrepareContext returns a statement that sends query on each use; the
// server prepares it then. NumInput is unknown (-1): the driver does not
// parse SQL.
func (c *conn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if c.closed {
		return nil, driver.ErrBadConn
	}
	return &prepared{c: c, query: query}, nil
}

func (c *conn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

// Ping runs SELECT 1 on the server.
func (c *conn) Ping(ctx context.Context) error {
	_, err := c.run(ctx, stmt{SQL: "SELECT 1"})
	return err
}

// ResetSession refuses a connection left inside a transaction (database/sql
// never leaves one; the check keeps a stream from leaking into the next
// user's statements).
func (c *conn) ResetSession(context.Context) error {
	if c.closed || c.tx != nil {
		return driver.ErrBadConn
	}
	return nil
}

func (c *conn) IsValid() bool { return !c.closed && c.tx == nil }

// Close ends the connection. It sends nothing: outside a transaction no
// stream is open, and a transaction database/sql abandons is rolled back
// before the connection is closed.
func (c *conn) Close() error {
	c.closed = true
	return nil
}

// prepared is a statement of PrepareContext.
type prepared struct {
	c     *conn
	query string
}

func (p *prepared) Close() error  { return nil }
func (p *prepared) NumInput() int { return -1 }

func (p *prepared) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	return p.c.ExecContext(ctx, p.query, args)
}

func (p *prepared) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return p.c.QueryContext(ctx, p.query, args)
}

func (p *prepared) Exec(args []driver.Value) (driver.Result, error) {
	return p.ExecContext(context.Background(), named(args))
}

func (p *prepared) Query(args []driver.Value) (driver.Rows, error) {
	return p.QueryContext(context.Background(), named(args))
}

func named(args []driver.Value) []driver.NamedValue {
	out := make([]driver.NamedValue, len(args))
	for i, v := range args {
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	return out
}

// result is an executed statement's outcome.
type execResult struct {
	lastInsertID, rowsAffected int64
}

func resultOf(r *stmtResult) (driver.Result, error) {
	res := execResult{rowsAffected: r.AffectedRowCount}
	if r.LastInsertRowid != nil {
		id, err := strconv.ParseInt(*r.LastInsertRowid, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("hrana: bad last_insert_rowid: %w", err)
		}
		res.lastInsertID = id
	}
	return res, nil
}

// LastInsertId is the server's last_insert_rowid (0 when it sent none).
func (r execResult) LastInsertId() (int64, error) { return r.lastInsertID, nil }

// RowsAffected is the server's affected_row_count.
func (r execResult) RowsAffected() (int64, error) { return r.rowsAffected, nil }

// BeginTx starts an interactive transaction on a stream of its own.
// Only the default isolation level exists (SQLite transactions are
// serializable); read-only transactions are refused. Nothing is sent
// yet: BEGIN goes with the first statement (once per connector the
// server is first asked whether it keeps streams; ErrNoStreams if not).
func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if c.closed {
		return nil, driver.ErrBadConn
	}
	if c.tx != nil {
		return nil, errors.New("hrana: a transaction is already open on this connection")
	}
	if opts.ReadOnly {
		return nil, errors.New("hrana: read-only transactions are not supported")
	}
	if sql.IsolationLevel(opts.Isolation) != sql.LevelDefault {
		return nil, fmt.Errorf("hrana: isolation level %v is not supported", sql.IsolationLevel(opts.Isolation))
	}
	t := &tx{conn: c, url: c.c.pipelineURL, ctx: context.WithoutCancel(ctx)}
	switch c.c.streams.Load() {
	case streamsNone:
		return nil, ErrNoStreams
	case streamsUnknown:
		// Sending BEGIN to a server that keeps no streams would leave its
		// transaction to whatever comes next: ask first.
		resp, err := c.c.send(ctx, c.c.pipelineURL, nil, []streamRequest{executeRequest(stmt{SQL: "SELECT 1"})})
		if err != nil {
			return nil, err
		}
		c.c.learn(resp)
		if resp.Baton == nil {
			return nil, ErrNoStreams
		}
		t.follow(resp)
	}
	c.tx = t
	return t, nil
}

func (c *conn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}
