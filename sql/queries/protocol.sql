-- The game-client protocol: discovery, ready, result submission, timers.

-- name: match_state
-- A side's roster is read only where teams play: a solo tournament's
-- roster is its captain (captainFirst).
SELECT m.id, m.tournament_id, m.stage, m.round_label, m.round_number, coalesce(m.group_name, ''),
	coalesce(m.bracket_slot, ''), m.status, coalesce(m.p1_platform_id, ''), coalesce(m.p2_platform_id, ''),
	m.opens_at, m.closes_at, coalesce(m.winner_platform_id, ''), m.score_p1, m.score_p2,
	coalesce(m.result_source, ''), coalesce(m.winner_to_slot, ''), coalesce(m.winner_to_side, 0),
	coalesce(m.loser_to_slot, ''), coalesce(m.loser_to_side, 0), coalesce(m.session_nonce, ''),
	coalesce(m.game_seed, 0), m.p1_ready_at, m.p2_ready_at, m.live_at, m.ended_at, m.resolved_at,
	t.slug, t.name, t.environment, t.team_min_players, t.team_max_players, t.cast_hand_mode,
	t.cast_delay_seconds, t.allow_spectators,
	CASE WHEN t.team_max_players > 1 THEN (SELECT json_group_array(platform_id) FROM roster_members r
		WHERE r.tournament_id = m.tournament_id AND r.captain_id = m.p1_platform_id) ELSE '[]' END,
	CASE WHEN t.team_max_players > 1 THEN (SELECT json_group_array(platform_id) FROM roster_members r
		WHERE r.tournament_id = m.tournament_id AND r.captain_id = m.p2_platform_id) ELSE '[]' END,
	coalesce((SELECT result_hash FROM match_submissions s WHERE s.match_id = m.id AND s.side = 1), ''),
	coalesce((SELECT result_hash FROM match_submissions s WHERE s.match_id = m.id AND s.side = 2), ''),
	(SELECT count(*) FROM referee_consents c
		WHERE c.granted = 1 AND c.platform_id IN (m.p1_platform_id, m.p2_platform_id)),
	coalesce((SELECT persona_name FROM players p WHERE p.platform_id = m.p1_platform_id), ''),
	coalesce((SELECT persona_name FROM players p WHERE p.platform_id = m.p2_platform_id), ''),
	t.format, m.best_of, {{match_games}}, t.grace_period_minutes
FROM matches m JOIN tournaments t ON t.id = m.tournament_id

-- name: player_matches_where
WHERE m.id IN (
	SELECT m2.id FROM roster_members r
	JOIN matches m2 ON m2.p1_platform_id = r.captain_id AND m2.tournament_id = r.tournament_id
	WHERE r.platform_id = :player AND m2.status IN (SELECT value FROM json_each(:statuses))
	UNION
	SELECT m2.id FROM roster_members r
	JOIN matches m2 ON m2.p2_platform_id = r.captain_id AND m2.tournament_id = r.tournament_id
	WHERE r.platform_id = :player AND m2.status IN (SELECT value FROM json_each(:statuses)))
	AND m.p1_platform_id IS NOT NULL AND m.p2_platform_id IS NOT NULL

-- name: mark_ready
UPDATE matches SET
	p1_ready_at = CASE WHEN :side = 1 THEN coalesce(p1_ready_at, :at) ELSE p1_ready_at END,
	p2_ready_at = CASE WHEN :side = 2 THEN coalesce(p2_ready_at, :at) ELSE p2_ready_at END,
	status = CASE WHEN (:side = 1 OR p1_ready_at IS NOT NULL) AND (:side = 2 OR p2_ready_at IS NOT NULL)
		THEN 'live' ELSE status END,
	session_nonce = CASE WHEN (:side = 1 OR p1_ready_at IS NOT NULL) AND (:side = 2 OR p2_ready_at IS NOT NULL)
		THEN :nonce ELSE session_nonce END,
	game_seed = CASE WHEN (:side = 1 OR p1_ready_at IS NOT NULL) AND (:side = 2 OR p2_ready_at IS NOT NULL)
		THEN :seed ELSE game_seed END,
	live_at = CASE WHEN (:side = 1 OR p1_ready_at IS NOT NULL) AND (:side = 2 OR p2_ready_at IS NOT NULL)
		THEN :at ELSE live_at END,
	updated_at = :at
WHERE id = :match AND status = 'scheduled' AND opens_at <= :at AND :at < closes_at
	AND p1_platform_id IS NOT NULL AND p2_platform_id IS NOT NULL
RETURNING status, p1_ready_at IS NOT NULL, p2_ready_at IS NOT NULL

