package server

import (
	"context"
	"fmt"
	"strings"

	"arena/core"
)

// demoDiscordMembers is how many demo players are members of the mock
// guild; demoDiscordLinked of them start linked (the others link from
// their account page, through the twin's consent page).
const (
	demoDiscordMembers = 4
	demoDiscordLinked  = 2
)

// UseDevDiscord points the demo arena at a Discord twin (dev mode): its
// application saved as the arena's, the first demo players made members
// of the mock guild with member, and the first of them linked. Run at
// every dev start: the twin's key pair is new each time.
func (s *Server) UseDevDiscord(ctx context.Context, app core.DiscordApp, member func(id, username string) core.DiscordUser) error {
	t, release, err := s.TenantBySlug(ctx, "demo")
	if err != nil {
		return err
	}
	defer release()
	return t.UseDevDiscord(ctx, app, func(link func(core.DiscordLink) bool) {
		for i, p := range demoPlayers[:demoDiscordMembers] {
			first, _, _ := strings.Cut(p.name, " ")
			u := member(fmt.Sprintf("13000000000000000%02d", i+1), strings.ToLower(first))
			if i >= demoDiscordLinked {
				continue
			}
			if !link(core.DiscordLink{PlatformID: p.id, DiscordUserID: u.ID, Username: u.Shown(), LinkedAt: s.now()}) {
				return
			}
		}
	})
}

// demoPhones is how many demo players have a demo phone (dev mode), and
// demoPhoneLabel names their devices.
const (
	demoPhones     = 2
	demoPhoneLabel = "Demo phone"
)

// UseDevPush subscribes a demo phone for each of the first demo players
// (dev mode): device makes one at a push service twin for a player, with
// the arena's VAPID key. The demo phones of an earlier start (their twin
// gone) are removed first.
func (s *Server) UseDevPush(ctx context.Context, device func(player, serverKey string) core.PushSubscriptionInput) error {
	t, release, err := s.TenantBySlug(ctx, "demo")
	if err != nil {
		return err
	}
	defer release()
	key, err := t.PushKey(ctx)
	if err != nil {
		return err
	}
	for _, p := range demoPlayers[:demoPhones] {
		newDevice := func() core.PushSubscriptionInput { return device(p.name, key.PublicKey) }
		if err := t.ReplaceDevices(ctx, p.id, demoPhoneLabel, newDevice, s.now()); err != nil {
			return err
		}
	}
	return nil
}
