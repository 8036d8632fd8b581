-- E-sport titles (DESIGN.md "Titles"). A title is backed by a tournaments
-- row of format 'title' (same slug and name, the title's environment):
-- its matches are ordinary organized matches of that row, so discovery,
-- ready, results, reports and timers work on them unchanged. The store
-- leaves such rows out of tournament lists and slug lookups.
CREATE TABLE titles (
	id INTEGER PRIMARY KEY,
	slug TEXT NOT NULL UNIQUE,
	name TEXT NOT NULL,
	tournament_id INTEGER NOT NULL UNIQUE REFERENCES tournaments (id),
	holder_platform_id TEXT,              -- NULL: vacant
	reign_id INTEGER,                     -- the current reign (title_reigns.id); NULL: vacant
	-- When the 48 h clock last started (the reign began, a successful
	-- defense, a restart); NULL while vacant or retired. The clock runs out
	-- at clock_started_at + 48 h (core.TitleClock).
	clock_started_at TEXT,
	retired_at TEXT,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL
);

CREATE INDEX titles_holder ON titles (holder_platform_id);

-- Every reign, oldest first: the lineage. until and ended are NULL for the
-- current reign.
CREATE TABLE title_reigns (
	id INTEGER PRIMARY KEY,
	title_id INTEGER NOT NULL REFERENCES titles (id),
	platform_id TEXT NOT NULL,
	since TEXT NOT NULL,
	until TEXT,
	defenses INTEGER NOT NULL DEFAULT 0,
	ended TEXT CHECK (ended IN ('lost', 'stripped')),
	won_match_id INTEGER UNIQUE           -- the match that crowned the holder
);

CREATE INDEX title_reigns_title ON title_reigns (title_id, id);

-- Players queued for a vacant title, in order (id); the first two play
-- the coronation match.
CREATE TABLE title_volunteers (
	id INTEGER PRIMARY KEY,
	title_id INTEGER NOT NULL REFERENCES titles (id),
	platform_id TEXT NOT NULL,
	volunteered_at TEXT NOT NULL,
	token TEXT NOT NULL,                  -- tells the request that stored the row
	UNIQUE (title_id, platform_id)
);

-- Challenges of a title's holder. A challenge is open while pending or
-- declined (a declined one strips the holder when the clock runs out):
-- at most one per title.
CREATE TABLE title_challenges (
	id INTEGER PRIMARY KEY,
	title_id INTEGER NOT NULL REFERENCES titles (id),
	challenger_platform_id TEXT NOT NULL,
	holder_platform_id TEXT NOT NULL,     -- the holder challenged
	status TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'declined', 'expired', 'void')),
	created_at TEXT NOT NULL,
	responded_at TEXT,
	match_id INTEGER,                     -- accepted: the title match
	token TEXT NOT NULL,                  -- tells the request that created the row
	response_token TEXT NOT NULL DEFAULT '' -- tells the request that answered it
);

CREATE UNIQUE INDEX title_challenges_open ON title_challenges (title_id) WHERE status IN ('pending', 'declined');

-- What a decided title match did to its title, one row per match: written
-- by the first batch that decides the match (decisionStmts), applied in
-- the same batch and marked applied, so a racing second decision of the
-- same match changes nothing. holder is the holder before the match (NULL
-- for a coronation).
CREATE TABLE title_results (
	match_id INTEGER PRIMARY KEY,
	title_id INTEGER NOT NULL REFERENCES titles (id),
	winner_platform_id TEXT NOT NULL,
	holder_platform_id TEXT,
	decided_at TEXT NOT NULL,
	applied INTEGER NOT NULL DEFAULT 0
);
