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
	rows, err := s.db.query(ctx, q("roster_captains"), sql.Named("player", platformID))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list %s's entries: %w", platformID, err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var captain string
		if err := rows.Scan(&id, &captain); err != nil {
			return nil, err
		}
		out[id] = captain
	}
	return out, rows.Err()
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
