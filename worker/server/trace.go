package server

import (
	"net/http"

	"arena/core"
)

// maxTraceBodyBytes caps a trace envelope's body: the trace string may
// grow sixfold with JSON escaping, plus the other fields.
const maxTraceBodyBytes = 6*core.MaxTraceBytes + 4096

// handleGameplayTrace takes a side's svc.gameplay.v1 trace (core.SubmitTrace)
// and answers how it compares with the other side's: agreement makes the
// match usable for training; the match's outcome never depends on it.
func (s *Server) handleGameplayTrace(w http.ResponseWriter, r *http.Request, t *Tenant, caller core.Caller) {
	st, err := matchStateFromPath(r, t)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var env core.TraceEnvelope
	if err := decodeJSONLimit(w, r, &env, maxTraceBodyBytes); err != nil {
		writeError(w, r, err)
		return
	}
	out, err := core.SubmitTrace(r.Context(), t.Store, t.Arena, st, caller, &env, s.now())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}
