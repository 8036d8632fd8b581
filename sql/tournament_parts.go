package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"

	"arena/core"
	"arena/core/tournamentview"
)

var _ tournamentview.Store = (*Arena)(nil)

// partsBySlug and partsByID are the queries of TournamentParts: the
// tournament's row and the registrations, matches, podium and players
// queries of one tournament, keyed by the tournament's slug (a title's
// row left out, as Tournament does; with its casters and players'
// streams) or by its id, so that all of them go
// in one batch before the id is known.
var (
	partsBySlug = sync.OnceValue(func() []string {
		return partsQueries("(SELECT id FROM tournaments WHERE slug = :slug AND format <> '" + string(core.FormatTitle) + "')")
	})
	partsByID = sync.OnceValue(func() []string { return partsQueries(":tournament") })
)

// partsQueries are the parts' queries with key as the tournament's id.
func partsQueries(key string) []string {
	// keyed is the named query with key for its :tournament.
	keyed := func(name string) string { return strings.ReplaceAll(q(name), ":tournament", key) }
	return []string{
		q("tournament_columns") + " WHERE t.id = " + key,
		keyed("registrations"),
		q("match_columns") + " WHERE tournament_id = " + key + " " + q("match_order"),
		keyed("podium"),
		keyed("registered_players"),
		keyed("tournament_casters"),
		keyed("tournament_streams"),
	}
}

// TournamentParts implements tournamentview.Store: one ReadAll (one round
// trip to a remote database), by slug or, when slug is "", by id; the
// request's planned read of them when it planned one
// (PlanTournamentParts).
func (s *Arena) TournamentParts(ctx context.Context, slug string, id int64) (*tournamentview.Parts, error) {
	p, err := readPlanned(ctx, s.db, partsKey(slug, id), func() (*tournamentview.Parts, []Read) { return partsReads(slug, id) })
	if err != nil {
		return nil, fmt.Errorf("store: unable to read tournament %v: %w", cmpKey(slug, id), err)
	}
	if p.Tournament == nil {
		return nil, core.Errorf(core.CodeTournamentNotFound, "no tournament %v", cmpKey(slug, id))
	}
	for i := range p.Registrations {
		p.Registrations[i].TournamentID = p.Tournament.ID
	}
	return p, nil
}

// PlanTournamentParts plans TournamentParts' reads with the request's
// first ReadAll (plan.go).
func (s *Arena) PlanTournamentParts(ctx context.Context, slug string, id int64) {
	planAhead(ctx, s.db, partsKey(slug, id), func() (*tournamentview.Parts, []Read) { return partsReads(slug, id) })
}

// PlanTournamentPartsAfterWrite plans TournamentParts' reads to follow
// the request's next write, in its batch (plan.go): a write answers with
// the tournament as it left it, in the write's own round trip.
func (s *Arena) PlanTournamentPartsAfterWrite(ctx context.Context, slug string, id int64) {
	planAfterWrite(ctx, s.db, partsKey(slug, id), func() (*tournamentview.Parts, []Read) { return partsReads(slug, id) })
}

// partsKey names TournamentParts' reads in a plan.
func partsKey(slug string, id int64) string { return fmt.Sprintf("tournament_parts %q %d", slug, id) }

// partsReads are TournamentParts' reads and the parts they fill.
func partsReads(slug string, id int64) (*tournamentview.Parts, []Read) {
	queries, arg := partsByID(), sql.Named("tournament", id)
	if slug != "" {
		queries, arg = partsBySlug(), sql.Named("slug", slug)
	}
	return partsFrom(queries, arg)
}

// partsFrom are the reads of partsQueries' queries with their one
// argument, and the parts they fill.
func partsFrom(queries []string, arg any) (*tournamentview.Parts, []Read) {
	var p tournamentview.Parts
	p.Players = map[string]core.PlayerProfile{}
	return &p, []Read{
		{SQL: queries[0], Args: []any{arg}, Row: func(row scanner) (err error) {
			p.Tournament, err = scanTournament(row)
			return err
		}},
		{SQL: queries[1], Args: []any{arg}, Row: func(row scanner) error {
			r, err := scanRegistration(row, 0)
			if err == nil {
				p.Registrations = append(p.Registrations, *r)
			}
			return err
		}},
		{SQL: queries[2], Args: []any{arg}, Row: func(row scanner) error {
			m, err := scanMatch(row)
			if err == nil {
				p.Matches = append(p.Matches, *m)
			}
			return err
		}},
		{SQL: queries[3], Args: []any{arg}, Row: func(row scanner) error {
			var pl core.PodiumPlace
			err := row.Scan(&pl.Rank, &pl.PlayerID)
			p.Podium = append(p.Podium, pl)
			return err
		}},
		{SQL: queries[4], Args: []any{arg}, Row: profilesInto(p.Players)},
		{SQL: queries[5], Args: []any{arg}, Row: func(row scanner) error {
			c, err := scanCasterSeat(row)
			p.Casters = append(p.Casters, c)
			return err
		}},
		{SQL: queries[6], Args: []any{arg}, Row: func(row scanner) error {
			m, err := scanMatchStream(row)
			p.Streams = append(p.Streams, m)
			return err
		}},
	}
}

