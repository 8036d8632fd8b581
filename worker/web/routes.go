package web

// routes is the site's route table. Pages are GET; every state-changing
// form goes through action (cross-site requests refused).
func (s *Site) routes() {
	s.page("GET /{$}", s.home)
}
