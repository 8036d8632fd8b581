// Package edge is the Workers build's request bridge: one Go instance,
// kept warm per isolate, serves every request of that isolate while each
// request's I/O runs on that request's own JavaScript side.
//
// workerd ties every outbound call (fetch, Cache API, R2, waitUntil) to the
// request whose handler made it; a promise resolved from another request's
// context is handed back to its owner, and a request whose own side has
// nothing pending is cancelled as hung. Go's scheduler, though, runs any
// runnable goroutine whenever any request calls into Go. So Go never calls
// an I/O API itself: a goroutine that needs I/O hands a Command to its
// request's JS side (found through the context), and blocks until that side
// delivers the Result. The JS side (js/worker.mjs) loops: ask Go for the
// next command, perform it, deliver the result, until the command is the
// answer. This file is the portable part of that exchange, tested natively;
// js_js.go binds it to syscall/js.
package edge

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync"
	"time"
)

// Command kinds: what a request's JS side is asked to do.
const (
	KindFetch     = "fetch"     // outbound HTTP (Fetch)
	KindRateLimit = "ratelimit" // the Workers rate-limiting binding (RateLimit)
	// KindR2 (r2.go): an R2 bucket binding (R2Op)
	KindRespond = "respond" // the request's answer (Response); the last command
)

// Command is one thing a request's JS side must do. Seq numbers the
// commands of one call; the answer has Seq 0.
type Command struct {
	ID        int64
	Seq       int64
	Kind      string
	Fetch     *Fetch
	RateLimit *RateLimit
	R2        *R2Op
	Response  *Response
}

// Fetch is an outbound HTTP request, made by the JS side with fetch()
// (redirects are returned, not followed: Go's client follows them).
type Fetch struct {
	Method string
	URL    string
	Header http.Header
	Body   []byte
	// TimeoutMs is how long the JS side lets the fetch run: what was left
	// of the outbound request's context's deadline (0: none). Go stops
	// waiting at the deadline by itself, but the request's JS side performs
	// one command at a time: a fetch it went on awaiting (a stalled
	// database) would hold the answer Go already has.
	TimeoutMs int64
}

// RateLimit asks a rate-limiting binding whether Key may make one more
// request in the binding's window.
type RateLimit struct {
	Binding string
	Key     string
}

// Response is the request's answer, plus what the JS side needs to know
// to serve later requests without Go.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	// Hints are facts about the request for the JS front (see hints.go).
	Hints map[string]string
	// Deferred are fetches Go made outside any request (a pooled database
	// connection closing its stream); the JS side sends them in waitUntil
	// and nobody reads their answers.
	Deferred []Fetch
}

// Result is what the JS side delivers for a command.
type Result struct {
	Status  int         // fetch: the HTTP status; r2: 200, or 404 for no object
	Header  http.Header // fetch: the response headers
	Body    []byte      // fetch: the response body; r2 get: the range's bytes
	Size    int64       // r2 head and get: the whole object's size
	Success bool        // ratelimit: within the limit
	Err     string      // the JS call failed
}

// ErrNoRequest is returned for I/O attempted outside any request; a fetch
// is then deferred to the next answer (Response.Deferred), unanswered.
var ErrNoRequest = errors.New("edge: I/O outside a request (deferred, unanswered)")

// maxDeferred bounds the fetches waiting for a request to carry them.
const maxDeferred = 64

// maxAfter bounds the jobs waiting for an "after" call (After).
const maxAfter = 64

// staleAfter is how long a call may wait for its JS side before the next
// request cancels it: its request was dropped by the runtime (client gone),
// so nobody will deliver its results. Checked on each new request; Go
// timers are never relied on (they fire only while some request runs Go).
const staleAfter = 2 * time.Minute

// Bridge keeps the calls in flight. It is safe for concurrent use.
type Bridge struct {
	now func() time.Time
	log func(msg string, args ...any)

	mu       sync.Mutex
	calls    map[int64]*call
	deferred []Fetch
	after    []func(context.Context) // After's jobs, for the next "after" call
}

// New returns an empty bridge. now is the wall clock (for stale calls);
// log reports recovered panics.
func New(now func() time.Time, log func(msg string, args ...any)) *Bridge {
	return &Bridge{now: now, log: log, calls: map[int64]*call{}}
}

