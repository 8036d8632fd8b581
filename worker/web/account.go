package web

func (s *Site) accountRoutes() {}
