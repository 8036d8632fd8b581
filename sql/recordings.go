package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"arena/core"
)

var _ core.RecordingStore = (*Arena)(nil)

// InitMatchRecording implements core.RecordingStore: one upsert, plus a
// read of the recording (and of a finalized one's id).
func (s *Arena) InitMatchRecording(ctx context.Context, r *core.Recording) (*core.Recording, error) {
	var id int64
	err := s.db.writeRow(ctx, q("init_match_recording"), sql.Named("match", r.MatchID),
		sql.Named("game", r.Game), sql.Named("nonce", r.Nonce), sql.Named("uploader", r.UploaderID), sql.Named("scope", r.Scope),
		sql.Named("visibility", r.Visibility), sql.Named("game_build", r.GameBuild),
		sql.Named("duration_ms", r.DurationMs), sql.Named("object_key", r.ObjectKey),
		sql.Named("max_bytes", r.MaxBytes), sql.Named("created_at", formatTime(r.CreatedAt))).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) { // finalized: the upsert matched nothing
		err = s.db.queryRow(ctx, q("match_recording_of"), sql.Named("match", r.MatchID),
			sql.Named("uploader", r.UploaderID), sql.Named("nonce", r.Nonce)).Scan(&id)
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to init the recording of match %d: %w", r.MatchID, err)
	}
	return s.Recording(ctx, id)
}

// CreateCasualRecording implements core.RecordingStore.
func (s *Arena) CreateCasualRecording(ctx context.Context, r *core.Recording, perDay int, since time.Time) error {
	err := s.db.writeRow(ctx, q("create_casual_recording"), sql.Named("uploader", r.UploaderID),
		sql.Named("scope", r.Scope), sql.Named("visibility", r.Visibility),
		sql.Named("game_build", r.GameBuild), sql.Named("duration_ms", r.DurationMs),
		sql.Named("object_key", r.ObjectKey), sql.Named("max_bytes", r.MaxBytes),
		sql.Named("created_at", formatTime(r.CreatedAt)), sql.Named("since", formatTime(since)),
		sql.Named("per_day", perDay)).Scan(&r.ID)
	if errors.Is(err, sql.ErrNoRows) {
		return core.Errorf(core.CodeCasualQuotaExceeded, "at most %d casual recordings a day", perDay)
	}
	if err != nil {
		return fmt.Errorf("store: unable to create a casual recording: %w", err)
	}
	return nil
}

// Recording implements core.RecordingStore.
func (s *Arena) Recording(ctx context.Context, id int64) (*core.Recording, error) {
	r, err := scanRecording(s.db.queryRow(ctx, q("recording_columns")+" WHERE id = :recording",
		sql.Named("recording", id)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, core.Errorf(core.CodeRecordingNotFound, "no recording %d", id)
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to read recording %d: %w", id, err)
	}
	return r, nil
}

// MarkRecordingReady implements core.RecordingStore: one batch (the
// claim, the upload's removal scheduled, the copy's cancelled) and the
// read of whether it claimed.
func (s *Arena) MarkRecordingReady(ctx context.Context, id int64, c core.CheckedObject, gameBuild string, durationMs int64, at time.Time) (bool, error) {
	var claimed int64
	err := s.db.BatchRead(ctx, Stmt{SQL: q("recording_claimed"), Args: []any{sql.Named("recording", id),
		sql.Named("key", c.Key)}}, []any{&claimed},
		Stmt{SQL: q("mark_recording_ready"), Args: []any{sql.Named("recording", id), sql.Named("key", c.Key),
			sql.Named("size", c.Size), sql.Named("game_build", gameBuild),
			sql.Named("duration_ms", durationMs), sql.Named("at", formatTime(at))}},
		Stmt{SQL: q("recording_upload_removal"), Args: []any{sql.Named("recording", id),
			sql.Named("key", c.Key), sql.Named("upload_removal_due", formatTime(c.UploadRemovalDue))}},
		Stmt{SQL: q("cancel_recording_copy_removal"), Args: []any{sql.Named("recording", id), sql.Named("key", c.Key)}})
	if err != nil {
		return false, fmt.Errorf("store: unable to finalize recording %d: %w", id, err)
	}
	return claimed == 1, nil
}

// UploadFinalized implements core.RecordingStore.
func (s *Arena) UploadFinalized(ctx context.Context, key string) (bool, error) {
	var done bool
	if err := s.db.queryRow(ctx, q("upload_finalized"), sql.Named("key", key)).Scan(&done); err != nil {
		return false, fmt.Errorf("store: unable to read the state of upload %s: %w", key, err)
	}
	return done, nil
}

// ScheduleObjectRemoval implements core.RecordingStore.
func (s *Arena) ScheduleObjectRemoval(ctx context.Context, key string, due time.Time) error {
	if _, err := s.db.write(ctx, q("schedule_object_removal"), sql.Named("key", key),
		sql.Named("due", formatTime(due))); err != nil {
		return fmt.Errorf("store: unable to schedule the removal of %s: %w", key, err)
	}
	return nil
}

// DueObjectRemovals implements core.RecordingStore.
func (s *Arena) DueObjectRemovals(ctx context.Context, now time.Time, limit int) ([]string, error) {
	rows, err := s.db.query(ctx, q("due_object_removals"), sql.Named("now", formatTime(now)), sql.Named("limit", limit))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list due object removals: %w", err)
	}
	defer rows.Close()
	var keys []string
	for rows.Next() {
		var key string
		if err := rows.Scan(&key); err != nil {
			return nil, err
		}
		keys = append(keys, key)
	}
	return keys, rows.Err()
}

