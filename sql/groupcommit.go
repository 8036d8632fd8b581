package store

import (
	"context"
	"database/sql"
	"errors"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Group commit of a local database's batches, and the reads that go with
// them.
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
// Reads that want the writer's warm page cache (readOnWriter: the match a
// submission is about to write) queue the same way and run at the start
// of their group's transaction, before its batches: they see exactly what
// was committed, as a read of their own would, without a connection of
// their own to wait for.
//
// One goroutine runs the groups while anything is queued (drain), one
// after the other, so the writer never idles waiting for a woken caller
// to be scheduled to take the lead, and callers only wait for their own
// outcome (other writes and the checkpoint's finish take the writer
// between two groups). Before each group it lets the requests on their
// way join it (gather). It ends when the queue is empty; the next caller
// starts another.

// maxGroup bounds the batches and reads of one transaction, so a group's
// commit (and so each caller's wait) stays short.
const maxGroup = 64

// groupCommit is a local database's queue of batches and reads.
type groupCommit struct {
	mu       sync.Mutex
	queue    []*pendingBatch
	draining bool

	// groups and batches count the transactions run and the batches they
	// carried (their ratio is the coalescing); reads counts the reads.
	groups, batches, reads atomic.Uint64
}

// pendingBatch is one caller's batch (or read) waiting for its group.
type pendingBatch struct {
	ctx   context.Context
	stmts []Stmt
	sts   []*sql.Stmt // prepared on the writer; nil for a statement run as text
	// read, when set, runs after stmts in the same savepoint (BatchRead),
	// or alone before the group's batches when readOnly (readOnWriter); its
	// row goes to scan.
	read   *Stmt
	readSt *sql.Stmt
	scan   func(scanner) error
	// reads run after stmts in the same savepoint, each row to its Row
	// (the request's reads planned to follow its write: plan.go).
	reads    []Read
	readOnly bool
	noRow    bool // the BatchRead's read found no row: the batch stands, its caller hears sql.ErrNoRows
	err      error
	done     chan struct{} // closed when err is final
}

// localBatch runs stmts as one all-or-nothing unit of a group
// transaction on the writer; read, when set, runs last in the same
// savepoint, its row handed to scan.
func (db *DB) localBatch(ctx context.Context, stmts []Stmt, read *Stmt, scan func(scanner) error, reads []Read) error {
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
	b := &pendingBatch{ctx: ctx, stmts: stmts, sts: sts, read: read, reads: reads}
	if read != nil {
		st, err := prepared(ctx, db.writer, &db.writeStmts, read.SQL)
		if err != nil {
			return err
		}
		b.readSt = st
		b.scan = scan
	}
	return db.enqueue(b)
}

// localReadOnWriter runs a one-row read in the next group, before its
// batches (readOnWriter).
func (db *DB) localReadOnWriter(ctx context.Context, scan func(scanner) error, query string, args []any) error {
	st, err := prepared(ctx, db.writer, &db.writeStmts, query)
	if err != nil {
		return err
	}
	b := &pendingBatch{ctx: ctx, read: &Stmt{SQL: query, Args: args}, readSt: st, readOnly: true, scan: scan}
	return db.enqueue(b)
}

// enqueue queues b, starts the draining goroutine when none runs, and
// waits for b's outcome. When b's context ends while b still waits in
// the queue (its deadline: the writer is held too long), b is taken out,
// never to run, and the context's error returned. Once its group has
// taken it, b's outcome is awaited: the group runs on the local file and
// its statements run to their end (runBatch).
func (db *DB) enqueue(b *pendingBatch) error {
	b.done = make(chan struct{})
	g := &db.group
	g.mu.Lock()
	g.queue = append(g.queue, b)
	if !g.draining {
		g.draining = true
		go db.drain()
	}
	g.mu.Unlock()
	select {
	case <-b.done:
		return b.err
	case <-b.ctx.Done():
	}
	g.mu.Lock()
	if i := slices.Index(g.queue, b); i >= 0 {
		g.queue = slices.Delete(g.queue, i, i+1)
		g.mu.Unlock()
		return b.ctx.Err()
	}
	g.mu.Unlock()
	<-b.done
	return b.err
}

// drain runs groups until the queue is empty.
func (db *DB) drain() {
	g := &db.group
	for {
		db.gather()
		g.mu.Lock()
		if len(g.queue) == 0 {
			g.draining = false
			g.mu.Unlock()
			return
		}
		n := min(len(g.queue), maxGroup)
		group := g.queue[:n:n]
		g.queue = g.queue[n:]
		g.mu.Unlock()

		db.commitGroup(group)
		for _, p := range group {
			close(p.done)
		}
	}
}

// gather lets the requests already on their way join the next group
// while it is short (gatherWant): it yields the processor a few times
// (gatherYields), so the handlers it would otherwise keep waiting queue
// their reads and batches. A commit costs about the same for one batch as
// for many (the pages it writes are mostly shared), so fuller groups mean
// fewer commits; with nothing else to run, a yield returns at once.
func (db *DB) gather() {
	g := &db.group
	for range gatherYields {
		g.mu.Lock()
		n := len(g.queue)
		g.mu.Unlock()
		if n >= gatherWant {
			return
		}
		runtime.Gosched()
	}
}

const (
	gatherWant   = 8
	gatherYields = 4
)

// commitGroup runs the group's reads, then its batches in one
// transaction, each batch in its own savepoint when there are several,
// and records each one's outcome.
func (db *DB) commitGroup(group []*pendingBatch) {
	// The transaction is the group's, not one caller's: a caller giving up
	// must not roll back the others. Each batch runs under its own context.
	db.group.groups.Add(1)
	fail := func(err error) {
		for _, p := range group {
			p.err = err
		}
	}
	// The wait for the writer (held by a write, a migration, the
	// checkpoint's second pass) ends when every caller's deadline has: a
	// group that cannot start applies nothing.
	ctx := context.WithoutCancel(group[0].ctx)
	wait, cancel := ctx, context.CancelFunc(noDeadline)
	if last, ok := latestDeadline(group); ok {
		wait, cancel = context.WithDeadline(ctx, last)
	}
	conn, err := db.writer.Conn(wait)
	cancel()
	if err != nil {
		fail(err)
		return
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		fail(err)
		return
	}
	var batches []*pendingBatch
	for _, p := range group {
		if !p.readOnly {
			batches = append(batches, p)
			continue
		}
		db.group.reads.Add(1)
		if p.err = p.ctx.Err(); p.err == nil {
			ctx := context.WithoutCancel(p.ctx)
			p.err = p.scan(tx.StmtContext(ctx, p.readSt).QueryRowContext(ctx, p.read.Args...))
		}
	}
	db.group.batches.Add(uint64(len(batches)))
	savepoints := len(batches) > 1
	var applied []*pendingBatch
	for _, p := range batches {
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
	err = tx.Commit()
	for _, p := range applied {
		switch {
		case err != nil:
			p.err = err
		case p.noRow:
			p.err = sql.ErrNoRows
		}
	}
}

// latestDeadline is the last of the group's callers' deadlines; false
// when one of them has none.
func latestDeadline(group []*pendingBatch) (time.Time, bool) {
	var last time.Time
	for _, p := range group {
		d, ok := p.ctx.Deadline()
		if !ok {
			return time.Time{}, false
		}
		if d.After(last) {
			last = d
		}
	}
	return last, true
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
	for _, r := range p.reads {
		if err := eachRow(tx.QueryContext(ctx, r.SQL, r.Args...))(r.Row); err != nil {
			return err
		}
	}
	if p.read != nil {
		err := p.scan(tx.StmtContext(ctx, p.readSt).QueryRowContext(ctx, p.read.Args...))
		if errors.Is(err, sql.ErrNoRows) { // as a remote batch: what it did stands
			p.noRow = true
			return nil
		}
		return err
	}
	return nil
}
