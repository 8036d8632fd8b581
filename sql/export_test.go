package store

import (
	"context"
	"database/sql"
)

// ReadBroken runs a ReadAll the database refuses (a table that does not
// exist), for the tests of what fails with it.
func (s *Arena) ReadBroken(ctx context.Context) error {
	return s.db.ReadAll(ctx, Read{SQL: "SELECT 1 FROM no_such_table", Row: func(Scanner) error { return nil }})
}

// ReadCount reads a count for a test.
func (s *Arena) ReadCount(ctx context.Context, query string, arg any, n *int) error {
	return s.db.queryRow(ctx, query, arg).Scan(n)
}

// PlanSettingAfterWrite plans Setting's read of key to follow the
// request's next write batch.
func (s *Arena) PlanSettingAfterWrite(ctx context.Context, key string) {
	planAfterWrite(ctx, s.db, "setting "+key, func() (*sql.NullString, []Read) { return settingRead(key) })
}

// SetSettingInBatch stores a setting's JSON value in a one-statement batch.
func (s *Arena) SetSettingInBatch(ctx context.Context, key, value string) error {
	return s.db.Batch(ctx, Stmt{SQL: q("set_setting"), Args: []any{sql.Named("key", key), sql.Named("value", value)}})
}
