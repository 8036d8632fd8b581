package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"arena/app"
	"arena/core"
)

// Live streams (docs/events.md): GET /api/v1/live (the whole arena),
// /api/v1/tournaments/{slug}/live and /api/v1/matches/{id}/live answer
// text/event-stream with the event log's events, id = seq; a client
// resumes with Last-Event-ID (or ?after=) without a gap.
//
// Natively the server holds each stream. One feed per watched arena
// follows the log (it wakes on every write the process makes to the
// arena's database, and asks again every core.LiveRetry when other
// processes may write too) and hands each new event to the watchers
// whose filter shows it, so a thousand watchers cost one read of the
// log per change. A watcher first catches up from the log by itself, to
// the seq the feed stood at when it joined, then takes the feed's
// events.
//
// Where the runtime cannot hold a response (the edge: Config.LivePolled)
// each answer is one finite page (the events after the cursor, then a
// retry field) and the front holds the stream, asking again every
// core.LiveRetry for the page after the one it passed on (docs/edge.md).
// Those later pages are the front's own requests (LiveFollowUp): the
// stream was counted against the read limits, and told the retry field,
// when it opened.

type liveFollowUpKey struct{}

// LiveFollowUp marks ctx as the front's request for the next page of a
// stream it holds (Config.LivePolled): not counted against the read
// limits, no retry field. Only the runtime's own code can mark a request
// so, never a client.
func LiveFollowUp(ctx context.Context) context.Context {
	return context.WithValue(ctx, liveFollowUpKey{}, true)
}

func liveFollowUp(ctx context.Context) bool {
	follow, _ := ctx.Value(liveFollowUpKey{}).(bool)
	return follow
}

// liveRoute registers a live stream. Like a public read it takes an API
// key and counts against the read limits, once per connection.
func (s *Server) liveRoute(pattern string, filter func(r *http.Request, t *Tenant) (core.LiveFilter, error)) {
	s.public = append(s.public, pattern)
	s.mux.HandleFunc(pattern, s.tenant(func(w http.ResponseWriter, r *http.Request, t *Tenant) {
		follow := s.cfg.LivePolled && liveFollowUp(r.Context())
		keyID, ok := s.admitPublic(w, r, t, !follow)
		if !ok {
			return
		}
		f, err := filter(r, t)
		if err != nil {
			liveFailed(w, r, err)
			return
		}
		c, err := liveCursor(r)
		if err != nil {
			writeError(w, r, err)
			return
		}
		if s.cfg.LivePolled {
			s.livePage(w, r, t, f, c, follow)
			return
		}
		s.liveHold(w, r, t, f, c, keyID)
	}))
}

// liveFailed answers a stream that could not start, unless the client
// left meanwhile (then the failure is the canceled request's: logged as
// the client leaving, never answered as an error).
func liveFailed(w http.ResponseWriter, r *http.Request, err error) {
	ctx := r.Context()
	if ctx.Err() != nil {
		logger(ctx).InfoContext(ctx, "client left", slog.String("error", err.Error()))
		return
	}
	writeError(w, r, err)
}

// streamCursor is where a stream resumes: after seq after, or from now;
// field names the field it came in (Last-Event-ID or after).
type streamCursor struct {
	after   int64
	fromNow bool
	field   string
}

// ahead is the refusal of a cursor beyond the log's last event.
func (c streamCursor) ahead() error { return core.FieldError(core.CodeInvalidField, c.field) }

// liveCursor reads where a stream resumes: Last-Event-ID when the client
// sent one (EventSource does when it reconnects), else ?after=; neither
// means from now. A value that is not a seq (core.ParseSeq) is
// invalid_field naming it; one beyond the log's last event is refused
// when the log is read (streamCursor.ahead).
func liveCursor(r *http.Request) (streamCursor, error) {
	c := streamCursor{field: "Last-Event-ID"}
	raw := r.Header.Get(c.field)
	if raw == "" {
		c.field, raw = "after", r.URL.Query().Get("after")
	}
	if raw == "" {
		c.fromNow = true
		return c, nil
	}
	after, err := seqParam(raw, c.field)
	c.after = after
	return c, err
}

// seqParam reads a cursor into the log (core.ParseSeq) given in field
// name; "" is 0.
func seqParam(raw, name string) (int64, error) {
	if raw == "" {
		return 0, nil
	}
	seq, ok := core.ParseSeq(raw)
	if !ok {
		return 0, core.FieldError(core.CodeInvalidField, name)
	}
	return seq, nil
}

