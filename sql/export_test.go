package store

import "context"

// ReadBroken runs a ReadAll the database refuses (a table that does not
// exist), for the tests of what fails with it.
func (s *Arena) ReadBroken(ctx context.Context) error {
	return s.db.ReadAll(ctx, Read{SQL: "SELECT 1 FROM no_such_table", Row: func(Scanner) error { return nil }})
}

// ReadCount reads a count for a test.
func (s *Arena) ReadCount(ctx context.Context, query string, arg any, n *int) error {
	return s.db.queryRow(ctx, query, arg).Scan(n)
}
