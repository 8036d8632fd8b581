// Package app is Arena's application layer: one Session per request,
// whose methods are the use cases. The JSON API (worker/server) and the
// website (worker/web) decode a request, call the session once, and
// render what it answers; neither reaches the store. The session hands
// its store to core's use cases, which declare the ports they need.
package app

import (
	"context"
	"io"
	"log/slog"
	"time"

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
	// Log is the request's logger (its request id), for what the use
	// cases warn about and go on.
	Log *slog.Logger
	// store is the arena's database: the one value the session hands to
	// core's use cases (it serves every port they declare).
	store *store.Arena
	// release hands the database back to the pool of open databases
	// before the request ends (Release).
	release func()
}

// NewSession is the session of one request (or one scheduled run) for
// arena a, over its open database st (released by release, which may be
// nil), at the instant now, drawing from random and warning on log. The
// arena's placement points are read from st when a use case first asks
// (only a tournament's completion does).
func NewSession(ctx context.Context, a *core.Arena, st *store.Arena, now time.Time, random io.Reader, log *slog.Logger, release func()) *Session {
	return &Session{Arena: a, store: st, Log: log, release: release,
		Deps: core.Deps{Now: now, Random: random, Points: PlacementPoints(ctx, st, log)}}
}

// RequestContext is ctx made ready for one request's session: the reads
// the request plans go with its first batch (store.Planning), and a
// database that does not answer one of its calls fails its later ones at
// once (store.FailFast), so the request answers within about one
// deadline.
func RequestContext(ctx context.Context) context.Context {
	return store.Planning(store.FailFast(ctx))
}

// Release hands the session's database back before the request ends (a
// held live stream); the session's use cases are not to be called after.
func (s *Session) Release() {
	if s.release != nil {
		s.release()
		s.release = nil
	}
	s.store = nil
}

// Unavailable reports whether err is the arena's database not answering
// (the request is to answer 503 and may be retried), as opposed to an
// answer that refused the request.
func Unavailable(err error) bool { return store.Unavailable(err) }
