package hrana

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
)

// Statement is one statement of a batch and its arguments: values
// database/sql accepts, sql.Named ones sent by name.
type Statement struct {
	SQL  string
	Args []any
}

// Batcher runs statements atomically in one request. The driver's
// connections implement it; reach it through sql.Conn.Raw:
//
//	conn.Raw(func(dc any) error { return dc.(hrana.Batcher).Batch(ctx, stmts) })
type Batcher interface {
	Batch(ctx context.Context, stmts []Statement) error
	BatchRead(ctx context.Context, stmts []Statement, read Statement) ([]driver.Value, error)
	BatchReadAll(ctx context.Context, stmts []Statement, reads []Statement) ([][][]driver.Value, error)
	Read(ctx context.Context, stmts []Statement) ([][][]driver.Value, error)
}

// Batch runs stmts in one transaction, all of them or none, in one
// request: a Hrana batch of BEGIN IMMEDIATE, each statement run only if
// the one before succeeded, COMMIT only if the last did, and ROLLBACK
// when BEGIN succeeded but COMMIT did not run or failed. The error is the
// first failing statement's, as a *BatchError (errors.As finds its
// *Error), or BEGIN's or COMMIT's *Error. Rows the statements return are
// dropped. Inside an interactive transaction Batch is refused.
func (c *conn) Batch(ctx context.Context, stmts []Statement) error {
	if len(stmts) == 0 {
		return nil
	}
	_, err := c.batch(ctx, stmts, nil)
	return err
}

// BatchRead is Batch with read as its last statement, in the same
// transaction and request: it returns read's first row (nil when it has
// none). A failing read rolls the batch back like any of its statements.
func (c *conn) BatchRead(ctx context.Context, stmts []Statement, read Statement) ([]driver.Value, error) {
	return c.batch(ctx, stmts, &read)
}

func (c *conn) batch(ctx context.Context, stmts []Statement, read *Statement) ([]driver.Value, error) {
	if read != nil {
		stmts = append(stmts[:len(stmts):len(stmts)], *read)
	}
	n := len(stmts)
	results, err := c.transaction(ctx, beginSQL, stmts, func(i int) bool { return read != nil && i == n-1 })
	if err != nil || read == nil || results[n-1] == nil || len(results[n-1].Rows) == 0 {
		return nil, err
	}
	return decodeRow(results[n-1].Rows[0])
}

// BatchReadAll is Batch followed, in the same transaction and request, by
// reads, each a query: it returns each read's rows, in order.
func (c *conn) BatchReadAll(ctx context.Context, stmts []Statement, reads []Statement) ([][][]driver.Value, error) {
	all := append(stmts[:len(stmts):len(stmts)], reads...)
	first := len(stmts)
	results, err := c.transaction(ctx, beginSQL, all, func(i int) bool { return i >= first })
	if err != nil {
		return nil, err
	}
	return decodeResults(results[first:])
}

// decodeResults is each result's rows, decoded.
func decodeResults(results []*stmtResult) ([][][]driver.Value, error) {
	out := make([][][]driver.Value, len(results))
	for i, r := range results {
		if r == nil {
			continue
		}
		out[i] = make([][]driver.Value, len(r.Rows))
		for j, row := range r.Rows {
			var err error
			if out[i][j], err = decodeRow(row); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// Read runs stmts, each a query, in one request and one read transaction
// (a Hrana batch of BEGIN, each statement run only if the one before
// succeeded, COMMIT, and ROLLBACK when COMMIT did not run): every
// statement sees the same snapshot. It returns each statement's rows, in
// order. The first failing statement's error is a *BatchError.
func (c *conn) Read(ctx context.Context, stmts []Statement) ([][][]driver.Value, error) {
	if len(stmts) == 0 {
		return nil, nil
	}
	results, err := c.transaction(ctx, "BEGIN", stmts, func(int) bool { return true })
	if err != nil {
		return nil, err
	}
	return decodeResults(results)
}

// transaction runs stmts in one request as one transaction opened with
// begin: each statement only if the one before succeeded, COMMIT only if
// the last did, ROLLBACK when BEGIN succeeded but COMMIT did not run or
// failed. It returns the statements' results (rows where wantRows says
// so).
func (c *conn) transaction(ctx context.Context, begin string, stmts []Statement, wantRows func(i int) bool) ([]*stmtResult, error) {
	if c.closed {
		return nil, driver.ErrBadConn
	}
	if c.tx != nil {
		return nil, errors.New("hrana: a batch cannot run inside an interactive transaction")
	}
	n := len(stmts)
	commit := n + 1
	steps := make([]batchStep, 0, n+3)
	steps = append(steps, batchStep{Stmt: stmt{SQL: begin}})
	for i, st := range stmts {
		s, err := batchStatement(st)
		if err != nil {
			return nil, fmt.Errorf("hrana: batch statement %d: %w", i+1, err)
		}
		s.WantRows = wantRows(i)
		steps = append(steps, batchStep{Stmt: s, Condition: ptr(stepOK(i))})
	}
	steps = append(steps,
		batchStep{Stmt: stmt{SQL: "COMMIT"}, Condition: ptr(stepOK(n))},
		batchStep{Stmt: stmt{SQL: "ROLLBACK"}, Condition: ptr(and(stepOK(0), not(stepOK(commit))))},
	)
	results, err := c.c.oneShot(ctx, streamRequest{Type: "batch", Batch: &batch{Steps: steps}})
	if err != nil {
		return nil, err
	}
	res, err := batchOutcome(results[0], len(steps))
	if err != nil {
		return nil, err
	}
	for i, e := range res.StepErrors[:commit+1] {
		switch {
		case e == nil:
		case i == 0 || i == commit:
			return nil, e
		default:
			return nil, &BatchError{Statement: i - 1, Err: e}
		}
	}
	if res.StepResults[commit] == nil {
		return nil, errors.New("hrana: the server skipped the batch's COMMIT without an error")
	}
	return res.StepResults[1 : n+1], nil
}

// decodeRow decodes one row's values.
func decodeRow(row []value) ([]driver.Value, error) {
	out := make([]driver.Value, len(row))
	for i, v := range row {
		var err error
		if out[i], err = v.decode(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// batchStatement builds the wire statement of a batch's statement.
func batchStatement(st Statement) (stmt, error) {
	args := make([]driver.NamedValue, len(st.Args))
	for i, a := range st.Args {
		nv := driver.NamedValue{Ordinal: i + 1, Value: a}
		if na, ok := a.(sql.NamedArg); ok {
			nv.Name, nv.Value = na.Name, na.Value
		}
		v, err := driver.DefaultParameterConverter.ConvertValue(nv.Value)
		if err != nil {
			return stmt{}, err
		}
		nv.Value = v
		args[i] = nv
	}
	return statement(st.SQL, args, false)
}
