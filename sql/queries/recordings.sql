-- Recordings, segments and gameplay traces.

-- name: recording_columns
SELECT id, coalesce(match_id, 0), uploader_id, scope, visibility, game_build, duration_ms, object_key,
	coalesce(served_key, ''), state, byte_size, max_bytes, coalesce(share_token, ''), created_at, ready_at
FROM recordings

-- name: init_match_recording
-- One statement: a new pending recording, or the uploader's pending one
-- for the match updated (its key and a link share kept). A finalized one
-- matches nothing here and is read separately.
INSERT INTO recordings (match_id, uploader_id, scope, visibility, game_build, duration_ms, object_key, max_bytes, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (match_id, uploader_id) DO UPDATE SET scope = excluded.scope,
	visibility = CASE WHEN recordings.visibility = 'link' THEN 'link' ELSE excluded.visibility END,
	game_build = excluded.game_build, duration_ms = excluded.duration_ms, max_bytes = excluded.max_bytes
WHERE recordings.state = 'pending'
RETURNING id

-- name: match_recording_of
SELECT id FROM recordings WHERE match_id = ? AND uploader_id = ?

-- name: create_casual_recording
-- The per-day allowance is counted in the inserting statement, so racing
-- inits never exceed it.
INSERT INTO recordings (match_id, uploader_id, scope, visibility, game_build, duration_ms, object_key, max_bytes, created_at)
SELECT NULL, ?, ?, ?, ?, ?, ?, ?, ?
WHERE (SELECT count(*) FROM recordings WHERE uploader_id = ? AND match_id IS NULL AND created_at > ?) < ?
RETURNING id

-- name: mark_recording_ready
-- Claims the checked copy ?2 while its removal is still scheduled after
-- ?6 (the finalize's time): a copy the scheduled job may be removing is
-- never served. The batch goes on with claimed_removals.
UPDATE recordings SET state = 'ready', served_key = ?2, byte_size = ?3, game_build = ?4, duration_ms = ?5, ready_at = ?6
WHERE id = ?1 AND state = 'pending'
	AND EXISTS (SELECT 1 FROM object_removals WHERE object_key = ?2 AND due_at > ?6)

-- name: recording_upload_removal
-- The claimed recording's upload goes once its URLs expired (?3); a row
-- whose upload is what it serves (seeded, or finalized before checked
-- copies) keeps it.
INSERT INTO object_removals (object_key, due_at)
SELECT object_key, ?3 FROM recordings WHERE id = ?1 AND served_key = ?2 AND object_key != served_key
ON CONFLICT (object_key) DO UPDATE SET due_at = excluded.due_at

-- name: recording_claimed
SELECT count(*) FROM recordings WHERE id = ?1 AND served_key = ?2

-- name: cancel_recording_copy_removal
-- The copy ?2 was claimed: the recording serves it.
DELETE FROM object_removals WHERE object_key = ?2
	AND EXISTS (SELECT 1 FROM recordings WHERE id = ?1 AND served_key = ?2)

-- name: share_recording
UPDATE recordings SET visibility = 'link', share_token = coalesce(share_token, ?)
WHERE id = ?
RETURNING share_token

-- name: recordings_of_where
WHERE uploader_id = ? OR match_id IN (
	SELECT m.id FROM roster_members r
	JOIN matches m ON m.tournament_id = r.tournament_id AND r.captain_id IN (m.p1_platform_id, m.p2_platform_id)
	WHERE r.platform_id = ?
	UNION
	SELECT m.id FROM matches m WHERE ? IN (m.p1_platform_id, m.p2_platform_id))
ORDER BY created_at DESC, id DESC
LIMIT ?

-- name: segment_columns
SELECT recording_id, seq, object_key, coalesce(served_key, ''), state, byte_size, base_t_ms, created_at, ready_at
FROM recording_segments

-- name: init_segment
-- Only while the recording is pending: the feed ends with its finalize.
INSERT INTO recording_segments (recording_id, seq, object_key, created_at)
SELECT ?, ?, ?, ?
WHERE EXISTS (SELECT 1 FROM recordings WHERE id = ? AND state = 'pending')
ON CONFLICT (recording_id, seq) DO NOTHING

-- name: mark_segment_ready
-- As mark_recording_ready.
UPDATE recording_segments SET state = 'ready', served_key = ?3, byte_size = ?4, base_t_ms = ?5, ready_at = ?6
WHERE recording_id = ?1 AND seq = ?2 AND state = 'pending'
	AND EXISTS (SELECT 1 FROM object_removals WHERE object_key = ?3 AND due_at > ?6)

-- name: segment_upload_removal
INSERT INTO object_removals (object_key, due_at)
SELECT object_key, ?4 FROM recording_segments
WHERE recording_id = ?1 AND seq = ?2 AND served_key = ?3 AND object_key != served_key
ON CONFLICT (object_key) DO UPDATE SET due_at = excluded.due_at

-- name: cancel_segment_copy_removal
DELETE FROM object_removals WHERE object_key = ?3
	AND EXISTS (SELECT 1 FROM recording_segments WHERE recording_id = ?1 AND seq = ?2 AND served_key = ?3)

-- name: segment_claimed
SELECT count(*) FROM recording_segments WHERE recording_id = ?1 AND seq = ?2 AND served_key = ?3

-- name: upload_finalized
SELECT EXISTS (SELECT 1 FROM recordings WHERE object_key = ?1 AND state = 'ready')
	OR EXISTS (SELECT 1 FROM recording_segments WHERE object_key = ?1 AND state = 'ready')

-- name: schedule_object_removal
INSERT INTO object_removals (object_key, due_at) VALUES (?, ?)
ON CONFLICT (object_key) DO UPDATE SET due_at = excluded.due_at

-- name: due_object_removals
SELECT object_key FROM object_removals WHERE due_at <= ? ORDER BY due_at LIMIT ?

-- name: forget_object_removal
DELETE FROM object_removals WHERE object_key = ? AND due_at <= ?

-- name: add_trace
INSERT INTO gameplay_traces (match_id, slot, submitter_id, trace, trace_hash, received_at)
VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (match_id, slot) DO NOTHING
RETURNING slot

-- name: traces
SELECT match_id, slot, submitter_id, trace, trace_hash, received_at
FROM gameplay_traces WHERE match_id = ? ORDER BY slot
