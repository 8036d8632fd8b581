// Package hrana is a database/sql driver for libSQL servers (Turso, sqld,
// tursodb's sync server) over Hrana over HTTP, version 2: every call is a
// POST of a pipeline of requests to <base>/v2/pipeline, with JSON values
// typed null, integer (a decimal string), float, text or blob (base64).
//
// The driver never parses SQL. A statement's text goes to the server as
// it is, positional arguments as "args" and sql.Named arguments as
// "named_args" under the name the caller wrote (the server finds the
// prefix). A text holding several statements is the caller's to split:
// servers run only one statement per "execute" (sqld refuses more, some
// run only the first).
//
// Outside a transaction each statement is one request on a fresh stream,
// closed in the same request where the server keeps streams. Batch (on
// the driver's connection, reached through sql.Conn.Raw) runs statements
// atomically in one request. BeginTx opens an interactive transaction on
// one stream, carried from request to request by its baton: BEGIN rides
// with the first statement, COMMIT or ROLLBACK with the stream's close.
// A stream lost midway fails the transaction (ErrStreamLost); nothing is
// ever continued outside it.
//
// Requests go through the Connector's HTTP client (http.DefaultClient
// unless set), each built with its statement's context
// (http.NewRequestWithContext), so a program that replaces
// http.DefaultTransport (the Workers build's bridge) carries every
// request, and a transport that finds its request's work through the
// context finds it. A request that failed on the way is never sent
// again: it may have run.
package hrana

import (
	"context"
	"database/sql/driver"
	"fmt"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"
)

// Connector opens connections to one database. Build it with
// NewConnector and hand it to sql.OpenDB.
type Connector struct {
	// HTTP sends the requests; nil means http.DefaultClient, whose
	// transport is looked up on every request. Set it before the first
	// statement; the client is used as it is, never copied.
	HTTP *http.Client
	// Timeout bounds every request to the server (each statement, batch
	// or step of a transaction is one); 0 means no deadline but the
	// statement's context's. Set it before the first statement.
	Timeout time.Duration

	pipelineURL string // <base>/v2/pipeline
	redacted    string // the URL without credentials, for errors
	token       string // sent as Authorization: Bearer

	// streams records whether the server keeps streams between requests
	// (it answers a request that opened one with a baton): unknown until
	// the first answer.
	streams atomic.Int32
}

const (
	streamsUnknown int32 = iota
	streamsKept
	streamsNone
)

// NewConnector returns a connector for the database at rawURL:
// libsql://host (HTTPS; libsql://host:port?tls=0 for plain HTTP),
// https://host or http://host[:port][/path]. ws:// and wss:// URLs, the
// WebSocket flavour of the same servers, are reached over HTTP and HTTPS
// on the same host. token, when not empty, is sent as a bearer token; an
// authToken (or auth_token) query parameter is the token otherwise. Any
// other query parameter is refused, so a mistyped one is not ignored.
func NewConnector(rawURL, token string) (*Connector, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("hrana: invalid database URL: %w", err)
	}
	q := u.Query()
	tls := q.Get("tls")
	switch tls {
	case "", "0", "1":
	default:
		return nil, fmt.Errorf("hrana: tls must be 0 or 1, not %q", tls)
	}
	switch u.Scheme {
	case "libsql":
		u.Scheme = "https"
		if tls == "0" {
			u.Scheme = "http"
		}
	case "https", "wss":
		if tls == "0" {
			return nil, fmt.Errorf("hrana: a %s:// URL cannot turn TLS off (only libsql:// takes tls=0)", u.Scheme)
		}
		u.Scheme = "https"
	case "http", "ws":
		if tls == "1" {
			return nil, fmt.Errorf("hrana: a %s:// URL cannot turn TLS on (only libsql:// takes tls=1)", u.Scheme)
		}
		u.Scheme = "http"
	default:
		return nil, fmt.Errorf("hrana: unsupported database URL scheme %q (libsql, https, http, wss, ws)", u.Scheme)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("hrana: database URL %q has no host", u.Redacted())
	}
	if token == "" {
		token = q.Get("authToken")
		if token == "" {
			token = q.Get("auth_token")
		}
	}
	for name := range q {
		switch name {
		case "tls", "authToken", "auth_token":
		default:
			return nil, fmt.Errorf("hrana: unknown database URL parameter %q", name)
		}
	}
	u.RawQuery, u.Fragment, u.User = "", "", nil
	pipeline := u.JoinPath("v2", "pipeline")
	return &Connector{pipelineURL: pipeline.String(), redacted: u.String(), token: token}, nil
}

// Connect returns a connection; it sends nothing (the first statement
// does).
func (c *Connector) Connect(context.Context) (driver.Conn, error) {
	return &conn{c: c}, nil
}

// Driver returns the driver whose Open takes a database URL.
func (c *Connector) Driver() driver.Driver { return Driver{} }

// Driver opens a database URL (with its token as the authToken query
// parameter), for sql.Register; sql.OpenDB(NewConnector(...)) is the
// usual way.
type Driver struct{}

// Open returns a connection to the database at name (a URL NewConnector
// takes).
func (Driver) Open(name string) (driver.Conn, error) {
	c, err := NewConnector(name, "")
	if err != nil {
		return nil, err
	}
	return c.Connect(context.Background())
}

// OpenConnector returns a connector for the database at name.
func (Driver) OpenConnector(name string) (driver.Connector, error) {
	return NewConnector(name, "")
}
