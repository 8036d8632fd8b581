-- Dual-attested results: each side's submission, stored verbatim for admin
-- forensics, and the players' AI-referee training consent.
CREATE TABLE match_submissions (
	match_id INTEGER NOT NULL REFERENCES matches (id),
	side INTEGER NOT NULL CHECK (side IN (1, 2)),
	submitter_id TEXT NOT NULL,           -- the verified account that submitted
	app_id TEXT NOT NULL DEFAULT '',
	result TEXT NOT NULL,                 -- the exact string that was hashed
	result_hash TEXT NOT NULL,
	winner_id TEXT NOT NULL,              -- result.winner as sent
	winner_side_id TEXT NOT NULL,         -- the winning side's captain
	client_role TEXT,
	started_at TEXT,
	ended_at TEXT,
	received_at TEXT NOT NULL,
	token TEXT NOT NULL,                  -- tells the request that stored the row
	PRIMARY KEY (match_id, side)
);

CREATE TABLE referee_consents (
	platform_id TEXT PRIMARY KEY,
	granted INTEGER NOT NULL,
	updated_at TEXT NOT NULL
);

CREATE INDEX roster_members_player ON roster_members (platform_id);
