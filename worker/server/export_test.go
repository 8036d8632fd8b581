package server

import "arena/core"

// OpenArenaDatabases returns how many arena databases the server holds
// open (tests only).
func (s *Server) OpenArenaDatabases() int { return s.arenaDBs.openCount() }

// SetDemoStore wraps the store SeedDemo writes tournaments through (tests
// only; nil for none).
func (s *Server) SetDemoStore(wrap func(core.TournamentStore) core.TournamentStore) {
	s.demoStore = wrap
}
