package server

import (
	"context"
	"net/http"
	"sync"
	"time"

	"arena/core"
	"arena/core/tournamentview"
	store "arena/sql"
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
		if _, ok := s.admitPublic(w, r, t, !follow); !ok {
			return
		}
		f, err := filter(r, t)
		if err != nil {
			writeError(w, r, err)
			return
		}
		after, fromNow, err := liveCursor(r)
		if err != nil {
			writeError(w, r, err)
			return
		}
		if s.cfg.LivePolled {
			s.livePage(w, r, t, f, after, fromNow, follow)
			return
		}
		s.liveHold(w, r, t, f, after, fromNow)
	}))
}

// liveCursor reads where a stream resumes: Last-Event-ID when the client
// sent one (EventSource does when it reconnects), else ?after=; neither
// means from now. A bad value is invalid_field naming it.
func liveCursor(r *http.Request) (after int64, fromNow bool, err error) {
	name, raw := "Last-Event-ID", r.Header.Get("Last-Event-ID")
	if raw == "" {
		name, raw = "after", r.URL.Query().Get("after")
	}
	if raw == "" {
		return 0, true, nil
	}
	after, err = queryInt(raw, 0, 0, 1<<62, name)
	return after, false, err
}

// tournamentLive is the filter of a tournament's stream: a tournament the
// public can see (drafts are not found).
func tournamentLive(r *http.Request, t *Tenant) (core.LiveFilter, error) {
	tour, err := tournamentview.Find(r.Context(), t.Store, r.PathValue("slug"))
	if err != nil {
		return core.LiveFilter{}, err
	}
	return core.LiveFilter{Tournament: tour.Slug}, nil
}

// matchLive is the filter of a match's stream.
func matchLive(r *http.Request, t *Tenant) (core.LiveFilter, error) {
	ctx := r.Context()
	id, err := core.ParseMatchID(r.PathValue("id"))
	if err != nil {
		return core.LiveFilter{}, err
	}
	m, err := t.Store.Match(ctx, id)
	if err != nil {
		return core.LiveFilter{}, err
	}
	if _, err := tournamentview.MatchTournament(ctx, t.Store, m); err != nil {
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
func (s *Server) livePage(w http.ResponseWriter, r *http.Request, t *Tenant, f core.LiveFilter, after int64, fromNow, follow bool) {
	var events []core.LogEvent
	last, err := after, error(nil)
	if fromNow {
		last, err = t.Store.LogSeq(r.Context())
	} else {
		events, last, _, err = core.LiveEvents(r.Context(), t.Store, after, f)
	}
	if err != nil {
		writeError(w, r, err)
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

// liveHold holds a stream open: the catch-up from the log, then the
// feed's events, a comment after each core.LiveKeepAlive of silence.
// It ends when the client goes, the server shuts down, or the watcher
// falls core.LiveBacklog events behind (the client then resumes).
func (s *Server) liveHold(w http.ResponseWriter, r *http.Request, t *Tenant, f core.LiveFilter, after int64, fromNow bool) {
	ctx := r.Context()
	watcher, joined, err := s.live.join(ctx, s, t.Arena, f)
	if err != nil {
		writeError(w, r, err)
		return
	}
	defer s.live.leave(t.Arena.Slug, watcher)
	if fromNow {
		after = joined
	}
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{}) // a stream outlives the server's write timeout
	liveHeaders(w)
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(core.LiveRetryField()); err != nil {
		return
	}
	// Catch up from the log to where the feed stood when this joined.
	for after < joined {
		events, last, _, err := core.LiveEvents(ctx, t.Store, after, f)
		if err != nil || last == after {
			return // the client resumes from after
		}
		for _, e := range events {
			if e.Seq > joined {
				break
			}
			if !writeLive(w, e) {
				return
			}
		}
		after = min(last, joined)
	}
	if rc.Flush() != nil {
		return
	}
	quiet := time.NewTimer(core.LiveKeepAlive)
	defer quiet.Stop()
	for {
		select {
		case e, ok := <-watcher.events:
			if !ok {
				return
			}
			if e.Seq <= after {
				continue
			}
			if !writeLive(w, e) || rc.Flush() != nil {
				return
			}
			after = e.Seq
			quiet.Reset(core.LiveKeepAlive)
		case <-quiet.C:
			if _, err := w.Write([]byte(":\n\n")); err != nil || rc.Flush() != nil {
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

// writeLive writes one event's message; false when the stream broke.
func writeLive(w http.ResponseWriter, e core.LogEvent) bool {
	msg, err := core.LiveMessage(e)
	if err != nil {
		return false
	}
	_, err = w.Write(msg)
	return err == nil
}

// liveFeeds holds the feed of each arena somebody watches.
type liveFeeds struct {
	mu      sync.Mutex
	feeds   map[string]*liveFeed // by arena slug
	closing chan struct{}        // closed when the server ends its streams
	once    sync.Once
}

func newLiveFeeds() *liveFeeds {
	return &liveFeeds{feeds: map[string]*liveFeed{}, closing: make(chan struct{})}
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

// liveWatcher is one held stream: the feed's events its filter shows.
// The feed closes events when the watcher fell too far behind.
type liveWatcher struct {
	filter core.LiveFilter
	events chan core.LogEvent
}

// join adds a watcher to the arena's feed, starting the feed when it is
// the first, and returns the seq the feed stands at: the watcher's
// channel gets every event after it that the filter shows.
func (l *liveFeeds) join(ctx context.Context, s *Server, a *core.Arena, f core.LiveFilter) (*liveWatcher, int64, error) {
	w := &liveWatcher{filter: f, events: make(chan core.LogEvent, core.LiveBacklog)}
	l.mu.Lock()
	feed, ok := l.feeds[a.Slug]
	if !ok {
		feed = &liveFeed{ready: make(chan struct{}), stop: make(chan struct{}), watchers: map[*liveWatcher]struct{}{}}
		l.feeds[a.Slug] = feed
		go feed.follow(s, a)
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
// to the watchers, until the last watcher leaves. It holds the arena's
// database open meanwhile.
func (feed *liveFeed) follow(s *Server, a *core.Arena) {
	ctx := context.Background()
	st, release, err := s.arenaDB(ctx, a)
	if err == nil {
		defer release()
		feed.seq, err = st.LogSeq(ctx)
	}
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
	for {
		changed := st.DB().Changed()
		more, err := feed.advance(ctx, st)
		if err != nil {
			s.log.Warn("live feed", "arena", a.Slug, "error", err)
		}
		if more && err == nil {
			continue
		}
		select {
		case <-changed:
		case <-time.After(poll):
		case <-feed.stop:
			return
		}
	}
}

// advance hands the events after the feed's seq to the watchers.
func (feed *liveFeed) advance(ctx context.Context, st *store.Arena) (bool, error) {
	events, last, more, err := core.LiveEvents(ctx, st, feed.seqNow(), core.LiveFilter{})
	if err != nil {
		return false, err
	}
	feed.mu.Lock()
	defer feed.mu.Unlock()
	for w := range feed.watchers {
		for _, e := range events {
			if !w.filter.Match(e) {
				continue
			}
			select {
			case w.events <- e:
			default: // too far behind: the client resumes from the log
				close(w.events)
				delete(feed.watchers, w)
			}
			if _, ok := feed.watchers[w]; !ok {
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
