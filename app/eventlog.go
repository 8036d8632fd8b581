package app

import (
	"context"
	"crypto/ed25519"
	"time"

	"arena/core"
)

// The arena's event log (docs/events.md): its pages and signed head, the
// transparency log's checkpoint, tiles and receipts, the live streams'
// reads, and the arena's Web Push key.

// logOrigin is the arena's log origin (core.LogOrigin).
func (s *Session) logOrigin() string { return core.LogOrigin(s.Arena.Hosts[0]) }

// EventLog is the page of the log's events after seq after, at most
// limit of them.
func (s *Session) EventLog(ctx context.Context, after int64, limit int) (core.EventLogPage, error) {
	return core.ReadEventLog(ctx, s.store, after, limit)
}

// EventLogKey is the arena's log signing key, drawn on the first call.
func (s *Session) EventLogKey(ctx context.Context) (ed25519.PrivateKey, error) {
	return core.EventLogKey(ctx, s.store, s.Deps.Random)
}

// EventLogHead is the log's last event, signed with the arena's key.
func (s *Session) EventLogHead(ctx context.Context) (core.LogHead, error) {
	key, err := s.EventLogKey(ctx)
	if err != nil {
		return core.LogHead{}, err
	}
	return core.ReadEventLogHead(ctx, s.store, s.Arena.Slug, key)
}

// Checkpoint is the log's checkpoint, signed with the arena's key under
// the arena's log origin.
func (s *Session) Checkpoint(ctx context.Context) (core.Checkpoint, error) {
	key, err := s.EventLogKey(ctx)
	if err != nil {
		return core.Checkpoint{}, err
	}
	return core.ReadCheckpoint(ctx, s.store, s.logOrigin(), key)
}

// Tile is a hash tile or an entry bundle of the log (C2SP tlog-tiles),
// or core.ErrNotInTree when the tree does not hold it yet.
func (s *Session) Tile(ctx context.Context, level int, n int64, width int) ([]byte, error) {
	return core.ReadTile(ctx, s.store, level, n, width)
}

// Receipt is the receipt of the public match with the id: a proof that
// the log holds the event that decided it. A match not decided by a
// logged event is core.CodeMatchNotDecided.
func (s *Session) Receipt(ctx context.Context, matchID int64) (core.Receipt, error) {
	if _, err := s.PublicMatch(ctx, matchID); err != nil {
		return core.Receipt{}, err
	}
	status, seq, found, err := s.store.DecidingEvent(ctx, matchID)
	if err != nil {
		return core.Receipt{}, err
	}
	if !found {
		return core.Receipt{}, core.Errorf(core.CodeMatchNotFound, "no match %d", matchID)
	}
	if !status.Resolved() || seq == 0 {
		return core.Receipt{}, core.Errorf(core.CodeMatchNotDecided, "match %d is not decided by a logged event", matchID)
	}
	key, err := s.EventLogKey(ctx)
	if err != nil {
		return core.Receipt{}, err
	}
	return core.ReadReceipt(ctx, s.store, s.logOrigin(), key, seq)
}

// LogSeq is the seq of the log's last event (0 for an empty log).
func (s *Session) LogSeq(ctx context.Context) (int64, error) {
	return s.store.LogSeq(ctx)
}

// LiveEvents are the events after seq after that the filter shows, as a
// live stream sends them, with the last seq read and whether more follow
// (core.LiveEvents).
func (s *Session) LiveEvents(ctx context.Context, after int64, f core.LiveFilter) ([]core.LogEvent, int64, bool, error) {
	return core.LiveEvents(ctx, s.store, after, f)
}

// PushKey is the arena's VAPID key pair, drawn on the first call.
func (s *Session) PushKey(ctx context.Context) (core.PushKey, error) {
	return core.ArenaPushKey(ctx, s.store, s.Deps.Random, s.Deps.Now)
}

// ReplaceDevices gives a player a new push device named label (a dev
// start's demo phone): the player's devices of that name are removed,
// then the one newDevice makes is subscribed at at, loopback endpoints
// allowed.
func (s *Session) ReplaceDevices(ctx context.Context, platformID, label string, newDevice func() core.PushSubscriptionInput, at time.Time) error {
	old, err := s.store.PushSubscriptions(ctx, platformID)
	if err != nil {
		return err
	}
	for _, d := range old {
		if d.Device == label {
			if err := s.store.RemovePushSubscription(ctx, platformID, d.ID, ""); err != nil {
				return err
			}
		}
	}
	in := newDevice()
	in.Device = label
	return core.SubscribePush(ctx, s.store, platformID, in, true, at)
}
