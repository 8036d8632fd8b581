package store_test

import (
	"context"
	"database/sql"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
)

// TestSealLogManySealers: many sealers racing over a long backlog (a
// crowd of live streams opening at once) all succeed, and the log is one
// chain: a sealer that finds its events sealed by another starts again
// from further on, which is progress, not a failure.
func TestSealLogManySealers(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		db := open()
		mustMigrate(t, db, store.ArenaMigrations)
		st := store.NewArena(db)
		ctx := context.Background()
		const events, sealers = 1500, 12
		stmts := make([]store.Stmt, events)
		for i := range stmts {
			stmts[i] = store.Stmt{SQL: `INSERT INTO event_log (at, type, data) VALUES (:at, 'match.live', '{}')`,
				Args: []any{sql.Named("at", t0.Format(time.RFC3339Nano))}}
		}
		require.NoError(t, db.Batch(ctx, stmts...))
		var wg sync.WaitGroup
		for range sealers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				assert.NoError(t, core.SealLog(ctx, st))
			}()
		}
		wg.Wait()
		var all []core.LogEvent
		for after := int64(0); ; {
			page, err := core.ReadEventLog(ctx, st, after, core.EventLogMaxLimit)
			require.NoError(t, err)
			all = append(all, page.Events...)
			if page.Next == nil {
				break
			}
			after = *page.Next
		}
		require.Len(t, all, events)
		assert.NoError(t, core.VerifyChain(0, core.GenesisHash, all))
	})
}