// tournamentLive is the filter of a tournament's stream: a tournament the
// public can see (drafts are not found).
func tournamentLive(r *http.Request, t *Tenant) (core.LiveFilter, error) {
	tour, err := t.PublicTournament(r.Context(), r.PathValue("slug"))
	if err != nil {
		return core.LiveFilter{}, err
	}
	return core.LiveFilter{Tournament: tour.Slug}, nil
}

// matchLive is the filter of a match's stream.
func matchLive(r *http.Request, t *Tenant) (core.LiveFilter, error) {
	id, err := core.ParseMatchID(r.PathValue("id"))
	if err != nil {
		return core.LiveFilter{}, err
	}
	if _, err := t.PublicMatch(r.Context(), id); err != nil {
		return core.LiveFilter{}, err
	}
	return core.LiveFilter{MatchID: id}, nil
}

// arenaLive is the whole arena's stream.
func arenaLive(*http.Request, *Tenant) (core.LiveFilter, error) { return core.LiveFilter{}, nil }

// liveHeaders starts an event stream's answer.
func liveHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Accel-Buffering", "no")
}

// livePage answers one finite page of a stream: the events after the
// cursor (from now: none), then the retry field (not on a follow-up page:
// the client was told it).
func (s *Server) livePage(w http.ResponseWriter, r *http.Request, t *Tenant, f core.LiveFilter, c streamCursor, follow bool) {
	var events []core.LogEvent
	last, err := c.after, error(nil)
	if c.fromNow {
		last, err = t.LogSeq(r.Context())
	} else {
		events, last, _, err = t.LiveEvents(r.Context(), c.after, f)
	}
	if errors.Is(err, core.ErrLiveCursorAhead) {
		err = c.ahead()
	}
	if err != nil {
		liveFailed(w, r, err)
		return
	}
	var body []byte
	for _, e := range events {
		msg, err := core.LiveMessage(e)
		if err != nil {
			writeError(w, r, err)
			return
		}
		body = append(body, msg...)
	}
	if !follow {
		body = append(body, core.LiveRetryField()...)
	}
	liveHeaders(w)
	if s.cfg.FrontHints != nil {
		s.cfg.FrontHints.Live(r.Context(), last)
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// liveCaller is whom a held stream counts against: its API key's bucket
// in its arena (keys are an arena's), else its client IP's, across every
// arena the process serves (the process's connections are what the
// limit keeps).
func liveCaller(a *core.Arena, keyID, ip string) string {
	if keyID != "" {
		return a.Slug + "/" + RateBucket(keyID, "")
	}
	return RateBucket("", ip)
}

// liveHold holds a stream open: the catch-up from the log, then the
// feed's events, a comment after each core.LiveKeepAlive of silence.
// It ends when the client goes, the server shuts down, a write waits
// core.LiveWriteTimeout (the client does not read), or the watcher falls
// core.LiveBacklog events behind (the client then resumes). The caller
// holds at most core.LiveMaxStreamsAnonymous or core.LiveMaxStreamsKey
// streams at once; the stream holds no database between its reads.
func (s *Server) liveHold(w http.ResponseWriter, r *http.Request, t *Tenant, f core.LiveFilter, c streamCursor, keyID string) {
	ctx := r.Context()
	a := t.Arena
	free, ok := s.live.take(liveCaller(a, keyID, s.clientIP(r)), keyID != "")
	if !ok {
		writeCode(w, r, core.CodeTooManyStreams)
		return
	}
	defer free()
	t.Release()
	watcher, joined, err := s.live.join(ctx, s, a, f)
	if err != nil {
		liveFailed(w, r, err)
		return
	}
	defer s.live.leave(a.Slug, watcher)
	after := c.after
	if c.fromNow {
		after = joined
	} else if after > joined {
		// The feed may not have read the newest events yet: the log says.
		var end int64
		err := s.withSession(ctx, a, func(t *app.Session) (err error) {
			end, err = t.LogSeq(ctx)
			return err
		})
		if err == nil && after > end {
			err = c.ahead()
		}
		if err != nil {
			liveFailed(w, r, err)
			return
		}
	}
	out := liveOut{w: w, rc: http.NewResponseController(w), timeout: s.live.timeout()}
	liveHeaders(w)
	w.WriteHeader(http.StatusOK)
	if !out.write(core.LiveRetryField()) {
		return
	}
	// Catch up from the log to where the feed stood when this joined.
	for after < joined {
		var events []core.LogEvent
		var last int64
		err := s.withSession(ctx, a, func(t *app.Session) (err error) {
			events, last, _, err = t.LiveEvents(ctx, after, f)
			return err
		})
		if err != nil || last == after {
			return // the client resumes from after
		}
		var msgs [][]byte
		for _, e := range events {
			if e.Seq > joined {
				break
			}
			msg, err := s.live.message(e)
			if err != nil {
				return
			}
			msgs = append(msgs, msg)
		}
		if !out.write(msgs...) {
			return
		}
		after = min(last, joined)
	}
	quiet := time.NewTimer(core.LiveKeepAlive)
	defer quiet.Stop()
	for {
		select {
		case <-watcher.wake:
			queued, dropped := watcher.take()
			if dropped {
				return
			}
			msgs := make([][]byte, 0, len(queued))
			for _, m := range queued {
				if m.seq > after {
					msgs = append(msgs, m.bytes)
					after = m.seq
				}
			}
			if !out.write(msgs...) {
				return
			}
			quiet.Reset(core.LiveKeepAlive)
		case <-quiet.C:
			if !out.write(liveComment) {
				return
			}
			quiet.Reset(core.LiveKeepAlive)
		case <-ctx.Done():
			return
		case <-s.live.closing:
			return
		}
	}
}

// liveComment is the comment a quiet stream sends.
var liveComment = []byte(":\n\n")

// liveOut writes to a held stream, each write bounded by timeout.
type liveOut struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

// write writes msgs and flushes them; false when the stream broke or a
// write waited out the timeout (the client does not read).
func (o liveOut) write(msgs ...[]byte) bool {
	_ = o.rc.SetWriteDeadline(time.Now().Add(o.timeout))
	for _, m := range msgs {
		if _, err := o.w.Write(m); err != nil {
			return false
		}
	}
	return o.rc.Flush() == nil
}

// liveFeeds holds the feed of each arena somebody watches, and counts
// each caller's held streams.
type liveFeeds struct {
	mu      sync.Mutex
	feeds   map[string]*liveFeed // by arena slug
	streams map[string]int       // held streams by caller (liveCaller)
	closing chan struct{}        // closed when the server ends its streams
	once    sync.Once

	// The limits: core's (tests change them).
	maxAnonymous, maxKey int
	writeTimeout         time.Duration
	// encoded counts the events encoded as SSE messages (tests).
	encoded atomic.Int64
}

func newLiveFeeds() *liveFeeds {
	return &liveFeeds{feeds: map[string]*liveFeed{}, streams: map[string]int{}, closing: make(chan struct{}),
		maxAnonymous: core.LiveMaxStreamsAnonymous, maxKey: core.LiveMaxStreamsKey, writeTimeout: core.LiveWriteTimeout}
}

// take counts a stream of caller, keyed or not, and returns the function
// that frees its slot (call it once the stream ended); false when the
// caller holds its most streams already.
func (l *liveFeeds) take(caller string, keyed bool) (func(), bool) {
	limit := l.maxAnonymous
	if keyed {
		limit = l.maxKey
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.streams[caller] >= limit {
		return nil, false
	}
	l.streams[caller]++
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			if l.streams[caller]--; l.streams[caller] <= 0 {
				delete(l.streams, caller)
			}
		})
	}, true
}

