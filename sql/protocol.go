package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"arena/core"
	"arena/core/tournamentview"
)

var (
	_ core.ProtocolStore    = (*Arena)(nil)
	_ core.MatchStateReader = (*Arena)(nil)
	_ core.ResultStore      = (*Arena)(nil)
	_ core.QueueStore       = (*Arena)(nil)
)

// matchStateByID is the match_state query of one match, put together
// once (ready and every submission run it).
var matchStateByID = sync.OnceValue(func() string { return q("match_state") + " WHERE m.id = :match" })

// MatchState implements core.ProtocolStore: one query, on the writer's
// connection locally (the match is about to be written: readOnWriter).
func (s *Arena) MatchState(ctx context.Context, id int64) (*core.MatchState, error) {
	var raw matchStateRow
	var err error
	if s.db.Local {
		err = s.db.readOnWriter(ctx, raw.scan, matchStateByID(), sql.Named("match", id))
	} else { // a ReadAll: what the route planned goes with it (plan.go)
		found := false
		err = s.db.ReadAll(ctx, Read{SQL: matchStateByID(), Args: []any{sql.Named("match", id)}, Row: func(row Scanner) error {
			found = true
			return raw.scan(row)
		}})
		if err == nil && !found {
			err = sql.ErrNoRows
		}
	}
	var st *core.MatchState
	if err == nil {
		st, err = raw.state()
	}
	if errors.Is(err, sql.ErrNoRows) {
		return nil, core.Errorf(core.CodeMatchNotFound, "no match %d", id)
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to read match %d: %w", id, err)
	}
	return st, nil
}

// matchStateAndSeqByID reads a match as match_state does, with the event
// log's last seq (log_seq, LogSeq's query) in the same statement: one
// snapshot, one round trip.
var matchStateAndSeqByID = sync.OnceValue(func() string {
	return "SELECT x.*, (" + q("log_seq") + ") FROM (" + matchStateByID() + ") x"
})

// MatchStateAndLogSeq is MatchState with the event log's last seq when
// the match was read (core.EventLogStore's LogSeq, read in the same
// statement): where a match page's live stream starts, so an event the
// page may have missed is replayed to it, at no extra round trip.
func (s *Arena) MatchStateAndLogSeq(ctx context.Context, id int64) (*core.MatchState, int64, error) {
	var raw matchStateRow
	var seq int64
	err := s.db.readOnWriter(ctx, func(row scanner) error { return row.Scan(append(raw.dest(), &seq)...) },
		matchStateAndSeqByID(), sql.Named("match", id))
	var st *core.MatchState
	if err == nil {
		st, err = raw.state()
	}
	if errors.Is(err, sql.ErrNoRows) {
		return nil, 0, core.Errorf(core.CodeMatchNotFound, "no match %d", id)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("store: unable to read match %d: %w", id, err)
	}
	return st, seq, nil
}

// PlayerMatches implements core.ProtocolStore.
func (s *Arena) PlayerMatches(ctx context.Context, platformID string, statuses ...core.MatchStatus) ([]core.MatchState, error) {
	// A ReadAll: what the route planned goes with it (plan.go).
	out, err := readPlanned(ctx, s.db, playerMatchesKey(platformID, statuses), func() (*[]core.MatchState, []Read) {
		return playerMatchesRead(platformID, statuses)
	})
	if err != nil {
		return nil, fmt.Errorf("store: unable to find the player's matches: %w", err)
	}
	return *out, nil
}

// PlanPlayerMatches plans PlayerMatches' read with the request's first
// ReadAll (plan.go).
func (s *Arena) PlanPlayerMatches(ctx context.Context, platformID string, statuses ...core.MatchStatus) {
	planAhead(ctx, s.db, playerMatchesKey(platformID, statuses), func() (*[]core.MatchState, []Read) {
		return playerMatchesRead(platformID, statuses)
	})
}

func playerMatchesKey(platformID string, statuses []core.MatchStatus) string {
	return fmt.Sprintf("player_matches %s %v", platformID, statuses)
}

func playerMatchesRead(platformID string, statuses []core.MatchStatus) (*[]core.MatchState, []Read) {
	list, _ := json.Marshal(statuses) // a string list always marshals
	return rowsRead(q("match_state")+" "+q("player_matches_where")+" ORDER BY m.opens_at, m.id",
		[]any{sql.Named("player", platformID), sql.Named("statuses", string(list))}, scanMatchState)
}

