package server

import "sync"

// versionedCache keeps values computed from an arena's data in a process
// that is the databases' only writer (the native server): each value is
// stored with the version of the data it was computed from (the arena
// database's write count, with the directory's where settings matter) and
// is good only while the caller presents that same version, so any write
// makes the arena's entries stale at once. It is bounded by a count and,
// when size is set, by bytes: when either would be exceeded it starts over
// (entries are cheap to rebuild; a full start over keeps the bookkeeping
// to one map).
type versionedCache[V comparable, E any] struct {
	maxEntries int
	maxBytes   int         // 0: no byte budget
	size       func(E) int // an entry's bytes, when maxBytes is set

	mu      sync.Mutex
	entries map[string]versioned[V, E]
	bytes   int
}

type versioned[V comparable, E any] struct {
	version V
	value   E
}

func newVersionedCache[V comparable, E any](maxEntries, maxBytes int, size func(E) int) *versionedCache[V, E] {
	return &versionedCache[V, E]{maxEntries: maxEntries, maxBytes: maxBytes, size: size,
		entries: map[string]versioned[V, E]{}}
}

// get returns key's value when it was stored at version v.
func (c *versionedCache[V, E]) get(key string, v V) (E, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || e.version != v {
		var zero E
		return zero, false
	}
	return e.value, true
}

// put stores key's value computed at version v. A value larger than the
// whole byte budget is not kept.
func (c *versionedCache[V, E]) put(key string, v V, value E) {
	n := 0
	if c.maxBytes > 0 {
		if n = c.size(value); n > c.maxBytes {
			return
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.entries[key]; ok && c.maxBytes > 0 {
		c.bytes -= c.size(old.value)
	}
	if len(c.entries) >= c.maxEntries || (c.maxBytes > 0 && c.bytes+n > c.maxBytes) {
		c.entries = map[string]versioned[V, E]{}
		c.bytes = 0
	}
	c.entries[key] = versioned[V, E]{version: v, value: value}
	c.bytes += n
}
