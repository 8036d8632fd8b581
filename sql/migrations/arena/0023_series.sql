-- Series (DESIGN.md "Series and the pace of results"): a tournament's
-- series lengths by stage and its pacing, each match's own series length
-- (set when it is planned),
-- and the games a best-of-N match decided. A game is decided in the
-- batch of whatever decided it (queries/series.sql): the game's row
-- first, then the match either back to scheduled for the next game or
-- decided when a side has won ceil(N/2) games. A best of 1 stores no
-- game: the match is its game.
ALTER TABLE tournaments ADD COLUMN best_of INTEGER NOT NULL DEFAULT 1;
ALTER TABLE tournaments ADD COLUMN group_best_of INTEGER NOT NULL DEFAULT 1;
ALTER TABLE tournaments ADD COLUMN final_best_of INTEGER NOT NULL DEFAULT 1;
ALTER TABLE matches ADD COLUMN best_of INTEGER NOT NULL DEFAULT 1;
-- scheduled or asap (core/pacing.go).
ALTER TABLE tournaments ADD COLUMN pacing TEXT NOT NULL DEFAULT 'scheduled';

CREATE TABLE match_games (
	match_id INTEGER NOT NULL REFERENCES matches (id),
	game INTEGER NOT NULL,                -- from 1
	winner_platform_id TEXT NOT NULL,     -- the winning side's captain
	result_source TEXT NOT NULL,
	score_p1 INTEGER,
	score_p2 INTEGER,
	session_nonce TEXT NOT NULL,          -- the live session the game was
	decided_at TEXT NOT NULL,
	PRIMARY KEY (match_id, game),
	UNIQUE (match_id, session_nonce)
);

-- The submissions of a decided game of a series, moved out of
-- match_submissions (one row per side and match: the game being played)
-- when the next game is set up.
CREATE TABLE match_game_submissions (
	match_id INTEGER NOT NULL,
	game INTEGER NOT NULL,
	side INTEGER NOT NULL,
	submitter_id TEXT NOT NULL,
	app_id TEXT NOT NULL,
	result TEXT NOT NULL,
	result_hash TEXT NOT NULL,
	winner_id TEXT NOT NULL,
	winner_side_id TEXT NOT NULL,
	client_role TEXT,
	started_at TEXT,
	ended_at TEXT,
	received_at TEXT NOT NULL,
	token TEXT NOT NULL,
	score_p1 INTEGER,
	score_p2 INTEGER,
	PRIMARY KEY (match_id, game, side)
);

-- A decided game of a series, with the series score after it.
CREATE TRIGGER event_log_game_decided AFTER INSERT ON match_games
BEGIN
	INSERT INTO event_log (at, type, tournament_slug, match_id, data)
	SELECT new.decided_at, 'match.game_decided', t.slug, m.id,
		json_object('game', new.game, 'winner', new.winner_platform_id, 'source', new.result_source,
			'seriesScore', json_object(
				'p1', (SELECT count(*) FROM match_games g WHERE g.match_id = m.id
					AND g.winner_platform_id = m.p1_platform_id),
				'p2', (SELECT count(*) FROM match_games g WHERE g.match_id = m.id
					AND g.winner_platform_id = m.p2_platform_id)))
	FROM matches m JOIN tournaments t ON t.id = m.tournament_id WHERE m.id = new.match_id;
END;
