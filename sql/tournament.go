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

var (
	_ core.TournamentStore = (*Arena)(nil)
	_ core.LifecycleStore  = (*Arena)(nil)
	_ core.ResolveStore    = (*Arena)(nil)
	_ core.CompletionStore = (*Arena)(nil)
	_ core.MatchReader     = (*Arena)(nil)
)

// CreateSeason implements core.TournamentStore.
func (s *Arena) CreateSeason(ctx context.Context, season *core.Season) error {
	err := s.db.writeRow(ctx, q("insert_season"), sql.Named("slug", season.Slug), sql.Named("name", season.Name),
		sql.Named("starts_at", formatTime(season.StartsAt)), sql.Named("ends_at", formatTime(season.EndsAt)),
		sql.Named("created_at", formatTime(season.CreatedAt))).Scan(&season.ID)
	if isUniqueViolation(err, "seasons.slug") {
		return core.FieldError(core.CodeSlugTaken, "slug")
	}
	if err != nil {
		return fmt.Errorf("store: unable to create season: %w", err)
	}
	return nil
}

// UpdateSeason stores the name and dates of the season with s.Slug;
// CodeNotFound when there is none.
func (s *Arena) UpdateSeason(ctx context.Context, season *core.Season) error {
	err := s.db.writeRow(ctx, q("update_season"), sql.Named("name", season.Name),
		sql.Named("starts_at", formatTime(season.StartsAt)),
		sql.Named("ends_at", formatTime(season.EndsAt)), sql.Named("slug", season.Slug)).Scan(&season.ID)
	if errors.Is(err, sql.ErrNoRows) {
		return core.Errorf(core.CodeNotFound, "no season %q", season.Slug)
	}
	if err != nil {
		return fmt.Errorf("store: unable to update season %q: %w", season.Slug, err)
	}
	return nil
}

// Seasons implements core.SeasonStore.
func (s *Arena) Seasons(ctx context.Context) ([]core.Season, error) {
	out, err := readPlanned(ctx, s.db, "seasons", seasonsRead)
	if err != nil {
		return nil, fmt.Errorf("store: unable to list seasons: %w", err)
	}
	return *out, nil
}

// PlanSeasons plans Seasons' read with the request's first ReadAll
// (plan.go).
func (s *Arena) PlanSeasons(ctx context.Context) { planAhead(ctx, s.db, "seasons", seasonsRead) }

// seasonsRead is Seasons' read and the list it fills.
func seasonsRead() (*[]core.Season, []Read) {
	var out []core.Season
	return &out, []Read{{SQL: q("seasons"), Row: func(row scanner) error {
		var season core.Season
		var starts, ends, created string
		err := row.Scan(&season.ID, &season.Slug, &season.Name, &starts, &ends, &created)
		if err != nil {
			return err
		}
		if season.CreatedAt, err = parseTime(created); err != nil {
			return err
		}
		if season.StartsAt, err = parseTime(starts); err != nil {
			return err
		}
		if season.EndsAt, err = parseTime(ends); err != nil {
			return err
		}
		out = append(out, season)
		return nil
	}}}
}

