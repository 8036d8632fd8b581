package server

import (
	"context"
	"fmt"
	"time"

	"arena/core"
	store "arena/sql"
)

// Demo players of the streams features.
const (
	demoCasterID    = "76561198000000018" // Sophie Wilson: casts a Winter Cup match
	demoCasterLogin = "sophie_casts"
	demoFollowerID  = "76561198000000002" // Blaise Pascal: follows Sophie
)

// seedDemoStreams gives the demo arena a linked caster on the Winter
// Cup's first undecided match and a follower of that caster: set her
// live (POST /__dev/stream-live {"logins":["sophie_casts"]}, then POST
// /__dev/tick) and the match page shows her live, and the follower's
// inbox says she is streaming. The seeded results are history, not
// news: their events alert nobody.
func seedDemoStreams(ctx context.Context, st *store.Arena, now time.Time) error {
	if err := st.DropPendingEvents(ctx, now); err != nil {
		return err
	}
	if _, err := core.LinkStream(ctx, st, demoCasterID, demoCasterLogin, now); err != nil {
		return err
	}
	t, err := st.Tournament(ctx, "winter-cup")
	if err != nil {
		return err
	}
	matches, err := st.Matches(ctx, t.ID)
	if err != nil {
		return err
	}
	for _, m := range matches {
		if m.Status == core.MatchScheduled && m.P1 != "" && m.P2 != "" {
			if err := core.ClaimCast(ctx, st, m.ID, demoCasterID, false, now); err != nil {
				return fmt.Errorf("demo caster: %w", err)
			}
			break
		}
	}
	return core.FollowPlayerByID(ctx, st, demoFollowerID, demoCasterID, false, now)
}
