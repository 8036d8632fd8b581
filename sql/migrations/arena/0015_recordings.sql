-- Match recordings, their near-live segments and the AI referee's gameplay
-- traces. Objects live in object storage under object_key; these rows say
-- what each is, who uploaded it and whether finalize has read it.
CREATE TABLE recordings (
	id INTEGER PRIMARY KEY,
	match_id INTEGER REFERENCES matches (id),     -- NULL: a casual recording
	uploader_id TEXT NOT NULL,
	scope TEXT NOT NULL,                           -- public or full
	visibility TEXT NOT NULL,                      -- private, arena or link
	game_build TEXT NOT NULL DEFAULT '',
	duration_ms INTEGER NOT NULL DEFAULT 0,
	object_key TEXT NOT NULL UNIQUE,
	state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'ready')),
	byte_size INTEGER NOT NULL DEFAULT 0,          -- the stored object's size, read at finalize
	max_bytes INTEGER NOT NULL,                    -- the size limit told at init
	share_token TEXT,                              -- set when shared by link
	created_at TEXT NOT NULL,
	ready_at TEXT,
	-- One recording per match and uploader (casual rows, with NULL
	-- match_id, never collide).
	UNIQUE (match_id, uploader_id)
);

CREATE INDEX recordings_uploader ON recordings (uploader_id, created_at);

CREATE TABLE recording_segments (
	recording_id INTEGER NOT NULL REFERENCES recordings (id),
	seq INTEGER NOT NULL,
	object_key TEXT NOT NULL,
	state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'ready')),
	byte_size INTEGER NOT NULL DEFAULT 0,
	base_t_ms INTEGER NOT NULL DEFAULT 0,
	created_at TEXT NOT NULL,
	ready_at TEXT,                                 -- its upload as finalize saw it: the delay runs from here
	PRIMARY KEY (recording_id, seq)
);

-- One trace per match and slot: 1 and 2 are the sides' game clients, 0 the
-- trace the service derived from a finalized recording.
CREATE TABLE gameplay_traces (
	match_id INTEGER NOT NULL REFERENCES matches (id),
	slot INTEGER NOT NULL CHECK (slot IN (0, 1, 2)),
	submitter_id TEXT NOT NULL DEFAULT '',
	trace TEXT NOT NULL,                           -- the exact string that was hashed
	trace_hash TEXT NOT NULL,
	received_at TEXT NOT NULL,
	PRIMARY KEY (match_id, slot)
);