// tournamentArgs are a tournament's settings as insert_tournament and
// update_draft_tournament name them.
func tournamentArgs(t *core.Tournament) []any {
	return []any{
		sql.Named("slug", t.Slug), sql.Named("name", t.Name), sql.Named("description", t.Description),
		sql.Named("format", string(t.Format)), sql.Named("max_players", t.MaxPlayers),
		sql.Named("registration_opens_at", formatTime(t.RegistrationOpensAt)),
		sql.Named("registration_closes_at", formatTime(t.RegistrationClosesAt)),
		sql.Named("starts_at", formatTime(t.StartsAt)), sql.Named("environment", string(t.Environment)),
		sql.Named("season", t.SeasonID), sql.Named("team_min_players", t.TeamMinPlayers),
		sql.Named("team_max_players", t.TeamMaxPlayers), sql.Named("group_count", t.GroupCount),
		sql.Named("advance_per_group", t.AdvancePerGroup), sql.Named("small_final", t.SmallFinal),
		sql.Named("match_window_minutes", t.MatchWindowMinutes), sql.Named("hand_mode", t.Cast.HandMode),
		sql.Named("delay_seconds", t.Cast.DelaySeconds), sql.Named("allow_spectators", t.AllowSpectators),
		sql.Named("updated_at", formatTime(t.UpdatedAt)), sql.Named("grand_final_reset", t.GrandFinalReset),
		sql.Named("swiss_rounds", t.SwissRounds), sql.Named("top_cut", t.TopCut),
		sql.Named("seed_from_ratings", t.SeedFromRatings), sql.Named("check_in_minutes", t.CheckInMinutes),
		sql.Named("group_format", string(t.GroupFormat)), sql.Named("best_of", t.SeriesLength(core.StagePlayoff)),
		sql.Named("group_best_of", t.SeriesLength(core.StageGroup)),
		sql.Named("final_best_of", t.SeriesLength(core.StageFinal)), sql.Named("pacing", string(t.PacingOrDefault())),
		sql.Named("grace_period_minutes", t.GracePeriodMinutes),
	}
}

// CreateTournament implements core.TournamentStore.
func (s *Arena) CreateTournament(ctx context.Context, t *core.Tournament) error {
	err := s.db.writeRow(ctx, q("insert_tournament"),
		append(tournamentArgs(t), sql.Named("created_at", formatTime(t.CreatedAt)))...,
	).Scan(&t.ID)
	if isUniqueViolation(err, "tournaments.slug") {
		return core.FieldError(core.CodeSlugTaken, "slug")
	}
	if err != nil {
		return fmt.Errorf("store: unable to create tournament: %w", err)
	}
	t.Status = core.StatusDraft
	return nil
}

// Tournament implements tournamentview.Store. A title's tournaments row
// is no tournament here: its slug is not found.
func (s *Arena) Tournament(ctx context.Context, slug string) (*core.Tournament, error) {
	return s.tournamentWhere(ctx, "WHERE t.slug = :slug AND t.format <> :title_format", slug,
		sql.Named("slug", slug), sql.Named("title_format", string(core.FormatTitle)))
}

// TournamentByID implements core.TournamentStore (a title's row
// included: its matches' tournament).
func (s *Arena) TournamentByID(ctx context.Context, id int64) (*core.Tournament, error) {
	return s.tournamentWhere(ctx, "WHERE t.id = :tournament", id, sql.Named("tournament", id))
}

