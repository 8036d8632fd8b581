package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"arena/core"
)

var _ core.TitleStore = (*Arena)(nil)

// CreateTitle implements core.TitleStore: the title's tournaments row
// (format title, the title's slug, name and environment) and the title in
// one batch.
func (s *Arena) CreateTitle(ctx context.Context, t *core.Title) error {
	at := formatTime(t.CreatedAt)
	err := s.db.Batch(ctx,
		Stmt{SQL: q("insert_title_tournament"), Args: []any{
			sql.Named("slug", t.Slug), sql.Named("name", t.Name),
			sql.Named("format", string(core.FormatTitle)), sql.Named("at", at),
			sql.Named("environment", string(t.Environment)),
			sql.Named("window_minutes", int(core.TitleMatchWindow/time.Minute)),
			sql.Named("best_of", max(t.BestOf, 1)),
		}},
		Stmt{SQL: q("insert_title"), Args: []any{sql.Named("slug", t.Slug), sql.Named("name", t.Name),
			sql.Named("at", at)}},
	)
	if isUniqueViolation(err, "tournaments.slug") || isUniqueViolation(err, "titles.slug") {
		return core.FieldError(core.CodeSlugTaken, "slug")
	}
	if err != nil {
		return fmt.Errorf("store: unable to create title: %w", err)
	}
	if err := s.db.queryRow(ctx, q("title_ids"), sql.Named("slug", t.Slug)).Scan(&t.ID, &t.TournamentID); err != nil {
		return fmt.Errorf("store: unable to read the new title: %w", err)
	}
	return nil
}

// Titles implements core.TitleStore: one query.
func (s *Arena) Titles(ctx context.Context) ([]core.Title, error) {
	return s.titles(ctx, "ORDER BY t.id")
}

// TitlesHeldBy returns the unretired titles the player holds, with
// their lineage.
func (s *Arena) TitlesHeldBy(ctx context.Context, platformID string) ([]core.Title, error) {
	out, err := readPlanned(ctx, s.db, "titles_held_by "+platformID, func() (*[]core.Title, []Read) { return titlesHeldByRead(platformID) })
	if err != nil {
		return nil, fmt.Errorf("store: unable to read titles: %w", err)
	}
	return *out, nil
}

// PlanTitlesHeldBy plans TitlesHeldBy's read with the request's first
// ReadAll (plan.go).
func (s *Arena) PlanTitlesHeldBy(ctx context.Context, platformID string) {
	planAhead(ctx, s.db, "titles_held_by "+platformID, func() (*[]core.Title, []Read) { return titlesHeldByRead(platformID) })
}

func titlesHeldByRead(platformID string) (*[]core.Title, []Read) {
	return rowsRead(q("title_state")+" WHERE t.holder_platform_id = :player AND t.retired_at IS NULL ORDER BY t.id",
		[]any{sql.Named("player", platformID)}, scanTitle)
}

// Title implements core.TitleStore: one query.
func (s *Arena) Title(ctx context.Context, id int64) (*core.Title, error) {
	list, err := s.titles(ctx, "WHERE t.id = :title", sql.Named("title", id))
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, core.Errorf(core.CodeTitleNotFound, "no title %d", id)
	}
	return &list[0], nil
}

func (s *Arena) titles(ctx context.Context, tail string, args ...any) ([]core.Title, error) {
	rows, err := s.db.query(ctx, q("title_state")+" "+tail, args...)
	if err != nil {
		return nil, fmt.Errorf("store: unable to read titles: %w", err)
	}
	defer rows.Close()
	var out []core.Title
	for rows.Next() {
		t, err := scanTitle(rows)
		if err != nil {
			return nil, fmt.Errorf("store: unable to read a title: %w", err)
		}
		out = append(out, *t)
	}
	return out, rows.Err()
}