// timeout is how long a write to a stream may wait.
func (l *liveFeeds) timeout() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.writeTimeout
}

// message is the SSE message of e (core.LiveMessage), counted.
func (l *liveFeeds) message(e core.LogEvent) ([]byte, error) {
	l.encoded.Add(1)
	return core.LiveMessage(e)
}

// liveFeed follows one arena's log for its watchers.
type liveFeed struct {
	ready chan struct{} // closed once seq is read (or err set)
	err   error
	stop  chan struct{} // closed when the last watcher left

	mu       sync.Mutex
	seq      int64 // the last event handed to the watchers
	watchers map[*liveWatcher]struct{}
}

// liveWatcher is one held stream: the feed queues the messages of the
// events its filter shows, up to core.LiveBacklog; one more drops the
// watcher (its client resumes from the log).
type liveWatcher struct {
	filter core.LiveFilter
	wake   chan struct{} // holds one token when messages were queued or the watcher dropped

	mu      sync.Mutex
	queue   []liveMessage // grows as needed
	dropped bool
}

// liveMessage is one event's SSE message, encoded once by the feed and
// shared by every watcher it goes to.
type liveMessage struct {
	seq   int64
	bytes []byte
}

// push queues m; false when the watcher is (now) dropped.
func (w *liveWatcher) push(m liveMessage) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.dropped {
		return false
	}
	if len(w.queue) >= core.LiveBacklog {
		w.dropped, w.queue = true, nil
	} else {
		w.queue = append(w.queue, m)
	}
	select {
	case w.wake <- struct{}{}:
	default:
	}
	return !w.dropped
}

// take returns the queued messages (the queue starts over empty), and
// whether the watcher was dropped.
func (w *liveWatcher) take() ([]liveMessage, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	q := w.queue
	w.queue = nil
	return q, w.dropped
}

