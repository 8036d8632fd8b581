package server

import (
	"net/http"

	"arena/core"
)

// handleEvents answers a page of the arena's event log (docs/events.md):
// ?after=<seq> (default 0; core.ParseSeq) and ?limit=<n> (1..1000, default 100); a bad
// value is invalid_field naming the parameter.
func (s *Server) handleEvents(r *http.Request, t *Tenant, _ bool) (any, error) {
	query := r.URL.Query()
	after, err := seqParam(query.Get("after"), "after")
	if err != nil {
		return nil, err
	}
	limit, err := queryInt(query.Get("limit"), core.EventLogDefaultLimit, 1, core.EventLogMaxLimit, "limit")
	if err != nil {
		return nil, err
	}
	return t.EventLog(r.Context(), after, int(limit))
}

// handleEventsHead answers the log's last event, signed with the arena's
// key.
func (s *Server) handleEventsHead(r *http.Request, t *Tenant, _ bool) (any, error) {
	return t.EventLogHead(r.Context())
}
