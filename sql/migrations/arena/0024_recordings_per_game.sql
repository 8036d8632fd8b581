-- Recordings, their segments and gameplay traces are per game
-- (docs/series.md): each game of a series is its own live session, so a
-- recording and a trace name the session they are of by its nonce.
-- A recording is one per match, uploader and game; a trace one per
-- match, game and slot. Casual recordings have no game (0, nonce '').
-- Rows kept from before name the session the match had when this
-- migration ran; one whose match was between two games names none, and
-- finalize reads it against the match's session, as before.
CREATE TABLE recordings_new (
	id INTEGER PRIMARY KEY,
	match_id INTEGER REFERENCES matches (id),     -- NULL: a casual recording
	game INTEGER NOT NULL DEFAULT 0,               -- the game of the series, from 1; 0 casual
	session_nonce TEXT NOT NULL DEFAULT '',        -- that game's live session
	uploader_id TEXT NOT NULL,
	scope TEXT NOT NULL,                           -- public or full
	visibility TEXT NOT NULL,                      -- private, arena or link
	game_build TEXT NOT NULL DEFAULT '',
	duration_ms INTEGER NOT NULL DEFAULT 0,
	object_key TEXT NOT NULL UNIQUE,
	state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'ready')),
	byte_size INTEGER NOT NULL DEFAULT 0,
	max_bytes INTEGER NOT NULL,
	share_token TEXT,
	created_at TEXT NOT NULL,
	ready_at TEXT,
	served_key TEXT,
	-- One recording per match, uploader and game (casual rows, with NULL
	-- match_id, never collide).
	UNIQUE (match_id, uploader_id, session_nonce)
);
INSERT INTO recordings_new (id, match_id, game, session_nonce, uploader_id, scope, visibility, game_build,
	duration_ms, object_key, state, byte_size, max_bytes, share_token, created_at, ready_at, served_key)
SELECT r.id, r.match_id,
	CASE WHEN r.match_id IS NULL THEN 0
		ELSE coalesce((SELECT g.game FROM match_games g WHERE g.match_id = r.match_id AND g.session_nonce = m.session_nonce),
			(SELECT count(*) FROM match_games g WHERE g.match_id = r.match_id) + 1) END,
	CASE WHEN r.match_id IS NULL THEN '' ELSE coalesce(m.session_nonce, '') END,
	r.uploader_id, r.scope, r.visibility, r.game_build, r.duration_ms, r.object_key, r.state, r.byte_size,
	r.max_bytes, r.share_token, r.created_at, r.ready_at, r.served_key
FROM recordings r LEFT JOIN matches m ON m.id = r.match_id;
DROP TABLE recordings;
ALTER TABLE recordings_new RENAME TO recordings;
CREATE INDEX recordings_uploader ON recordings (uploader_id, created_at);

-- The trigger went with the old table (as in 0020, plus the game).
CREATE TRIGGER event_log_recording AFTER UPDATE OF state ON recordings
WHEN old.state IS NOT new.state AND new.state = 'ready' AND new.match_id IS NOT NULL
	AND new.visibility <> 'private'
BEGIN
	INSERT INTO event_log (at, type, tournament_slug, match_id, data)
	SELECT coalesce(new.ready_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), 'recording.ready', t.slug, m.id,
		json_object('recordingId', new.id, 'platformId', new.uploader_id, 'scope', new.scope,
			'visibility', new.visibility, 'game', new.game)
	FROM matches m JOIN tournaments t ON t.id = m.tournament_id WHERE m.id = new.match_id;
END;

-- One trace per match, game (its session's nonce) and slot: 1 and 2 are
-- the sides' game clients, 0 the trace the service derived from a
-- finalized recording. A kept row's nonce is the one its trace names.
CREATE TABLE gameplay_traces_new (
	match_id INTEGER NOT NULL REFERENCES matches (id),
	session_nonce TEXT NOT NULL,
	slot INTEGER NOT NULL CHECK (slot IN (0, 1, 2)),
	submitter_id TEXT NOT NULL DEFAULT '',
	trace TEXT NOT NULL,                           -- the exact string that was hashed
	trace_hash TEXT NOT NULL,
	received_at TEXT NOT NULL,
	PRIMARY KEY (match_id, session_nonce, slot)
);
INSERT INTO gameplay_traces_new (match_id, session_nonce, slot, submitter_id, trace, trace_hash, received_at)
SELECT match_id, CASE WHEN json_valid(trace) THEN coalesce(json_extract(trace, '$.sessionNonce'), '') ELSE '' END, slot, submitter_id, trace, trace_hash,
	received_at
FROM gameplay_traces;
DROP TABLE gameplay_traces;
ALTER TABLE gameplay_traces_new RENAME TO gameplay_traces;