// tournamentWhere reads the tournament where selects, named by key in
// errors.
func (s *Arena) tournamentWhere(ctx context.Context, where string, key any, args ...any) (*core.Tournament, error) {
	t, err := scanTournament(s.db.queryRow(ctx, q("tournament_columns")+" "+where, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, core.Errorf(core.CodeTournamentNotFound, "no tournament %v", key)
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to read tournament %v: %w", key, err)
	}
	return t, nil
}

// Tournaments implements discordbot.Store; titles' rows are left out.
func (s *Arena) Tournaments(ctx context.Context, withDrafts bool) ([]core.Tournament, error) {
	out, err := readPlanned(ctx, s.db, tournamentsKey(withDrafts), func() (*[]core.Tournament, []Read) { return tournamentsRead(withDrafts) })
	if err != nil {
		return nil, fmt.Errorf("store: unable to list tournaments: %w", err)
	}
	return *out, nil
}

// PlanTournaments plans Tournaments' read with the request's first
// ReadAll (plan.go).
func (s *Arena) PlanTournaments(ctx context.Context, withDrafts bool) {
	planAhead(ctx, s.db, tournamentsKey(withDrafts), func() (*[]core.Tournament, []Read) { return tournamentsRead(withDrafts) })
}

func tournamentsKey(withDrafts bool) string { return fmt.Sprintf("tournaments %v", withDrafts) }

func tournamentsRead(withDrafts bool) (*[]core.Tournament, []Read) {
	return rowsRead(tournamentsQuery(withDrafts), []any{sql.Named("title_format", string(core.FormatTitle))}, scanTournament)
}

// tournamentsQuery lists the tournaments, titles' rows left out (and
// drafts unless withDrafts), newest start first.
func tournamentsQuery(withDrafts bool) string {
	query := q("tournament_columns") + " WHERE t.format <> :title_format"
	if !withDrafts {
		query += " AND t.status <> 'draft'"
	}
	return query + " ORDER BY t.starts_at DESC, t.id DESC"
}

func scanTournament(row scanner) (*core.Tournament, error) {
	var (
		t                                  core.Tournament
		format, status, env                string
		opens, closes, starts, created, up string
		completed, firstMatch              sql.NullString
		groupFormat                        string
	)
	err := row.Scan(&t.ID, &t.Slug, &t.Name, &t.Description, &format, &status, &t.MaxPlayers,
		&opens, &closes, &starts, &env, &t.SeasonID, &t.SeasonSlug, &t.TeamMinPlayers, &t.TeamMaxPlayers,
		&t.GroupCount, &t.AdvancePerGroup, &t.SmallFinal, &t.MatchWindowMinutes, &t.Cast.HandMode,
		&t.Cast.DelaySeconds, &t.AllowSpectators, &t.PlayerCount, &created, &up, &completed,
		&t.GrandFinalReset, &t.SwissRounds, &t.TopCut, &t.SeedFromRatings, &t.CheckInMinutes, &groupFormat, &firstMatch,
		&t.LogSeq, &t.BestOf, &t.GroupBestOf, &t.FinalBestOf, &t.Pacing, &t.GracePeriodMinutes)
	if err != nil {
		return nil, err
	}
	t.Format, t.Status, t.Environment = core.TournamentFormat(format), core.TournamentStatus(status), core.Environment(env)
	t.GroupFormat = core.GroupFormat(groupFormat)
	for _, p := range []struct {
		dst *time.Time
		src string
	}{{&t.RegistrationOpensAt, opens}, {&t.RegistrationClosesAt, closes}, {&t.StartsAt, starts}, {&t.CreatedAt, created}, {&t.UpdatedAt, up}} {
		if *p.dst, err = parseTime(p.src); err != nil {
			return nil, err
		}
	}
	if t.CompletedAt, err = parseNullTime(completed); err != nil {
		return nil, err
	}
	if t.FirstMatchAt, err = parseNullTime(firstMatch); err != nil {
		return nil, err
	}
	return &t, nil
}

func parseNullTime(s sql.NullString) (*time.Time, error) {
	if !s.Valid || s.String == "" {
		return nil, nil
	}
	t, err := parseTime(s.String)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// SetTournamentStatus implements core.TournamentStore.
func (s *Arena) SetTournamentStatus(ctx context.Context, t *core.Tournament, from, to core.TournamentStatus, at time.Time) error {
	var id int64
	err := s.db.writeRow(ctx, q("set_tournament_status"), sql.Named("to", string(to)),
		sql.Named("at", formatTime(at)), sql.Named("tournament", t.ID),
		sql.Named("from", string(from))).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return core.Errorf(core.CodeInvalidTransition, "%s is no longer %s", t.Slug, from)
	}
	if err != nil {
		return fmt.Errorf("store: unable to change tournament status: %w", err)
	}
	t.Status, t.UpdatedAt = to, at
	return nil
}

// Register implements core.TournamentStore.
func (s *Arena) Register(ctx context.Context, t *core.Tournament, reg core.Registration, players []core.PlayerProfile) error {
	stmts := registrationStmts(t, reg, players, "", 0)
	err := s.db.Batch(ctx, stmts...)
	if isUniqueViolation(err, "registrations.") || isUniqueViolation(err, "roster_members.") {
		return core.Errorf(core.CodeAlreadyRegistered, "a player of this side is registered")
	}
	if err != nil {
		return fmt.Errorf("store: unable to register: %w", err)
	}
	var n int
	if err := s.db.queryRow(ctx, q("registration_exists"), sql.Named("tournament", t.ID),
		sql.Named("captain", reg.PlatformID)).Scan(&n); err != nil {
		return fmt.Errorf("store: unable to check registration: %w", err)
	}
	if n > 0 {
		return nil
	}
	// Nothing was inserted: the tournament closed or filled up.
	now, err := s.TournamentByID(ctx, t.ID)
	if err != nil {
		return err
	}
	if !now.RegistrationOpenAt(reg.RegisteredAt) {
		return core.Errorf(core.CodeRegistrationClosed, "%s takes no registrations", t.Slug)
	}
	return core.Errorf(core.CodeTournamentFull, "%s is full", t.Slug)
}

// registrationStmts adds one side: its registration (only while the
// tournament is open and below its cap; as one of a list of n captains,
// a JSON array, when n > 0: insert_bulk_registration), its roster and
// its players' profiles (only when the registration went in).
func registrationStmts(t *core.Tournament, reg core.Registration, players []core.PlayerProfile, captains string, n int) []Stmt {
	at := formatTime(reg.RegisteredAt)
	insert := Stmt{SQL: q("insert_registration"), Args: []any{sql.Named("player", reg.PlatformID),
		sql.Named("seed", reg.Seed), sql.Named("at", at), sql.Named("tournament", t.ID)}}
	if n > 0 {
		insert = Stmt{SQL: q("insert_bulk_registration"), Args: []any{sql.Named("player", reg.PlatformID),
			sql.Named("seed", reg.Seed), sql.Named("at", at), sql.Named("tournament", t.ID),
			sql.Named("captains", captains), sql.Named("n", n)}}
	}
	stmts := []Stmt{insert}
	for _, id := range reg.Roster {
		stmts = append(stmts, Stmt{SQL: q("insert_roster_member"), Args: []any{sql.Named("tournament", t.ID),
			sql.Named("player", id), sql.Named("captain", reg.PlatformID)}})
	}
	for _, p := range players {
		named := p.PersonaName != ""
		name := p.PersonaName
		if !named {
			name = core.PlaceholderName(p.PlatformID)
		}
		stmts = append(stmts, Stmt{SQL: q("upsert_registered_player"), Args: []any{
			sql.Named("player", p.PlatformID), sql.Named("name", name), sql.Named("avatar_url", p.AvatarURL),
			sql.Named("at", at), sql.Named("tournament", t.ID), sql.Named("captain", reg.PlatformID),
			sql.Named("named", named),
		}})
	}
	return stmts
}

// RegisterAll implements core.BulkRegisterStore: every side's
// statements in one batch, each insert asking whether the whole list
// fits (insert_bulk_registration), so all go in or none; the count read
// in the same transaction says which.
func (s *Arena) RegisterAll(ctx context.Context, t *core.Tournament, regs []core.Registration, players [][]core.PlayerProfile) (bool, error) {
	captains := make([]string, len(regs))
	for i, reg := range regs {
		captains[i] = reg.PlatformID
	}
	list, err := json.Marshal(captains)
	if err != nil {
		return false, err
	}
	var stmts []Stmt
	for i, reg := range regs {
		stmts = append(stmts, registrationStmts(t, reg, players[i], string(list), len(regs))...)
	}
	var n int64
	err = s.db.BatchRead(ctx, Stmt{SQL: q("registered_of"), Args: []any{sql.Named("tournament", t.ID),
		sql.Named("captains", string(list))}}, []any{&n}, stmts...)
	switch {
	case isUniqueViolation(err, "registrations."), isUniqueViolation(err, "roster_members."):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("store: unable to register %d sides: %w", len(regs), err)
	}
	return n == int64(len(regs)), nil
}

// Registrations implements core.TournamentStore.
func (s *Arena) Registrations(ctx context.Context, tournamentID int64) ([]core.Registration, error) {
	rows, err := s.db.query(ctx, q("registrations"), sql.Named("tournament", tournamentID))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list registrations: %w", err)
	}
	defer rows.Close()
	var out []core.Registration
	for rows.Next() {
		r, err := scanRegistration(rows, tournamentID)
		if err != nil {
			return nil, err
		}
		out = append(out, *r)
	}
	return out, rows.Err()
}