-- name: insert_submission
INSERT INTO match_submissions (match_id, side, submitter_id, app_id, result, result_hash, winner_id,
	winner_side_id, client_role, started_at, ended_at, received_at, token, score_p1, score_p2)
SELECT :match, :side, :submitter, :app, :result, :result_hash, :winner, :winner_side, :client_role,
	:started_at, :ended_at, :at, :token, :p1, :p2
WHERE EXISTS (SELECT 1 FROM matches WHERE id = :match AND status IN ('live',
	'awaiting_result') AND session_nonce = :session_nonce)
ON CONFLICT (match_id, side) DO NOTHING

-- name: reconcile
-- A game of a series that its winner needs more games after (its row in
-- match_games went in first: queries/series.sql) sends the match back to
-- scheduled; the series' deciding game confirms it with the games won as
-- its score.
UPDATE matches SET
	status = CASE
		WHEN (SELECT count(*) FROM match_submissions WHERE match_id = matches.id) < 2 THEN 'awaiting_result'
		WHEN (SELECT count(DISTINCT result_hash) FROM match_submissions WHERE match_id = matches.id) = 1
		THEN CASE WHEN matches.best_of > 1 AND (SELECT count(*) FROM match_games g WHERE g.match_id = matches.id
				AND g.winner_platform_id = (SELECT winner_side_id FROM match_submissions
					WHERE match_id = matches.id LIMIT 1)) < (matches.best_of + 1) / 2
			THEN 'scheduled' ELSE 'confirmed' END
		ELSE 'disputed' END,
	winner_platform_id = CASE
		WHEN (SELECT count(*) FROM match_submissions WHERE match_id = matches.id) = 2
			AND (SELECT count(DISTINCT result_hash) FROM match_submissions WHERE match_id = matches.id) = 1
		THEN (SELECT winner_side_id FROM match_submissions WHERE match_id = matches.id LIMIT 1)
		ELSE winner_platform_id END,
	result_source = CASE
		WHEN (SELECT count(*) FROM match_submissions WHERE match_id = matches.id) = 2
			AND (SELECT count(DISTINCT result_hash) FROM match_submissions WHERE match_id = matches.id) = 1
		THEN 'game_client' ELSE result_source END,
	resolved_at = CASE
		WHEN (SELECT count(*) FROM match_submissions WHERE match_id = matches.id) = 2
			AND (SELECT count(DISTINCT result_hash) FROM match_submissions WHERE match_id = matches.id) = 1
		THEN :at ELSE resolved_at END,
	-- A series' score is its games won; a single game's, the score both
	-- agreeing sides sent.
	score_p1 = CASE WHEN matches.best_of > 1 THEN CASE
			WHEN (SELECT count(*) FROM match_submissions WHERE match_id = matches.id) = 2
				AND (SELECT count(DISTINCT result_hash) FROM match_submissions WHERE match_id = matches.id) = 1
			THEN (SELECT count(*) FROM match_games g WHERE g.match_id = matches.id
				AND g.winner_platform_id = matches.p1_platform_id)
			ELSE score_p1 END ELSE coalesce((SELECT min(score_p1) FROM match_submissions WHERE match_id = matches.id GROUP BY match_id
		HAVING count(*) = 2 AND count(DISTINCT result_hash) = 1
			AND count(score_p1) = 2 AND count(DISTINCT score_p1) = 1 AND count(DISTINCT score_p2) = 1),
				score_p1) END,
	score_p2 = CASE WHEN matches.best_of > 1 THEN CASE
			WHEN (SELECT count(*) FROM match_submissions WHERE match_id = matches.id) = 2
				AND (SELECT count(DISTINCT result_hash) FROM match_submissions WHERE match_id = matches.id) = 1
			THEN (SELECT count(*) FROM match_games g WHERE g.match_id = matches.id
				AND g.winner_platform_id = matches.p2_platform_id)
			ELSE score_p2 END ELSE coalesce((SELECT min(score_p2) FROM match_submissions WHERE match_id = matches.id GROUP BY match_id
		HAVING count(*) = 2 AND count(DISTINCT result_hash) = 1
			AND count(score_p1) = 2 AND count(DISTINCT score_p1) = 1 AND count(DISTINCT score_p2) = 1),
				score_p2) END,
	ended_at = coalesce(ended_at, :at),
	updated_at = :at
WHERE id = :match AND status IN ('live', 'awaiting_result')

