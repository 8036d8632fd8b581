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
	core.CodeArenaNotFound:       http.StatusNotFound,
	core.CodeNotFound:            http.StatusNotFound,
	core.CodeUnauthorized:        http.StatusUnauthorized,
	core.CodeInvalidJSON:         http.StatusBadRequest,
	core.CodeInvalidField:        http.StatusUnprocessableEntity,
	codeUnknownField:             http.StatusUnprocessableEntity,
	core.CodeSlugTaken:           http.StatusConflict,
	core.CodeHostTaken:           http.StatusConflict,
	core.CodeBodyTooLarge:        http.StatusRequestEntityTooLarge,
	core.CodeMethodNotAllowed:    http.StatusMethodNotAllowed,
	core.CodeInvalidSteamID:      http.StatusBadRequest,
	codeDatabaseUnreachable:      http.StatusUnprocessableEntity,
	codeDatabaseURLRequired:      http.StatusUnprocessableEntity,
	codeProvisioningFailed:       http.StatusBadGateway,
	codeDatabaseInUse:            http.StatusConflict,
	codeRateLimited:              http.StatusTooManyRequests,
	core.CodeInvalidTransition:   http.StatusConflict,
	core.CodeMatchesUnresolved:   http.StatusConflict,
	core.CodeTooFewEntrants:      http.StatusConflict,
	core.CodeTournamentNotFound:  http.StatusNotFound,
	core.CodeTournamentFull:      http.StatusConflict,
	core.CodeRegistrationClosed:  http.StatusConflict,
	core.CodeAlreadyRegistered:   http.StatusConflict,
	core.CodeInvalidRoster:       http.StatusUnprocessableEntity,
	core.CodeSeasonNotFound:      http.StatusUnprocessableEntity,
	core.CodeMatchNotFound:       http.StatusNotFound,
	core.CodeAlreadyResolved:     http.StatusConflict,
	core.CodeInvalidWinner:       http.StatusUnprocessableEntity,
	core.CodePlayerNotFound:      http.StatusNotFound,
	core.CodeMissingTicket:       http.StatusUnauthorized,
	core.CodeInvalidTicket:       http.StatusUnauthorized,
	core.CodePlatformUnavailable: http.StatusServiceUnavailable,
	core.CodeNotParticipant:      http.StatusForbidden,
	core.CodeNotLive:             http.StatusConflict,
	core.CodeAlreadySubmitted:    http.StatusConflict,
	core.CodeUnsupportedProtocol: http.StatusUnprocessableEntity,
	core.CodeInvalidResult:       http.StatusUnprocessableEntity,
	core.CodeInvalidResultHash:   http.StatusUnprocessableEntity,
	core.CodeHashMismatch:        http.StatusUnprocessableEntity,
	core.CodeResultNotForMatch:   http.StatusUnprocessableEntity,
	core.CodeOpponentUndecided:   http.StatusConflict,
	core.CodePastReadyPhase:      http.StatusConflict,
	core.CodeWindowNotOpen:       http.StatusConflict,
	core.CodeWindowClosed:        http.StatusConflict,
	core.CodeInternal:            http.StatusInternalServerError,

	// Custom domains.
	core.CodeDomainNotFound:       http.StatusNotFound,
	core.CodeTooManyDomains:       http.StatusConflict,
	core.CodeDomainProviderFailed: http.StatusBadGateway,
}

// Wire codes of the HTTP layer.
const (
	codeUnknownField        = "unknown_field"
	codeDatabaseUnreachable = "database_unreachable"
	codeDatabaseURLRequired = "database_url_required"
	codeProvisioningFailed  = "provisioning_failed"
	codeDatabaseInUse       = "database_in_use"
	codeRateLimited         = "rate_limited"
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
