package server

import (
	"context"
	"time"

	"arena/core"
	store "arena/sql"
)

// OpenArenaDatabases returns how many arena databases the server holds
// open (tests only).
func (s *Server) OpenArenaDatabases() int { return s.arenaDBs.openCount() }

// SetDemoStore wraps the store SeedDemo writes tournaments through (tests
// only; nil for none).
func (s *Server) SetDemoStore(wrap func(core.TournamentStore) core.TournamentStore) {
	s.demoStore = wrap
}

// SetLiveLimits changes the live streams' limits (tests only): the most
// streams a caller holds without and with an API key, and how long a
// write to a stream may wait.
func (s *Server) SetLiveLimits(anonymous, keyed int, writeTimeout time.Duration) {
	s.live.mu.Lock()
	defer s.live.mu.Unlock()
	s.live.maxAnonymous, s.live.maxKey, s.live.writeTimeout = anonymous, keyed, writeTimeout
}

// LiveEncodings counts the events the live streams encoded as SSE
// messages (tests only).
func (s *Server) LiveEncodings() int64 { return s.live.encoded.Load() }

// WebhookDialControl is the webhook sender's check of the address it
// connects to.
var WebhookDialControl = webhookDialControl

// ArenaStore is the open database of the arena with the slug, released
// by release (tests only: what a test sets up or checks behind the
// service's back).
func (s *Server) ArenaStore(ctx context.Context, slug string) (st *store.Arena, release func(), err error) {
	a, err := s.arenaBySlug(ctx, slug)
	if err != nil {
		return nil, nil, err
	}
	return s.arenaDB(ctx, a)
}
