package app

import (
	"context"
	"time"

	"arena/core"
)

// The timer-driven rules the scheduled run (worker/server/scheduled.go)
// runs for each arena, on a session at the run's instant. Each answers
// how much it changed.

// RunReportGrace decides the players' reports whose grace ran out
// (core.RunReportGrace).
func (s *Session) RunReportGrace(ctx context.Context) (int, error) {
	return core.RunReportGrace(ctx, s.store, s.Arena, s.Deps)
}

// RunGracePeriod decides the matches whose result grace period ran out
// (core.RunGracePeriod).
func (s *Session) RunGracePeriod(ctx context.Context) (int, error) {
	return core.RunGracePeriod(ctx, s.store, s.Arena, s.Deps)
}

// RunWindowClose decides the matches whose window closed
// (core.RunWindowClose).
func (s *Session) RunWindowClose(ctx context.Context) (int, error) {
	return core.RunWindowClose(ctx, s.store, s.Deps)
}

// RunTitleClocks runs the titles' defence and challenge clocks
// (core.RunTitleClocks).
func (s *Session) RunTitleClocks(ctx context.Context) (int, error) {
	return core.RunTitleClocks(ctx, s.store, s.Deps.Now)
}

// ForfeitDisqualified forfeits the open matches of disqualified sides
// (core.ForfeitDisqualified).
func (s *Session) ForfeitDisqualified(ctx context.Context) (int, error) {
	return core.ForfeitDisqualified(ctx, s.store, s.Deps)
}

// SettleTournaments completes what a decision's second step left undone
// (core.SettleTournaments).
func (s *Session) SettleTournaments(ctx context.Context) (int, error) {
	return core.SettleTournaments(ctx, s.store, s.Deps.Now, s.Deps.Points)
}

// RunRatingPeriods rates the rating periods that ended, with the arena's
// period (core.RunRatingPeriods).
func (s *Session) RunRatingPeriods(ctx context.Context) (int, error) {
	return core.RunRatingPeriods(ctx, s.store, s.RatingPeriodHours(ctx), s.Deps.Now)
}

// SealLog seals the event log's unsealed events (core.SealLog).
func (s *Session) SealLog(ctx context.Context) error {
	return core.SealLog(ctx, s.store)
}

// SweepRateCounters drops the rate limits' windows that started before
// cutoff (Unix seconds).
func (s *Session) SweepRateCounters(ctx context.Context, cutoff int64) error {
	return s.store.SweepRateCounters(ctx, cutoff)
}

// PollLive asks the stream provider which linked channels are live
// (core.PollLive).
func (s *Session) PollLive(ctx context.Context, p core.StreamProvider) (bool, error) {
	return core.PollLive(ctx, s.store, p, s.Deps.Now)
}

// RunAlerts records and fans out the arena's alerts (core.RunAlerts).
func (s *Session) RunAlerts(ctx context.Context) (int, error) {
	return core.RunAlerts(ctx, s.store, s.Arena, s.Deps.Now)
}

// DeliverPushes sends the due pushes, sealed by sealer, through sender
// (core.DeliverPushes).
func (s *Session) DeliverPushes(ctx context.Context, sealer core.PushSealer, sender core.WebhookSender) (int, error) {
	return core.DeliverPushes(ctx, s.store, sealer, sender, s.Deps.Now)
}

// DeliverWebhooks sends the arena alert webhook's due deliveries
// (core.DeliverWebhooks).
func (s *Session) DeliverWebhooks(ctx context.Context, sender core.WebhookSender) (int, error) {
	return core.DeliverWebhooks(ctx, s.store, s.store, sender, s.Deps.Now)
}

// RunSubscriptions follows the event log for the integrators'
// subscriptions and sends their due deliveries, timing each by clock
// (core.RunSubscriptions).
func (s *Session) RunSubscriptions(ctx context.Context, sender core.WebhookSender, clock func() time.Time) (int, error) {
	return core.RunSubscriptions(ctx, s.store, s.Arena, sender, s.Deps.Now, clock)
}

// RemoveDueObjects removes the stored objects whose removal is due
// (core.RemoveDueObjects).
func (s *Session) RemoveDueObjects(ctx context.Context, objects core.ObjectStore) (int, error) {
	return core.RemoveDueObjects(ctx, s.store, objects, s.Deps.Now)
}
