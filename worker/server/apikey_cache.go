package server

import (
	"crypto/subtle"
	"sync"
)

// apiKeyCache keeps what an arena's database says of its public-API keys
// in a process that is the databases' only writer (the native server), so
// a keyed public read touches no database while nothing changed: an entry
// is good while the arena database's write count is the one it was read
// at, so creating or revoking a key (a write) makes every entry of that
// arena stale at once.
type apiKeyCache struct {
	mu      sync.Mutex
	entries map[string]apiKeyEntry // by arena slug + "/" + key id
}

type apiKeyEntry struct {
	version uint64 // the arena database's Version when read
	found   bool
	hash    string
	// verified is the last token that matched hash: the same token again
	// is compared, not hashed again.
	verified string
}

// maxAPIKeyEntries bounds the cache; when full it starts over.
const maxAPIKeyEntries = 8192

func (c *apiKeyCache) get(key string, version uint64) (apiKeyEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	return e, ok && e.version == version
}

func (c *apiKeyCache) put(key string, e apiKeyEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= maxAPIKeyEntries {
		c.entries = map[string]apiKeyEntry{}
	}
	c.entries[key] = e
}

// sameToken compares a presented token with a verified one in constant
// time.
func sameToken(a, b string) bool {
	return len(a) == len(b) && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
