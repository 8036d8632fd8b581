package server

import "crypto/subtle"

// apiKeys keeps what an arena's database says of its public-API keys in a
// process that is the databases' only writer (the native server), so a
// keyed public read touches no database while nothing changed: an entry
// is good while the arena database's write count is the one it was read
// at, so creating or revoking a key (a write) makes every entry of that
// arena stale at once. Entries are keyed by arena slug + "/" + key id.
type apiKeys = versionedCache[uint64, apiKeyEntry]

type apiKeyEntry struct {
	found bool
	hash  string
	// verified is the last token that matched hash: the same token again
	// is compared, not hashed again.
	verified string
}

// maxAPIKeyEntries bounds the cache.
const maxAPIKeyEntries = 8192

// sameToken compares a presented token with a verified one in constant
// time.
func sameToken(a, b string) bool {
	return len(a) == len(b) && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
