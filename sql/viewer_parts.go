package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sync"
	"time"

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
	p, reads, err := viewerReads(viewerQueries(), []any{sql.Named("player", platformID)}, statuses)
	if err == nil {
		err = s.db.ReadAll(ctx, reads...)
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to read %s's own things: %w", platformID, err)
	}
	return p, nil
}

// sessionPlayer names the expression of an open session's player
// (session_player), spliced into queries rather than run: its arguments
// are those of the query it is spliced into.
const sessionPlayer = "session_player"

// sessionViewerQueries are viewerQueries keyed by a session rather than
// a player: the session's player (sessionPlayer) wherever they say
// :player.
var sessionViewerQueries = sync.OnceValue(func() [5]string {
	player := regexp.MustCompile(`:player\b`)
	var out [5]string
	for i, query := range viewerQueries() {
		out[i] = player.ReplaceAllLiteralString(query, q(sessionPlayer))
	}
	return out
})

// PlanViewerParts plans ViewerParts for the player of the session id open
// at now, on the request's plan (Planning), so that a page reads its
// viewer's things with its own reads. The function returned gives them
// (empty parts for a session that is not open), reading them then if no
// ReadAll took them.
func (s *Arena) PlanViewerParts(ctx context.Context, id string, now time.Time, statuses ...core.MatchStatus) func(context.Context) (*playerview.Parts, error) {
	p, reads, err := viewerReads(sessionViewerQueries(), []any{sql.Named("session", id), sql.Named("now", formatTime(now))}, statuses)
	var pr *planned
	if err == nil {
		if pr = s.db.plan(ctx, fmt.Sprintf("viewer_parts %s %v", id, statuses), p, reads...); pr != nil {
			p = pr.out.(*playerview.Parts)
		}
	}
	return func(ctx context.Context) (*playerview.Parts, error) {
		switch {
		case err != nil:
		case pr != nil:
			err = pr.wait(ctx)
		default:
			err = s.db.ReadAll(ctx, reads...)
		}
		if err != nil {
			return nil, fmt.Errorf("store: unable to read the viewer's own things: %w", err)
		}
		return p, nil
	}
}

// viewerReads are ViewerParts' reads of queries with the caller's
// arguments (who they are) and the statuses, and the parts they fill.
func viewerReads(queries [5]string, who []any, statuses []core.MatchStatus) (*playerview.Parts, []Read, error) {
	list, err := json.Marshal(statuses)
	if err != nil {
		return nil, nil, err
	}
	whose := append(slices.Clip(who), sql.Named("statuses", string(list)))
	p := playerview.Parts{Reports: map[int64]*core.MatchReport{}, Captains: map[int64]string{},
		CheckedIn: map[int64]bool{}, Players: map[string]core.PlayerProfile{}}
	return &p, []Read{
		{SQL: queries[0], Args: whose, Row: func(row scanner) error {
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
		{SQL: queries[1], Args: whose, Row: func(row scanner) error {
			rep, err := scanReport(row)
			if err == nil {
				p.Reports[rep.MatchID] = rep
			}
			return err
		}},
		{SQL: queries[2], Args: who, Row: func(row scanner) error {
			var id int64
			var captain string
			err := row.Scan(&id, &captain)
			p.Captains[id] = captain
			return err
		}},
		{SQL: queries[3], Args: who, Row: func(row scanner) error {
			var id int64
			var in bool
			err := row.Scan(&id, &in)
			p.CheckedIn[id] = in
			return err
		}},
		{SQL: queries[4], Args: whose, Row: profilesInto(p.Players)},
	}, nil
}