// scanRegistration reads a registrations row of the tournament, its
// roster captain first.
func scanRegistration(row scanner, tournamentID int64) (*core.Registration, error) {
	r := core.Registration{TournamentID: tournamentID}
	var at, roster string
	var disqualified, checkedIn sql.NullString
	err := row.Scan(&r.PlatformID, &r.PersonaName, &r.Seed, &r.GroupName, &at, &disqualified, &checkedIn, &roster)
	if err != nil {
		return nil, err
	}
	if r.CheckedInAt, err = parseNullTime(checkedIn); err != nil {
		return nil, err
	}
	if r.RegisteredAt, err = parseTime(at); err != nil {
		return nil, err
	}
	if r.DisqualifiedAt, err = parseNullTime(disqualified); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(roster), &r.Roster); err != nil {
		return nil, err
	}
	captain := r.PlatformID
	sort.Slice(r.Roster, func(i, j int) bool {
		if (r.Roster[i] == captain) != (r.Roster[j] == captain) {
			return r.Roster[i] == captain
		}
		return r.Roster[i] < r.Roster[j]
	})
	return &r, nil
}

// StartStage implements core.TournamentStore. The status change writes a
// fresh token; every write of the step is guarded by that token, so a
// racing second step (whose UPDATE matched nothing) writes nothing. The
// sides absent from check-in are withdrawn and told, in the same batch;
// one that checks in meanwhile stops the step (CodeInvalidTransition).
func (s *Arena) StartStage(ctx context.Context, t *core.Tournament, from, to core.TournamentStatus, stage core.StageStart, at time.Time, token string) error {
	now := formatTime(at)
	absent := make([]string, len(stage.Absent))
	for i, r := range stage.Absent {
		absent[i] = r.PlatformID
	}
	absentJSON, err := json.Marshal(absent)
	if err != nil {
		return err
	}
	stmts := []Stmt{{SQL: q("start_stage"), Args: []any{sql.Named("to", string(to)), sql.Named("token", token),
		sql.Named("now", now), sql.Named("tournament", t.ID), sql.Named("from", string(from)),
		sql.Named("absent_json", string(absentJSON))}}}
	for _, r := range stage.Absent {
		stmts = append(stmts,
			Stmt{SQL: q("withdraw_absent_roster"), Args: []any{sql.Named("tournament", t.ID),
				sql.Named("player", r.PlatformID), sql.Named("token", token)}},
			Stmt{SQL: q("withdraw_absent"), Args: []any{sql.Named("tournament", t.ID),
				sql.Named("player", r.PlatformID), sql.Named("token", token)}})
		roster := r.Roster
		if len(roster) == 0 {
			roster = []string{r.PlatformID}
		}
		for _, id := range roster {
			stmts = append(stmts, Stmt{SQL: q("record_check_in_missed"), Args: []any{sql.Named("player", id),
				sql.Named("now", now), sql.Named("tournament", t.ID), sql.Named("token", token)}})
		}
	}
	for _, c := range sortedKeys(stage.Groups) {
		stmts = append(stmts, Stmt{SQL: q("set_registration_group"), Args: []any{sql.Named("group", stage.Groups[c]),
			sql.Named("tournament", t.ID), sql.Named("captain", c), sql.Named("token", token)}})
	}
	for _, c := range sortedKeys(stage.Seeds) {
		stmts = append(stmts, Stmt{SQL: q("set_registration_seed"), Args: []any{sql.Named("seed", stage.Seeds[c]),
			sql.Named("tournament", t.ID), sql.Named("captain", c), sql.Named("token", token)}})
	}
	for _, m := range stage.Matches {
		stmts = append(stmts, Stmt{SQL: q("insert_stage_match"), Args: append(matchInsertArgs(t, m, now),
			sql.Named("token", token))})
	}
	// The batch reads, as its last statement, whose step stands: one
	// round trip.
	var status, stored string
	err = s.db.BatchRead(ctx, Stmt{SQL: q("stage_token"), Args: []any{sql.Named("tournament", t.ID)}},
		[]any{&status, &stored}, stmts...)
	if err != nil {
		return fmt.Errorf("store: unable to start %s: %w", to, err)
	}
	if stored != token {
		return core.Errorf(core.CodeInvalidTransition, "%s moved on concurrently", t.Slug)
	}
	t.Status, t.UpdatedAt = to, at
	return nil
}