// join adds a watcher to the arena's feed, starting the feed when it is
// the first, and returns the seq the feed stands at: the watcher is
// given every event after it that the filter shows.
func (l *liveFeeds) join(ctx context.Context, s *Server, a *core.Arena, f core.LiveFilter) (*liveWatcher, int64, error) {
	w := &liveWatcher{filter: f, wake: make(chan struct{}, 1)}
	l.mu.Lock()
	feed, ok := l.feeds[a.Slug]
	if !ok {
		feed = &liveFeed{ready: make(chan struct{}), stop: make(chan struct{}), watchers: map[*liveWatcher]struct{}{}}
		l.feeds[a.Slug] = feed
		arena := *a // the feed outlives the request
		go feed.follow(s, &arena)
	}
	feed.mu.Lock()
	feed.watchers[w] = struct{}{}
	feed.mu.Unlock()
	l.mu.Unlock()
	select {
	case <-feed.ready:
	case <-ctx.Done():
		l.leave(a.Slug, w)
		return nil, 0, ctx.Err()
	}
	if feed.err != nil {
		l.leave(a.Slug, w)
		return nil, 0, feed.err
	}
	feed.mu.Lock()
	defer feed.mu.Unlock()
	return w, feed.seq, nil
}

// leave removes a watcher; the last one stops the feed.
func (l *liveFeeds) leave(slug string, w *liveWatcher) {
	l.mu.Lock()
	defer l.mu.Unlock()
	feed, ok := l.feeds[slug]
	if !ok {
		return
	}
	feed.mu.Lock()
	delete(feed.watchers, w)
	empty := len(feed.watchers) == 0
	feed.mu.Unlock()
	if empty {
		delete(l.feeds, slug)
		close(feed.stop)
	}
}

// end ends every held stream (the server shuts down).
func (l *liveFeeds) end() { l.once.Do(func() { close(l.closing) }) }

// follow reads the arena's log from its end on, handing each new event
// to the watchers, until the last watcher leaves. It takes the arena's
// database from the pool only while it reads: between reads it waits on
// the pool's watch (a write through the open database, its eviction, its
// next opening), holding nothing open.
func (feed *liveFeed) follow(s *Server, a *core.Arena) {
	ctx := context.Background()
	err := s.withSession(ctx, a, func(t *app.Session) (err error) {
		feed.seq, err = t.LogSeq(ctx)
		return err
	})
	feed.err = err
	close(feed.ready)
	if err != nil {
		return
	}
	// Writes by other processes are seen by asking again; the sole
	// writer's own writes wake the feed.
	poll := core.LiveRetry
	if s.cfg.SoleWriter {
		poll = core.LiveKeepAlive
	}
	timer := time.NewTimer(poll)
	defer timer.Stop()
	read := true
	for {
		// Watch before reading: a write after the read wakes the feed.
		changed, gone, opened := s.arenaDBs.watch(a.DatabaseURL)
		if read {
			var more bool
			err := s.withSession(ctx, a, func(t *app.Session) (err error) {
				more, err = feed.advance(ctx, t, s.live)
				return err
			})
			if err != nil {
				s.log.Warn("live feed", "arena", a.Slug, "error", err)
			}
			if more && err == nil {
				continue
			}
		}
		timer.Reset(poll)
		read = true
		select {
		case <-changed:
		case <-opened:
		case <-gone:
			read = false // nothing new: wait for the next opening
		case <-timer.C:
		case <-feed.stop:
			return
		}
	}
}

// advance hands the events after the feed's seq to the watchers, each
// event encoded once for all of them.
func (feed *liveFeed) advance(ctx context.Context, t *app.Session, l *liveFeeds) (bool, error) {
	events, last, more, err := t.LiveEvents(ctx, feed.seqNow(), core.LiveFilter{})
	if err != nil {
		return false, err
	}
	msgs := make([][]byte, len(events))
	feed.mu.Lock()
	defer feed.mu.Unlock()
	for w := range feed.watchers {
		for i, e := range events {
			if !w.filter.Match(e) {
				continue
			}
			if msgs[i] == nil {
				if msgs[i], err = l.message(e); err != nil {
					return false, err
				}
			}
			if !w.push(liveMessage{seq: e.Seq, bytes: msgs[i]}) {
				delete(feed.watchers, w) // too far behind: the client resumes from the log
				break
			}
		}
	}
	feed.seq = last
	return more, nil
}
func (feed *liveFeed) seqNow() int64 {
	feed.mu.Lock()
	defer feed.mu.Unlock()
	return feed.seq
}

// EndStreams ends every held live stream: call it when the server
// shuts down (http.Server.RegisterOnShutdown), so shutting down does not
// wait for watchers to leave.
func (s *Server) EndStreams() { s.live.end() }