// call is one request (or cron run) in flight.
type call struct {
	id      int64
	started time.Time
	cancel  context.CancelFunc
	hints   map[string]string
	// streams counts the caller's live streams (LiveHint.Streams), as
	// Hints.Caller named it; "" counts them by client IP.
	streams string

	opMu sync.Mutex // one command at a time per call

	mu      sync.Mutex
	seq     int64
	pending *Command              // the next command, not yet taken by JS
	waiter  func(Command)         // JS waiting for the next command
	replies map[int64]chan Result // by Seq
	done    bool                  // the answer is ready
}

type callKey struct{}

func callFrom(ctx context.Context) *call {
	c, _ := ctx.Value(callKey{}).(*call)
	return c
}

// Start begins call id (chosen by the JS side, unique among calls in
// flight) running serve in its own goroutine. A panic in serve answers
// 500. Calls whose JS side went quiet long ago are cancelled first.
func (b *Bridge) Start(id int64, serve func(ctx context.Context) Response) error {
	b.cancelStale()
	ctx, cancel := context.WithCancel(context.Background())
	c := &call{id: id, started: b.now(), cancel: cancel, hints: map[string]string{}, replies: map[int64]chan Result{}}
	b.mu.Lock()
	if _, dup := b.calls[id]; dup {
		b.mu.Unlock()
		cancel()
		return fmt.Errorf("edge: call %d is already in flight", id)
	}
	b.calls[id] = c
	b.mu.Unlock()
	ctx = context.WithValue(ctx, callKey{}, c)
	go func() {
		res := b.run(ctx, serve)
		cancel()
		b.mu.Lock()
		res.Deferred, b.deferred = b.deferred, nil
		b.mu.Unlock()
		c.mu.Lock()
		res.Hints = maps.Clone(c.hints)
		res.Hints[HintIO] = strconv.FormatInt(c.seq, 10)
		c.mu.Unlock()
		b.emit(c, Command{ID: id, Kind: KindRespond, Response: &res})
	}()
	return nil
}

// run calls serve, turning a panic into a 500 answer.
func (b *Bridge) run(ctx context.Context, serve func(ctx context.Context) Response) (res Response) {
	defer func() {
		if p := recover(); p != nil {
			b.log("edge: panic while serving", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			res = Response{
				Status: http.StatusInternalServerError,
				Header: http.Header{"Content-Type": {"application/json"}},
				Body:   []byte(`{"error":"internal"}` + "\n"),
			}
		}
	}()
	return serve(ctx)
}

// Next hands call id's next command to waiter, now or when there is one.
// An unknown id (answered already, or never started) gets a 500 answer.
func (b *Bridge) Next(id int64, waiter func(Command)) {
	b.mu.Lock()
	c := b.calls[id]
	b.mu.Unlock()
	if c == nil {
		waiter(Command{ID: id, Kind: KindRespond, Response: &Response{
			Status: http.StatusInternalServerError,
			Header: http.Header{"Content-Type": {"application/json"}},
			Body:   []byte(`{"error":"internal"}` + "\n"),
		}})
		return
	}
	c.mu.Lock()
	if cmd := c.pending; cmd != nil {
		c.pending = nil
		c.mu.Unlock()
		b.handOver(c, *cmd, waiter)
		return
	}
	c.waiter = waiter
	c.mu.Unlock()
}

// handOver gives cmd to the JS side; the answer also ends the call.
func (b *Bridge) handOver(c *call, cmd Command, waiter func(Command)) {
	if cmd.Kind == KindRespond {
		b.mu.Lock()
		delete(b.calls, c.id)
		b.mu.Unlock()
	}
	waiter(cmd)
}

// emit makes cmd the call's next command: handed to a waiting JS side at
// once, else kept until it asks.
func (b *Bridge) emit(c *call, cmd Command) {
	c.mu.Lock()
	if cmd.Kind == KindRespond {
		c.done = true
	}
	if w := c.waiter; w != nil {
		c.waiter = nil
		c.mu.Unlock()
		b.handOver(c, cmd, w)
		return
	}
	c.pending = &cmd
	c.mu.Unlock()
}

// cancelStale cancels calls older than staleAfter and forgets those whose
// answer nobody took.
func (b *Bridge) cancelStale() {
	limit := b.now().Add(-staleAfter)
	b.mu.Lock()
	defer b.mu.Unlock()
	for id, c := range b.calls {
		if !c.started.Before(limit) {
			continue
		}
		c.cancel()
		c.mu.Lock()
		if c.done {
			delete(b.calls, id)
		}
		c.mu.Unlock()
	}
}

// Deliver gives call id the result of its command seq. Results for
// commands that gave up waiting are dropped.
func (b *Bridge) Deliver(id, seq int64, r Result) {
	b.mu.Lock()
	c := b.calls[id]
	b.mu.Unlock()
	if c == nil {
		return
	}
	c.mu.Lock()
	ch := c.replies[seq]
	delete(c.replies, seq)
	c.mu.Unlock()
	if ch != nil {
		ch <- r // buffered: never blocks
	}
}

// Cancel cancels call id's context (its JS side gave up waiting).
func (b *Bridge) Cancel(id int64) {
	b.mu.Lock()
	c := b.calls[id]
	b.mu.Unlock()
	if c != nil {
		c.cancel()
	}
}

// InFlight returns how many calls have not handed over their answer.
func (b *Bridge) InFlight() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.calls)
}

