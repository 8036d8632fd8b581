package server

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"

	"arena/app"
	"arena/core"
)

// statusByCode maps every wire error code to its HTTP status: the one
// place where domain errors meet HTTP, for the JSON API and the website
// alike (StatusOf). Every code is declared in core; TestEveryCoreCodeHasAStatus
// walks core's Code constants and fails on one missing here.
var statusByCode = map[string]int{
	// The service.
	core.CodeInternal:         http.StatusInternalServerError,
	core.CodeNotFound:         http.StatusNotFound,
	core.CodeArenaNotFound:    http.StatusNotFound,
	core.CodeUnauthorized:     http.StatusUnauthorized,
	core.CodeInvalidJSON:      http.StatusBadRequest,
	core.CodeInvalidField:     http.StatusUnprocessableEntity,
	core.CodeUnknownField:     http.StatusUnprocessableEntity,
	core.CodeSlugTaken:        http.StatusConflict,
	core.CodeHostTaken:        http.StatusConflict,
	core.CodeBodyTooLarge:     http.StatusRequestEntityTooLarge,
	core.CodeMethodNotAllowed: http.StatusMethodNotAllowed,
	core.CodeRateLimited:      http.StatusTooManyRequests,
	core.CodeTooManyStreams:   http.StatusTooManyRequests,
	core.CodeMatchNotDecided:  http.StatusNotFound,
	// With Retry-After: DatabaseRetryAfter.
	core.CodeDatabaseUnavailable: http.StatusServiceUnavailable,

	// Arenas and their databases.
	core.CodeDatabaseUnreachable: http.StatusUnprocessableEntity,
	core.CodeDatabaseURLRequired: http.StatusUnprocessableEntity,
	core.CodeProvisioningFailed:  http.StatusBadGateway,
	core.CodeDatabaseInUse:       http.StatusConflict,
	core.CodeLastAdmin:           http.StatusConflict,
	core.CodeLastAdminToken:      http.StatusConflict,
	core.CodeOperatorOnly:        http.StatusForbidden,
	core.CodeNameFromPlatform:    http.StatusForbidden,

	// Tournaments, registrations, lifecycle.
	core.CodeTournamentNotFound:   http.StatusNotFound,
	core.CodeSeasonNotFound:       http.StatusUnprocessableEntity,
	core.CodeInvalidTransition:    http.StatusConflict,
	core.CodeMatchesUnresolved:    http.StatusConflict,
	core.CodeTooFewEntrants:       http.StatusConflict,
	core.CodeUnpairable:           http.StatusConflict,
	core.CodeTournamentNotDraft:   http.StatusConflict,
	core.CodeSeedsLocked:          http.StatusConflict,
	core.CodeScheduleFixed:        http.StatusConflict,
	core.CodeTournamentOver:       http.StatusConflict,
	core.CodeInvalidSteamID:       http.StatusBadRequest,
	core.CodeTournamentFull:       http.StatusConflict,
	core.CodeRegistrationClosed:   http.StatusConflict,
	core.CodeAlreadyRegistered:    http.StatusConflict,
	core.CodeInvalidRoster:        http.StatusUnprocessableEntity,
	core.CodeNotRegistered:        http.StatusForbidden,
	core.CodeCheckInClosed:        http.StatusConflict,
	core.CodeTooManySubscriptions: http.StatusConflict,
	core.CodeTooManyDevices:       http.StatusConflict,
	core.CodeDiscordNotSet:        http.StatusConflict,
	core.CodeDiscordUnavailable:   http.StatusServiceUnavailable,
	core.CodeGameNotCurrent:       http.StatusConflict,
	core.CodeRoundNotFound:        http.StatusNotFound,
	core.CodeDownstreamStarted:    http.StatusConflict,
	core.CodeNotCaptain:           http.StatusForbidden,
	core.CodePlayerNotFound:       http.StatusNotFound,

	// Matches and the game-client protocol (spec 7).
	core.CodeMissingTicket:       http.StatusUnauthorized,
	core.CodePlatformUnavailable: http.StatusServiceUnavailable,
	core.CodeMatchNotFound:       http.StatusNotFound,
	core.CodeNotParticipant:      http.StatusForbidden,
	core.CodeAlreadyResolved:     http.StatusConflict,
	core.CodeNotLive:             http.StatusConflict,
	core.CodeAlreadySubmitted:    http.StatusConflict,
	core.CodeUnsupportedProtocol: http.StatusUnprocessableEntity,
	core.CodeInvalidResult:       http.StatusUnprocessableEntity,
	core.CodeInvalidResultHash:   http.StatusUnprocessableEntity,
	core.CodeHashMismatch:        http.StatusUnprocessableEntity,
	core.CodeResultNotForMatch:   http.StatusUnprocessableEntity,
	core.CodeInvalidWinner:       http.StatusUnprocessableEntity,
	core.CodeOpponentUndecided:   http.StatusConflict,
	core.CodePastReadyPhase:      http.StatusConflict,
	core.CodeWindowNotOpen:       http.StatusConflict,
	core.CodeWindowClosed:        http.StatusConflict,

	// Streams, casters (spec 4.3).
	core.CodeStreamNotLinked:      http.StatusConflict,
	core.CodeStreamLoginTaken:     http.StatusConflict,
	core.CodeInvalidLinkState:     http.StatusBadRequest,
	core.CodeStreamProviderFailed: http.StatusBadGateway,
	core.CodeSpectatorsNotAllowed: http.StatusConflict,
	core.CodeCastersFull:          http.StatusConflict,
	core.CodeCastOwnMatch:         http.StatusConflict,

	// Recordings, segments, gameplay traces and object storage.
	core.CodeRecordingNotFound:   http.StatusNotFound,
	core.CodeSegmentNotFound:     http.StatusNotFound,
	core.CodeNotUploader:         http.StatusForbidden,
	core.CodeRecordingPending:    http.StatusConflict,
	core.CodeRecordingEnded:      http.StatusConflict,
	core.CodeNotReleased:         http.StatusConflict,
	core.CodePlanSizeExceeded:    http.StatusPaymentRequired,
	core.CodeCasualQuotaExceeded: http.StatusTooManyRequests,
	core.CodeUploadMissing:       http.StatusUnprocessableEntity,
	core.CodeInvalidRecording:    http.StatusUnprocessableEntity,
	core.CodeHeaderMismatch:      http.StatusUnprocessableEntity,
	core.CodeRecordingTooLarge:   http.StatusRequestEntityTooLarge,
	core.CodeRefereeInactive:     http.StatusConflict,
	core.CodeInvalidTrace:        http.StatusUnprocessableEntity,
	core.CodeTraceNotForMatch:    http.StatusUnprocessableEntity,
	core.CodeInvalidSignature:    http.StatusForbidden,
	core.CodeURLExpired:          http.StatusForbidden,
	core.CodeStorageUnavailable:  http.StatusServiceUnavailable,
	core.CodeRecordingFinalized:  http.StatusConflict,

	// Players' result reports (the website).
	core.CodeReportPending:   http.StatusConflict,
	core.CodeClientResult:    http.StatusConflict,
	core.CodeNoPendingReport: http.StatusConflict,
	core.CodeOwnReport:       http.StatusForbidden,
	core.CodeInvalidScore:    http.StatusUnprocessableEntity,
	core.CodeNoReport:        http.StatusConflict,

	// Dev mode.
	core.CodeClockOverflow: http.StatusConflict,

	// Titles.
	core.CodeTitleNotFound:            http.StatusNotFound,
	core.CodeChallengeNotFound:        http.StatusNotFound,
	core.CodeNotHolder:                http.StatusForbidden,
	core.CodeTitleAlreadyHeld:         http.StatusConflict,
	core.CodeTitleVacantUseCoronation: http.StatusConflict,
	core.CodeChallengePending:         http.StatusConflict,
	core.CodeCannotChallengeSelf:      http.StatusConflict,
	core.CodeChallengeNotPending:      http.StatusConflict,
	core.CodeTitleClockExpired:        http.StatusConflict,
	core.CodeAlreadyVolunteered:       http.StatusConflict,
	core.CodeCoronationPending:        http.StatusConflict,
	core.CodeTitleRetired:             http.StatusConflict,

	// Custom domains.
	core.CodeDomainNotFound:       http.StatusNotFound,
	core.CodeTooManyDomains:       http.StatusConflict,
	core.CodeDomainProviderFailed: http.StatusBadGateway,
}

