package store

import (
	"context"
	"sync"
)

// A request's plan: reads it will need whatever its route reads, keyed by
// the request's own inputs (the caller's session cookie), sent along with
// the first ReadAll the request makes on their database instead of in a
// round trip of their own (DESIGN.md "Round trips and placement"). A
// planned read that no ReadAll took is sent alone when its answer is
// first wanted, so a plan never costs more than reading eagerly did.

// plan is the planned reads of one request.
type plan struct {
	mu    sync.Mutex
	reads []*planned
	// writes counts the request's write batches on each database: a read
	// planned to follow a write is the write's answer only if no other
	// write came after it.
	writes map[*DB]int
}

// planned is one planned read on one database: its queries and what
// their rows fill.
type planned struct {
	plan  *plan
	db    *DB
	key   string
	reads []Read
	out   any
	sent  bool
	done  chan struct{}
	err   error
	// afterWrite: it goes with the request's next write batch, not with a
	// ReadAll (planAfterWrite); write is that batch's number.
	afterWrite bool
	write      int
}

type planKey struct{}

// Planning returns ctx with room for a request's planned reads. A
// request served under it may plan reads (Arena.PlanWebSession, ...);
// without it they are read when asked for.
func Planning(ctx context.Context) context.Context {
	if _, ok := ctx.Value(planKey{}).(*plan); ok {
		return ctx
	}
	return context.WithValue(ctx, planKey{}, &plan{})
}

// plan plans reads on db under ctx, filling out, unless the request
// planned the same key on db already: then it is that plan, with its own
// out. nil when ctx has no plan.
func (db *DB) plan(ctx context.Context, key string, out any, reads ...Read) *planned {
	p, _ := ctx.Value(planKey{}).(*plan)
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if i := p.find(db, key); i >= 0 {
		return p.reads[i]
	}
	r := &planned{plan: p, db: db, key: key, reads: reads, out: out, done: make(chan struct{})}
	p.reads = append(p.reads, r)
	return r
}

// takePlanned returns the reads planned on db under ctx that no ReadAll
// has sent yet, marking them sent.
func (db *DB) takePlanned(ctx context.Context) []*planned {
	p, _ := ctx.Value(planKey{}).(*plan)
	return p.take(db)
}

// take returns p's reads on db not sent yet, marking them sent.
func (p *plan) take(db *DB) []*planned {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []*planned
	for _, r := range p.reads {
		if r.db == db && !r.sent && !r.afterWrite {
			r.sent = true
			out = append(out, r)
		}
	}
	return out
}

// countWrite counts a write of the request on db that takes no planned
// reads along (one statement).
func (db *DB) countWrite(ctx context.Context) {
	if p, _ := ctx.Value(planKey{}).(*plan); p != nil {
		p.mu.Lock()
		p.wrote(db)
		p.mu.Unlock()
	}
}

// wrote counts a write on db and returns its number. The caller holds
// p.mu.
func (p *plan) wrote(db *DB) int {
	if p.writes == nil {
		p.writes = map[*DB]int{}
	}
	p.writes[db]++
	return p.writes[db]
}

// wrotePlanned counts a write batch of the request on db and returns the
// reads planned to follow it, marking them sent with it.
func (db *DB) wrotePlanned(ctx context.Context) []*planned {
	p, _ := ctx.Value(planKey{}).(*plan)
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	write := p.wrote(db)
	var out []*planned
	for _, r := range p.reads {
		if r.db == db && !r.sent && r.afterWrite {
			r.sent, r.write = true, write
			out = append(out, r)
		}
	}
	return out
}

// current reports whether r, sent with a write, is still the database as
// the request left it: no write of the request came after.
func (r *planned) current() bool {
	r.plan.mu.Lock()
	defer r.plan.mu.Unlock()
	return !r.afterWrite || !r.sent || r.write == r.plan.writes[r.db]
}

// settle ends the planned reads a ReadAll sent, with its error.
func settle(reads []*planned, err error) {
	for _, r := range reads {
		r.err = err
		close(r.done)
	}
}

// wait returns once the planned read's rows were handed over, sending it
// (with whatever else is planned on its database) if no ReadAll has.
func (r *planned) wait(ctx context.Context) error {
	p := r.plan
	p.mu.Lock()
	var ahead []*planned
	if !r.sent { // claimed before any ReadAll took it
		r.sent = true
		ahead = append(ahead, r)
	}
	p.mu.Unlock()
	ahead = append(ahead, p.take(r.db)...)
	if len(ahead) > 0 {
		if err := r.db.readAll(ctx, ahead, nil); err != nil {
			return err
		}
	}
	select {
	case <-r.done:
		return r.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// claim takes the read planned under key on db out of ctx's plan: the
// first to ask for a planned read gets it, a later ask reads afresh (the
// request may have written since). nil when none is planned.
func (db *DB) claim(ctx context.Context, key string) *planned {
	p, _ := ctx.Value(planKey{}).(*plan)
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	i := p.find(db, key)
	if i < 0 {
		return nil
	}
	r := p.reads[i]
	p.reads = append(p.reads[:i:i], p.reads[i+1:]...)
	return r
}

// find is the index of the read planned under key on db, or -1. The
// caller holds p.mu.
func (p *plan) find(db *DB, key string) int {
	for i, r := range p.reads {
		if r.db == db && r.key == key {
			return i
		}
	}
	return -1
}

// planAhead plans the reads build makes under key, to go with the
// request's first ReadAll; readPlanned under the same key then gets
// their value. A route plans what it will read before its first read
// (server's route planners).
func planAhead[T any](ctx context.Context, db *DB, key string, build func() (T, []Read)) {
	out, reads := build()
	db.plan(ctx, key, out, reads...)
}

// planAfterWrite plans the reads build makes under key to go with the
// request's next write batch, in its transaction, after its statements:
// what a write answers with, without a read after it. readPlanned under
// the same key then gets their value, if no later write of the request
// made them stale (then it reads afresh); with no write at all, it reads
// them when asked.
func planAfterWrite[T any](ctx context.Context, db *DB, key string, build func() (T, []Read)) {
	out, reads := build()
	if r := db.plan(ctx, key, out, reads...); r != nil {
		r.plan.mu.Lock()
		if !r.sent {
			r.afterWrite = true
		}
		r.plan.mu.Unlock()
	}
}

// readPlanned returns the value of the reads planned under key, if the
// request planned them (their rows then, sent with its first ReadAll),
// else reads build's reads now (with whatever else is planned).
func readPlanned[T any](ctx context.Context, db *DB, key string, build func() (T, []Read)) (T, error) {
	if r := db.claim(ctx, key); r != nil {
		err := r.wait(ctx)
		if err != nil || r.current() {
			return r.out.(T), err
		}
		// Another write of the request came after the one it followed:
		// read afresh.
	}
	out, reads := build()
	return out, db.ReadAll(ctx, reads...)
}

// rowsRead is a Read of every row of query, each scanned by scan (the
// store's scanMatchState, scanTitle, ...) into the list it fills: a list
// read in the form planAhead and readPlanned take.
func rowsRead[T any](query string, args []any, scan func(Scanner) (*T, error)) (*[]T, []Read) {
	var out []T
	return &out, []Read{{SQL: query, Args: args, Row: func(row Scanner) error {
		v, err := scan(row)
		if err == nil {
			out = append(out, *v)
		}
		return err
	}}}
}