// Hint records a fact about the request for the JS front (see hints.go);
// outside a request it does nothing.
func Hint(ctx context.Context, key, value string) {
	c := callFrom(ctx)
	if c == nil {
		return
	}
	c.mu.Lock()
	c.hints[key] = value
	c.mu.Unlock()
}

// Do has the JS side of ctx's request perform cmd and returns its result.
// Outside a request it returns ErrNoRequest (a fetch is deferred to the next
// answer); after the request was cancelled, the context's error.
func (b *Bridge) Do(ctx context.Context, cmd Command) (Result, error) {
	c := callFrom(ctx)
	if c == nil {
		if cmd.Kind == KindFetch {
			b.mu.Lock()
			if len(b.deferred) < maxDeferred {
				b.deferred = append(b.deferred, *cmd.Fetch)
			}
			b.mu.Unlock()
		}
		return Result{}, ErrNoRequest
	}
	c.opMu.Lock()
	defer c.opMu.Unlock()
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	reply := make(chan Result, 1)
	c.mu.Lock()
	if c.done {
		c.mu.Unlock()
		return Result{}, context.Canceled
	}
	c.seq++
	cmd.ID, cmd.Seq = c.id, c.seq
	c.replies[cmd.Seq] = reply
	c.mu.Unlock()
	b.emit(c, cmd)
	select {
	case r := <-reply:
		if r.Err != "" {
			return r, fmt.Errorf("edge: %s: %s", cmd.Kind, r.Err)
		}
		return r, nil
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.replies, cmd.Seq)
		if c.pending != nil && c.pending.Seq == cmd.Seq {
			c.pending = nil // not taken yet: JS never sees it
		}
		c.mu.Unlock()
		return Result{}, ctx.Err()
	}
}

// After queues job to run once the answer of ctx's call is handed over,
// in a call of its own: the answer's hint HintAfter asks the JS side
// (go-worker.mjs) for an "after" call (RunAfter), sent in waitUntil. It
// is server.Config.AfterAnswer on the edge. Outside a call, or with
// maxAfter jobs waiting already, job is dropped: work after an answer is
// only ever work the next request finds due again.
func (b *Bridge) After(ctx context.Context, job func(context.Context)) {
	if callFrom(ctx) == nil {
		return
	}
	b.mu.Lock()
	if len(b.after) >= maxAfter {
		b.mu.Unlock()
		return
	}
	b.after = append(b.after, job)
	b.mu.Unlock()
	Hint(ctx, HintAfter, "1")
}

// RunAfter begins call id running the jobs After queued (all of them,
// whichever answer asked for the call); it answers 204 once they are done.
func (b *Bridge) RunAfter(id int64) error {
	return b.Start(id, func(ctx context.Context) Response {
		b.mu.Lock()
		jobs := b.after
		b.after = nil
		b.mu.Unlock()
		for _, job := range jobs {
			job(ctx)
		}
		return Response{Status: http.StatusNoContent, Header: http.Header{}}
	})
}
