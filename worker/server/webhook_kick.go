package server

import (
	"context"
	"sync"
	"time"

	"arena/app"
	"arena/core"
)

// Natively a write to an arena also sends its webhook subscriptions'
// deliveries a moment later (Config.WebhookKick), so an integrator hears
// of a decision within about a second, not at the next scheduled run; the
// scheduled job still sends whatever a kick did not (a retry's time, a
// kick cut off by a restart). A kick and the job may run at once: queuing
// is idempotent and a delivery is claimed before it is sent (core/
// subscriptions.go). A burst of writes makes one kick. On the edge the
// cron sends them (docs/webhooks.md).

// WebhookKickDelay is the native server's Config.WebhookKick: long
// enough for a burst of writes (a decision's two submissions) to make one
// kick.
const WebhookKickDelay = 250 * time.Millisecond

// webhookKickBound bounds one kick's work.
const webhookKickBound = time.Minute

// webhookKicks holds the arenas a kick is pending for.
type webhookKicks struct {
	mu      sync.Mutex
	pending map[string]bool
	running sync.WaitGroup
	ctx     context.Context // cancelled when the server closes
	cancel  context.CancelFunc
}

func newWebhookKicks() *webhookKicks {
	ctx, cancel := context.WithCancel(context.Background())
	return &webhookKicks{pending: map[string]bool{}, ctx: ctx, cancel: cancel}
}

// kickWebhooks sends arena a's due subscription deliveries after
// Config.WebhookKick, once for every write made meanwhile.
func (s *Server) kickWebhooks(a *core.Arena) {
	k := s.kicks
	if s.cfg.WebhookKick <= 0 {
		return
	}
	k.mu.Lock()
	if k.pending[a.Slug] || k.ctx.Err() != nil {
		k.mu.Unlock()
		return
	}
	k.pending[a.Slug] = true
	k.running.Add(1)
	k.mu.Unlock()
	time.AfterFunc(s.cfg.WebhookKick, func() {
		defer k.running.Done()
		k.mu.Lock()
		delete(k.pending, a.Slug)
		k.mu.Unlock()
		ctx, cancel := context.WithTimeout(k.ctx, webhookKickBound)
		defer cancel()
		err := s.withSession(ctx, a, func(t *app.Session) error {
			_, err := t.RunSubscriptions(ctx, s.webhooks, s.wall)
			return err
		})
		if err != nil && ctx.Err() == nil {
			// The scheduled job sends them.
			s.log.Warn("webhook kick", "arena", a.Slug, "error", err)
		}
	})
}

// stop cancels the kicks under way and waits for them.
func (k *webhookKicks) stop() {
	k.mu.Lock()
	k.cancel()
	k.mu.Unlock()
	k.running.Wait()
}
