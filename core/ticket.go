package core

import (
	"context"
	"strings"
)

// Ticket errors (spec 5.1). missing_ticket is the only 401 of the
// ticket-authenticated endpoints (spec 7): a ticket the platform refuses
// is missing_ticket too, with ReasonInvalidTicket beside it.
const (
	CodeMissingTicket       = "missing_ticket"       // 401: no, malformed or refused ticket
	CodePlatformUnavailable = "platform_unavailable" // 503: the platform could not be asked
)

// ReasonInvalidTicket is the reason of a missing_ticket error whose ticket
// was well formed but cannot authenticate anyone.
const ReasonInvalidTicket = "invalid_ticket"

// TicketRefused returns the error for a well-formed ticket that
// authenticates nobody: missing_ticket, reason invalid_ticket.
func TicketRefused(format string, args ...any) *Error {
	e := Errorf(CodeMissingTicket, format, args...)
	e.Reason = ReasonInvalidTicket
	return e
}

// MaxTicketLength bounds a ticket's hex text (platform tickets are at most
// a few kilobytes).
const MaxTicketLength = 8192

var (
	ticketPattern     = LazyRegexp(`^[0-9A-Fa-f]+$`)
	mockTicketPattern = LazyRegexp(`^MOCK:(` + PlatformIDInputPattern + `)$`)
)

// ParsePlatformAuthorization returns the ticket of an
// "Authorization: Platform <ticket>" header value: hex, or MOCK:<17
// digits> (which only mock mode accepts). Anything else is
// CodeMissingTicket.
func ParsePlatformAuthorization(header string) (string, error) {
	ticket, ok := strings.CutPrefix(header, "Platform ")
	if !ok || ticket == "" || len(ticket) > MaxTicketLength {
		return "", Errorf(CodeMissingTicket, "no Platform ticket")
	}
	if !ticketPattern().MatchString(ticket) && !mockTicketPattern().MatchString(ticket) {
		return "", Errorf(CodeMissingTicket, "malformed ticket")
	}
	return ticket, nil
}

// MockTicketAccount returns the account id of a MOCK:<17 digits> ticket.
func MockTicketAccount(ticket string) (string, bool) {
	m := mockTicketPattern().FindStringSubmatch(ticket)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// Caller is a verified game client: the account the ticket belongs to and
// the accepted AppID it was verified for.
type Caller struct {
	PlatformID string
	AppID      string
}

// TicketVerifier verifies platform tickets for an arena. Real mode (the
// arena has a publisher key) asks the platform, trying each accepted AppID
// with hint first when hint is accepted; mock mode accepts only MOCK
// tickets, the AppID being hint when accepted, else the primary. Errors:
// TicketRefused (missing_ticket, reason invalid_ticket),
// CodePlatformUnavailable.
type TicketVerifier interface {
	Verify(ctx context.Context, a *Arena, ticket, hint string) (Caller, error)
}

// AppIDOrder returns the arena's accepted AppIDs with hint moved to the
// front when it is one of them; any other hint is ignored.
func AppIDOrder(a *Arena, hint string) []string {
	out := make([]string, 0, len(a.AppIDs))
	for _, id := range a.AppIDs {
		if id == hint {
			out = append(out, id)
		}
	}
	for _, id := range a.AppIDs {
		if id != hint {
			out = append(out, id)
		}
	}
	return out
}

// EnvironmentVisible is the environment gate (spec 5.1.6): with several
// accepted AppIDs, rec and beta tournaments are shown only to the primary
// AppID and demo tournaments only to the others. Single-AppID arenas see
// everything.
func EnvironmentVisible(a *Arena, appID string, env Environment) bool {
	if len(a.AppIDs) < 2 {
		return true
	}
	primary := appID == a.AppIDs[0]
	if env == EnvironmentDemo {
		return !primary
	}
	return primary
}
