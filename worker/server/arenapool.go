package server

import (
	"container/list"
	"sync"

	store "arena/sql"
)

// DefaultMaxOpenArenas is how many arena databases stay open when
// Config.MaxOpenArenas is 0. A local arena database holds at most 11 file
// handles (the writer's database and WAL files, four readers' and the
// shared-memory file), so 64 of them fit under a limit of 1024 with room
// for connections.
const DefaultMaxOpenArenas = 64

// arenaPool keeps a bounded set of arena databases open. A database is
// closed only when it is the least recently used one beyond the bound and
// no caller holds it: a request never loses its database halfway. While
// more databases than the bound are held at once, the pool holds them all
// and shrinks back as they are released.
type arenaPool struct {
	open func(url, token string) (*store.DB, error)
	max  int

	mu      sync.Mutex
	entries map[string]*pooledDB // by database URL
	recent  list.List            // of *pooledDB, most recently used first
	closed  bool                 // Close was called: release closes what it frees
	// closing holds the URLs whose evicted database is being closed; a
	// channel closes when it is done. The same file is not opened again
	// meanwhile: SQLite checkpoints the WAL on close under an exclusive
	// lock, and a new connection setting WAL mode then fails at once.
	closing map[string]chan struct{}
	// opened holds, by URL of a database not open, a channel closed when
	// it is opened next (watch).
	opened map[string]chan struct{}
}

// victim is an evicted database to close outside the lock.
type victim struct {
	url  string
	db   *store.DB
	done chan struct{}
}

type pooledDB struct {
	url  string
	db   *store.DB
	refs int // callers holding db
	elem *list.Element
	gone chan struct{} // closed when db is evicted
}

func newArenaPool(open func(url, token string) (*store.DB, error), max int) *arenaPool {
	if max <= 0 {
		max = DefaultMaxOpenArenas
	}
	return &arenaPool{open: open, max: max, entries: map[string]*pooledDB{}, closing: map[string]chan struct{}{}, opened: map[string]chan struct{}{}}
}

// acquire returns the database at url, opened when it is not open yet,
// and the function that hands it back; call it exactly once, when done.
// Opening touches nothing (store.Open), so it runs under the lock.
func (p *arenaPool) acquire(url, token string) (*store.DB, func(), error) {
	p.mu.Lock()
	for {
		done, closing := p.closing[url]
		if !closing {
			break
		}
		p.mu.Unlock()
		<-done
		p.mu.Lock()
	}
	e, ok := p.entries[url]
	if !ok {
		db, err := p.open(url, token)
		if err != nil {
			p.mu.Unlock()
			return nil, nil, err
		}
		e = &pooledDB{url: url, db: db, gone: make(chan struct{})}
		e.elem = p.recent.PushFront(e)
		p.entries[url] = e
		if ch, ok := p.opened[url]; ok {
			close(ch)
			delete(p.opened, url)
		}
	} else {
		p.recent.MoveToFront(e.elem)
	}
	e.refs++
	victims := p.evictLocked()
	p.mu.Unlock()
	p.closeAll(victims)
	var once sync.Once
	return e.db, func() { once.Do(func() { p.release(e) }) }, nil
}

func (p *arenaPool) release(e *pooledDB) {
	p.mu.Lock()
	e.refs--
	victims := p.evictLocked()
	p.mu.Unlock()
	p.closeAll(victims)
}

// evictLocked removes the least recently used idle databases beyond the
// bound (all idle ones once the pool is closed) and returns them to be
// closed outside the lock, their URLs marked closing until then.
func (p *arenaPool) evictLocked() []victim {
	var victims []victim
	for el := p.recent.Back(); el != nil && (p.closed || len(p.entries) > p.max); {
		e := el.Value.(*pooledDB)
		el = el.Prev()
		if e.refs > 0 {
			continue
		}
		p.recent.Remove(e.elem)
		delete(p.entries, e.url)
		close(e.gone)
		v := victim{url: e.url, db: e.db, done: make(chan struct{})}
		p.closing[e.url] = v.done
		victims = append(victims, v)
	}
	return victims
}

// watch is what a follower of the database at url (a live feed) waits
// on between its reads, holding no reference to it: while the database
// is open, changed (closed after the next write made through it) and
// gone (closed when it is evicted: the follower then waits for the next
// opening); while it is not, opened (closed when it is opened next). Of
// changed and opened, one is nil.
func (p *arenaPool) watch(url string) (changed, gone, opened <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.entries[url]; ok {
		return e.db.Changed(), e.gone, nil
	}
	ch, ok := p.opened[url]
	if !ok {
		ch = make(chan struct{})
		p.opened[url] = ch
	}
	return nil, nil, ch
}

// openCount returns how many databases are open.
func (p *arenaPool) openCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.entries)
}

// close closes every idle database now and every held one when its last
// holder releases it.
func (p *arenaPool) close() {
	p.mu.Lock()
	p.closed = true
	victims := p.evictLocked()
	p.mu.Unlock()
	p.closeAll(victims)
}

// closeAll closes the evicted databases, then lets their URLs open again.
func (p *arenaPool) closeAll(victims []victim) {
	for _, v := range victims {
		_ = v.db.Close()
		p.mu.Lock()
		delete(p.closing, v.url)
		p.mu.Unlock()
		close(v.done)
	}
}
