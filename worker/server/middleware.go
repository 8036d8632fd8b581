package server

import (
	"context"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"arena/app"
	"arena/core"
)

type ctxKey int

const (
	loggerKey ctxKey = iota
	tenantKey
	bodyKey // the request's *watchedBody
)

// Tenant is the arena a request is for: its application session
// (app.Session), built once by the tenant middleware.
type Tenant = app.Session

// tenantHandler is a handler that runs for one arena.
type tenantHandler func(w http.ResponseWriter, r *http.Request, t *Tenant)

var requestIDPattern = core.LazyRegexp(`^[A-Za-z0-9._-]{1,64}$`)

// requestIDs hands out request ids: 16 hex digits, a random prefix drawn
// once per process (per isolate on the edge) and a counter, so ids are
// unique across restarts without reading randomness on every request.
type requestIDs struct {
	prefix [8]byte
	n      atomic.Uint32
}

func newRequestIDs(random io.Reader) *requestIDs {
	ids := &requestIDs{}
	var b [4]byte
	if random != nil {
		_, _ = io.ReadFull(random, b[:]) // a zero prefix on failure: ids stay unique in the process
	}
	hex.Encode(ids.prefix[:], b[:])
	return ids
}

func (ids *requestIDs) next() string {
	var b [16]byte
	copy(b[:8], ids.prefix[:])
	n := ids.n.Add(1)
	const digits = "0123456789abcdef"
	for i := 15; i >= 8; i-- {
		b[i] = digits[n&15]
		n >>= 4
	}
	return string(b[:])
}

// observe gives the request an id (the client's X-Request-Id or CF-Ray
// when well-formed, else the process's next one: requestIDs), logs one line when it ends
// (method, path without query, status, duration, arena, request id) and
// turns a panic into a logged 500. Nothing secret is logged: no headers,
// no query strings, no bodies.
func (s *Server) observe(w http.ResponseWriter, r *http.Request, next http.HandlerFunc) {
	start := time.Now() // wall time for the duration only; the service clock may be moved in dev mode
	id := r.Header.Get("X-Request-Id")
	if !requestIDPattern().MatchString(id) {
		id = r.Header.Get("Cf-Ray")
	}
	if !requestIDPattern().MatchString(id) {
		id = s.requestIDs.next()
	}
	w.Header().Set("X-Request-Id", id)
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	arena := &requestArena{}
	log := s.log.With(slog.String("request_id", id))
	ctx := context.WithValue(r.Context(), loggerKey, log)
	ctx = context.WithValue(ctx, tenantKey, arena)
	if body := watchBody(r); body != nil {
		ctx = context.WithValue(ctx, bodyKey, body)
	}
	r = r.WithContext(ctx)
	defer func() {
		if p := recover(); p != nil {
			log.ErrorContext(ctx, "panic", slog.String("panic", fmt.Sprint(p)))
			if !rec.wrote {
				writeJSON(rec, http.StatusInternalServerError, errorBody{Error: core.CodeInternal})
			}
		}
		log.InfoContext(ctx, "request",
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
			slog.Int("status", rec.status),
			slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
			slog.String("arena", arena.slug),
		)
	}()
	next(rec, r)
}

// requestArena carries the resolved arena's slug back to the log line.
type requestArena struct{ slug string }

type statusRecorder struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (r *statusRecorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.ResponseWriter.Write(b)
}

func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// logger returns the request's logger (with its request id).
func logger(ctx context.Context) *slog.Logger {
	if l, ok := ctx.Value(loggerKey).(*slog.Logger); ok {
		return l
	}
	return slog.Default()
}

// tenant resolves the arena from the Host header (port ignored,
// case-insensitive); an unknown host is 404 arena_not_found. The arena's
// database stays open until the handler returns. The handler gets the
// request's session (app.RequestContext: a database that does not answer
// fails the request within about one deadline; the reads it plans go
// with its first batch).
func (s *Server) tenant(next tenantHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := app.RequestContext(r.Context())
		r = r.WithContext(ctx)
		host := core.NormalizeHost(r.Host)
		var a *core.Arena
		var fresh time.Duration
		var refresh bool
		err := s.withDirectory(ctx, func() (err error) {
			a, fresh, refresh, err = s.dir.ArenaByHostFresh(ctx, host)
			return err
		})
		if err != nil {
			if core.ErrorCode(err) == core.CodeArenaNotFound {
				writeError(w, r, err)
			} else {
				s.failTenant(w, r, nil, err)
			}
			return
		}
		if refresh {
			// The lookup is within its bound but past half of it: read
			// again after this answer, so no request waits for it.
			defer s.afterAnswer(ctx, func(ctx context.Context) {
				err := s.withDirectory(ctx, func() error { return s.dir.RefreshHost(ctx, host) })
				if err != nil {
					s.log.Warn("host lookup refresh", "host", host, "error", err)
				}
			})
		}
		if ra, ok := ctx.Value(tenantKey).(*requestArena); ok {
			ra.slug = a.Slug
		}
		if s.cfg.FrontHints != nil {
			s.cfg.FrontHints.Tenant(ctx, a, fresh)
		}
		st, release, err := s.arenaDB(ctx, a)
		if err != nil {
			s.failTenant(w, r, &Tenant{Arena: a}, fmt.Errorf("arena %s database: %w", a.Slug, err))
			return
		}
		defer release()
		next(w, r, app.NewSession(ctx, a, st, s.now(), s.rand, logger(ctx), release))
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			s.kickWebhooks(a)
		}
	}
}

// bearer returns the token of an "Authorization: Bearer <token>" header.
func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	token, ok := strings.CutPrefix(h, "Bearer ")
	return token, ok && token != ""
}

// operator admits requests bearing the operator token, compared in
// constant time; without a configured token the operator API is closed.
func (s *Server) operator(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		token, ok := bearer(r)
		if !ok || s.cfg.OperatorToken == "" ||
			subtle.ConstantTimeCompare([]byte(token), []byte(s.cfg.OperatorToken)) != 1 {
			writeCode(w, r, core.CodeUnauthorized)
			return
		}
		next(w, r)
	}
}

// adminTokenID is the id of the admin token the request bears (admin
// checked it), or "".
func adminTokenID(r *http.Request) string {
	token, _ := bearer(r)
	id, _ := core.ParseToken(core.TokenAdmin, token)
	return id
}

// admin admits requests bearing one of this arena's unrevoked admin
// tokens. Another arena's token is unknown here and so refused. The
// route's planned reads (plans) go with the token's read; nothing the
// route does runs before the token is checked.
func (s *Server) admin(next tenantHandler, plans ...planner) tenantHandler {
	return func(w http.ResponseWriter, r *http.Request, t *Tenant) {
		token, _ := bearer(r)
		id, ok := core.ParseToken(core.TokenAdmin, token)
		if !ok {
			writeCode(w, r, core.CodeUnauthorized)
			return
		}
		for _, plan := range plans {
			plan(r, t)
		}
		rec, err := t.AdminToken(r.Context(), id)
		if err != nil {
			writeError(w, r, err)
			return
		}
		if !core.TokenMatches(token, rec.Hash) {
			writeCode(w, r, core.CodeUnauthorized)
			return
		}
		next(w, r, t)
	}
}