// AddMatches implements core.TournamentStore: the status change (when
// from and to differ) and the matches in one batch, each match inserted
// only while the tournament is in `to` and its slot is free.
func (s *Arena) AddMatches(ctx context.Context, t *core.Tournament, from, to core.TournamentStatus, matches []core.Match, at time.Time) error {
	now := formatTime(at)
	var stmts []Stmt
	if from != to {
		stmts = append(stmts, Stmt{SQL: q("move_tournament_status"), Args: []any{sql.Named("to", string(to)),
			sql.Named("now", now), sql.Named("tournament", t.ID), sql.Named("from", string(from))}})
	}
	for _, m := range matches {
		stmts = append(stmts, Stmt{SQL: q("insert_added_match"), Args: append(matchInsertArgs(t, m, now),
			sql.Named("to", string(to)))})
	}
	if err := s.db.Batch(ctx, stmts...); err != nil {
		return fmt.Errorf("store: unable to add matches to %s: %w", t.Slug, err)
	}
	return nil
}

// matchInsertArgs are a new match's values for insert_stage_match and
// insert_added_match but the condition's (token or to).
func matchInsertArgs(t *core.Tournament, m core.Match, now string) []any {
	return []any{
		sql.Named("tournament", t.ID), sql.Named("stage", m.Stage), sql.Named("round", m.Round),
		sql.Named("round_number", m.RoundNumber), sql.Named("group", m.GroupName), sql.Named("slot", m.BracketSlot),
		sql.Named("status", string(m.Status)), sql.Named("p1", m.P1), sql.Named("p2", m.P2),
		sql.Named("opens_at", formatTime(m.OpensAt)), sql.Named("closes_at", formatTime(m.ClosesAt)),
		sql.Named("winner", m.Winner), sql.Named("source", m.ResultSource),
		sql.Named("winner_to_slot", m.WinnerTo.BracketSlot), sql.Named("winner_to_side", m.WinnerTo.Side),
		sql.Named("loser_to_slot", m.LoserTo.BracketSlot), sql.Named("loser_to_side", m.LoserTo.Side),
		sql.Named("resolved_at", nullTime(m.ResolvedAt)), sql.Named("now", now), sql.Named("best_of", m.SeriesLen()),
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// scoreArgs returns a score's two sides as query arguments, NULL for none.
func scoreArgs(s *core.OutcomeScore) (p1, p2 any) {
	if s == nil {
		return nil, nil
	}
	return s.P1, s.P2
}

func nullTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return formatTime(*t)
}

// Matches implements core.TournamentStore.
func (s *Arena) Matches(ctx context.Context, tournamentID int64) ([]core.Match, error) {
	rows, err := s.db.query(ctx, q("match_columns")+" WHERE tournament_id = :tournament "+q("match_order"),
		sql.Named("tournament", tournamentID))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list matches: %w", err)
	}
	defer rows.Close()
	var out []core.Match
	for rows.Next() {
		m, err := scanMatch(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *m)
	}
	return out, rows.Err()
}

