-- Series (core/series.go): what deciding one game of a best-of-N match
-- does, in the batch of the decision. The game's row goes in first
-- (series_game_*), so the statement that decides the match counts it:
-- a side with ceil(N/2) games wins the match (status confirmed, score =
-- games won); otherwise the match goes back to scheduled, and the
-- statements after it set up the next game (series_archive_submissions,
-- series_clear_submissions, series_next_game). A match whose game row
-- is there with its live session's nonce is one a game decision just
-- sent back: every later statement reads that from the rows themselves,
-- so a decision that did not happen changes nothing. Parameters: :match
-- and :at.

-- name: series_game_agreed
-- Both sides' clients sent the same result for the game being played.
INSERT INTO match_games (match_id, game, winner_platform_id, result_source, score_p1, score_p2,
	session_nonce, decided_at)
SELECT m.id, (SELECT count(*) FROM match_games g WHERE g.match_id = m.id) + 1,
	(SELECT s.winner_side_id FROM match_submissions s WHERE s.match_id = m.id LIMIT 1), 'game_client',
	(SELECT min(s.score_p1) FROM match_submissions s WHERE s.match_id = m.id GROUP BY s.match_id
		HAVING count(s.score_p1) = 2 AND count(DISTINCT s.score_p1) = 1 AND count(DISTINCT s.score_p2) = 1),
	(SELECT min(s.score_p2) FROM match_submissions s WHERE s.match_id = m.id GROUP BY s.match_id
		HAVING count(s.score_p1) = 2 AND count(DISTINCT s.score_p1) = 1 AND count(DISTINCT s.score_p2) = 1),
	m.session_nonce, :at
FROM matches m
WHERE m.id = :match AND m.best_of > 1 AND m.status IN ('live', 'awaiting_result')
	AND m.session_nonce IS NOT NULL
	AND (SELECT count(*) FROM match_submissions s WHERE s.match_id = m.id) = 2
	AND (SELECT count(DISTINCT s.result_hash) FROM match_submissions s WHERE s.match_id = m.id) = 1
ON CONFLICT DO NOTHING

-- name: series_game_single
-- The grace period ran out on one side's submission of the game.
INSERT INTO match_games (match_id, game, winner_platform_id, result_source, score_p1, score_p2,
	session_nonce, decided_at)
SELECT m.id, (SELECT count(*) FROM match_games g WHERE g.match_id = m.id) + 1,
	(SELECT s.winner_side_id FROM match_submissions s WHERE s.match_id = m.id), 'player_report',
	NULL, NULL, m.session_nonce, :at
FROM matches m
WHERE m.id = :match AND m.best_of > 1 AND m.status = 'awaiting_result' AND m.session_nonce IS NOT NULL
	AND (SELECT count(*) FROM match_submissions s WHERE s.match_id = m.id) = 1
ON CONFLICT DO NOTHING

-- name: series_archive_submissions
INSERT INTO match_game_submissions (match_id, game, side, submitter_id, app_id, result, result_hash,
	winner_id, winner_side_id, client_role, started_at, ended_at, received_at, token, score_p1, score_p2)
SELECT s.match_id, g.game, s.side, s.submitter_id, s.app_id, s.result, s.result_hash, s.winner_id,
	s.winner_side_id, s.client_role, s.started_at, s.ended_at, s.received_at, s.token, s.score_p1, s.score_p2
FROM match_submissions s JOIN matches m ON m.id = s.match_id
	JOIN match_games g ON g.match_id = m.id AND g.session_nonce = m.session_nonce
WHERE s.match_id = :match AND m.status = 'scheduled'
ON CONFLICT DO NOTHING

-- name: series_clear_submissions
DELETE FROM match_submissions
WHERE match_id = :match AND EXISTS (SELECT 1 FROM matches m
	JOIN match_games g ON g.match_id = m.id AND g.session_nonce = m.session_nonce
	WHERE m.id = :match AND m.status = 'scheduled')

-- name: series_next_game
-- The next game starts from nothing: no ready, no session, no result.
UPDATE matches SET winner_platform_id = NULL, result_source = NULL, resolved_at = NULL,
	score_p1 = NULL, score_p2 = NULL, p1_ready_at = NULL, p2_ready_at = NULL, live_at = NULL,
	ended_at = NULL, session_nonce = NULL, game_seed = NULL, updated_at = :at
