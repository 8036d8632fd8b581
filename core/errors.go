// Package core holds Arena's domain: arenas, tournaments, matches and the
// rules that govern them. It declares the ports it needs (stores, clock,
// randomness) and never imports an adapter, SQL or HTTP.
package core

import (
	"errors"
	"fmt"
)

// Error is a domain error carrying one of the service's wire codes
// (spec section 7). The HTTP layer maps Code to a status in one table.
type Error struct {
	Code    string // wire code, e.g. "arena_not_found"
	Message string // human detail; never shown for internal errors
	Field   string // the offending request field, when there is one
	// Reason refines Code where the spec fixes one code for several
	// causes (a refused ticket is still missing_ticket); shown beside it.
	Reason string
	// Index names the refused entry of a list request (a bulk
	// registration), from 0; nil otherwise.
	Index *int
	// format and args are what Message was written from, for a problem
	// with a person's input (Problems): Text writes it in their language.
	format string
	args   []any
}

// AtIndex returns err naming entry i of a list request when it is an
// *Error (a copy), else err.
func AtIndex(err error, i int) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	out := *e
	out.Index = &i
	return &out
}

func (e *Error) Error() string {
	if e.Message == "" {
		return e.Code
	}
	return e.Code + ": " + e.Message
}

// Errorf returns an *Error with code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// FieldError returns an *Error for one invalid request field.
func FieldError(code, field string) *Error {
	return &Error{Code: code, Field: field, Message: field}
}

// ErrorCode returns the code of err when it is (or wraps) an *Error,
// and CodeInternal otherwise.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// Wire codes shared across the service. Codes that belong to one rule live
// beside that rule, always in this package: the HTTP layer's one table
// gives each its status, and its test walks every Code constant declared
// here.
const (
	CodeInternal         = "internal"
	CodeNotFound         = "not_found"
	CodeArenaNotFound    = "arena_not_found"
	CodeUnauthorized     = "unauthorized"
	CodeInvalidJSON      = "invalid_json"
	CodeInvalidField     = "invalid_field"
	CodeUnknownField     = "unknown_field"
	CodeSlugTaken        = "slug_taken"
	CodeHostTaken        = "host_taken"
	CodeBodyTooLarge     = "body_too_large"
	CodeMethodNotAllowed = "method_not_allowed"
	CodeRateLimited      = "rate_limited"
	// CodeDatabaseUnavailable: the arena's or the directory's database did
	// not answer within its deadline (stalled, down, or failing with 5xx).
	// 503 with Retry-After; a write it interrupted may or may not have
	// been applied, and the client's retry is safe.
	CodeDatabaseUnavailable = "database_unavailable"
)
