-- Tournament formats and match stages are core's enums: the store keeps
-- no copy of them (new formats and title matches need no schema change).
-- SQLite cannot drop a CHECK, so both tables are rebuilt with their rows;
-- foreign keys are checked at commit, when the new tables carry the old
-- names and ids.

CREATE TABLE tournaments_new (
	id INTEGER PRIMARY KEY,
	slug TEXT NOT NULL UNIQUE,
	name TEXT NOT NULL,
	description TEXT NOT NULL DEFAULT '',
	format TEXT NOT NULL,
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
	transition_token TEXT NOT NULL DEFAULT '',
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	completed_at TEXT
);
INSERT INTO tournaments_new SELECT id, slug, name, description, format, status, max_players,
	registration_opens_at, registration_closes_at, starts_at, environment, season_id, team_min_players,
	team_max_players, group_count, advance_per_group, small_final, match_window_minutes, cast_hand_mode,
	cast_delay_seconds, allow_spectators, transition_token, created_at, updated_at, completed_at
FROM tournaments;

CREATE TABLE matches_new (
	id INTEGER PRIMARY KEY,
	tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
	stage TEXT NOT NULL,
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
	decision_token TEXT,
	UNIQUE (tournament_id, bracket_slot)
);
INSERT INTO matches_new SELECT id, tournament_id, stage, round_label, round_number, group_name, bracket_slot,
	status, p1_platform_id, p2_platform_id, opens_at, closes_at, winner_platform_id, score_p1, score_p2,
	result_source, winner_to_slot, winner_to_side, loser_to_slot, loser_to_side, session_nonce, game_seed,
	p1_ready_at, p2_ready_at, live_at, ended_at, resolved_at, upcoming_alert_at, created_at, updated_at,
	decision_token
FROM matches;

DROP TABLE matches;
DROP TABLE tournaments;
ALTER TABLE tournaments_new RENAME TO tournaments;
ALTER TABLE matches_new RENAME TO matches;

CREATE INDEX tournaments_status ON tournaments (status);
CREATE INDEX matches_tournament ON matches (tournament_id, stage, round_number);
CREATE INDEX matches_p1 ON matches (p1_platform_id, status);
CREATE INDEX matches_p2 ON matches (p2_platform_id, status);
CREATE INDEX matches_status ON matches (status, closes_at);
