package server

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"arena/core"
)

// DevControls are the dev-mode levers behind /__dev/*: a movable clock
// and the mock stream provider's live set. They exist only in a native
// process started with --dev; the edge never has them.
type DevControls struct {
	offset atomic.Int64 // nanoseconds added to the base clock

	mu       sync.Mutex
	live     map[string]core.LiveStream // login -> its stream session
	sessions int                        // stream sessions started so far
}

// NewDevControls returns dev controls with no clock offset.
func NewDevControls() *DevControls { return &DevControls{live: map[string]core.LiveStream{}} }

// Clock returns base moved forward by the accumulated offset.
func (d *DevControls) Clock(base core.Clock) core.Clock {
	return func() time.Time { return base().Add(time.Duration(d.offset.Load())) }
}

// advance moves the clock forward by d, atomically. It refuses (false) a
// move that would take the offset past what a time.Duration holds.
func (d *DevControls) advance(by time.Duration) bool {
	for {
		cur := d.offset.Load()
		if int64(by) > math.MaxInt64-cur {
			return false
		}
		if d.offset.CompareAndSwap(cur, cur+int64(by)) {
			return true
		}
	}
}

// LiveStreams returns the mock provider's live set: a login set live
// keeps its stream session until it is set offline.
func (d *DevControls) LiveStreams() []core.LiveStream {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]core.LiveStream, 0, len(d.live))
	for _, l := range d.live {
		out = append(out, l)
	}
	return out
}

// LiveLogins returns the mock provider's live set, sorted.
func (d *DevControls) LiveLogins() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]string, 0, len(d.live))
	for l := range d.live {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// dev answers 404 unless dev mode is on.
func (s *Server) dev(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.Dev == nil {
			writeCode(w, r, core.CodeNotFound)
			return
		}
		next(w, r)
	}
}

type devClockRequest struct {
	AdvanceSeconds int64 `json:"advanceSeconds" validate:"min=0,max=31536000"`
}

// handleDevClock moves the service clock forward; 409 clock_overflow when
// the accumulated move would overflow.
func (s *Server) handleDevClock(w http.ResponseWriter, r *http.Request) {
	var req devClockRequest
	if err := decodeJSON(w, r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	if !s.cfg.Dev.advance(time.Duration(req.AdvanceSeconds) * time.Second) {
		writeError(w, r, core.Errorf(core.CodeClockOverflow, "the clock is %v ahead already", time.Duration(s.cfg.Dev.offset.Load())))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"now": s.now().UTC().Format(time.RFC3339)})
}

// handleDevTick runs every scheduled job once, now.
func (s *Server) handleDevTick(w http.ResponseWriter, r *http.Request) {
	report, err := s.RunScheduled(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, report)
}

type devStreamLiveRequest struct {
	Logins []string `json:"logins" validate:"max=1000,dive,min=1,max=64"`
}

// handleDevStreamLive replaces the mock stream provider's live set (a
// login newly live starts a stream session) and expires every arena's
// cached live set, so the next scheduled run polls it.
func (s *Server) handleDevStreamLive(w http.ResponseWriter, r *http.Request) {
	var req devStreamLiveRequest
	if err := decodeJSON(w, r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	d := s.cfg.Dev
	now := s.now()
	d.mu.Lock()
	next := map[string]core.LiveStream{}
	for _, l := range req.Logins {
		l = strings.ToLower(l)
		if cur, ok := d.live[l]; ok {
			next[l] = cur
			continue
		}
		d.sessions++
		next[l] = core.LiveStream{Login: l, StreamID: fmt.Sprintf("mock-%d", d.sessions), StartedAt: now}
	}
	d.live = next
	d.mu.Unlock()
	if err := s.expireLiveSets(r.Context()); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"live": d.LiveLogins()})
}

// expireLiveSets forgets when each arena's live set was polled.
func (s *Server) expireLiveSets(ctx context.Context) error {
	var arenas []core.Arena
	err := s.withDirectory(ctx, func() (err error) {
		arenas, err = s.dir.Arenas(ctx)
		return err
	})
	if err != nil {
		return err
	}
	for i := range arenas {
		st, release, err := s.arenaDB(ctx, &arenas[i])
		if err != nil {
			return err
		}
		err = st.ExpireLiveSet(ctx)
		release()
		if err != nil {
			return err
		}
	}
	return nil
}
