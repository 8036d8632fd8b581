package web

import (
	"net/http"

	"arena/views"
	"arena/worker/server"
)

func (s *Site) publicRoutes() {
	s.page("GET /{$}", s.home)
}

// home is the arena's front page.
func (s *Site) home(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
	s.render(w, r, t, http.StatusOK, views.ErrorPage(s.layout(r, t, t.Arena.Name), http.StatusOK, "Welcome."))
}
