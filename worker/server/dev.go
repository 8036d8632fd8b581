package server

import (
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

	mu   sync.Mutex
	live map[string]bool
}

// NewDevControls returns dev controls with no clock offset.
func NewDevControls() *DevControls { return &DevControls{live: map[string]bool{}} }

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

// handleDevStreamLive replaces the mock stream provider's live set.
func (s *Server) handleDevStreamLive(w http.ResponseWriter, r *http.Request) {
	var req devStreamLiveRequest
	if err := decodeJSON(w, r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	d := s.cfg.Dev
	d.mu.Lock()
	d.live = map[string]bool{}
	for _, l := range req.Logins {
		d.live[strings.ToLower(l)] = true
	}
	d.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"live": d.LiveLogins()})
}
