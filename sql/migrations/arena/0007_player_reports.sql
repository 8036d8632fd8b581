-- The players' side of the website: manual result reports (one per match:
-- a side reports, the other side confirms or disputes, the grace period
-- confirms an uncontested one), OpenID response nonces claimed once
-- (replay protection for platform sign-in), and when a player's name and
-- avatar were last read from the platform's player summaries.
CREATE TABLE match_reports (
	match_id INTEGER PRIMARY KEY REFERENCES matches (id),
	side INTEGER NOT NULL CHECK (side IN (1, 2)),   -- the reporting side
	reporter_id TEXT NOT NULL,                      -- the signed-in account that reported
	winner_platform_id TEXT NOT NULL,               -- the winning side's captain
	score_p1 INTEGER,
	score_p2 INTEGER,
	status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'disputed')),
	reported_at TEXT NOT NULL,
	token TEXT NOT NULL,                            -- tells the request that stored the row
	decided_at TEXT,
	decided_by TEXT NOT NULL DEFAULT '',            -- the account that confirmed or disputed; '' for the grace period
	decision_token TEXT NOT NULL DEFAULT ''         -- tells the request that decided
);

CREATE INDEX match_reports_pending ON match_reports (status, reported_at);

CREATE TABLE openid_nonces (
	nonce TEXT PRIMARY KEY,
	seen_at TEXT NOT NULL
);

ALTER TABLE players ADD COLUMN summary_fetched_at TEXT;
