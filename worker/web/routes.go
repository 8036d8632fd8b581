package web

// routes is the site's route table, one group per area. Pages are GET;
// every state-changing form goes through action (cross-site requests
// refused).
func (s *Site) routes() {
	s.publicRoutes()  // public.go: home, tournaments, matches, players, ladder
	s.titleRoutes()   // titles.go: the titles page and the players' title actions
	s.accountRoutes() // account.go: sign-in, sign-out, the players' actions
	s.adminRoutes()   // admin.go: the arena admin's pages
	s.streamRoutes()  // streams.go, social.go: channels, follows, casters, alerts
}
