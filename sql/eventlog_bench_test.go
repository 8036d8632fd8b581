package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"arena/core"
	store "arena/sql"
)

// BenchmarkSealLog: the cost of sealing one submission's events, on a
// SQLite file whose log already holds 10,000 sealed events. Each op
// appends the 3 events of a decided match's submissions (two
// match.submission, one match.confirmed) and seals them, as the first
// read after them does. ns/op is the sealing cost per submission pair;
// the events' appending is outside the timer. Run on the commit before
// the tree (core.SealLog's signature is the same) for today's cost.
func BenchmarkSealLog(b *testing.B) {
	db := MustOpenDB(b, "file:"+filepath.Join(b.TempDir(), "bench.db"))
	mustMigrate(b, db, store.ArenaMigrations)
	st := store.NewArena(db)
	ctx := context.Background()
	appendN := func(n int) {
		stmts := make([]store.Stmt, n)
		for i := range stmts {
			stmts[i] = store.Stmt{SQL: `INSERT INTO event_log (at, type, data) VALUES (:at, 'match.submission', :data)`,
				Args: []any{sql.Named("at", t0.Format(time.RFC3339Nano)),
					sql.Named("data", fmt.Sprintf(`{"platformId":"76561198000000001","resultHash":"%064d","side":%d}`, i, i%2+1))}}
		}
		if err := db.Batch(ctx, stmts...); err != nil {
			b.Fatal(err)
		}
	}
	for range 20 {
		appendN(500)
	}
	if err := core.SealLog(ctx, st); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		appendN(3)
		b.StartTimer()
		if err := core.SealLog(ctx, st); err != nil {
			b.Fatal(err)
		}
	}
}
