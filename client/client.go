// Package client is the reference game client of the arena service
// (spec 4.4): it discovers the caller's upcoming and live matches, marks
// the caller ready, and submits results under the dual-attestation
// protocol svc.result.v3 (canonical JSON, SHA-256 over the exact bytes).
// It writes and submits game.replay.v1 recordings and near-live
// segments, fetches and shares them, and records svc.gameplay.v1 traces
// for the AI referee.
//
// The package uses the standard library only and builds for every
// platform Go supports, including GOOS=js GOARCH=wasm. Time, sleeping,
// tickets and HTTP are injected through Deps.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// ResultProtocol is the only result protocol this client speaks (spec 9).
const ResultProtocol = "svc.result.v3"

// DefaultHTTPTimeout bounds one request of the default HTTP client, so a
// stalled connection becomes a network failure (retried by Submit) instead
// of hanging the game.
const DefaultHTTPTimeout = 30 * time.Second

// maxResponseBytes bounds how much of an answer the client reads (a
// page of 1000 log events fits).
const maxResponseBytes = 8 << 20

// TicketSource yields platform web-API tickets: in a game, the platform
// SDK. The client asks for a new ticket before every request, including
// each retry, because tickets are single-use (spec 5.1).
type TicketSource interface {
	// Ticket returns a fresh ticket (hex), never reused. An error aborts
	// the request; it is not retried.
	Ticket(ctx context.Context) (string, error)
}

// TicketFunc adapts a function to TicketSource.
type TicketFunc func(ctx context.Context) (string, error)

// Ticket calls f.
func (f TicketFunc) Ticket(ctx context.Context) (string, error) { return f(ctx) }

// Clock returns the current time; endedAt is read from it.
type Clock func() time.Time

// Sleeper waits for d or until ctx is done, returning ctx.Err() in the
// latter case. Submit backoff and discovery polling wait through it.
type Sleeper func(ctx context.Context, d time.Duration) error

// SleepContext is the real Sleeper.
func SleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Deps are the client's outside-world dependencies. Nil fields get the
// real thing, except Tickets, which has no default.
type Deps struct {
	HTTP    *http.Client // nil: a client with DefaultHTTPTimeout
	Tickets TicketSource // required unless Settings.MockSteamID is set
	Now     Clock        // nil: time.Now
	Sleep   Sleeper      // nil: SleepContext
	// Logf receives the failures WaitForLiveMatch tolerates while
	// polling; nil discards them.
	Logf func(format string, args ...any)
}

// Client talks to one arena on behalf of the local player. It is safe for
// concurrent use.
type Client struct {
	settings Settings
	http     *http.Client
	tickets  TicketSource
	now      Clock
	sleep    Sleeper
	logf     func(format string, args ...any)
}

// New returns a Client for the normalized settings. It fails, wrapping
// ErrInvalidSettings, when Settings.Validate does, and with
// ErrNoTicketSource when the client is enabled with neither a MockSteamID
// nor deps.Tickets. A disabled client needs no BaseURL and no tickets.
func New(s Settings, deps Deps) (*Client, error) {
	s = s.Normalize()
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if s.Enabled && s.MockSteamID == "" && deps.Tickets == nil {
		return nil, ErrNoTicketSource
	}
	c := &Client{settings: s, http: deps.HTTP, tickets: deps.Tickets, now: deps.Now, sleep: deps.Sleep, logf: deps.Logf}
	if c.http == nil {
		c.http = &http.Client{Timeout: DefaultHTTPTimeout}
	}
	if c.now == nil {
		c.now = time.Now
	}
	if c.sleep == nil {
		c.sleep = SleepContext
	}
	if c.logf == nil {
		c.logf = func(string, ...any) {}
	}
	return c, nil
}

// Settings returns the normalized settings the client runs with.
func (c *Client) Settings() Settings { return c.settings }

// transportError marks a failure where no HTTP status was received
// ("status 0"): connection refused, reset, dropped mid-answer.
type transportError struct{ err error }

func (e *transportError) Error() string { return e.err.Error() }
func (e *transportError) Unwrap() error { return e.err }

// ticket returns the value of the Authorization header for one request.
func (c *Client) ticket(ctx context.Context) (string, error) {
	if c.settings.MockSteamID != "" {
		return "Platform MOCK:" + c.settings.MockSteamID, nil
	}
	t, err := c.tickets.Ticket(ctx)
	if err != nil {
		return "", fmt.Errorf("client: ticket: %w", err)
	}
	if t == "" || strings.ContainsAny(t, " \t\r\n") {
		return "", fmt.Errorf("client: ticket source returned a malformed ticket")
	}
	return "Platform " + t, nil
}

// send performs one request with a fresh ticket and returns the status and
// body. A ticket failure is returned as is; a transport failure, including
// an answer cut short, as *transportError.
func (c *Client) send(ctx context.Context, method, path string, body []byte) (int, []byte, error) {
	auth, err := c.ticket(ctx)
	if err != nil {
		return 0, nil, err
	}
	return c.do(ctx, method, path, body, auth)
}

// do performs one request with the Authorization header auth (none when
// empty: a public read).
func (c *Client) do(ctx context.Context, method, path string, body []byte, auth string) (int, []byte, error) {
	status, data, _, err := c.doHeader(ctx, method, path, body, auth)
	return status, data, err
}

// doHeader is do, also returning the answer's header.
func (c *Client) doHeader(ctx context.Context, method, path string, body []byte, auth string) (int, []byte, http.Header, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.settings.BaseURL+path, rd)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("client: %s %s: %w", method, path, err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.settings.AppID != "" {
		req.Header.Set("X-Platform-AppId", c.settings.AppID)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, nil, &transportError{fmt.Errorf("client: %s %s: %w", method, path, err)}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return 0, nil, nil, &transportError{fmt.Errorf("client: %s %s: reading answer: %w", method, path, err)}
	}
	return resp.StatusCode, data, resp.Header, nil
}

// call performs one request and decodes a 200 (or 201) answer into out.
// It returns found=false for 204, an *APIError for any other status, and
// ErrBadResponse when the body does not decode.
func (c *Client) call(ctx context.Context, method, path string, body []byte, out any) (found bool, err error) {
	status, data, err := c.send(ctx, method, path, body)
	if err != nil {
		return false, err
	}
	return decodeAnswer(method, path, status, data, out)
}

func decodeAnswer(method, path string, status int, data []byte, out any) (found bool, err error) {
	switch status {
	case http.StatusOK, http.StatusCreated:
		if err := json.Unmarshal(data, out); err != nil {
			return false, fmt.Errorf("%w: %s %s: %v", ErrBadResponse, method, path, err)
		}
		return true, nil
	case http.StatusNoContent:
		return false, nil
	default:
		return false, apiError(method, path, status, data)
	}
}

// apiError builds the *APIError of a non-success answer, reading the code
// of a `{ "error": "<code>" }` body when there is one.
func apiError(method, path string, status int, body []byte) *APIError {
	var e struct {
		Error string `json:"error"`
	}
	_ = json.Unmarshal(body, &e) // a body of another shape leaves Code empty
	return &APIError{Method: method, Path: path, Status: status, Code: e.Error}
}

// isTransport reports whether err is a status-0 failure.
func isTransport(err error) bool {
	var t *transportError
	return errors.As(err, &t)
}
