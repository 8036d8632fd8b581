-- Recordings, segments and gameplay traces.

-- name: recording_columns
SELECT id, coalesce(match_id, 0), game, session_nonce, uploader_id, scope, visibility, game_build, duration_ms, object_key,
	coalesce(served_key, ''), state, byte_size, max_bytes, coalesce(share_token, ''), created_at, ready_at
FROM recordings

-- name: init_match_recording
-- One statement: a new pending recording, or the uploader's pending one
-- for the match's game updated (its key and a link share kept). A
-- finalized one matches nothing here and is read separately.
INSERT INTO recordings (match_id, game, session_nonce, uploader_id, scope, visibility, game_build,
	duration_ms, object_key, max_bytes, created_at)
VALUES (:match, :game, :nonce, :uploader, :scope, :visibility, :game_build, :duration_ms, :object_key,
	:max_bytes, :created_at)
ON CONFLICT (match_id, uploader_id, session_nonce) DO UPDATE SET scope = excluded.scope,
	visibility = CASE WHEN recordings.visibility = 'link' THEN 'link' ELSE excluded.visibility END,
	game_build = excluded.game_build, duration_ms = excluded.duration_ms, max_bytes = excluded.max_bytes
WHERE recordings.state = 'pending'
RETURNING id

-- name: match_recording_of
SELECT id FROM recordings WHERE match_id = :match AND uploader_id = :uploader AND session_nonce = :nonce

-- name: create_casual_recording
-- The per-day allowance is counted in the inserting statement, so racing
-- inits never exceed it.
INSERT INTO recordings (match_id, uploader_id, scope, visibility, game_build, duration_ms, object_key,
	max_bytes, created_at)
SELECT NULL, :uploader, :scope, :visibility, :game_build, :duration_ms, :object_key, :max_bytes, :created_at
WHERE (SELECT count(*) FROM recordings WHERE uploader_id = :uploader AND match_id IS NULL AND created_at > :since) < :per_day
RETURNING id

-- name: mark_recording_ready
-- Claims the checked copy ?2 while its removal is still scheduled after
-- ?6 (the finalize's time): a copy the scheduled job may be removing is
-- never served. The batch goes on with claimed_removals.
UPDATE recordings SET state = 'ready', served_key = :key, byte_size = :size, game_build = :game_build,
	duration_ms = :duration_ms, ready_at = :at
WHERE id = :recording AND state = 'pending'
	AND EXISTS (SELECT 1 FROM object_removals WHERE object_key = :key AND due_at > :at)

-- name: recording_upload_removal
-- The claimed recording's upload goes once its URLs expired (?3); a row
-- whose upload is what it serves (seeded, or finalized before checked
-- copies) keeps it.
INSERT INTO object_removals (object_key, due_at)
SELECT object_key,
	:upload_removal_due FROM recordings WHERE id = :recording AND served_key = :key AND object_key != served_key
ON CONFLICT (object_key) DO UPDATE SET due_at = excluded.due_at

-- name: recording_claimed
SELECT count(*) FROM recordings WHERE id = :recording AND served_key = :key

-- name: cancel_recording_copy_removal
-- The copy ?2 was claimed: the recording serves it.
DELETE FROM object_removals WHERE object_key = :key
	AND EXISTS (SELECT 1 FROM recordings WHERE id = :recording AND served_key = :key)

-- name: share_recording
UPDATE recordings SET visibility = 'link', share_token = coalesce(share_token, :token)
WHERE id = :recording
RETURNING share_token

-- name: recordings_of_where
WHERE uploader_id = :player OR match_id IN (
	SELECT m.id FROM roster_members r
	JOIN matches m ON m.tournament_id = r.tournament_id AND r.captain_id IN (m.p1_platform_id,
		m.p2_platform_id)
	WHERE r.platform_id = :player
	UNION
	SELECT m.id FROM matches m WHERE :player IN (m.p1_platform_id, m.p2_platform_id))
ORDER BY created_at DESC, id DESC
LIMIT :limit

-- name: segment_columns
SELECT recording_id, seq, object_key, coalesce(served_key, ''), state, byte_size, base_t_ms, created_at,
	ready_at
FROM recording_segments

-- name: init_segment
-- Only while the recording is pending: the feed ends with its finalize.
INSERT INTO recording_segments (recording_id, seq, object_key, created_at)
SELECT :recording, :seq, :object_key, :created_at
WHERE EXISTS (SELECT 1 FROM recordings WHERE id = :recording AND state = 'pending')
ON CONFLICT (recording_id, seq) DO NOTHING

-- name: mark_segment_ready
-- As mark_recording_ready.
UPDATE recording_segments SET state = 'ready', served_key = :key, byte_size = :size, base_t_ms = :base_ms,
	ready_at = :at
WHERE recording_id = :recording AND seq = :seq AND state = 'pending'
	AND EXISTS (SELECT 1 FROM object_removals WHERE object_key = :key AND due_at > :at)

-- name: segment_upload_removal
INSERT INTO object_removals (object_key, due_at)
SELECT object_key, :upload_removal_due FROM recording_segments
WHERE recording_id = :recording AND seq = :seq AND served_key = :key AND object_key != served_key
ON CONFLICT (object_key) DO UPDATE SET due_at = excluded.due_at

-- name: cancel_segment_copy_removal
DELETE FROM object_removals WHERE object_key = :key
	AND EXISTS (SELECT 1 FROM recording_segments WHERE recording_id = :recording AND seq = :seq AND served_key = :key)

-- name: segment_claimed
SELECT count(*) FROM recording_segments WHERE recording_id = :recording AND seq = :seq AND served_key = :key

-- name: upload_finalized
SELECT EXISTS (SELECT 1 FROM recordings WHERE object_key = :key AND state = 'ready')
	OR EXISTS (SELECT 1 FROM recording_segments WHERE object_key = :key AND state = 'ready')

-- name: schedule_object_removal
INSERT INTO object_removals (object_key, due_at) VALUES (:key, :due)
ON CONFLICT (object_key) DO UPDATE SET due_at = excluded.due_at

-- name: due_object_removals
SELECT object_key FROM object_removals WHERE due_at <= :now ORDER BY due_at LIMIT :limit

-- name: forget_object_removal
DELETE FROM object_removals WHERE object_key = :key AND due_at <= :now

-- name: add_trace
INSERT INTO gameplay_traces (match_id, session_nonce, slot, submitter_id, trace, trace_hash, received_at)
VALUES (:match, :nonce, :slot, :submitter, :trace, :trace_hash, :received_at)
ON CONFLICT (match_id, session_nonce, slot) DO NOTHING
RETURNING slot

-- name: traces
SELECT match_id, session_nonce, slot, submitter_id, trace, trace_hash, received_at
FROM gameplay_traces WHERE match_id = :match AND session_nonce = :nonce ORDER BY slot
