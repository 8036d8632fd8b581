// Package platform verifies game-client tickets with the platform's ticket
// API (ISteamUserAuth/AuthenticateUserTicket), the core.TicketVerifier
// port of spec section 5.1. It uses plain net/http, so the same code runs
// natively and on Workers (GOOS=js GOARCH=wasm, Go's fetch transport).
package platform

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"arena/core"
)

// DefaultBaseURL is the platform's partner web API, used when
// Verifier.BaseURL is empty.
const DefaultBaseURL = "https://partner.steam-api.com"

// DefaultTimeout bounds one platform call (one AppID) when
// Verifier.Timeout is zero.
const DefaultTimeout = 5 * time.Second

// maxResponseBytes bounds how much of a platform answer is read; a real
// answer is a few hundred bytes.
const maxResponseBytes = 64 << 10

// authenticatePath is the ticket API's path under the base URL.
const authenticatePath = "/ISteamUserAuth/AuthenticateUserTicket/v1/"

// Verifier is the core.TicketVerifier for real and mock mode. The zero
// value is ready to use: DefaultBaseURL, http.DefaultClient and
// DefaultTimeout.
//
// Verify answers a *core.Error with one of two codes:
//
//   - core.TicketRefused (401 missing_ticket, reason invalid_ticket): the ticket cannot authenticate anyone:
//     a MOCK ticket in real mode, a non-MOCK ticket in mock mode, a
//     malformed ticket, an arena without accepted AppIDs, or the platform
//     refused the ticket for every accepted AppID (an "error" answer, a
//     result other than OK, a banned account, or family sharing, where
//     ownersteamid differs from steamid).
//   - core.CodePlatformUnavailable (503): the platform could not be asked
//     or its answer cannot be trusted either way: a transport error, a
//     timeout, ctx cancelled, an HTTP status other than 200, or a body that
//     is not the documented JSON. This includes 401 and 403: the platform
//     answers those when the arena's publisher key is wrong or lacks
//     access to the AppID, which is the operator's fault, not the
//     player's, so the player is not told the ticket is bad. Verify stops
//     at the first such failure; it never falls through to another AppID
//     and never accepts.
//
// Error messages never contain the publisher key or the ticket.
type Verifier struct {
	BaseURL string        // DefaultBaseURL unless testing
	Client  *http.Client  // http.DefaultClient when nil
	Timeout time.Duration // per platform call; DefaultTimeout when zero
}

var _ core.TicketVerifier = (*Verifier)(nil)

// authenticateResponse is the ticket API's answer: params on success,
// error when the ticket was refused.
type authenticateResponse struct {
	Response *struct {
		Params *struct {
			Result          string `json:"result"`
			SteamID         string `json:"steamid"`
			OwnerSteamID    string `json:"ownersteamid"`
			VACBanned       *bool  `json:"vacbanned"`
			PublisherBanned *bool  `json:"publisherbanned"`
		} `json:"params"`
		Error *struct {
			ErrorCode int    `json:"errorcode"`
			ErrorDesc string `json:"errordesc"`
		} `json:"error"`
	} `json:"response"`
}

// Verify returns the caller a ticket belongs to and the accepted AppID it
// was verified for.
//
// Mock mode (a.PublisherKey is empty) accepts only MOCK:<17 digits>
// tickets, without any request; the AppID is hint when it is accepted,
// else the primary. Real mode refuses MOCK tickets without any request
// and asks the platform once per AppID in core.AppIDOrder(a, hint) until
// one accepts; the caller's AppID is the one that accepted. Errors are
// described on Verifier.
func (v *Verifier) Verify(ctx context.Context, a *core.Arena, ticket, hint string) (core.Caller, error) {
	if len(a.AppIDs) == 0 {
		return core.Caller{}, core.TicketRefused("arena %s accepts no AppID", a.Slug)
	}
	if a.PublisherKey == "" {
		return verifyMock(a, ticket, hint)
	}
	if strings.HasPrefix(ticket, "MOCK:") {
		return core.Caller{}, core.TicketRefused("MOCK tickets are refused in real mode")
	}
	if !validTicket(ticket) {
		return core.Caller{}, core.TicketRefused("malformed ticket")
	}
	var refusals []string
	for _, appID := range core.AppIDOrder(a, hint) {
		caller, refusal, err := v.authenticate(ctx, a, ticket, appID)
		if err != nil {
			return core.Caller{}, err
		}
		if refusal == "" {
			return caller, nil
		}
		refusals = append(refusals, "appid "+appID+": "+refusal)
	}
	return core.Caller{}, core.TicketRefused("platform refused the ticket (%s)", redact(strings.Join(refusals, "; "), a.PublisherKey, ticket))
}

// verifyMock is Verify in mock mode.
func verifyMock(a *core.Arena, ticket, hint string) (core.Caller, error) {
	account, ok := core.MockTicketAccount(ticket)
	if !ok {
		return core.Caller{}, core.TicketRefused("mock mode accepts only MOCK tickets")
	}
	return core.Caller{PlatformID: account, AppID: core.AppIDOrder(a, hint)[0]}, nil
}

