package web

import (
	"net/http"
	"strings"

	"arena/app"
	"arena/worker/server"
)

// AddTestSummariesRoute adds POST /__test/summaries (form field ids,
// comma-separated) running the player-summary refresh for the request's
// arena, so the tests can drive it with any number of ids.
func (s *Site) AddTestSummariesRoute() {
	s.page("POST /__test/summaries", func(w http.ResponseWriter, r *http.Request, t *server.Tenant) {
		if err := r.ParseForm(); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if err := s.refreshSummaries(r.Context(), t, strings.Split(r.PostFormValue("ids"), ","), false); err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
}

// Test hooks for the account helpers.
var (
	SafeNext      = safeNext
	SiteAppID     = app.SiteAppID
	ParseKeyValue = parseKeyValueForm
)