// Match implements core.TournamentStore.
func (s *Arena) Match(ctx context.Context, id int64) (*core.Match, error) {
	m, err := scanMatch(s.db.queryRow(ctx, q("match_columns")+" WHERE id = :match", sql.Named("match", id)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, core.Errorf(core.CodeMatchNotFound, "no match %d", id)
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to read match %d: %w", id, err)
	}
	return m, nil
}

func scanMatch(row scanner) (*core.Match, error) {
	var (
		m                               core.Match
		status, opens, closes           string
		s1, s2                          sql.NullInt64
		p1r, p2r, live, ended, resolved sql.NullString
		games                           string
	)
	err := row.Scan(&m.ID, &m.TournamentID, &m.Stage, &m.Round, &m.RoundNumber, &m.GroupName, &m.BracketSlot,
		&status, &m.P1, &m.P2, &opens, &closes, &m.Winner, &s1, &s2, &m.ResultSource,
		&m.WinnerTo.BracketSlot, &m.WinnerTo.Side, &m.LoserTo.BracketSlot, &m.LoserTo.Side,
		&m.SessionNonce, &m.GameSeed, &p1r, &p2r, &live, &ended, &resolved, &m.BestOf, &games)
	if err != nil {
		return nil, err
	}
	if m.Games, err = parseGames(games); err != nil {
		return nil, err
	}
	m.Status = core.MatchStatus(status)
	if s1.Valid && s2.Valid {
		m.Score = &core.OutcomeScore{P1: int(s1.Int64), P2: int(s2.Int64)}
	}
	if m.OpensAt, err = parseTime(opens); err != nil {
		return nil, err
	}
	if m.ClosesAt, err = parseTime(closes); err != nil {
		return nil, err
	}
	for _, p := range []struct {
		dst **time.Time
		src sql.NullString
	}{{&m.P1ReadyAt, p1r}, {&m.P2ReadyAt, p2r}, {&m.LiveAt, live}, {&m.EndedAt, ended}, {&m.ResolvedAt, resolved}} {
		if *p.dst, err = parseNullTime(p.src); err != nil {
			return nil, err
		}
	}
	return &m, nil
}

// ResolveMatch implements core.TournamentStore: one batch decides the
// match (if it is not resolved yet), seats its winner and loser and logs
// the admin's decision (match.resolved).
func (s *Arena) ResolveMatch(ctx context.Context, id int64, res core.Resolution) (*core.Match, error) {
	status := core.MatchConfirmed
	if res.Forfeit {
		status = core.MatchForfeited
	}
	var p1, p2 any
	if res.Score != nil {
		p1, p2 = res.Score.P1, res.Score.P2
	}
	at := formatTime(res.At)
	decided, m, err := s.decideAndRead(ctx, id, res.Token, res.At, nil, Stmt{SQL: q("resolve_match"), Args: []any{
		sql.Named("status", string(status)), sql.Named("winner", res.Winner), sql.Named("p1", p1),
		sql.Named("p2", p2), sql.Named("source", res.Source), sql.Named("at", at),
		sql.Named("token", res.Token), sql.Named("match", id),
	}}, Stmt{SQL: q("log_resolved"), Args: []any{sql.Named("at", at), sql.Named("admin", res.By),
		sql.Named("token", res.Token), sql.Named("match", id)}})
	if err != nil {
		return nil, err
	}
	if !decided {
		return nil, core.Errorf(core.CodeAlreadyResolved, "match %d is resolved", id)
	}
	return m, nil
}

// RescheduleMatch implements core.WindowStore.
func (s *Arena) RescheduleMatch(ctx context.Context, id int64, opensAt, closesAt, at time.Time) (*core.Match, error) {
	var got int64
	err := s.db.writeRow(ctx, q("reschedule_match"), sql.Named("opens_at", formatTime(opensAt)),
		sql.Named("closes_at", formatTime(closesAt)), sql.Named("at", formatTime(at)),
		sql.Named("match", id)).Scan(&got)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, core.Errorf(core.CodeMatchNotFound, "no match %d", id)
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to reschedule match %d: %w", id, err)
	}
	return s.Match(ctx, id)
}

