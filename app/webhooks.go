package app

import (
	"context"
	"io"
	"time"

	"arena/core"
)

// Integrator webhooks (docs/webhooks.md): subscriptions to the event
// log's types, their delivery logs, replays and test events, and the
// arena's alert webhook they list with them.

// ArenaWebhook is the arena's alert webhook, nil when it has none.
func (s *Session) ArenaWebhook(ctx context.Context) (*core.Webhook, error) {
	return s.store.Webhook(ctx, core.WebhookOwnerArena)
}

// WebhookSubscriptions are the arena's alert webhook (nil when it has
// none) and the subscriptions, oldest first.
func (s *Session) WebhookSubscriptions(ctx context.Context) (*core.Webhook, []core.WebhookSubscription, error) {
	h, err := s.store.Webhook(ctx, core.WebhookOwnerArena)
	if err != nil {
		return nil, nil, err
	}
	subs, err := s.store.Subscriptions(ctx)
	if err != nil {
		return nil, nil, err
	}
	return h, subs, nil
}

// Subscription is the subscription with the id, or CodeNotFound.
func (s *Session) Subscription(ctx context.Context, id string) (*core.WebhookSubscription, error) {
	return core.FindSubscription(ctx, s.store, id)
}

// CreateSubscription subscribes as drafted (core.CreateSubscription;
// loopback admits loopback addresses, dev mode's).
func (s *Session) CreateSubscription(ctx context.Context, d core.WebhookSubscriptionDraft, loopback bool) (*core.WebhookSubscription, error) {
	return core.CreateSubscription(ctx, s.store, d, loopback, s.Deps)
}

// EditSubscription changes the subscription with the id as drafted at
// the request's now (core.EditSubscription; loopback as for
// CreateSubscription).
func (s *Session) EditSubscription(ctx context.Context, id string, d core.WebhookSubscriptionDraft, loopback bool) (*core.WebhookSubscription, error) {
	return core.EditSubscription(ctx, s.store, id, d, loopback, s.Deps.Now)
}

// DeleteSubscription removes the subscription with the id and its
// delivery log (core.DeleteSubscription).
func (s *Session) DeleteSubscription(ctx context.Context, id string) error {
	return core.DeleteSubscription(ctx, s.store, id)
}

// RemoveArenaWebhook removes the address of the arena's alert webhook,
// as saving an empty webhookUrl does; CodeNotFound when it has none.
func (s *Session) RemoveArenaWebhook(ctx context.Context) error {
	h, err := s.store.Webhook(ctx, core.WebhookOwnerArena)
	if err != nil {
		return err
	}
	if h == nil {
		return core.Errorf(core.CodeNotFound, "the arena has no alert webhook")
	}
	return core.SaveWebhook(ctx, s.store, core.WebhookChange{Owner: core.WebhookOwnerArena, Field: "id"}, s.Deps)
}

// SubscriptionDeliveries are the latest deliveries of the subscription
// with the id, newest first (core.SubscriptionDeliveriesShown of them);
// CodeNotFound when there is no such subscription.
func (s *Session) SubscriptionDeliveries(ctx context.Context, id string) ([]core.SubscriptionDelivery, error) {
	if _, err := core.FindSubscription(ctx, s.store, id); err != nil {
		return nil, err
	}
	return s.store.SubscriptionDeliveries(ctx, id, core.SubscriptionDeliveriesShown)
}

// ReplaySubscription re-delivers the events after the seq to the
// subscription with the id at the request's now
// (core.ReplaySubscription) and answers how many deliveries are due.
func (s *Session) ReplaySubscription(ctx context.Context, id string, after int64) (int, error) {
	return core.ReplaySubscription(ctx, s.store, id, after, s.Deps.Now)
}

// ReplayDelivery re-delivers one delivery of the subscription with the
// id at the request's now (core.ReplayDelivery).
func (s *Session) ReplayDelivery(ctx context.Context, id string, delivery int64) error {
	return core.ReplayDelivery(ctx, s.store, id, delivery, s.Deps.Now)
}

// SendTestEvent sends a test event to the subscription with the id now
// through sender (core.SendTestEvent: its id drawn from random, its
// timing from clock) and answers what the receiver answered.
func (s *Session) SendTestEvent(ctx context.Context, id string, sender core.WebhookSender, random io.Reader, clock func() time.Time) (core.WebhookTest, error) {
	return core.SendTestEvent(ctx, s.store, s.Arena, sender, id, random, clock)
}