// cmpKey is the slug, or the id when there is none: what errors name.
func cmpKey(slug string, id int64) any {
	if slug != "" {
		return slug
	}
	return id
}

// FrontParts reads the front page's parts in one ReadAll (one round trip
// to a remote database, however many tournaments there are).
func (s *Arena) FrontParts(ctx context.Context) (*tournamentview.FrontParts, error) {
	p := tournamentview.FrontParts{Players: map[string]core.PlayerProfile{}, Live: map[string]core.LiveStream{}}
	title := sql.Named("title_format", string(core.FormatTitle))
	err := s.db.ReadAll(ctx,
		Read{SQL: tournamentsQuery(false), Args: []any{title}, Row: func(row scanner) error {
			t, err := scanTournament(row)
			if err == nil {
				p.Tournaments = append(p.Tournaments, *t)
			}
			return err
		}},
		Read{SQL: q("match_columns") + " " + q("running_matches_where") + " ORDER BY m.id", Row: func(row scanner) error {
			m, err := scanMatch(row)
			if err == nil {
				p.Matches = append(p.Matches, *m)
			}
			return err
		}},
		Read{SQL: q("running_players"), Row: profilesInto(p.Players)},
		Read{SQL: q("active_casters"), Row: func(row scanner) error {
			c, err := scanCasterSeat(row)
			p.Casters = append(p.Casters, c)
			return err
		}},
		Read{SQL: q("active_streams"), Row: func(row scanner) error {
			m, err := scanMatchStream(row)
			p.Streams = append(p.Streams, m)
			return err
		}},
		Read{SQL: q("live_set"), Row: func(row scanner) error { return scanLiveRow(row, p.Live, &p.LivePolledAt) }},
	)
	if err != nil {
		return nil, fmt.Errorf("store: unable to read the front page: %w", err)
	}
	return &p, nil
}

var _ tournamentview.MatchStore = (*Arena)(nil)

// matchTournamentQuery reads the tournament row of match :match.
var matchTournamentQuery = sync.OnceValue(func() string {
	return q("tournament_columns") + " WHERE t.id = (SELECT tournament_id FROM matches WHERE id = :match)"
})

// MatchParts implements tournamentview.MatchStore: one ReadAll.
func (s *Arena) MatchParts(ctx context.Context, id int64) (*tournamentview.MatchParts, error) {
	p := tournamentview.MatchParts{Players: map[string]core.PlayerProfile{}, Live: map[string]core.LiveStream{}}
	arg := sql.Named("match", id)
	var raw matchStateRow
	found := false
	err := s.db.ReadAll(ctx,
		Read{SQL: matchStateAndSeqByID(), Args: []any{arg}, Row: func(row scanner) error {
			found = true
			return row.Scan(append(raw.dest(), &p.LogSeq)...)
		}},
		Read{SQL: matchTournamentQuery(), Args: []any{arg}, Row: func(row scanner) (err error) {
			p.Tournament, err = scanTournament(row)
			return err
		}},
		Read{SQL: q("match_people"), Args: []any{arg}, Row: profilesInto(p.Players)},
		Read{SQL: q("match_casters"), Args: []any{arg}, Row: func(row scanner) error {
			c, err := scanCasterSeat(row)
			p.Casters = append(p.Casters, c)
			return err
		}},
		Read{SQL: q("match_streams"), Args: []any{arg}, Row: func(row scanner) error {
			m, err := scanMatchStream(row)
			p.Streams = append(p.Streams, m)
			return err
		}},
		Read{SQL: q("live_set"), Row: func(row scanner) error { return scanLiveRow(row, p.Live, &p.LivePolledAt) }},
	)
	if err != nil {
		return nil, fmt.Errorf("store: unable to read match %d: %w", id, err)
	}
	if !found || p.Tournament == nil {
		return nil, core.Errorf(core.CodeMatchNotFound, "no match %d", id)
	}
	if p.State, err = raw.state(); err != nil {
		return nil, fmt.Errorf("store: unable to read match %d: %w", id, err)
	}
	return &p, nil
}

// TournamentPlay implements core.TournamentStore: the tournament's parts
// (TournamentParts, one round trip) that a decision's consequences read.
func (s *Arena) TournamentPlay(ctx context.Context, id int64) (*core.Tournament, []core.Registration, []core.Match, error) {
	p, err := s.TournamentParts(ctx, "", id)
	if err != nil {
		return nil, nil, nil, err
	}
	return p.Tournament, p.Registrations, p.Matches, nil
}

// profilesInto reads players rows (platform id, persona name, avatar)
// into m, by id.
func profilesInto(m map[string]core.PlayerProfile) func(row scanner) error {
	return func(row scanner) error {
		var pr core.PlayerProfile
		err := row.Scan(&pr.PlatformID, &pr.PersonaName, &pr.AvatarURL)
		m[pr.PlatformID] = pr
		return err
	}
}
