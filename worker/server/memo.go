package server

import (
	"strconv"
	"sync"
)

// Memo returns what build makes for key on the tenant's arena, kept in
// memory while the arena's data and settings stay unchanged: natively,
// where this process is its databases' only writer (Config.SoleWriter),
// a page's expensive part is built once per write. Elsewhere (the edge)
// build runs every time. The value is shared between requests: it must
// not be changed after build returns.
func (s *Server) Memo(t *Tenant, key string, build func() (any, error)) (any, error) {
	if s.memo == nil {
		return build()
	}
	key = t.Arena.Slug + "/" + strconv.FormatInt(t.Arena.UpdatedAt.UnixMilli(), 36) + "/" + key
	version := publicVersion{data: t.Store.DB().Version(), directory: s.cfg.Directory.Version()}
	if v, ok := s.memo.get(key, version); ok {
		return v, nil
	}
	v, err := build()
	if err != nil {
		return nil, err
	}
	s.memo.put(key, version, v)
	return v, nil
}

// memoCache keeps Memo's values, each with the data version it was built
// at.
type memoCache struct {
	mu      sync.Mutex
	entries map[string]memoEntry
}

type memoEntry struct {
	version publicVersion
	value   any
}

// maxMemoEntries bounds the cache; when full it starts over.
const maxMemoEntries = 1024

func (c *memoCache) get(key string, v publicVersion) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	return e.value, ok && e.version == v
}

func (c *memoCache) put(key string, v publicVersion, value any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= maxMemoEntries {
		c.entries = map[string]memoEntry{}
	}
	c.entries[key] = memoEntry{version: v, value: value}
}