func scanTitle(row scanner) (*core.Title, error) {
	var (
		t                       core.Title
		env, clock, retired, at string
		reigns, volunteers      string
		challenge, match        sql.NullString
		err                     error
		reignIDs, volunteerIDs  []int64
	)
	if err = row.Scan(&t.ID, &t.Slug, &t.Name, &t.TournamentID, &env, &t.Holder, &clock, &retired, &at,
		&reigns, &volunteers, &challenge, &match, &t.BestOf); err != nil {
		return nil, err
	}
	t.Environment = core.Environment(env)
	if t.CreatedAt, err = parseTime(at); err != nil {
		return nil, err
	}
	if t.ClockStartedAt, err = parseOptionalTime(&clock); err != nil {
		return nil, err
	}
	if t.RetiredAt, err = parseOptionalTime(&retired); err != nil {
		return nil, err
	}

	var raw [][]json.RawMessage
	if err := json.Unmarshal([]byte(reigns), &raw); err != nil {
		return nil, err
	}
	for _, r := range raw {
		var id int64
		var reign core.Reign
		var since string
		var until, ended *string
		if err := jsonFields(r, &id, &reign.Holder, &since, &until, &reign.Defenses, &ended); err != nil {
			return nil, err
		}
		if reign.Since, err = parseTime(since); err != nil {
			return nil, err
		}
		if reign.Until, err = parseOptionalTime(until); err != nil {
			return nil, err
		}
		if ended != nil {
			reign.Ended = *ended
		}
		reignIDs = append(reignIDs, id)
		t.Lineage = append(t.Lineage, reign)
	}
	sortByIDs(reignIDs, t.Lineage)

	raw = nil
	if err := json.Unmarshal([]byte(volunteers), &raw); err != nil {
		return nil, err
	}
	for _, r := range raw {
		var id int64
		var v core.TitleVolunteer
		var at string
		if err := jsonFields(r, &id, &v.PlatformID, &at); err != nil {
			return nil, err
		}
		if v.At, err = parseTime(at); err != nil {
			return nil, err
		}
		volunteerIDs = append(volunteerIDs, id)
		t.Volunteers = append(t.Volunteers, v)
	}
	sortByIDs(volunteerIDs, t.Volunteers)

	if challenge.Valid {
		var fields []json.RawMessage
		if err := json.Unmarshal([]byte(challenge.String), &fields); err != nil {
			return nil, err
		}
		c, err := challengeFromJSON(fields)
		if err != nil {
			return nil, err
		}
		c.TitleID = t.ID
		t.OpenChallenge = c
	}
	if match.Valid {
		var fields []json.RawMessage
		if err := json.Unmarshal([]byte(match.String), &fields); err != nil {
			return nil, err
		}
		m := &core.Match{TournamentID: t.TournamentID, Stage: core.StageTitle}
		var status, opens, closes string
		var p1, p2 *string
		if err := jsonFields(fields, &m.ID, &m.Round, &status, &p1, &p2, &opens, &closes); err != nil {
			return nil, err
		}
		m.Status = core.MatchStatus(status)
		if p1 != nil {
			m.P1 = *p1
		}
		if p2 != nil {
			m.P2 = *p2
		}
		if m.OpensAt, err = parseTime(opens); err != nil {
			return nil, err
		}
		if m.ClosesAt, err = parseTime(closes); err != nil {
			return nil, err
		}
		t.Match = m
	}
	return &t, nil
}

// parseOptionalTime reads a stored timestamp that may be absent (nil or
// "").
func parseOptionalTime(s *string) (*time.Time, error) {
	if s == nil {
		return nil, nil
	}
	return parseNullTime(sql.NullString{String: *s, Valid: true})
}

// jsonFields reads a JSON array's elements into dst in order (a JSON null
// leaves a pointer nil).
func jsonFields(fields []json.RawMessage, dst ...any) error {
	if len(fields) != len(dst) {
		return fmt.Errorf("store: %d fields, want %d", len(fields), len(dst))
	}
	for i, f := range fields {
		if err := json.Unmarshal(f, dst[i]); err != nil {
			return err
		}
	}
	return nil
}

// sortByIDs orders rows (read from a JSON aggregate, whose order SQL does
// not promise) by their row ids.
func sortByIDs[T any](ids []int64, rows []T) {
	idx := make([]int, len(ids))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return ids[idx[a]] < ids[idx[b]] })
	sorted := make([]T, len(rows))
	for i, j := range idx {
		sorted[i] = rows[j]
	}
	copy(rows, sorted)
}

