-- Glicko-2 ratings and their rating periods. A match is
-- rated when it is resolved with a winner between two known sides, is
-- no bye, and belongs to a 1v1 tournament.

-- name: ratings_in
SELECT r.platform_id, r.rating, r.deviation, r.volatility, r.matches, r.rated_through
FROM ratings r JOIN json_each(:players) j ON r.platform_id = j.value

-- name: rating_ladder
SELECT platform_id, rating, deviation, volatility, matches, rated_through
FROM ratings ORDER BY rating DESC, deviation, platform_id

-- name: rating_work
-- The end of the last rated period, and the first rateable match resolved
-- since then and before the given time.
SELECT coalesce((SELECT max(ends_at) FROM rating_periods), ''),
	(SELECT min(m.resolved_at) FROM matches m JOIN tournaments t ON t.id = m.tournament_id
	WHERE m.resolved_at >= coalesce((SELECT max(ends_at) FROM rating_periods), '') AND m.resolved_at < :before
		AND m.status IN {{resolved}} AND coalesce(m.result_source, '') <> 'bye'
		AND m.p1_platform_id IS NOT NULL AND m.p2_platform_id IS NOT NULL
		AND m.winner_platform_id IS NOT NULL AND t.team_max_players = 1)

-- name: rated_matches
-- Each decided game of a series is one result (a series decided with no
-- game played, by an admin or a forfeit, is one, as a single game is).
SELECT p1, p2, winner FROM (
	SELECT m.p1_platform_id AS p1, m.p2_platform_id AS p2, coalesce(g.winner_platform_id, m.winner_platform_id) AS winner,
		m.resolved_at AS at, m.id AS id, coalesce(g.game, 0) AS game
	FROM matches m JOIN tournaments t ON t.id = m.tournament_id
		LEFT JOIN match_games g ON g.match_id = m.id
	WHERE m.resolved_at >= :from AND m.resolved_at < :to
		AND m.status IN {{resolved}} AND coalesce(m.result_source, '') <> 'bye'
		AND m.p1_platform_id IS NOT NULL AND m.p2_platform_id IS NOT NULL
		AND m.winner_platform_id IS NOT NULL AND t.team_max_players = 1)
ORDER BY at, id, game

-- name: insert_rating_period
INSERT INTO rating_periods (starts_at, ends_at, matches, applied_at) VALUES (:from, :to, :matches, :now)

-- name: upsert_rating
INSERT INTO ratings (platform_id, rating, deviation, volatility, matches, rated_through, updated_at)
VALUES (:player, :rating, :deviation, :volatility, :matches, :rated_through, :now)
ON CONFLICT (platform_id) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
	volatility = excluded.volatility, matches = excluded.matches, rated_through = excluded.rated_through,
	updated_at = excluded.updated_at
