package server

import (
	"context"
	"sync"
	"time"
)

// Work after the answer: what a request finds due that its caller need
// not wait for (a host lookup's refresh, sql.Directory.RefreshHost).
// Natively it runs in a goroutine of its own once the handler returned;
// on the edge (Config.AfterAnswer) the Go worker runs it in a call of its
// own, sent after the answer (edge.Bridge.After, go-worker.mjs). A job
// lost to a restart or an evicted isolate is only work not done: the next
// request finds it due again.

// afterAnswerBound bounds one job's work.
const afterAnswerBound = 30 * time.Second

// afterAnswers holds the native jobs running, which Close waits for.
type afterAnswers struct {
	mu      sync.Mutex
	closed  bool
	running sync.WaitGroup
}

// afterAnswer runs job once the request of ctx is answered; job gets a
// context of its own (not the request's, which ends with the answer).
// Call it before the handler returns.
func (s *Server) afterAnswer(ctx context.Context, job func(context.Context)) {
	if s.cfg.AfterAnswer != nil {
		s.cfg.AfterAnswer(ctx, job)
		return
	}
	a := &s.after
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return
	}
	a.running.Add(1)
	go func() {
		defer a.running.Done()
		jobCtx, cancel := context.WithTimeout(context.Background(), afterAnswerBound)
		defer cancel()
		job(jobCtx)
	}()
}

// stop waits for the jobs under way and refuses new ones.
func (a *afterAnswers) stop() {
	a.mu.Lock()
	a.closed = true
	a.mu.Unlock()
	a.running.Wait()
}