// authenticate asks the platform about ticket for one AppID. It returns
// the caller when the platform accepted, a non-empty refusal reason when
// it refused for this AppID, and a CodePlatformUnavailable error when it
// could not be asked or answered something unreadable.
func (v *Verifier) authenticate(ctx context.Context, a *core.Arena, ticket, appID string) (core.Caller, string, error) {
	timeout := v.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	base := v.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	query := url.Values{}
	query.Set("key", a.PublisherKey)
	query.Set("appid", appID)
	query.Set("ticket", ticket)
	if a.Identity != "" {
		query.Set("identity", a.Identity)
	}
	unavailable := func(format string, args ...any) error {
		msg := fmt.Sprintf(format, args...)
		return core.Errorf(core.CodePlatformUnavailable, "appid %s: %s", appID, redact(msg, a.PublisherKey, ticket))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+authenticatePath+"?"+query.Encode(), nil)
	if err != nil {
		// The message of a URL parse error quotes the URL, key included.
		return core.Caller{}, "", unavailable("invalid platform base URL")
	}
	req.Header.Set("Accept", "application/json")
	client := v.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return core.Caller{}, "", unavailable("%s", transportFailure(ctx, err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return core.Caller{}, "", unavailable("reading answer: %s", transportFailure(ctx, err))
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return core.Caller{}, "", unavailable("status %d: publisher key rejected", resp.StatusCode)
	case resp.StatusCode != http.StatusOK:
		return core.Caller{}, "", unavailable("status %d", resp.StatusCode)
	case len(body) > maxResponseBytes:
		return core.Caller{}, "", unavailable("answer larger than %d bytes", maxResponseBytes)
	}
	caller, refusal, err := readAnswer(body)
	if err != nil {
		return core.Caller{}, "", unavailable("%v", err)
	}
	if refusal != "" {
		return core.Caller{}, refusal, nil
	}
	caller.AppID = appID
	return caller, "", nil
}

// readAnswer interprets a 200 answer of the ticket API: the caller when
// the platform accepted, a refusal reason when it refused, an error when
// the answer is not the documented JSON.
func readAnswer(body []byte) (core.Caller, string, error) {
	var answer authenticateResponse
	if err := json.Unmarshal(body, &answer); err != nil || answer.Response == nil {
		return core.Caller{}, "", errors.New("unreadable answer")
	}
	if e := answer.Response.Error; e != nil {
		return core.Caller{}, fmt.Sprintf("error %d", e.ErrorCode), nil
	}
	p := answer.Response.Params
	if p == nil {
		return core.Caller{}, "", errors.New("answer has neither params nor error")
	}
	if p.Result != "OK" {
		return core.Caller{}, "result " + printable(p.Result), nil
	}
	// An OK answer without usable account ids or ban flags is not a
	// refusal of the ticket but an answer this code cannot read.
	if !core.ValidPlatformID(p.SteamID) || !core.ValidPlatformID(p.OwnerSteamID) || p.VACBanned == nil || p.PublisherBanned == nil {
		return core.Caller{}, "", errors.New("OK answer lacks steamid, ownersteamid or ban flags")
	}
	switch {
	case p.OwnerSteamID != p.SteamID:
		return core.Caller{}, "family sharing", nil
	case *p.VACBanned:
		return core.Caller{}, "VAC banned", nil
	case *p.PublisherBanned:
		return core.Caller{}, "publisher banned", nil
	}
	return core.Caller{PlatformID: p.SteamID}, "", nil
}

// transportFailure describes why a request failed. The *url.Error that
// net/http returns quotes the whole URL, publisher key and ticket
// included, so only its cause is used.
func transportFailure(ctx context.Context, err error) string {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "timed out"
	case errors.Is(ctx.Err(), context.Canceled):
		return "cancelled"
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err
	}
	return err.Error()
}

// redact removes secrets from msg, raw and query-escaped, as a last guard
// against a transport error that echoes the request.
func redact(msg string, secrets ...string) string {
	for _, s := range secrets {
		if s == "" {
			continue
		}
		msg = strings.ReplaceAll(msg, s, "[redacted]")
		if escaped := url.QueryEscape(s); escaped != s {
			msg = strings.ReplaceAll(msg, escaped, "[redacted]")
		}
	}
	return msg
}

// validTicket reports whether ticket is non-empty hex of at most
// core.MaxTicketLength characters (the shape the platform issues).
func validTicket(ticket string) bool {
	if ticket == "" || len(ticket) > core.MaxTicketLength {
		return false
	}
	for i := 0; i < len(ticket); i++ {
		c := ticket[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// printable quotes a platform-supplied string for an error message,
// bounded so a hostile answer cannot flood the logs.
func printable(s string) string {
	if len(s) > 32 {
		s = s[:32] + "..."
	}
	return fmt.Sprintf("%q", s)
}
