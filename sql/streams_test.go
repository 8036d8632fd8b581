package store_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
)

func TestStreamStore(t *testing.T) {
	backends(t, func(t *testing.T, open func() *store.DB) {
		ctx := context.Background()
		s := openArenaStore(t, open)
		tour := seededBracket(t, s, "streams", 1, 2, 3, 4)

		t.Run("LinkUnlinkAndTaken", func(t *testing.T) {
			require.NoError(t, s.SetStreamLogin(ctx, pid(1), "ada_casts", t0))
			login, err := s.StreamLogin(ctx, pid(1))
			require.NoError(t, err)
			assert.Equal(t, "ada_casts", login)
			assert.Equal(t, core.CodeStreamLoginTaken, core.ErrorCode(s.SetStreamLogin(ctx, pid(2), "ada_casts", t0)))
			require.NoError(t, s.SetStreamLogin(ctx, pid(9), "newcomer", t0), "an unknown player is stored")
			require.NoError(t, s.SetStreamLogin(ctx, pid(9), "", t0))
			login, err = s.StreamLogin(ctx, pid(9))
			require.NoError(t, err)
			assert.Empty(t, login)
			linked, err := s.LinkedChannels(ctx)
			require.NoError(t, err)
			assert.Equal(t, map[string]string{"ada_casts": pid(1)}, linked)
		})

		t.Run("LinkStateUsedOnceUntilExpiry", func(t *testing.T) {
			ls, err := core.NewLinkState("demo", pid(1), "http://demo.test", core.Deps{Now: t0, Random: rand.Reader})
			require.NoError(t, err)
			require.NoError(t, s.SaveLinkState(ctx, ls))
			got, err := s.TakeLinkState(ctx, ls.State, t0.Add(time.Minute))
			require.NoError(t, err)
			require.NotNil(t, got)
			assert.Equal(t, pid(1), got.PlatformID)
			assert.Equal(t, "http://demo.test", got.ReturnTo)
			again, err := s.TakeLinkState(ctx, ls.State, t0.Add(time.Minute))
			require.NoError(t, err)
			assert.Nil(t, again, "a state is used once")
			old, err := core.NewLinkState("demo", pid(1), "http://demo.test", core.Deps{Now: t0, Random: rand.Reader})
			require.NoError(t, err)
			require.NoError(t, s.SaveLinkState(ctx, old))
			late, err := s.TakeLinkState(ctx, old.State, t0.Add(core.LinkStateTTL))
			require.NoError(t, err)
			assert.Nil(t, late, "an expired state is refused")
		})

		sf1 := matchInSlot(t, s, tour, "SF1")
		t.Run("CasterSeats", func(t *testing.T) {
			seat := core.CasterSeat{MatchID: sf1.ID, StreamLogin: "official", Source: core.CasterArena, CreatedAt: t0}
			require.NoError(t, s.AddCaster(ctx, seat))
			require.NoError(t, s.AddCaster(ctx, seat), "the same channel twice keeps one seat")
			for i := 1; i < core.MaxCastersPerMatch; i++ {
				require.NoError(t, s.AddCaster(ctx, core.CasterSeat{MatchID: sf1.ID, StreamLogin: "c" + pid(i)[12:], Source: core.CasterCommunity, PlatformID: pid(100 + i), CreatedAt: t0}))
			}
			assert.Equal(t, core.CodeCastersFull, core.ErrorCode(s.AddCaster(ctx, core.CasterSeat{MatchID: sf1.ID, StreamLogin: "onetoomany", Source: core.CasterCommunity, CreatedAt: t0})))
			require.NoError(t, s.RetireCaster(ctx, sf1.ID, pid(101), t0))
			seats, err := s.Casters(ctx, sf1.ID)
			require.NoError(t, err)
			require.Len(t, seats, core.MaxCastersPerMatch-1)
			assert.Equal(t, "official", seats[0].StreamLogin)
			assert.Empty(t, seats[0].PlatformID)
			logins, err := s.PolledLogins(ctx)
			require.NoError(t, err)
			assert.Contains(t, logins, "official")
			assert.Contains(t, logins, "ada_casts")
		})

		t.Run("DecisionEndsSeatsAndRecordsTheEvent", func(t *testing.T) {
			_, err := core.ResolveMatch(ctx, s, tour, sf1, core.Resolution{Winner: sf1.P1, Source: core.SourceAdmin, At: playoffsAt.Add(time.Hour)}, core.Deps{Random: rand.Reader, Points: core.DefaultPlacementPoints})
			require.NoError(t, err)
			seats, err := s.Casters(ctx, sf1.ID)
			require.NoError(t, err)
			assert.Empty(t, seats, "a caster's seat ends with the match")
			assert.Equal(t, core.CodeAlreadyResolved, core.ErrorCode(s.AddCaster(ctx, core.CasterSeat{MatchID: sf1.ID, StreamLogin: "late", Source: core.CasterCommunity, CreatedAt: t0})))
			events, err := s.PendingEvents(ctx, 100)
			require.NoError(t, err)
			require.Len(t, events, 1)
			assert.Equal(t, core.EventResultConfirmed, events[0].Kind)
			assert.Equal(t, sf1.ID, events[0].MatchID)
		})

		t.Run("LiveSetAndStreamSessions", func(t *testing.T) {
			live, polled, err := s.LiveSet(ctx)
			require.NoError(t, err)
			assert.Empty(t, live)
			assert.True(t, polled.IsZero())
			session := core.LiveStream{Login: "ada_casts", StreamID: "s1", StartedAt: t0}
			require.NoError(t, s.SaveLiveSet(ctx, []core.LiveStream{session}, t0))
			require.NoError(t, s.SaveLiveSet(ctx, []core.LiveStream{session}, t0.Add(time.Minute)))
			live, polled, err = s.LiveSet(ctx)
			require.NoError(t, err)
			assert.Equal(t, []string{"ada_casts"}, keys(live))
			assert.True(t, polled.Equal(t0.Add(time.Minute)))
			require.NoError(t, s.SaveLiveSet(ctx, []core.LiveStream{{Login: "ada_casts", StreamID: "s2", StartedAt: t0}}, t0.Add(2*time.Minute)))
			events, err := s.PendingEvents(ctx, 100)
			require.NoError(t, err)
			var streaming []string
			for _, ev := range events {
				if ev.Kind == core.EventPlayerStreaming {
					streaming = append(streaming, ev.Key)
					assert.Equal(t, pid(1), ev.PlayerID)
				}
			}
			assert.Equal(t, []string{"streaming:" + pid(1) + ":s1", "streaming:" + pid(1) + ":s2"}, streaming, "once per stream session")
		})

		t.Run("FollowsFanOutAndInbox", func(t *testing.T) {
			require.NoError(t, s.SetFollow(ctx, pid(50), core.Follow{Kind: core.FollowPlayer, TargetID: pid(1)}, true, t0))
			require.NoError(t, s.SetFollow(ctx, pid(51), core.Follow{Kind: core.FollowTournament, TargetID: itoa(tour.ID)}, true, t0))
			require.NoError(t, s.SetFollow(ctx, pid(52), core.Follow{Kind: core.FollowPlayer, TargetID: pid(1)}, true, t0))
			require.NoError(t, s.SetFollow(ctx, pid(52), core.Follow{Kind: core.FollowPlayer, TargetID: pid(1)}, false, t0))
			got, err := s.Followers(ctx, tour.ID, []string{pid(1), pid(4)})
			require.NoError(t, err)
			assert.Equal(t, []string{pid(50), pid(51)}, got)
			events, err := s.PendingEvents(ctx, 1)
			require.NoError(t, err)
			ev := events[0]
			d := core.WebhookDelivery{Owner: core.WebhookOwnerArena, EventID: ev.ID, URL: "https://hooks.test/x", Body: "{}", NextAttemptAt: t0}
			require.NoError(t, s.FanOut(ctx, core.EventFanOut{Event: ev, Title: "Hello", Path: "/matches/1", Recipients: []string{pid(50)}, Deliveries: []core.WebhookDelivery{d}}, t0))
			require.NoError(t, s.FanOut(ctx, core.EventFanOut{Event: ev, Title: "Hello", Path: "/matches/1", Recipients: []string{pid(50)}, Deliveries: []core.WebhookDelivery{d}}, t0), "again adds nothing")
			alerts, err := s.Alerts(ctx, pid(50), 10)
			require.NoError(t, err)
			require.Len(t, alerts, 1)
			assert.Equal(t, "Hello", alerts[0].Title)
			assert.False(t, alerts[0].Read)
			require.NoError(t, s.MarkAlertsRead(ctx, pid(50), 0, t0))
			alerts, err = s.Alerts(ctx, pid(50), 10)
			require.NoError(t, err)
			assert.True(t, alerts[0].Read)
			assert.Equal(t, 1, count(t, s.DB(), "webhook_deliveries"))
		})

		t.Run("UpcomingOncePerMatch", func(t *testing.T) {
			before := count(t, s.DB(), "arena_events")
			require.NoError(t, s.StampUpcoming(ctx, playoffsAt, playoffsAt.Add(30*time.Minute)))
			after := count(t, s.DB(), "arena_events")
			assert.Equal(t, 1, after-before, "SF2 is scheduled with both sides; SF1 is decided, the finals undecided")
			require.NoError(t, s.StampUpcoming(ctx, playoffsAt.Add(time.Minute), playoffsAt.Add(31*time.Minute)))
			assert.Equal(t, after, count(t, s.DB(), "arena_events"))
		})

		t.Run("WebhookDeliveries", func(t *testing.T) {
			require.NoError(t, s.SetWebhook(ctx, core.WebhookOwnerArena, "https://hooks.test/x", "whsec_1", t0))
			due, err := s.DueDeliveries(ctx, t0, 10)
			require.NoError(t, err)
			require.Len(t, due, 1)
			ok, err := s.ClaimDelivery(ctx, due[0], t0.Add(time.Minute), t0)
			require.NoError(t, err)
			require.True(t, ok)
			ok, err = s.ClaimDelivery(ctx, due[0], t0.Add(time.Minute), t0)
			require.NoError(t, err)
			assert.False(t, ok, "a delivery is claimed once per attempt")
			due, err = s.DueDeliveries(ctx, t0, 10)
			require.NoError(t, err)
			assert.Empty(t, due, "not due before its next attempt")
			due, err = s.DueDeliveries(ctx, t0.Add(time.Minute), 10)
			require.NoError(t, err)
			require.Len(t, due, 1)
			assert.Equal(t, 1, due[0].Attempts)
			off, err := s.DeliveryFailed(ctx, due[0], 500, true, t0.Add(time.Minute))
			require.NoError(t, err)
			assert.True(t, off)
			h, err := s.Webhook(ctx, core.WebhookOwnerArena)
			require.NoError(t, err)
			assert.NotNil(t, h.DisabledAt)
			enabled, err := s.Webhooks(ctx, []string{core.WebhookOwnerArena})
			require.NoError(t, err)
			assert.Empty(t, enabled)
			require.NoError(t, s.SetWebhook(ctx, core.WebhookOwnerArena, "https://hooks.test/x", "whsec_2", t0))
			enabled, err = s.Webhooks(ctx, []string{core.WebhookOwnerArena, pid(1)})
			require.NoError(t, err)
			require.Len(t, enabled, 1)
			assert.Equal(t, "whsec_2", enabled[0].Secret)
		})
	})
}

func keys(m map[string]core.LiveStream) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func itoa(n int64) string { return fmt.Sprint(n) }