// PlanPlayerCasters plans the read of the casters seated on the player's
// matches in statuses, with the request's first ReadAll (plan.go): a game
// client's live match is answered with its casters in one round trip.
// The function returned gives them by match.
func (s *Arena) PlanPlayerCasters(ctx context.Context, platformID string, statuses ...core.MatchStatus) func(context.Context) (map[int64][]core.CasterSeat, error) {
	key := fmt.Sprintf("player_casters %s %v", platformID, statuses)
	build := func() (map[int64][]core.CasterSeat, []Read) {
		list, _ := json.Marshal(statuses)
		out := map[int64][]core.CasterSeat{}
		return out, []Read{{SQL: q("player_casters") + " (SELECT m.id FROM matches m " + q("player_matches_where") + ") " + q("player_casters_order"),
			Args: []any{sql.Named("player", platformID), sql.Named("statuses", string(list))}, Row: func(row Scanner) error {
				c, err := scanCasterSeat(row)
				out[c.MatchID] = append(out[c.MatchID], c)
				return err
			}}}
	}
	planAhead(ctx, s.db, key, build)
	return func(ctx context.Context) (map[int64][]core.CasterSeat, error) {
		out, err := readPlanned(ctx, s.db, key, build)
		if err != nil {
			return nil, fmt.Errorf("store: unable to list casters: %w", err)
		}
		return out, nil
	}
}

// AttentionMatches implements core.QueueStore.
func (s *Arena) AttentionMatches(ctx context.Context, c core.StaleCutoffs) ([]core.MatchState, error) {
	out, err := s.matchStates(ctx, q("attention_where")+" ORDER BY m.closes_at, m.id",
		sql.Named("closes_by", formatTime(c.ClosesBy)), sql.Named("live_by", liveByArg(c)))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list matches needing attention: %w", err)
	}
	return out, nil
}

// matchStates runs the match_state query with a WHERE ... ORDER BY tail.
func (s *Arena) matchStates(ctx context.Context, tail string, args ...any) ([]core.MatchState, error) {
	rows, err := s.db.query(ctx, q("match_state")+" "+tail, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []core.MatchState
	for rows.Next() {
		st, err := scanMatchState(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *st)
	}
	return out, rows.Err()
}

func scanMatchState(row scanner) (*core.MatchState, error) {
	var raw matchStateRow
	if err := raw.scan(row); err != nil {
		return nil, err
	}
	return raw.state()
}

// matchStateRow is a match_state row as read: scan copies it out (all a
// read on the writer does while the writer waits), state makes it a
// core.MatchState.
type matchStateRow struct {
	st                              core.MatchState
	status, opens, closes, env, f   string
	s1, s2                          sql.NullInt64
	p1r, p2r, live, ended, resolved sql.NullString
	roster1, roster2                string
	games                           string
}

func (r *matchStateRow) scan(row scanner) error { return row.Scan(r.dest()...) }

// dest is where a match_state row's columns go, in order.
func (r *matchStateRow) dest() []any {
	st, m := &r.st, &r.st.Match
	t := &st.Tournament
	return []any{&m.ID, &m.TournamentID, &m.Stage, &m.Round, &m.RoundNumber, &m.GroupName, &m.BracketSlot,
		&r.status, &m.P1, &m.P2, &r.opens, &r.closes, &m.Winner, &r.s1, &r.s2, &m.ResultSource,
		&m.WinnerTo.BracketSlot, &m.WinnerTo.Side, &m.LoserTo.BracketSlot, &m.LoserTo.Side,
		&m.SessionNonce, &m.GameSeed, &r.p1r, &r.p2r, &r.live, &r.ended, &r.resolved,
		&t.Slug, &t.Name, &r.env, &t.TeamMinPlayers, &t.TeamMaxPlayers, &t.Cast.HandMode, &t.Cast.DelaySeconds,
		&t.AllowSpectators, &r.roster1, &r.roster2, &st.SubmittedHash[1], &st.SubmittedHash[2],
		&st.ConsentsGranted, &st.P1Name, &st.P2Name, &r.f, &m.BestOf, &r.games, &t.GracePeriodMinutes}
}

func (r *matchStateRow) state() (*core.MatchState, error) {
	st := &r.st
	m, t := &st.Match, &st.Tournament
	var err error
	t.ID, t.Environment, t.Format = m.TournamentID, core.Environment(r.env), core.TournamentFormat(r.f)
	m.Status = core.MatchStatus(r.status)
	if r.s1.Valid && r.s2.Valid {
		m.Score = &core.OutcomeScore{P1: int(r.s1.Int64), P2: int(r.s2.Int64)}
	}
	if m.OpensAt, err = parseTime(r.opens); err != nil {
		return nil, err
	}
	if m.ClosesAt, err = parseTime(r.closes); err != nil {
		return nil, err
	}
	for _, p := range []struct {
		dst **time.Time
		src sql.NullString
	}{{&m.P1ReadyAt, r.p1r}, {&m.P2ReadyAt, r.p2r}, {&m.LiveAt, r.live}, {&m.EndedAt, r.ended}, {&m.ResolvedAt, r.resolved}} {
		if *p.dst, err = parseNullTime(p.src); err != nil {
			return nil, err
		}
	}
	if m.Games, err = parseGames(r.games); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(r.roster1), &st.P1Roster); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(r.roster2), &st.P2Roster); err != nil {
		return nil, err
	}
	st.P1Roster, st.P2Roster = captainFirst(m.P1, st.P1Roster), captainFirst(m.P2, st.P2Roster)
	return st, nil
}

