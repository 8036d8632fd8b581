package web

func (s *Site) adminRoutes() {}