// CompleteTournament implements core.TournamentStore.
func (s *Arena) CompleteTournament(ctx context.Context, t *core.Tournament, podium []core.PodiumPlace, placements []core.ScoredPlacement, at time.Time) error {
	stmts := []Stmt{{SQL: q("complete_tournament"), Args: []any{sql.Named("at", formatTime(at)),
		sql.Named("tournament", t.ID)}}}
	for _, p := range podium {
		stmts = append(stmts, Stmt{SQL: q("insert_podium"), Args: []any{sql.Named("tournament", t.ID),
			sql.Named("rank", p.Rank), sql.Named("player", p.PlayerID)}})
	}
	for _, p := range placements {
		stmts = append(stmts, Stmt{SQL: q("insert_placement"), Args: []any{sql.Named("tournament", t.ID),
			sql.Named("player", p.PlayerID), sql.Named("place", p.Place), sql.Named("points", p.Points)}})
	}
	if err := s.db.Batch(ctx, stmts...); err != nil {
		return fmt.Errorf("store: unable to complete %s: %w", t.Slug, err)
	}
	t.Status = core.StatusCompleted
	return nil
}

// Podium returns the completed tournament's podium by rank.
func (s *Arena) Podium(ctx context.Context, tournamentID int64) ([]core.PodiumPlace, error) {
	rows, err := s.db.query(ctx, q("podium"), sql.Named("tournament", tournamentID))
	if err != nil {
		return nil, fmt.Errorf("store: unable to read podium: %w", err)
	}
	defer rows.Close()
	var out []core.PodiumPlace
	for rows.Next() {
		var p core.PodiumPlace
		if err := rows.Scan(&p.Rank, &p.PlayerID); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

var _ core.CheckInStore = (*Arena)(nil)

// CheckOut implements core.CheckInStore in one conditional statement.
func (s *Arena) CheckOut(ctx context.Context, t *core.Tournament, captain string) (bool, error) {
	var id string
	err := s.db.writeRow(ctx, q("check_out"), sql.Named("tournament", t.ID), sql.Named("captain", captain)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: unable to check %s out of %s: %w", captain, t.Slug, err)
	}
	return true, nil
}

// CheckIn implements core.CheckInStore in one conditional statement.
func (s *Arena) CheckIn(ctx context.Context, t *core.Tournament, captain string, at time.Time) (bool, error) {
	var id string
	err := s.db.writeRow(ctx, q("check_in"), sql.Named("at", formatTime(at)), sql.Named("tournament", t.ID),
		sql.Named("captain", captain)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: unable to check %s in to %s: %w", captain, t.Slug, err)
	}
	return true, nil
}

// MatchWithTournament reads a match and its tournament in one ReadAll
// (the tournament keyed by the match's id): what deciding or reopening a
// match works on. The request's planned read of them when it planned one
// (PlanMatchWithTournament).
func (s *Arena) MatchWithTournament(ctx context.Context, id int64) (*core.Match, *core.Tournament, error) {
	mt, err := readPlanned(ctx, s.db, matchWithTournamentKey(id), func() (*matchWithTournament, []Read) { return matchWithTournamentReads(id) })
	switch {
	case err != nil:
		return nil, nil, fmt.Errorf("store: unable to read match %d: %w", id, err)
	case mt.match == nil:
		return nil, nil, core.Errorf(core.CodeMatchNotFound, "no match %d", id)
	case mt.tournament == nil:
		return nil, nil, core.Errorf(core.CodeTournamentNotFound, "no tournament of match %d", id)
	}
	return mt.match, mt.tournament, nil
}

// PlanMatchWithTournament plans MatchWithTournament's reads with the
// request's first ReadAll (plan.go).
func (s *Arena) PlanMatchWithTournament(ctx context.Context, id int64) {
	planAhead(ctx, s.db, matchWithTournamentKey(id), func() (*matchWithTournament, []Read) { return matchWithTournamentReads(id) })
}

type matchWithTournament struct {
	match      *core.Match
	tournament *core.Tournament
}

func matchWithTournamentKey(id int64) string { return fmt.Sprintf("match_with_tournament %d", id) }

// matchWithTournamentReads are MatchWithTournament's reads.
func matchWithTournamentReads(id int64) (*matchWithTournament, []Read) {
	var mt matchWithTournament
	arg := sql.Named("match", id)
	return &mt, []Read{
		{SQL: q("match_columns") + " WHERE id = :match", Args: []any{arg}, Row: func(row scanner) (err error) {
			mt.match, err = scanMatch(row)
			return err
		}},
		{SQL: q("tournament_columns") + " WHERE t.id = (SELECT tournament_id FROM matches WHERE id = :match)", Args: []any{arg},
			Row: func(row scanner) (err error) {
				mt.tournament, err = scanTournament(row)
				return err
			}},
	}
}
