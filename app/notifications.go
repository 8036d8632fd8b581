package app

import (
	"context"
	"slices"
	"time"

	"arena/core"
)

// A player's notifications: push subscriptions and the kinds of push,
// the alert inbox, the Discord link, and the cached platform summaries
// (names and avatars).

// SubscribePush subscribes a device of the player to pushes (loopback:
// the push service may be on this machine, as in dev mode and tests).
func (s *Session) SubscribePush(ctx context.Context, platformID string, in core.PushSubscriptionInput, loopback bool) error {
	return core.SubscribePush(ctx, s.store, platformID, in, loopback, s.Deps.Now)
}

// RemovePushSubscription forgets one of the player's devices, by id (when
// positive) or by endpoint.
func (s *Session) RemovePushSubscription(ctx context.Context, platformID string, id int64, endpoint string) error {
	return s.store.RemovePushSubscription(ctx, platformID, id, endpoint)
}

// ChoosePushKinds pushes the player the kinds chosen and turns the other
// kinds off.
func (s *Session) ChoosePushKinds(ctx context.Context, platformID string, chosen []core.PushKind) error {
	muted := slices.DeleteFunc(slices.Clone(core.PushKinds), func(k core.PushKind) bool { return slices.Contains(chosen, k) })
	return s.store.SetMutedPushKinds(ctx, platformID, muted)
}

// AlertInbox is the player's alerts as their inbox lists them, at most
// limit.
func (s *Session) AlertInbox(ctx context.Context, platformID string, limit int) ([]core.Alert, error) {
	return s.store.Alerts(ctx, platformID, limit)
}

// MarkAlertsRead marks every alert of the player read.
func (s *Session) MarkAlertsRead(ctx context.Context, platformID string) error {
	return s.store.MarkAlertsRead(ctx, platformID, 0, s.Deps.Now)
}

// StartDiscordLink starts linking the player's Discord account with the
// arena's application: the OAuth2 state the consent page is sent with.
func (s *Session) StartDiscordLink(ctx context.Context, app core.DiscordApp, platformID string) (string, error) {
	return core.StartDiscordLink(ctx, s.store, app, platformID, s.Deps)
}

// FinishDiscordLink links to the player the Discord account that
// Discord's code (sent back to redirectURI) names, when state is the
// fresh one their link started with; false, nothing linked, otherwise.
func (s *Session) FinishDiscordLink(ctx context.Context, api core.DiscordAPI, app core.DiscordApp, platformID, state, code, redirectURI string) (bool, error) {
	return core.FinishDiscordLink(ctx, s.store, api, app, platformID, state, code, redirectURI, s.Deps.Now)
}

// UnlinkDiscord forgets the player's Discord account.
func (s *Session) UnlinkDiscord(ctx context.Context, platformID string) error {
	return s.store.UnlinkDiscord(ctx, platformID)
}

// SummaryFetch asks the platform for the summaries of ids (at most one
// batch) and returns those it answered for, by id.
type SummaryFetch func(ctx context.Context, ids []string) (map[string]core.PlayerProfile, error)

// RefreshSummaries makes the arena's cached names and avatars of ids
// fresh: unless force, ids whose summary was read less than maxAge ago
// are skipped; the rest are asked of fetch in batches of at most batch
// and cached, ids fetch did not answer for included (marked read, so
// they are not asked again at once).
func (s *Session) RefreshSummaries(ctx context.Context, ids []string, force bool, maxAge time.Duration, batch int, fetch SummaryFetch) error {
	now := s.Deps.Now
	if !force {
		fresh, err := s.store.FreshSummaries(ctx, ids, now.Add(-maxAge))
		if err != nil {
			return err
		}
		stale := ids[:0:0]
		for _, id := range ids {
			if !fresh[id] {
				stale = append(stale, id)
			}
		}
		ids = stale
	}
	for start := 0; start < len(ids); start += batch {
		part := ids[start:min(start+batch, len(ids))]
		found, err := fetch(ctx, part)
		if err != nil {
			return err
		}
		var missing []string
		profiles := make([]core.PlayerProfile, 0, len(found))
		for _, id := range part {
			if p, ok := found[id]; ok {
				profiles = append(profiles, p)
			} else {
				missing = append(missing, id)
			}
		}
		if err := s.store.CacheSummaries(ctx, profiles, missing, now); err != nil {
			return err
		}
	}
	return nil
}