// captainFirst orders a roster captain first, the rest as stored. A side
// with no roster rows (a match seeded outside registration) is its captain.
func captainFirst(captain string, roster []string) []string {
	if captain == "" {
		return []string{}
	}
	out := []string{captain}
	for _, id := range roster {
		if id != captain {
			out = append(out, id)
		}
	}
	return out
}

// MarkReady implements core.ProtocolStore: one conditional statement marks
// the side ready and, when the other side already is, takes the match live
// with the nonce and seed. It answers CodePastReadyPhase when the match
// left the ready phase (or its window) meanwhile.
func (s *Arena) MarkReady(ctx context.Context, matchID int64, side int, now time.Time, nonce string, seed int64) (core.ReadyOutcome, error) {
	at := formatTime(now)
	var status string
	var p1, p2 bool
	err := s.db.writeRow(ctx, q("mark_ready"),
		sql.Named("side", side), sql.Named("at", at), sql.Named("nonce", nonce), sql.Named("seed", seed),
		sql.Named("match", matchID)).Scan(&status, &p1, &p2)
	if errors.Is(err, sql.ErrNoRows) {
		return core.ReadyOutcome{}, core.Errorf(core.CodePastReadyPhase, "match %d left the ready phase", matchID)
	}
	if err != nil {
		return core.ReadyOutcome{}, fmt.Errorf("store: unable to mark ready: %w", err)
	}
	out := core.ReadyOutcome{Status: core.MatchStatus(status), OpponentReady: p2}
	if side == 2 {
		out.OpponentReady = p1
	}
	out.Live = out.Status == core.MatchLive
	return out, nil
}

