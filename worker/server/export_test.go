package server

// OpenArenaDatabases returns how many arena databases the server holds
// open (tests only).
func (s *Server) OpenArenaDatabases() int { return s.arenaDBs.openCount() }
