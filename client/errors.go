package client

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error the client returns wraps one of these, an
// *APIError, a context error, or a TicketSource/transport error.
var (
	// ErrDisabled is returned by every network call when Settings.Enabled
	// is false; nothing was sent.
	ErrDisabled = errors.New("client: disabled")
	// ErrInvalidSettings is wrapped by Settings.Validate and New.
	ErrInvalidSettings = errors.New("client: invalid settings")
	// ErrNoTicketSource is returned by New for an enabled client with
	// neither a MockSteamID nor a TicketSource.
	ErrNoTicketSource = errors.New("client: no ticket source and no mock account")
	// ErrAutoDiscoverOff is returned by WaitForLiveMatch when
	// Settings.AutoDiscover is false; the game calls LiveMatch itself.
	ErrAutoDiscoverOff = errors.New("client: auto-discovery is off")

	// ErrDraw is returned by Submit, before any request, when winner is
	// empty: the protocol has no draw, so nothing is submitted and the
	// match falls back to the manual report path (spec 3).
	ErrDraw = errors.New("client: draw, nothing submitted")
	// ErrNoLiveMatch is returned by Submit when the fresh discovery
	// answers 204: the caller has no live match to report on.
	ErrNoLiveMatch = errors.New("client: no live match")
	// ErrInvalidLiveMatch is returned by Submit when discovery returns a
	// match this client cannot report on (see LiveMatch.Valid).
	ErrInvalidLiveMatch = errors.New("client: live match is not valid")
	// ErrMatchMismatch is returned by SubmitJSON when the fresh discovery
	// returns another match than the one the game played; nothing was
	// posted.
	ErrMatchMismatch = errors.New("client: live match is not the match played")
	// ErrNotParticipant is returned by Submit when the local account is
	// not a player of the live match; nothing was posted.
	ErrNotParticipant = errors.New("client: local account is not a player of the live match")
	// ErrOpponentMismatch is the 1v1 anti-mixup guard of spec 2.1: the
	// opponent actually played is not the match's opponentPlatformId;
	// nothing was posted.
	ErrOpponentMismatch = errors.New("client: session opponent differs from the match opponent")
	// ErrWinnerNotOnSide is returned by Submit when the winner is on
	// neither side of the live match; nothing was posted.
	ErrWinnerNotOnSide = errors.New("client: winner is on neither side of the match")
	// ErrRetriesExhausted is wrapped, together with the last failure, when
	// every submit attempt failed with a network error or a 5xx.
	ErrRetriesExhausted = errors.New("client: submit attempts exhausted")
	// ErrBadResponse is returned when a 2xx answer cannot be decoded.
	ErrBadResponse = errors.New("client: malformed server response")
	// ErrLogInvalid is returned when the arena's event log or its signed
	// head does not verify (VerifyLog).
	ErrLogInvalid = errors.New("client: the event log does not verify")
)

// APIError is a non-success HTTP answer from the arena: the status and the
// code of the `{ "error": "<code>" }` body (spec 7). Code is empty when
// the body is not of that shape (e.g. a proxy's 502 page).
type APIError struct {
	Method string // "POST"
	Path   string // "/api/v1/matches/12/result"
	Status int    // HTTP status, e.g. 409
	Code   string // wire code, e.g. "already_submitted"
}

func (e *APIError) Error() string {
	code := e.Code
	if code == "" {
		code = "no error code"
	}
	return fmt.Sprintf("client: %s %s: %d %s", e.Method, e.Path, e.Status, code)
}

// Retryable reports whether the answer is a server failure (status >= 500)
// that Submit retries.
func (e *APIError) Retryable() bool { return e.Status >= 500 }
