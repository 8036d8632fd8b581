package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"reflect"

	"arena/sql/hrana"
)

// Scanner is a row as ReadAll hands it over.
type Scanner interface{ Scan(dest ...any) error }

// Read is one query of DB.ReadAll and what becomes of each of its rows.
type Read struct {
	SQL  string
	Args []any
	// Row reads one row (its Scan takes what database/sql's does for the
	// store's columns: *string, *int, *int64, *bool, *float64, *[]byte,
	// sql.Scanner values).
	Row func(row Scanner) error
}

// ReadAll runs the reads as one: a route's reads, planned together
// (DESIGN.md "Round trips and placement"). Remotely they are one Hrana
// batch in one request (one round trip, one snapshot); on a local file
// they run in one read transaction (one snapshot; a local read costs no
// round trip). Each read's rows go to its Row in order.
//
// The reads the request planned on this database (plan.go) and no
// ReadAll sent yet go first in the same batch.
func (db *DB) ReadAll(ctx context.Context, reads ...Read) error {
	return db.readAll(ctx, db.takePlanned(ctx), reads)
}

// readAll is ReadAll with the planned reads ahead first.
func (db *DB) readAll(ctx context.Context, ahead []*planned, reads []Read) (err error) {
	if len(ahead) > 0 {
		defer func() { settle(ahead, err) }()
		var all []Read
		for _, r := range ahead {
			all = append(all, r.reads...)
		}
		reads = append(all, reads...)
	}
	if len(reads) == 0 {
		return nil
	}
	if err := db.gaveUp(ctx); err != nil {
		return err
	}
	stmts := make([]Stmt, len(reads))
	for i, r := range reads {
		stmts[i] = Stmt{SQL: r.SQL, Args: r.Args}
	}
	stmts, err = bindStmts(stmts)
	if err != nil {
		return err
	}
	ctx, cancel := db.bound(ctx)
	defer cancel()
	if db.Local {
		return db.failed(ctx, db.localReadAll(ctx, stmts, reads))
	}
	return db.failed(ctx, db.remoteReadAll(ctx, stmts, reads))
}

// localReadAll runs the reads in one read transaction of the reading pool.
func (db *DB) localReadAll(ctx context.Context, stmts []Stmt, reads []Read) error {
	tx, err := db.DB.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for i, s := range stmts {
		if err := eachRow(tx.QueryContext(ctx, s.SQL, s.Args...))(reads[i].Row); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// eachRow hands every row of a query's result to row, then closes it.
func eachRow(rows *sql.Rows, err error) func(row func(scanner) error) error {
	return func(row func(scanner) error) error {
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			if err := row(rows); err != nil {
				return err
			}
		}
		return rows.Err()
	}
}

// remoteReadAll runs the reads in one request (hrana.Batcher's Read).
func (db *DB) remoteReadAll(ctx context.Context, stmts []Stmt, reads []Read) error {
	steps := make([]hrana.Statement, len(stmts))
	for i, s := range stmts {
		steps[i] = hrana.Statement(s)
	}
	conn, err := db.DB.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var results [][][]driver.Value
	if err := conn.Raw(func(dc any) error {
		results, err = dc.(hrana.Batcher).Read(ctx, steps)
		return err
	}); err != nil {
		return err
	}
	for i, rows := range results {
		for _, row := range rows {
			if err := reads[i].Row(valuesRow(row)); err != nil {
				return err
			}
		}
	}
	return nil
}

// valuesRow is a row a remote batch read, scanned as database/sql scans
// the store's columns.
type valuesRow []driver.Value

// Scan implements scanner.
func (r valuesRow) Scan(dest ...any) error {
	if len(dest) != len(r) {
		return fmt.Errorf("store: %d columns read into %d values", len(r), len(dest))
	}
	for i, v := range r {
		if err := assignValue(dest[i], v); err != nil {
			return fmt.Errorf("store: column %d: %w", i, err)
		}
	}
	return nil
}

// assignValue stores one column's value v (nil, int64, float64, string
// or []byte, as the Hrana driver decodes them) into dest.
func assignValue(dest any, v driver.Value) error {
	if s, ok := dest.(sql.Scanner); ok {
		return s.Scan(v)
	}
	if v == nil {
		if p, ok := dest.(*any); ok {
			*p = nil
			return nil
		}
		return fmt.Errorf("NULL into %T", dest)
	}
	switch d := dest.(type) {
	case *any:
		*d = v
		return nil
	case *string:
		switch v := v.(type) {
		case string:
			*d = v
			return nil
		case []byte:
			*d = string(v)
			return nil
		case int64:
			*d = fmt.Sprint(v)
			return nil
		}
	case *[]byte:
		switch v := v.(type) {
		case []byte:
			*d = append([]byte(nil), v...)
			return nil
		case string:
			*d = []byte(v)
			return nil
		}
	case *int64:
		if n, ok := v.(int64); ok {
			*d = n
			return nil
		}
	case *int:
		if n, ok := v.(int64); ok {
			*d = int(n)
			return nil
		}
	case *bool:
		if n, ok := v.(int64); ok {
			*d = n != 0
			return nil
		}
	case *float64:
		switch v := v.(type) {
		case float64:
			*d = v
			return nil
		case int64:
			*d = float64(v)
			return nil
		}
	}
	// Named types of those kinds (core.Pacing, a status), as database/sql
	// converts them.
	if rv := reflect.ValueOf(dest); rv.Kind() == reflect.Pointer && !rv.IsNil() {
		e := rv.Elem()
		switch n, isInt := v.(int64); {
		case e.Kind() == reflect.String:
			switch v := v.(type) {
			case string:
				e.SetString(v)
				return nil
			case []byte:
				e.SetString(string(v))
				return nil
			}
		case isInt && e.CanInt():
			e.SetInt(n)
			return nil
		case isInt && e.Kind() == reflect.Bool:
			e.SetBool(n != 0)
			return nil
		}
	}
	return fmt.Errorf("%T into %T", v, dest)
}
