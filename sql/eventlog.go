package store

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"arena/core"
)

// The public event log (queries/eventlog.sql): the store's side of
// core.EventLogStore. Events are appended by the triggers of
// migrations/arena/0020_event_log.sql.

// logSigningKeySetting is the arena setting holding the log's Ed25519
// seed (base64).
const logSigningKeySetting = "log_signing_key"

// ReadLog implements core.EventLogStore: the log's end, its head, its
// first unsealed events and the page of sealed ones, as one ReadAll.
func (s *Arena) ReadLog(ctx context.Context, after int64, limit, unsealed int) (core.LogView, error) {
	var v core.LogView
	events := func(into *[]core.LogEvent, sealed bool) func(Scanner) error {
		return func(row Scanner) error {
			var e core.LogEvent
			cols := logEventColumns{event: &e}
			if err := row.Scan(cols.dest(sealed)...); err != nil {
				return err
			}
			cols.fill()
			*into = append(*into, e)
			return nil
		}
	}
	var head []core.LogEvent
	reads := []Read{
		{SQL: q("log_seq"), Row: func(row Scanner) error { return row.Scan(&v.End) }},
		{SQL: q("log_head"), Row: events(&head, true)},
		{SQL: q("log_unsealed"), Args: []any{sql.Named("limit", unsealed)}, Row: events(&v.Unsealed, false)},
	}
	if limit > 0 {
		reads = append(reads, Read{SQL: q("log_events"), Args: []any{sql.Named("after", after), sql.Named("limit", limit)},
			Row: events(&v.Events, true)})
	}
	if err := s.db.ReadAll(ctx, reads...); err != nil {
		return core.LogView{}, fmt.Errorf("store: unable to read the event log: %w", err)
	}
	if len(head) > 0 {
		v.Head = &head[0]
	}
	return v, nil
}

// SealEvents implements core.EventLogStore.
func (s *Arena) SealEvents(ctx context.Context, events []core.LogEvent, tree []core.TreeHash) error {
	stmts := make([]Stmt, len(events), len(events)+1)
	for i, e := range events {
		stmts[i] = Stmt{SQL: q("log_seal"), Args: []any{sql.Named("prev_hash", e.PrevHash), sql.Named("hash", e.Hash),
			sql.Named("seq", e.Seq)}}
	}
	if len(tree) > 0 {
		rows := make([][2]any, len(tree))
		for i, h := range tree {
			rows[i] = [2]any{h.Index, hex.EncodeToString(h.Hash[:])}
		}
		raw, err := json.Marshal(rows)
		if err != nil {
			return err
		}
		stmts = append(stmts, Stmt{SQL: q("log_tree_add"), Args: []any{sql.Named("hashes", string(raw))}})
	}
	if err := s.db.Batch(ctx, stmts...); err != nil {
		return fmt.Errorf("store: unable to seal the event log: %w", err)
	}
	return nil
}

// TreeHashes implements core.EventLogStore.
func (s *Arena) TreeHashes(ctx context.Context, indexes []int64) ([]core.TreeHash, error) {
	raw, err := json.Marshal(indexes)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.query(ctx, q("log_tree_read"), sql.Named("indexes", string(raw)))
	if err != nil {
		return nil, fmt.Errorf("store: unable to read the event log's tree: %w", err)
	}
	defer rows.Close()
	var out []core.TreeHash
	for rows.Next() {
		var h core.TreeHash
		var text string
		if err := rows.Scan(&h.Index, &text); err != nil {
			return nil, err
		}
		if b, err := hex.DecodeString(text); err != nil || len(b) != len(h.Hash) {
			return nil, fmt.Errorf("store: the event log's tree hash %d is malformed", h.Index)
		} else {
			copy(h.Hash[:], b)
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// DecidingEvent returns the seq of the match's deciding event (0: none)
// and whether the match exists.
func (s *Arena) DecidingEvent(ctx context.Context, match int64) (core.MatchStatus, int64, bool, error) {
	var status core.MatchStatus
	var seq sql.NullInt64
	err := s.db.queryRow(ctx, q("log_deciding"), sql.Named("match", match)).Scan(&status, &seq)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, false, nil
	}
	if err != nil {
		return "", 0, false, fmt.Errorf("store: unable to read the event log: %w", err)
	}
	return status, seq.Int64, true, nil
}

// Events implements core.EventLogStore.
func (s *Arena) Events(ctx context.Context, after int64, limit int) ([]core.LogEvent, error) {
	return s.logEvents(ctx, q("log_events"), true, sql.Named("after", after), sql.Named("limit", limit))
}

// LogSeq is the last event's seq, sealed or not (0: none): where a
// page's live stream starts.
func (s *Arena) LogSeq(ctx context.Context) (int64, error) {
	var seq int64
	if err := s.db.queryRow(ctx, q("log_seq")).Scan(&seq); err != nil {
		return 0, fmt.Errorf("store: unable to read the event log: %w", err)
	}
	return seq, nil
}

// LogSigningKey implements core.EventLogStore.
func (s *Arena) LogSigningKey(ctx context.Context, fresh []byte) ([]byte, error) {
	var stored string
	found, err := s.Setting(ctx, logSigningKeySetting, &stored)
	if err != nil {
		return nil, err
	}
	if !found {
		value := `"` + base64.StdEncoding.EncodeToString(fresh) + `"`
		if _, err := s.db.write(ctx, q("log_key_create"), sql.Named("value", value)); err != nil {
			return nil, fmt.Errorf("store: unable to store the log signing key: %w", err)
		}
		if found, err = s.Setting(ctx, logSigningKeySetting, &stored); err != nil {
			return nil, err
		}
		if !found {
			return nil, errors.New("store: the log signing key was not stored")
		}
	}
	seed, err := base64.StdEncoding.DecodeString(stored)
	if err != nil {
		return nil, fmt.Errorf("store: the log signing key is malformed: %w", err)
	}
	return seed, nil
}

// logEvents reads events; sealed says the rows carry prev_hash and hash.
func (s *Arena) logEvents(ctx context.Context, query string, sealed bool, args ...any) ([]core.LogEvent, error) {
	rows, err := s.db.query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: unable to read the event log: %w", err)
	}
	defer rows.Close()
	var out []core.LogEvent
	for rows.Next() {
		var e core.LogEvent
		cols := logEventColumns{event: &e}
		if err := rows.Scan(cols.dest(sealed)...); err != nil {
			return nil, err
		}
		cols.fill()
		out = append(out, e)
	}
	return out, rows.Err()
}

// logEventColumns scans an event's columns (seq, at, type,
// tournament_slug, match_id, data and, sealed, prev_hash and hash) into
// event: dest before the scan, fill after.
type logEventColumns struct {
	event *core.LogEvent
	slug  sql.NullString
	match sql.NullInt64
	data  string
}

func (c *logEventColumns) dest(sealed bool) []any {
	e := c.event
	dest := []any{&e.Seq, &e.At, &e.Type, &c.slug, &c.match, &c.data}
	if sealed {
		dest = append(dest, &e.PrevHash, &e.Hash)
	}
	return dest
}

func (c *logEventColumns) fill() {
	if c.slug.Valid {
		c.event.Tournament = &c.slug.String
	}
	if c.match.Valid {
		c.event.MatchID = &c.match.Int64
	}
	c.event.Data = []byte(c.data)
}
