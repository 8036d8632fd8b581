package store

import (
	"context"
	"database/sql"
	"log/slog"
	"sync"
	"sync/atomic"
)

// Checkpoints of a local database, mostly off the writer.
//
// In WAL mode SQLite copies the log back into the database file
// (checkpoints) when a commit takes the log past 1000 pages, on the
// committing connection: a few milliseconds, every few hundred commits,
// that every write queued behind the writer waits for. The writer's
// automatic checkpoints are off instead (wal_autocheckpoint(0), set when
// the database is opened), and after every checkpointEvery writes a
// reading connection runs a PASSIVE checkpoint beside the writer, which
// goes on committing meanwhile.
//
// A checkpoint beside a writer cannot catch up with it: frames committed
// while it copies stay in the log, and SQLite starts the log over only
// when a write begins with every frame back in the database. So once one
// ends, a second one on the writer's own connection copies the frames
// committed meanwhile (a few hundred at most), queued for the writer like
// any write, after which the writer's next transaction starts the log
// over. A crash during either loses nothing (SQLite's checkpoints are
// crash-safe); the log the next open finds is replayed as before, and
// closing the last connection checkpoints as it always did (Close waits
// for a checkpoint under way).

// checkpointEvery is how many writes run between two checkpoints: a write
// dirties a handful of pages, so this keeps the log near SQLite's own
// 1000-page mark.
const checkpointEvery = 256

// checkpointer counts a local database's writes and runs its checkpoints.
type checkpointer struct {
	writes  atomic.Int64
	running atomic.Bool
	wg      sync.WaitGroup // the checkpoint running, which Close waits for
	// done counts the checkpoints run (tests read it).
	done atomic.Uint64
}

// wrote bumps Version after a write and, on a local database, starts a
// checkpoint every checkpointEvery writes (none while one runs).
func (db *DB) wrote() {
	db.version.Add(1)
	db.changed.fire()
	c := &db.ckpt
	if !db.Local || c.writes.Add(1) < checkpointEvery || !c.running.CompareAndSwap(false, true) {
		return
	}
	c.writes.Store(0)
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer c.running.Store(false)
		// Beside the writer, then the rest on it (it queues for the writer
		// like any write).
		for _, pool := range []*sql.DB{db.DB, db.writer} {
			if _, err := pool.ExecContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)"); err != nil {
				slog.Warn("store: checkpoint failed; the next one retries", "database", db.URL, "error", err.Error())
				return
			}
		}
		c.done.Add(1)
	}()
}