// challengeFromJSON reads a challenge from the title_state query's array:
// id, challenger, holder, status, created, responded, match id.
func challengeFromJSON(fields []json.RawMessage) (*core.TitleChallenge, error) {
	var c core.TitleChallenge
	var status, created string
	var responded *string
	if err := jsonFields(fields, &c.ID, &c.Challenger, &c.Holder, &status, &created, &responded, &c.MatchID); err != nil {
		return nil, err
	}
	c.Status = core.ChallengeStatus(status)
	var err error
	if c.At, err = parseTime(created); err != nil {
		return nil, err
	}
	if c.RespondedAt, err = parseOptionalTime(responded); err != nil {
		return nil, err
	}
	return &c, nil
}

// TitleChallenge implements core.TitleStore.
func (s *Arena) TitleChallenge(ctx context.Context, id int64) (*core.TitleChallenge, error) {
	var c core.TitleChallenge
	var status, created string
	var responded sql.NullString
	err := s.db.queryRow(ctx, q("title_challenge"),
		sql.Named("challenge", id)).Scan(&c.ID, &c.TitleID, &c.Challenger, &c.Holder, &status,
		&created, &responded, &c.MatchID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, core.Errorf(core.CodeChallengeNotFound, "no challenge %d", id)
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to read challenge %d: %w", id, err)
	}
	c.Status = core.ChallengeStatus(status)
	if c.At, err = parseTime(created); err != nil {
		return nil, err
	}
	if c.RespondedAt, err = parseNullTime(responded); err != nil {
		return nil, err
	}
	return &c, nil
}

// titlePlayerStmts make a title's player known to the arena and put them
// on the title's roster (discovery finds their title matches).
func titlePlayerStmts(titleID int64, platformID, at string) []Stmt {
	return []Stmt{
		{SQL: q("insert_title_player"), Args: []any{sql.Named("player", platformID),
			sql.Named("name", core.PlaceholderName(platformID)), sql.Named("at", at)}},
		{SQL: q("insert_title_roster"), Args: []any{sql.Named("player", platformID), sql.Named("title", titleID)}},
	}
}

// AddVolunteer implements core.TitleStore.
func (s *Arena) AddVolunteer(ctx context.Context, titleID int64, v core.TitleVolunteer, opens, closes time.Time, token string) (bool, error) {
	at := formatTime(v.At)
	stmts := append([]Stmt{
		{SQL: q("insert_title_volunteer"), Args: []any{sql.Named("player", v.PlatformID), sql.Named("at", at),
			sql.Named("token", token), sql.Named("title", titleID)}},
	}, titlePlayerStmts(titleID, v.PlatformID, at)...)
	stmts = append(stmts, Stmt{SQL: q("insert_coronation"), Args: []any{
		sql.Named("stage", core.StageTitle), sql.Named("round", core.RoundCoronation),
		sql.Named("opens", formatTime(opens)), sql.Named("closes", formatTime(closes)),
		sql.Named("at", at), sql.Named("title", titleID),
	}})
	if err := s.db.Batch(ctx, stmts...); err != nil {
		return false, fmt.Errorf("store: unable to add a volunteer to title %d: %w", titleID, err)
	}
	var n int
	if err := s.db.queryRow(ctx, q("volunteer_stored"), sql.Named("title", titleID),
		sql.Named("token", token)).Scan(&n); err != nil {
		return false, fmt.Errorf("store: unable to read title %d's volunteer: %w", titleID, err)
	}
	return n == 1, nil
}

// AddChallenge implements core.TitleStore.
func (s *Arena) AddChallenge(ctx context.Context, c *core.TitleChallenge, clockCutoff time.Time, token string) (bool, error) {
	at := formatTime(c.At)
	stmts := append([]Stmt{
		{SQL: q("restart_title_clock"), Args: []any{sql.Named("at", at), sql.Named("title", c.TitleID),
			sql.Named("cutoff", formatTime(clockCutoff))}},
		{SQL: q("insert_title_challenge"), Args: []any{sql.Named("challenger", c.Challenger),
			sql.Named("at", at), sql.Named("token", token), sql.Named("title", c.TitleID)}},
	}, titlePlayerStmts(c.TitleID, c.Challenger, at)...)
	if err := s.db.Batch(ctx, stmts...); err != nil {
		return false, fmt.Errorf("store: unable to challenge title %d: %w", c.TitleID, err)
	}
	err := s.db.queryRow(ctx, q("challenge_stored"), sql.Named("token", token)).Scan(&c.ID, &c.Holder)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: unable to read title %d's challenge: %w", c.TitleID, err)
	}
	return true, nil
}

