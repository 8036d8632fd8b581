package store

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
)

// Group commit of a local database's batches.
//
// A local database has one writing connection, so concurrent batches
// queue for it. Instead of one transaction each, the batches waiting when
// the connection frees up run together in one transaction, each inside
// its own savepoint: a batch whose statement fails is rolled back to its
// savepoint alone (all or nothing, as before), the others stay, and one
// COMMIT makes them all durable at once. Each caller is told only its own
// batch's outcome; a failed COMMIT fails every batch of the group, none of
// which is then applied. A batch whose caller gave up before its turn does
// not run.
//
// There is no goroutine of its own: the first caller to find nobody
// committing leads, running one group; when more batches queued meanwhile,
// it hands the lead to the first of them and returns.

// maxGroup bounds the batches of one transaction, so a group's commit
// (and so each caller's wait) stays short.
const maxGroup = 64

// groupCommit is a local database's queue of batches.
type groupCommit struct {
	mu      sync.Mutex
	queue   []*pendingBatch
	leading bool

	// groups and batches count the transactions run and the batches they
	// carried (their ratio is the coalescing).
	groups, batches atomic.Uint64
}

// pendingBatch is one caller's batch waiting for its group.
type pendingBatch struct {
	ctx   context.Context
	stmts []Stmt
	sts   []*sql.Stmt // prepared on the writer; nil for a statement run as text
	// read, when set, runs after stmts in the same savepoint, its row
	// scanned into dest (BatchRead).
	read   *Stmt
	readSt *sql.Stmt
	dest   []any
	err    error
	// wake is signalled once: the batch is done (done true), or its caller
	// now leads the next group.
	wake chan struct{}
	done bool
}

// localBatch runs stmts as one all-or-nothing unit of a group
// transaction on the writer; read, when set, runs last in the same
// savepoint, its row scanned into dest.
func (db *DB) localBatch(ctx context.Context, stmts []Stmt, read *Stmt, dest []any) error {
	// Prepare before queueing: preparing needs the writer's connection too.
	sts := make([]*sql.Stmt, len(stmts))
	for i, s := range stmts {
		if len(s.Args) == 0 {
			continue // a migration's multi-statement text runs as it is
		}
		st, err := prepared(ctx, db.writer, &db.writeStmts, s.SQL)
		if err != nil {
			return err
		}
		sts[i] = st
	}
	b := &pendingBatch{ctx: ctx, stmts: stmts, sts: sts, read: read, dest: dest, wake: make(chan struct{}, 1)}
	if read != nil {
		st, err := prepared(ctx, db.writer, &db.writeStmts, read.SQL)
		if err != nil {
			return err
		}
		b.readSt = st
	}
	g := &db.group
	g.mu.Lock()
	g.queue = append(g.queue, b)
	if g.leading {
		g.mu.Unlock()
		<-b.wake
		if b.done {
			return b.err
		}
		g.mu.Lock() // promoted: b is first in the queue
	}
	g.leading = true
	n := min(len(g.queue), maxGroup)
	group := g.queue[:n:n]
	g.queue = g.queue[n:]
	g.mu.Unlock()

	db.commitGroup(group)

	g.mu.Lock()
	if len(g.queue) > 0 {
		next := g.queue[0]
		g.mu.Unlock()
		next.wake <- struct{}{} // next leads; g.leading stays true
	} else {
		g.leading = false
		g.mu.Unlock()
	}
	for _, p := range group {
		if p != b {
			p.done = true
			p.wake <- struct{}{}
		}
	}
	return b.err
}

// commitGroup runs the group's batches in one transaction, each in its
// own savepoint when there are several, and records each one's outcome.
func (db *DB) commitGroup(group []*pendingBatch) {
	// The transaction is the group's, not one caller's: a caller giving up
	// must not roll back the others. Each batch runs under its own context.
	db.group.groups.Add(1)
	db.group.batches.Add(uint64(len(group)))
	tx, err := db.writer.BeginTx(context.WithoutCancel(group[0].ctx), nil)
	if err != nil {
		for _, p := range group {
			p.err = err
		}
		return
	}
	savepoints := len(group) > 1
	var applied []*pendingBatch
	for _, p := range group {
		if p.err = p.ctx.Err(); p.err != nil {
			continue // its caller gave up before its turn: not run
		}
		if savepoints {
			if _, err := tx.ExecContext(context.WithoutCancel(p.ctx), "SAVEPOINT batch"); err != nil {
				p.err = err
				continue
			}
		}
		p.err = runBatch(tx, p)
		switch {
		case p.err != nil && savepoints:
			_, _ = tx.ExecContext(context.WithoutCancel(p.ctx), "ROLLBACK TO batch")
			_, _ = tx.ExecContext(context.WithoutCancel(p.ctx), "RELEASE batch")
		case p.err != nil:
			_ = tx.Rollback()
			return
		case savepoints:
			if _, err := tx.ExecContext(context.WithoutCancel(p.ctx), "RELEASE batch"); err != nil {
				p.err = err
				_, _ = tx.ExecContext(context.WithoutCancel(p.ctx), "ROLLBACK TO batch")
				continue
			}
		}
		if p.err == nil {
			applied = append(applied, p)
		}
	}
	if err := tx.Commit(); err != nil {
		for _, p := range applied {
			p.err = err
		}
	}
}

// runBatch executes one batch's statements inside the group transaction.
// Once started, a batch runs to its end: a cancelled context would
// interrupt the connection, whichever batch it is running by then.
func runBatch(tx *sql.Tx, p *pendingBatch) error {
	ctx := context.WithoutCancel(p.ctx)
	for i, s := range p.stmts {
		var err error
		if p.sts[i] == nil {
			_, err = tx.ExecContext(ctx, s.SQL)
		} else {
			_, err = tx.StmtContext(ctx, p.sts[i]).ExecContext(ctx, s.Args...)
		}
		if err != nil {
			return err
		}
	}
	if p.read != nil {
		return tx.StmtContext(ctx, p.readSt).QueryRowContext(ctx, p.read.Args...).Scan(p.dest...)
	}
	return nil
}