// SubmitResult implements core.ResultStore: one batch stores the side's
// submission (only while the match is live, first submission per side
// wins), reconciles the match (awaiting_result, confirmed or disputed)
// and, when that confirmed the match, seats the winner (and loser) in the
// bracket or crowns a title match's winner (decisionStmts); the batch's
// last statement reads what happened, in the same transaction and
// request: the match's status is the one this submission produced when
// the side's stored submission carries this batch's token.
func (s *Arena) SubmitResult(ctx context.Context, st *core.MatchState, rec core.SubmissionRecord, then *core.Completion) (core.StoredSubmission, error) {
	at := formatTime(rec.ReceivedAt)
	p1, p2 := scoreArgs(rec.Score)
	stmts := []Stmt{
		{SQL: q("insert_submission"), Args: []any{
			sql.Named("match", rec.MatchID), sql.Named("side", rec.Side),
			sql.Named("submitter", rec.SubmitterID), sql.Named("app", rec.AppID),
			sql.Named("result", rec.Result), sql.Named("result_hash", rec.ResultHash),
			sql.Named("winner", rec.WinnerID), sql.Named("winner_side", rec.WinnerSideID),
			sql.Named("client_role", nullString(rec.ClientRole)),
			sql.Named("started_at", nullTime(rec.StartedAt)), sql.Named("ended_at", nullTime(rec.EndedAt)),
			sql.Named("at", at), sql.Named("token", rec.Token), sql.Named("p1", p1), sql.Named("p2", p2),
			sql.Named("session_nonce", st.SessionNonce),
		}},
		{SQL: q("reconcile"), Args: []any{sql.Named("at", at), sql.Named("match", rec.MatchID)}},
	}
	shape := shapeOf(st)
	if shape.series {
		game := Stmt{SQL: q("series_game_agreed"), Args: []any{sql.Named("match", rec.MatchID), sql.Named("at", at)}}
		stmts = append(append(stmts[:1:1], game, stmts[1]), seriesNextGameStmts(rec.MatchID, at)...)
	}
	stmts = append(stmts, decisionStmtsFor(shape, at)...)
	var status, token, hash string
	read := "submission_outcome"
	if shape.series {
		read = "series_submission_outcome"
	}
	outcome := Stmt{SQL: q(read), Args: []any{sql.Named("side", rec.Side),
		sql.Named("match", rec.MatchID)}}
	dest := []any{&status, &token, &hash}
	var settled int64
	if then != nil {
		// The completion worked out ahead, on its condition; the read
		// says whether the condition held after it.
		stmts = append(stmts, completionAhead(then)...)
		outcome.SQL = "SELECT o.*, " + q(playFingerprint) + " FROM (" + outcome.SQL + ") o"
		outcome.Args = append(outcome.Args, completionCondition(then)...)
		dest = append(dest, &settled)
	}
	if err := s.db.BatchRead(ctx, outcome, dest, stmts...); err != nil {
		return core.StoredSubmission{}, fmt.Errorf("store: unable to store the submission: %w", err)
	}
	return core.StoredSubmission{MatchStatus: core.MatchStatus(status), Token: token, Hash: hash, Settled: settled == 1}, nil
}

// playFingerprint names the condition of a completion worked out ahead
// (core.Completion), an expression spliced into the statements it guards.
const playFingerprint = "play_fingerprint"

// completionCondition is the arguments of playFingerprint for c.
func completionCondition(c *core.Completion) []any {
	return []any{sql.Named("tournament", c.Tournament.ID), sql.Named("matches_after", c.Matches),
		sql.Named("sides_after", c.Sides)}
}

// completionAhead is c's statements: with c.Done, the tournament's
// completion on c's condition (complete_tournament_ahead), then its podium
// and placements if that completed it; nothing without.
func completionAhead(c *core.Completion) []Stmt {
	if !c.Done {
		return nil
	}
	at, id := sql.Named("at", formatTime(c.At)), sql.Named("tournament", c.Tournament.ID)
	stmts := []Stmt{{SQL: q("complete_tournament_ahead") + " " + q(playFingerprint), Args: append([]any{at}, completionCondition(c)...)}}
	for _, p := range c.Podium {
		stmts = append(stmts, Stmt{SQL: q("insert_podium_ahead"), Args: []any{id, at,
			sql.Named("rank", p.Rank), sql.Named("player", p.PlayerID)}})
	}
	for _, p := range c.Placements {
		stmts = append(stmts, Stmt{SQL: q("insert_placement_ahead"), Args: []any{id, at,
			sql.Named("player", p.PlayerID), sql.Named("place", p.Place), sql.Named("points", p.Points)}})
	}
	return stmts
}

// MatchPlay implements core.ResultStore: the route's planned read
// (PlanMatchPlay) when it planned one.
func (s *Arena) MatchPlay(ctx context.Context, matchID int64) (*core.Tournament, []core.Registration, []core.Match, error) {
	p, err := readPlanned(ctx, s.db, matchPlayKey(matchID), func() (*tournamentview.Parts, []Read) { return matchPlayReads(matchID) })
	if err != nil {
		return nil, nil, nil, fmt.Errorf("store: unable to read the tournament of match %d: %w", matchID, err)
	}
	if p.Tournament == nil {
		return nil, nil, nil, nil
	}
	for i := range p.Registrations {
		p.Registrations[i].TournamentID = p.Tournament.ID
	}
	return p.Tournament, p.Registrations, p.Matches, nil
}

// PlanMatchPlay plans MatchPlay's reads with the request's first ReadAll
// (plan.go): a result submission reads them with the match.
func (s *Arena) PlanMatchPlay(ctx context.Context, matchID int64) {
	planAhead(ctx, s.db, matchPlayKey(matchID), func() (*tournamentview.Parts, []Read) { return matchPlayReads(matchID) })
}

func matchPlayKey(id int64) string { return fmt.Sprintf("match_play %d", id) }

