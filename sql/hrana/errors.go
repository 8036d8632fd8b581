package hrana

import (
	"errors"
	"fmt"
	"strings"
)

// Error is an error the server reported for a statement (or a request of
// the pipeline): SQLite's message, such as "UNIQUE constraint failed:
// arenas.slug", and the server's code for it, such as "SQLITE_CONSTRAINT"
// (codes are not standardized across servers and may be empty).
type Error struct {
	Message string `json:"message"`
	Code    string `json:"code"`
}

func (e *Error) Error() string {
	if e.Code == "" {
		return "hrana: " + e.Message
	}
	return "hrana: " + e.Message + " (" + e.Code + ")"
}

// BatchError is the error of a Batch: the first of its statements that
// failed (Statement counts from 0 in the caller's list) and the server's
// error for it. Unwrap gives the *Error.
type BatchError struct {
	Statement int
	Err       *Error
}

func (e *BatchError) Error() string {
	return fmt.Sprintf("hrana: batch statement %d: %s", e.Statement+1, strings.TrimPrefix(e.Err.Error(), "hrana: "))
}

func (e *BatchError) Unwrap() error { return e.Err }

// HTTPError is an HTTP answer other than 200 from the server. Per the
// protocol the stream is no longer valid; whether a request that got one
// ran is the server's to say (Message), so the driver never repeats it.
// A 5xx answer is ErrUnavailable (errors.Is): the server, or a proxy
// before it, could not serve the request.
type HTTPError struct {
	Status  int
	Message string // the body's message, or the body itself, shortened
	Code    string // the body's code when it was a JSON error
}

func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("hrana: HTTP %d from the server", e.Status)
	if e.Message != "" {
		msg += ": " + e.Message
	}
	if e.Code != "" {
		msg += " (" + e.Code + ")"
	}
	return msg
}

// Is makes a 5xx answer ErrUnavailable.
func (e *HTTPError) Is(target error) bool {
	return target == ErrUnavailable && e.Status >= 500
}

// ErrUnavailable is wrapped by the error of every request the server did
// not answer: its deadline passed (the Connector's Timeout or the
// context's), the connection was refused or broke off, or the server
// answered 5xx. The request may have run (the driver never repeats it);
// a caller tells its client that the outcome is unknown and lets it
// retry. A statement the server refused (a constraint, a syntax error) is
// an *Error, never this.
var ErrUnavailable = errors.New("hrana: the server did not answer")

// ErrStreamLost is returned inside a transaction whose stream the server
// closed or let expire, or whose request failed on the way: the
// transaction is not committed (the server rolls back a closed stream's
// transaction), and the driver never continues it outside the stream.
var ErrStreamLost = errors.New("hrana: the transaction's stream is gone; nothing of the transaction was committed")

// ErrNoStreams is returned by BeginTx when the server keeps no streams (it
// answers without a baton, as tursodb's sync server does): an interactive
// transaction needs one. Batches, which are one request, work there.
var ErrNoStreams = errors.New("hrana: the server keeps no streams (it answers without a baton), so it cannot run an interactive transaction; use a batch")