// StatusOf returns the HTTP status of a wire error code; an undeclared
// code (none exists: the table test sees to it) is a 500.
func StatusOf(code string) int {
	if status, ok := statusByCode[code]; ok {
		return status
	}
	return http.StatusInternalServerError
}

// errorBody is the spec's error shape, plus the offending field when the
// error concerns one.
type errorBody struct {
	Error  string `json:"error"`
	Field  string `json:"field,omitempty"`
	Reason string `json:"reason,omitempty"`
	Index  *int   `json:"index,omitempty"` // the refused entry of a list
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

// DatabaseRetryAfter is the Retry-After, in seconds, of 503
// database_unavailable, on the API and the site alike: long enough for a
// stalled or restarting database to come back, short enough that a game
// client retrying its submission is not kept waiting.
const DatabaseRetryAfter = "5"

// ErrorCode returns the wire code err answers with: a *core.Error's own
// code, database_unavailable when the database did not answer
// (app.Unavailable: a deadline ran out, the server refused or broke the
// connection, or answered 5xx), internal otherwise.
func ErrorCode(err error) string {
	var ce *core.Error
	if errors.As(err, &ce) {
		return ce.Code
	}
	if app.Unavailable(err) {
		return core.CodeDatabaseUnavailable
	}
	return core.CodeInternal
}

// SetRetryAfter sets the Retry-After header that goes with code, if any
// (rate_limited sets its own, from its window).
func SetRetryAfter(h http.Header, code string) {
	if code == core.CodeDatabaseUnavailable {
		h.Set("Retry-After", DatabaseRetryAfter)
	}
}

// writeError answers err: a *core.Error with its code's status, a
// database that did not answer as 503 database_unavailable (ErrorCode),
// anything else as 500 internal, logged with the request's context and
// never shown. When the request's body broke off (see watchedBody) a
// failure is the client's: 400 invalid_json, logged as information.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	var ce *core.Error
	if errors.As(err, &ce) && ce.Code != core.CodeInternal {
		if status, ok := statusByCode[ce.Code]; ok {
			SetRetryAfter(w.Header(), ce.Code)
			writeJSON(w, status, errorBody{Error: ce.Code, Field: ce.Field, Reason: ce.Reason, Index: ce.Index})
			return
		}
	}
	if body, ok := r.Context().Value(bodyKey).(*watchedBody); ok && body.err != nil {
		logger(r.Context()).InfoContext(r.Context(), "request body broke off", slog.String("error", body.err.Error()))
		writeCode(w, r, core.CodeInvalidJSON)
		return
	}
	if code := ErrorCode(err); code == core.CodeDatabaseUnavailable {
		logger(r.Context()).WarnContext(r.Context(), "database unavailable", slog.String("error", err.Error()))
		writeCode(w, r, code)
		return
	}
	logger(r.Context()).ErrorContext(r.Context(), "request failed", slog.String("error", err.Error()))
	writeJSON(w, http.StatusInternalServerError, errorBody{Error: core.CodeInternal})
}

// writeCode answers with a bare error code.
func writeCode(w http.ResponseWriter, r *http.Request, code string) {
	writeError(w, r, &core.Error{Code: code})
}

// WriteCode answers with a bare error code, as the handlers do: for the
// answers the edge's front gives on Go's behalf (edge.LiveHint).
func WriteCode(w http.ResponseWriter, r *http.Request, code string) { writeCode(w, r, code) }