// matchPlayQueries are MatchPlay's: the tournament, its sides and its
// matches (TournamentParts' first three) of an awaiting final or small
// final, keyed by the match's id; no rows for any other match.
var matchPlayQueries = sync.OnceValue(func() []string {
	return partsQueries("(SELECT tournament_id FROM matches WHERE id = :match AND status = '" + string(core.MatchAwaitingResult) +
		"' AND stage IN ('" + string(core.StageFinal) + "', '" + string(core.StageSmallFinal) + "'))")
})

// matchPlayReads are MatchPlay's reads and the parts they fill.
func matchPlayReads(id int64) (*tournamentview.Parts, []Read) {
	p, reads := partsFrom(matchPlayQueries(), sql.Named("match", id))
	return p, reads[:3]
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// Submissions returns a match's stored submissions.
func (s *Arena) Submissions(ctx context.Context, matchID int64) ([]core.SubmissionRecord, error) {
	rows, err := s.db.query(ctx, q("submissions"), sql.Named("match", matchID))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list submissions: %w", err)
	}
	defer rows.Close()
	var out []core.SubmissionRecord
	for rows.Next() {
		var r core.SubmissionRecord
		var started, ended sql.NullString
		var received string
		var p1, p2 sql.NullInt64
		if err := rows.Scan(&r.MatchID, &r.Side, &r.SubmitterID, &r.AppID, &r.Result, &r.ResultHash, &r.WinnerID,
			&r.WinnerSideID, &r.ClientRole, &started, &ended, &received, &p1, &p2); err != nil {
			return nil, err
		}
		if p1.Valid && p2.Valid {
			r.Score = &core.OutcomeScore{P1: int(p1.Int64), P2: int(p2.Int64)}
		}
		if r.StartedAt, err = parseNullTime(started); err != nil {
			return nil, err
		}
		if r.EndedAt, err = parseNullTime(ended); err != nil {
			return nil, err
		}
		if r.ReceivedAt, err = parseTime(received); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// GraceExpired implements core.ResultStore.
func (s *Arena) GraceExpired(ctx context.Context, now time.Time, arenaGrace time.Duration) ([]int64, error) {
	return s.ids(ctx, q("grace_expired"), sql.Named("now", formatTime(now)),
		sql.Named("arena_grace_seconds", int64(arenaGrace/time.Second)))
}

func (s *Arena) ids(ctx context.Context, query string, args ...any) ([]int64, error) {
	rows, err := s.db.query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: unable to list matches: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// ConfirmSingleSubmission implements core.ResultStore.
func (s *Arena) ConfirmSingleSubmission(ctx context.Context, matchID int64, at time.Time, token string) (bool, error) {
	game := Stmt{SQL: q("series_game_single"), Args: []any{sql.Named("match", matchID), sql.Named("at", formatTime(at))}}
	return s.decideGame(ctx, matchID, token, at, &game, Stmt{SQL: q("confirm_single_submission"),
		Args: []any{sql.Named("at", formatTime(at)), sql.Named("token", token), sql.Named("match", matchID)}})
}

// ReadySideAtClose implements core.ResultStore.
func (s *Arena) ReadySideAtClose(ctx context.Context, now time.Time) (map[int64]string, error) {
	rows, err := s.db.query(ctx, q("one_side_ready_closed"), sql.Named("now", formatTime(now)))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list closed windows: %w", err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var ready string
		if err := rows.Scan(&id, &ready); err != nil {
			return nil, err
		}
		out[id] = ready
	}
	return out, rows.Err()
}

// ForfeitUnready implements core.ResultStore.
func (s *Arena) ForfeitUnready(ctx context.Context, matchID int64, winner string, now time.Time, token string) (bool, error) {
	at := formatTime(now)
	return s.decide(ctx, matchID, token, now, Stmt{SQL: q("forfeit_unready"),
		Args: []any{sql.Named("winner", winner), sql.Named("at", at), sql.Named("token", token),
			sql.Named("match", matchID)}})
}

// SetRefereeConsent records a player's AI-referee training consent.
func (s *Arena) SetRefereeConsent(ctx context.Context, platformID string, granted bool, at time.Time) error {
	if _, err := s.db.write(ctx, q("set_consent"), sql.Named("player", platformID),
		sql.Named("granted", granted), sql.Named("at", formatTime(at))); err != nil {
		return fmt.Errorf("store: unable to store consent: %w", err)
	}
	return nil
}
