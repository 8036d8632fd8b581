package server

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"

	"arena/core"
)

// statusByCode maps every wire error code to its HTTP status: the one
// place where domain errors meet HTTP.
var statusByCode = map[string]int{
	core.CodeArenaNotFound:    http.StatusNotFound,
	core.CodeNotFound:         http.StatusNotFound,
	core.CodeUnauthorized:     http.StatusUnauthorized,
	core.CodeInvalidJSON:      http.StatusBadRequest,
	core.CodeInvalidField:     http.StatusUnprocessableEntity,
	codeUnknownField:          http.StatusUnprocessableEntity,
	core.CodeSlugTaken:        http.StatusConflict,
	core.CodeHostTaken:        http.StatusConflict,
	core.CodeBodyTooLarge:     http.StatusRequestEntityTooLarge,
	core.CodeMethodNotAllowed: http.StatusMethodNotAllowed,
	codeInvalidSteamID:        http.StatusBadRequest,
	codeDatabaseUnreachable:   http.StatusUnprocessableEntity,
	codeDatabaseURLRequired:   http.StatusUnprocessableEntity,
	codeProvisioningFailed:    http.StatusBadGateway,
	codeDatabaseInUse:         http.StatusConflict,
	core.CodeInternal:         http.StatusInternalServerError,
}

// Wire codes of the HTTP layer.
const (
	codeUnknownField        = "unknown_field"
	codeInvalidSteamID      = "invalid_steam_id"
	codeDatabaseUnreachable = "database_unreachable"
	codeDatabaseURLRequired = "database_url_required"
	codeProvisioningFailed  = "provisioning_failed"
	codeDatabaseInUse       = "database_in_use"
)

// errorBody is the spec's error shape, plus the offending field when the
// error concerns one.
type errorBody struct {
	Error string `json:"error"`
	Field string `json:"field,omitempty"`
}

// writeJSON writes v as JSON with the status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// writeError answers err: a *core.Error with its code's status, anything
// else as 500 internal, logged with the request's context and never shown.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	var ce *core.Error
	if errors.As(err, &ce) && ce.Code != core.CodeInternal {
		status, ok := statusByCode[ce.Code]
		if !ok {
			status = http.StatusBadRequest
		}
		writeJSON(w, status, errorBody{Error: ce.Code, Field: ce.Field})
		return
	}
	logger(r.Context()).ErrorContext(r.Context(), "request failed", slog.String("error", err.Error()))
	writeJSON(w, http.StatusInternalServerError, errorBody{Error: core.CodeInternal})
}

// writeCode answers with a bare error code.
func writeCode(w http.ResponseWriter, r *http.Request, code string) {
	writeError(w, r, &core.Error{Code: code})
}