-- name: submission_outcome
-- What a submission's batch did, read as its last statement, in its own
-- transaction: the match's status and the side's stored submission (its
-- token is the batch's own when the batch stored it, and then the status
-- is the one it produced). +? is the side's value, not a parameter the planner may look into: SQLite
-- plans a LEFT JOIN's ON clause with the bound value and prepares the
-- statement again whenever it changes (every other submission).
SELECT m.status, coalesce(s.token, ''), coalesce(s.result_hash, '')
FROM matches m LEFT JOIN match_submissions s ON s.match_id = m.id AND s.side = +:side
WHERE m.id = :match

-- name: series_submission_outcome
-- submission_outcome for a game of a series: a game that sent the match
-- back to scheduled moved the side's submission to
-- match_game_submissions (the latest game's).
SELECT m.status, coalesce(s.token, a.token, ''), coalesce(s.result_hash, a.result_hash, '')
FROM matches m LEFT JOIN match_submissions s ON s.match_id = m.id AND s.side = +:side
	LEFT JOIN match_game_submissions a ON m.status = 'scheduled' AND a.match_id = m.id AND a.side = +:side
		AND a.game = (SELECT max(x.game) FROM match_game_submissions x WHERE x.match_id = m.id)
WHERE m.id = :match

-- name: submissions
SELECT match_id, side, submitter_id, app_id, result, result_hash, winner_id, winner_side_id,
	coalesce(client_role, ''), started_at, ended_at, received_at, score_p1, score_p2
FROM match_submissions WHERE match_id = :match ORDER BY received_at, side

-- name: grace_expired
SELECT m.id FROM matches m JOIN tournaments t ON t.id = m.tournament_id
WHERE m.status = 'awaiting_result'
	AND (SELECT count(*) FROM match_submissions s WHERE s.match_id = m.id) = 1
	AND (SELECT min(received_at) FROM match_submissions s WHERE s.match_id = m.id) <= {{grace_cutoff}}
ORDER BY m.id

-- name: confirm_single_submission
-- A game of a series goes back to scheduled as in reconcile.
UPDATE matches SET status = CASE WHEN matches.best_of > 1 AND (SELECT count(*) FROM match_games g
		WHERE g.match_id = matches.id AND g.winner_platform_id = (SELECT winner_side_id FROM match_submissions s
			WHERE s.match_id = matches.id)) < (matches.best_of + 1) / 2 THEN 'scheduled' ELSE 'confirmed' END,
	score_p1 = CASE WHEN matches.best_of > 1 THEN (SELECT count(*) FROM match_games g
		WHERE g.match_id = matches.id AND g.winner_platform_id = matches.p1_platform_id) ELSE score_p1 END,
	score_p2 = CASE WHEN matches.best_of > 1 THEN (SELECT count(*) FROM match_games g
		WHERE g.match_id = matches.id AND g.winner_platform_id = matches.p2_platform_id) ELSE score_p2 END,
	winner_platform_id = (SELECT winner_side_id FROM match_submissions s WHERE s.match_id = matches.id),
	result_source = 'player_report', resolved_at = :at, updated_at = :at, decision_token = :token
WHERE id = :match AND status = 'awaiting_result'
	AND (SELECT count(*) FROM match_submissions s WHERE s.match_id = matches.id) = 1

-- name: one_side_ready_closed
SELECT id, CASE WHEN p1_ready_at IS NOT NULL THEN p1_platform_id ELSE p2_platform_id END
FROM matches
WHERE status = 'scheduled' AND closes_at <= :now
	AND p1_platform_id IS NOT NULL AND p2_platform_id IS NOT NULL
	AND (p1_ready_at IS NULL) <> (p2_ready_at IS NULL)
ORDER BY id

-- name: forfeit_unready
UPDATE matches SET status = 'forfeited', winner_platform_id = :winner, result_source = 'admin',
	resolved_at = :at, updated_at = :at, decision_token = :token
WHERE id = :match AND status = 'scheduled' AND closes_at <= :at
	AND (p1_ready_at IS NULL) <> (p2_ready_at IS NULL)

-- name: attention_where
-- The candidates of the organizer's queue (core.AttentionReason decides):
-- disputed, or scheduled/live with both sides known and the window
-- closing by the first cutoff or live since the second.
WHERE m.status = 'disputed'
	OR (m.status IN ('scheduled', 'live') AND m.p1_platform_id IS NOT NULL AND m.p2_platform_id IS NOT NULL
		AND (m.closes_at <= :closes_by OR (m.status = 'live' AND m.live_at <= :live_by)))

-- name: set_consent
INSERT INTO referee_consents (platform_id, granted, updated_at) VALUES (:player, :granted, :at)
ON CONFLICT (platform_id) DO UPDATE SET granted = excluded.granted, updated_at = excluded.updated_at
