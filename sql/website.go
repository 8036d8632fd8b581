package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"arena/core"
)

var _ core.ProfileStore = (*Arena)(nil)

// RosterCaptains returns, for every tournament where the account is on a
// side's roster (as its captain or a member), that side's captain.
func (s *Arena) RosterCaptains(ctx context.Context, platformID string) (map[int64]string, error) {
	out, err := readPlanned(ctx, s.db, "roster_captains "+platformID, func() (map[int64]string, []Read) { return rosterCaptainsRead(platformID) })
	if err != nil {
		return nil, fmt.Errorf("store: unable to list %s's entries: %w", platformID, err)
	}
	return out, nil
}

// PlanRosterCaptains plans RosterCaptains' read with the request's first
// ReadAll (plan.go).
func (s *Arena) PlanRosterCaptains(ctx context.Context, platformID string) {
	planAhead(ctx, s.db, "roster_captains "+platformID, func() (map[int64]string, []Read) { return rosterCaptainsRead(platformID) })
}

func rosterCaptainsRead(platformID string) (map[int64]string, []Read) {
	out := map[int64]string{}
	return out, []Read{{SQL: q("roster_captains"), Args: []any{sql.Named("player", platformID)}, Row: func(row Scanner) error {
		var id int64
		var captain string
		err := row.Scan(&id, &captain)
		out[id] = captain
		return err
	}}}
}

// SetPersonaName implements core.ProfileStore: a player never seen is
// player_not_found.
func (s *Arena) SetPersonaName(ctx context.Context, platformID, name string, at time.Time) error {
	var id string
	err := s.db.writeRow(ctx, q("set_persona_name"), sql.Named("name", name), sql.Named("at", formatTime(at)),
		sql.Named("player", platformID)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return core.Errorf(core.CodePlayerNotFound, "no player %s", platformID)
	}
	if err != nil {
		return fmt.Errorf("store: unable to name player %s: %w", platformID, err)
	}
	return nil
}
