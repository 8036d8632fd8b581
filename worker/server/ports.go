package server

import (
	"arena/core"
	store "arena/sql"
)

// The arena's store is the one value the handlers hand to core's use
// cases: it serves every port they declare. Each part is checked where
// the store implements it; these are the ports that join parts.
var (
	_ core.FollowStore         = (*store.Arena)(nil)
	_ core.QueueStore          = (*store.Arena)(nil)
	_ core.RatingLadderStore   = (*store.Arena)(nil)
	_ core.RegisterStore       = (*store.Arena)(nil)
	_ core.ReportDecisionStore = (*store.Arena)(nil)
	_ core.ResultStore         = (*store.Arena)(nil)
	_ core.SeedStore           = (*store.Arena)(nil)
	_ core.SideRemovalStore    = (*store.Arena)(nil)
)
