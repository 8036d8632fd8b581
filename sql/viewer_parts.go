package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sync"

	"arena/core"
	"arena/core/playerview"
)

var _ playerview.Store = (*Arena)(nil)

// viewerQueries are ViewerParts' queries: the player's matches
// (player_matches_where), their reports, the player's sides' captains and
// check-ins, and the profiles they name.
var viewerQueries = sync.OnceValue(func() [5]string {
	where := q("player_matches_where")
	return [5]string{
		q("match_state") + " " + where + " ORDER BY m.opens_at, m.id",
		q("viewer_reports") + " " + where + ")",
		q("roster_captains"),
		q("viewer_check_ins"),
		q("viewer_people") + " " + where + ") OR p.platform_id IN (SELECT m.p2_platform_id FROM matches m " + where + ")",
	}
})

// ViewerParts implements playerview.Store: one ReadAll.
func (s *Arena) ViewerParts(ctx context.Context, platformID string, statuses ...core.MatchStatus) (*playerview.Parts, error) {
	list, err := json.Marshal(statuses)
	if err != nil {
		return nil, err
	}
	player, within := sql.Named("player", platformID), sql.Named("statuses", string(list))
	queries := viewerQueries()
	p := playerview.Parts{Reports: map[int64]*core.MatchReport{}, Captains: map[int64]string{},
		CheckedIn: map[int64]bool{}, Players: map[string]core.PlayerProfile{}}
	err = s.db.ReadAll(ctx,
		Read{SQL: queries[0], Args: []any{player, within}, Row: func(row scanner) error {
			var raw matchStateRow
			if err := raw.scan(row); err != nil {
				return err
			}
			st, err := raw.state()
			if err == nil {
				p.Matches = append(p.Matches, *st)
			}
			return err
		}},
		Read{SQL: queries[1], Args: []any{player, within}, Row: func(row scanner) error {
			rep, err := scanReport(row)
			if err == nil {
				p.Reports[rep.MatchID] = rep
			}
			return err
		}},
		Read{SQL: queries[2], Args: []any{player}, Row: func(row scanner) error {
			var id int64
			var captain string
			err := row.Scan(&id, &captain)
			p.Captains[id] = captain
			return err
		}},
		Read{SQL: queries[3], Args: []any{player}, Row: func(row scanner) error {
			var id int64
			var in bool
			err := row.Scan(&id, &in)
			p.CheckedIn[id] = in
			return err
		}},
		Read{SQL: queries[4], Args: []any{player, within}, Row: profilesInto(p.Players)},
	)
	if err != nil {
		return nil, fmt.Errorf("store: unable to read %s's own things: %w", platformID, err)
	}
	return &p, nil
}
