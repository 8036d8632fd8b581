package libsqltest

import "syscall"

// Pause stops the server's process (SIGSTOP): connections and requests
// are taken by the kernel and never answered, as a stalled server's.
func (s *Server) Pause() { s.signal(syscall.SIGSTOP) }

// Resume continues a paused server (SIGCONT).
func (s *Server) Resume() { s.signal(syscall.SIGCONT) }

func (s *Server) signal(sig syscall.Signal) {
	s.tb.Helper()
	if err := s.proc.Signal(sig); err != nil {
		s.tb.Fatalf("libsqltest: signal %v: %v", sig, err)
	}
}
