-- Seasons, tournaments, registrations, matches, podiums, ladder placements,
-- public-API keys and arena settings.
CREATE TABLE arena_settings (
	key TEXT PRIMARY KEY,                 -- e.g. placement_points, rate_limits
	value TEXT NOT NULL                   -- JSON
);

CREATE TABLE seasons (
	id INTEGER PRIMARY KEY,
	slug TEXT NOT NULL UNIQUE,
	name TEXT NOT NULL,
	starts_at TEXT NOT NULL,
	ends_at TEXT NOT NULL,
	created_at TEXT NOT NULL
);

CREATE TABLE tournaments (
	id INTEGER PRIMARY KEY,
	slug TEXT NOT NULL UNIQUE,
	name TEXT NOT NULL,
	description TEXT NOT NULL DEFAULT '',
	format TEXT NOT NULL CHECK (format IN ('groups_playoffs', 'playoffs_only')),
	status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'registration_open',
		'registration_closed', 'group_stage', 'playoffs', 'completed', 'cancelled')),
	max_players INTEGER NOT NULL,
	registration_opens_at TEXT NOT NULL,
	registration_closes_at TEXT NOT NULL,
	starts_at TEXT NOT NULL,
	environment TEXT NOT NULL DEFAULT 'demo' CHECK (environment IN ('demo', 'rec', 'beta')),
	season_id INTEGER REFERENCES seasons (id),
	team_min_players INTEGER NOT NULL DEFAULT 1,
	team_max_players INTEGER NOT NULL DEFAULT 1,
	group_count INTEGER NOT NULL DEFAULT 0,
	advance_per_group INTEGER NOT NULL DEFAULT 0,
	small_final INTEGER NOT NULL DEFAULT 0,
	match_window_minutes INTEGER NOT NULL,
	cast_hand_mode TEXT NOT NULL DEFAULT 'hidden' CHECK (cast_hand_mode IN ('hidden', 'delayed', 'shown')),
	cast_delay_seconds INTEGER NOT NULL DEFAULT 0,
	allow_spectators INTEGER NOT NULL DEFAULT 1,
	-- Set by the statement that moves the tournament into group_stage or
	-- playoffs; the matches of that step are inserted only while it holds
	-- the value that step wrote, so a racing second step inserts nothing.
	transition_token TEXT NOT NULL DEFAULT '',
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	completed_at TEXT
);

CREATE INDEX tournaments_status ON tournaments (status);

-- One row per side: the captain's account id names the side; 1v1 sides are
-- rosters of one.
CREATE TABLE registrations (
	id INTEGER PRIMARY KEY,
	tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
	platform_id TEXT NOT NULL,
	seed INTEGER,
	group_name TEXT,
	registered_at TEXT NOT NULL,
	UNIQUE (tournament_id, platform_id)
);

-- Every player of every side, captain included: a player is on one roster
-- per tournament.
CREATE TABLE roster_members (
	tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
	platform_id TEXT NOT NULL,
	captain_id TEXT NOT NULL,
	PRIMARY KEY (tournament_id, platform_id)
);

CREATE TABLE matches (
	id INTEGER PRIMARY KEY,
	tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
	stage TEXT NOT NULL CHECK (stage IN ('group', 'playoff', 'small_final', 'final')),
	round_label TEXT NOT NULL,
	round_number INTEGER NOT NULL,
	group_name TEXT,
	bracket_slot TEXT,
	status TEXT NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'live',
		'awaiting_result', 'confirmed', 'disputed', 'forfeited')),
	p1_platform_id TEXT,
	p2_platform_id TEXT,
	opens_at TEXT NOT NULL,
	closes_at TEXT NOT NULL,
	winner_platform_id TEXT,
	score_p1 INTEGER,
	score_p2 INTEGER,
	result_source TEXT CHECK (result_source IN ('player_report', 'admin', 'game_client', 'ai_video', 'bye')),
	winner_to_slot TEXT,
	winner_to_side INTEGER,
	loser_to_slot TEXT,
	loser_to_side INTEGER,
	session_nonce TEXT,
	game_seed INTEGER,
	p1_ready_at TEXT,
	p2_ready_at TEXT,
	live_at TEXT,
	ended_at TEXT,
	resolved_at TEXT,
	upcoming_alert_at TEXT,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	UNIQUE (tournament_id, bracket_slot)
);

CREATE INDEX matches_tournament ON matches (tournament_id, stage, round_number);
CREATE INDEX matches_p1 ON matches (p1_platform_id, status);
CREATE INDEX matches_p2 ON matches (p2_platform_id, status);
CREATE INDEX matches_status ON matches (status, closes_at);

CREATE TABLE podiums (
	tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
	rank INTEGER NOT NULL,
	platform_id TEXT NOT NULL,
	PRIMARY KEY (tournament_id, rank, platform_id)
);

-- Final placement of every side of a completed tournament, with the ladder
-- points it earned (placement table of the arena at completion).
CREATE TABLE placements (
	tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
	platform_id TEXT NOT NULL,
	place INTEGER NOT NULL,               -- 0: group stage only
	points INTEGER NOT NULL,
	PRIMARY KEY (tournament_id, platform_id)
);

CREATE TABLE api_keys (
	id TEXT PRIMARY KEY,                  -- the 8 hex characters after apikey_
	hash TEXT NOT NULL,
	label TEXT NOT NULL DEFAULT '',
	created_at TEXT NOT NULL,
	revoked_at TEXT
);
