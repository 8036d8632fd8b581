package hrana

import (
	"database/sql/driver"
	"io"
	"strings"
)

// rows are a statement's rows, all of which came in its answer.
type rows struct {
	cols []column
	rows [][]value
	next int
}

var _ driver.RowsColumnTypeDatabaseTypeName = (*rows)(nil)

func newRows(r *stmtResult) *rows { return &rows{cols: r.Cols, rows: r.Rows} }

// Columns are the result's column names ("" for one the server did not
// name).
func (r *rows) Columns() []string {
	names := make([]string, len(r.cols))
	for i, c := range r.cols {
		if c.Name != nil {
			names[i] = *c.Name
		}
	}
	return names
}

// ColumnTypeDatabaseTypeName is the column's declared type, upper-cased,
// or "" for an expression (or a server that sends none).
func (r *rows) ColumnTypeDatabaseTypeName(i int) string {
	if d := r.cols[i].Decltype; d != nil {
		return strings.ToUpper(*d)
	}
	return ""
}

func (r *rows) Close() error {
	r.rows = nil
	return nil
}

// Next decodes the next row into dest: int64, float64, string, []byte
// or nil per value.
func (r *rows) Next(dest []driver.Value) error {
	if r.next >= len(r.rows) {
		return io.EOF
	}
	row := r.rows[r.next]
	r.next++
	if len(row) != len(dest) {
		return &Error{Message: "a row's length differs from its columns'"}
	}
	for i, v := range row {
		d, err := v.decode()
		if err != nil {
			return err
		}
		dest[i] = d
	}
	return nil
}
