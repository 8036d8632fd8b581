// Package app is Arena's application layer: one Session per request,
// whose methods are the use cases. The JSON API (worker/server) and the
// website (worker/web) decode a request, call the session once, and
// render what it answers; neither reaches the store. The session hands
// its store to core's use cases, which declare the ports they need.
package app

import (
	"arena/core"
	store "arena/sql"
)

// Session is one request's arena: the arena, its database, and what its
// use cases run with (Deps: the service clock read once for the request,
// the service's randomness, the arena's placement points). The tenant
// middleware builds it once per request.
type Session struct {
	Arena *core.Arena
	Deps  core.Deps
	// Store is the arena's database. It is being moved behind the
	// session's methods: new code calls those.
	Store *store.Arena
	// release hands the database back to the pool of open databases
	// before the request ends (Release).
	release func()
}

// NewSession is the session of one request for arena a, over its open
// database st (released by release, which may be nil).
func NewSession(a *core.Arena, st *store.Arena, deps core.Deps, release func()) *Session {
	return &Session{Arena: a, Store: st, Deps: deps, release: release}
}

// Release hands the session's database back before the request ends (a
// held live stream); the session's use cases are not to be called after.
func (s *Session) Release() {
	if s.release != nil {
		s.release()
		s.release = nil
	}
	s.Store = nil
}

// Unavailable reports whether err is the arena's database not answering
// (the request is to answer 503 and may be retried), as opposed to an
// answer that refused the request.
func Unavailable(err error) bool { return store.Unavailable(err) }