// ForgetObjectRemovals implements core.RecordingStore: one batch.
func (s *Arena) ForgetObjectRemovals(ctx context.Context, keys []string, now time.Time) error {
	stmts := make([]Stmt, len(keys))
	for i, key := range keys {
		stmts[i] = Stmt{SQL: q("forget_object_removal"), Args: []any{sql.Named("key", key),
			sql.Named("now", formatTime(now))}}
	}
	if err := s.db.Batch(ctx, stmts...); err != nil {
		return fmt.Errorf("store: unable to record object removals: %w", err)
	}
	return nil
}

// ShareRecording makes the recording visible by link with token,
// unless it has a token already: it returns the token in force.
func (s *Arena) ShareRecording(ctx context.Context, id int64, token string) (string, error) {
	var got string
	err := s.db.writeRow(ctx, q("share_recording"), sql.Named("token", token), sql.Named("recording", id)).Scan(&got)
	if errors.Is(err, sql.ErrNoRows) {
		return "", core.Errorf(core.CodeRecordingNotFound, "no recording %d", id)
	}
	if err != nil {
		return "", fmt.Errorf("store: unable to share recording %d: %w", id, err)
	}
	return got, nil
}

// RecordingsOf returns what the account uploaded plus the recordings
// of matches it played (on either side's roster), newest first, at
// most limit.
func (s *Arena) RecordingsOf(ctx context.Context, platformID string, limit int) ([]core.Recording, error) {
	rows, err := s.db.query(ctx, q("recording_columns")+" "+q("recordings_of_where"),
		sql.Named("player", platformID), sql.Named("limit", limit))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list recordings: %w", err)
	}
	defer rows.Close()
	var out []core.Recording
	for rows.Next() {
		r, err := scanRecording(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *r)
	}
	return out, rows.Err()
}

func scanRecording(row scanner) (*core.Recording, error) {
	var (
		r       core.Recording
		created string
		ready   sql.NullString
	)
	err := row.Scan(&r.ID, &r.MatchID, &r.Game, &r.Nonce, &r.UploaderID, &r.Scope, &r.Visibility, &r.GameBuild, &r.DurationMs,
		&r.ObjectKey, &r.ServedKey, &r.State, &r.ByteSize, &r.MaxBytes, &r.ShareToken, &created, &ready)
	if err != nil {
		return nil, err
	}
	if r.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	if r.ReadyAt, err = parseNullTime(ready); err != nil {
		return nil, err
	}
	return &r, nil
}

// InitSegment implements core.RecordingStore: a conditional insert, then
// a read.
func (s *Arena) InitSegment(ctx context.Context, seg *core.Segment) (*core.Segment, error) {
	_, err := s.db.write(ctx, q("init_segment"), sql.Named("recording", seg.RecordingID),
		sql.Named("seq", seg.Seq), sql.Named("object_key", seg.ObjectKey),
		sql.Named("created_at", formatTime(seg.CreatedAt)))
	if err != nil {
		return nil, fmt.Errorf("store: unable to init segment %d: %w", seg.Seq, err)
	}
	got, err := s.Segment(ctx, seg.RecordingID, seg.Seq)
	if core.ErrorCode(err) == core.CodeSegmentNotFound {
		// Not inserted and not there: the recording was finalized.
		return nil, core.Errorf(core.CodeRecordingEnded, "recording %d was finalized", seg.RecordingID)
	}
	return got, err
}