// AnswerChallenge implements core.TitleStore.
func (s *Arena) AnswerChallenge(ctx context.Context, id int64, holder string, accept bool, at, closes, clockCutoff time.Time, token string) (bool, error) {
	now := formatTime(at)
	var stmts []Stmt
	if accept {
		stmts = []Stmt{
			{SQL: q("accept_title_challenge"), Args: []any{sql.Named("now", now), sql.Named("token", token),
				sql.Named("challenge", id), sql.Named("holder", holder),
				sql.Named("cutoff", formatTime(clockCutoff))}},
			{SQL: q("insert_title_match"), Args: []any{sql.Named("stage", core.StageTitle),
				sql.Named("round", core.RoundTitleMatch), sql.Named("now", now),
				sql.Named("closes", formatTime(closes)), sql.Named("challenge", id),
				sql.Named("token", token)}},
			{SQL: q("link_title_match"), Args: []any{sql.Named("challenge", id), sql.Named("token", token)}},
			{SQL: q("insert_holder_roster"), Args: []any{sql.Named("challenge", id), sql.Named("token", token)}},
		}
	} else {
		stmts = []Stmt{{SQL: q("decline_title_challenge"), Args: []any{sql.Named("now", now),
			sql.Named("token", token), sql.Named("challenge", id), sql.Named("holder", holder)}}}
	}
	if err := s.db.Batch(ctx, stmts...); err != nil {
		return false, fmt.Errorf("store: unable to answer challenge %d: %w", id, err)
	}
	var stored string
	if err := s.db.queryRow(ctx, q("challenge_answer_token"), sql.Named("challenge", id)).Scan(&stored); err != nil {
		return false, fmt.Errorf("store: unable to read challenge %d's answer: %w", id, err)
	}
	return stored == token, nil
}

// ExpiredTitleClocks implements core.TitleStore.
func (s *Arena) ExpiredTitleClocks(ctx context.Context, cutoff time.Time) ([]int64, error) {
	return s.ids(ctx, q("expired_title_clocks"), sql.Named("cutoff", formatTime(cutoff)))
}

// ExpireTitleClock implements core.TitleStore (queries/titles.sql, the
// clock's expiry).
func (s *Arena) ExpireTitleClock(ctx context.Context, titleID int64, now, cutoff time.Time) error {
	at, before := formatTime(now), formatTime(cutoff)
	err := s.db.Batch(ctx,
		Stmt{SQL: q("strip_to_volunteer"), Args: []any{sql.Named("at", at), sql.Named("title", titleID),
			sql.Named("cutoff", before)}},
		Stmt{SQL: q("strip_reign"), Args: []any{sql.Named("at", at), sql.Named("title", titleID),
			sql.Named("cutoff", before)}},
		Stmt{SQL: q("strip_title"), Args: []any{sql.Named("at", at), sql.Named("title", titleID),
			sql.Named("cutoff", before)}},
		Stmt{SQL: q("expire_title_challenges"), Args: []any{sql.Named("at", at), sql.Named("title", titleID)}},
		Stmt{SQL: q("restart_title_clock"), Args: []any{sql.Named("at", at), sql.Named("title", titleID),
			sql.Named("cutoff", before)}},
	)
	if err != nil {
		return fmt.Errorf("store: unable to expire title %d's clock: %w", titleID, err)
	}
	return nil
}

// RetireTitle implements core.TitleStore.
func (s *Arena) RetireTitle(ctx context.Context, id int64, at time.Time) error {
	var n int
	if err := s.db.queryRow(ctx, q("title_exists"), sql.Named("title", id)).Scan(&n); err != nil {
		return fmt.Errorf("store: unable to read title %d: %w", id, err)
	}
	if n == 0 {
		return core.Errorf(core.CodeTitleNotFound, "no title %d", id)
	}
	now := formatTime(at)
	err := s.db.Batch(ctx,
		Stmt{SQL: q("retire_title"), Args: []any{sql.Named("now", now), sql.Named("title", id)}},
		Stmt{SQL: q("void_title_challenges"), Args: []any{sql.Named("now", now), sql.Named("title", id)}},
		Stmt{SQL: q("drop_title_volunteers"), Args: []any{sql.Named("title", id)}},
	)
	if err != nil {
		return fmt.Errorf("store: unable to retire title %d: %w", id, err)
	}
	return nil
}