WHERE id = :match AND status = 'scheduled'
	AND session_nonce IN (SELECT g.session_nonce FROM match_games g WHERE g.match_id = :match)

-- name: series_game_admin
-- An admin decides the game being played (:game, the next after those
-- decided; :source admin, or what the demo's seed says): its session's
-- nonce, or one made of the decision's token when no session went live.
INSERT INTO match_games (match_id, game, winner_platform_id, result_source, score_p1, score_p2,
	session_nonce, decided_at)
SELECT m.id, :game, :winner, :source, :p1, :p2, coalesce(m.session_nonce, 'admin-' || :token), :at
FROM matches m
WHERE m.id = :match AND m.best_of > 1 AND m.status NOT IN {{resolved}}
	AND m.p1_platform_id IS NOT NULL AND m.p2_platform_id IS NOT NULL
	AND :winner IN (m.p1_platform_id, m.p2_platform_id)
	AND (SELECT count(*) FROM match_games g WHERE g.match_id = m.id) + 1 = :game
ON CONFLICT DO NOTHING

-- name: resolve_game
-- The admin's game decision, when its game row is this batch's: the
-- series goes on (scheduled) or is won (confirmed, the games won its
-- score).
UPDATE matches SET
	session_nonce = coalesce(session_nonce, 'admin-' || :token),
	status = CASE WHEN (SELECT count(*) FROM match_games g WHERE g.match_id = matches.id
		AND g.winner_platform_id = :winner) < (best_of + 1) / 2 THEN 'scheduled' ELSE 'confirmed' END,
	winner_platform_id = :winner, result_source = :source, resolved_at = :at,
	ended_at = coalesce(ended_at, :at),
	score_p1 = (SELECT count(*) FROM match_games g WHERE g.match_id = matches.id
		AND g.winner_platform_id = matches.p1_platform_id),
	score_p2 = (SELECT count(*) FROM match_games g WHERE g.match_id = matches.id
		AND g.winner_platform_id = matches.p2_platform_id),
	updated_at = :at, decision_token = :token
WHERE id = :match AND status NOT IN {{resolved}}
	AND EXISTS (SELECT 1 FROM match_games g WHERE g.match_id = :match AND g.game = :game
		AND g.result_source = :source AND g.decided_at = :at
		AND g.session_nonce = coalesce(matches.session_nonce, 'admin-' || :token))

-- name: pace_seated
-- Under asap pacing, a match whose second side the decision just seated
-- opens now, for its series' windows. Parameters: :match (the decided
-- match) and :at.
UPDATE matches SET opens_at = :at,
	closes_at = strftime('%Y-%m-%dT%H:%M:%fZ', :at, '+' || ((SELECT t.match_window_minutes FROM tournaments t
		WHERE t.id = matches.tournament_id) * matches.best_of) || ' minutes'),
	updated_at = :at
WHERE status = 'scheduled' AND opens_at > :at
	AND p1_platform_id IS NOT NULL AND p2_platform_id IS NOT NULL
	AND p1_ready_at IS NULL AND p2_ready_at IS NULL
	AND tournament_id = (SELECT d.tournament_id FROM matches d WHERE d.id = :match)
	AND (SELECT t.pacing FROM tournaments t WHERE t.id = matches.tournament_id) = 'asap'
	AND bracket_slot IN (SELECT d.winner_to_slot FROM matches d WHERE d.id = :match
		UNION SELECT d.loser_to_slot FROM matches d WHERE d.id = :match)

-- name: open_matches
-- The admin opens matches now (:ids, a JSON array): each scheduled one
-- with both sides known gets its series' windows from now; one open
-- already keeps its start.
UPDATE matches SET opens_at = min(opens_at, :at),
	closes_at = max(closes_at, strftime('%Y-%m-%dT%H:%M:%fZ', :at, '+' || ((SELECT t.match_window_minutes
		FROM tournaments t WHERE t.id = matches.tournament_id) * matches.best_of) || ' minutes')),
	updated_at = :at
WHERE tournament_id = :tournament AND id IN (SELECT value FROM json_each(:ids)) AND status = 'scheduled'
	AND p1_platform_id IS NOT NULL AND p2_platform_id IS NOT NULL