// Segment implements core.RecordingStore.
func (s *Arena) Segment(ctx context.Context, recordingID, seq int64) (*core.Segment, error) {
	seg, err := scanSegment(s.db.queryRow(ctx, q("segment_columns")+" WHERE recording_id = :recording AND seq = :seq",
		sql.Named("recording", recordingID), sql.Named("seq", seq)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, core.Errorf(core.CodeSegmentNotFound, "no segment %d of recording %d", seq, recordingID)
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to read segment %d: %w", seq, err)
	}
	return seg, nil
}

// MarkSegmentReady implements core.RecordingStore, as MarkRecordingReady.
func (s *Arena) MarkSegmentReady(ctx context.Context, recordingID, seq int64, c core.CheckedObject, baseTMs int64, at time.Time) (bool, error) {
	var claimed int64
	err := s.db.BatchRead(ctx, Stmt{SQL: q("segment_claimed"), Args: []any{sql.Named("recording", recordingID),
		sql.Named("seq", seq), sql.Named("key", c.Key)}}, []any{&claimed},
		Stmt{SQL: q("mark_segment_ready"), Args: []any{sql.Named("recording", recordingID),
			sql.Named("seq", seq), sql.Named("key", c.Key), sql.Named("size", c.Size),
			sql.Named("base_ms", baseTMs), sql.Named("at", formatTime(at))}},
		Stmt{SQL: q("segment_upload_removal"), Args: []any{sql.Named("recording", recordingID),
			sql.Named("seq", seq), sql.Named("key", c.Key),
			sql.Named("upload_removal_due", formatTime(c.UploadRemovalDue))}},
		Stmt{SQL: q("cancel_segment_copy_removal"), Args: []any{sql.Named("recording", recordingID),
			sql.Named("seq", seq), sql.Named("key", c.Key)}})
	if err != nil {
		return false, fmt.Errorf("store: unable to finalize segment %d: %w", seq, err)
	}
	return claimed == 1, nil
}

// Segments returns the finalized segments with seq above after, in
// order, at most limit.
func (s *Arena) Segments(ctx context.Context, recordingID, after int64, limit int) ([]core.Segment, error) {
	rows, err := s.db.query(ctx, q("segment_columns")+" WHERE recording_id = :recording AND seq > :after AND state = 'ready' ORDER BY seq LIMIT :limit",
		sql.Named("recording", recordingID), sql.Named("after", after), sql.Named("limit", limit))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list segments: %w", err)
	}
	defer rows.Close()
	var out []core.Segment
	for rows.Next() {
		seg, err := scanSegment(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *seg)
	}
	return out, rows.Err()
}

func scanSegment(row scanner) (*core.Segment, error) {
	var (
		seg     core.Segment
		created string
		ready   sql.NullString
	)
	err := row.Scan(&seg.RecordingID, &seg.Seq, &seg.ObjectKey, &seg.ServedKey, &seg.State, &seg.ByteSize, &seg.BaseTMs, &created, &ready)
	if err != nil {
		return nil, err
	}
	if seg.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	if seg.ReadyAt, err = parseNullTime(ready); err != nil {
		return nil, err
	}
	return &seg, nil
}

// AddTrace implements core.RecordingStore.
func (s *Arena) AddTrace(ctx context.Context, t core.TraceRecord) (bool, error) {
	var slot int
	err := s.db.writeRow(ctx, q("add_trace"), sql.Named("match", t.MatchID), sql.Named("nonce", t.Nonce),
		sql.Named("slot", t.Slot),
		sql.Named("submitter", t.SubmitterID), sql.Named("trace", t.Trace),
		sql.Named("trace_hash", t.TraceHash), sql.Named("received_at", formatTime(t.ReceivedAt))).Scan(&slot)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: unable to store the trace of match %d: %w", t.MatchID, err)
	}
	return true, nil
}

// Traces implements core.RecordingStore.
func (s *Arena) Traces(ctx context.Context, matchID int64, nonce string) ([]core.TraceRecord, error) {
	rows, err := s.db.query(ctx, q("traces"), sql.Named("match", matchID), sql.Named("nonce", nonce))
	if err != nil {
		return nil, fmt.Errorf("store: unable to read the traces of match %d: %w", matchID, err)
	}
	defer rows.Close()
	var out []core.TraceRecord
	for rows.Next() {
		var t core.TraceRecord
		var at string
		if err := rows.Scan(&t.MatchID, &t.Nonce, &t.Slot, &t.SubmitterID, &t.Trace, &t.TraceHash, &at); err != nil {
			return nil, err
		}
		if t.ReceivedAt, err = parseTime(at); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}
