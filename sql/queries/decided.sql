-- What every decision of a match does in the same batch, whatever decided
-- it (an admin, two agreeing game clients, a player report, the grace
-- period, the window-close timer): the decided match's winner takes the
-- seat its winner_to points at, and its loser the seat of loser_to (a
-- semifinal feeding a small final), while that match is still scheduled.
-- Everything is read from the decided row itself, so a decision that did
-- not happen seats nobody. Positional ? only: the decided match's id,
-- repeated, and the time.

-- name: seat_winner
UPDATE matches SET
	p1_platform_id = CASE WHEN (SELECT d.winner_to_side FROM matches d WHERE d.id = ?) = 1
		THEN (SELECT d.winner_platform_id FROM matches d WHERE d.id = ?) ELSE p1_platform_id END,
	p2_platform_id = CASE WHEN (SELECT d.winner_to_side FROM matches d WHERE d.id = ?) = 2
		THEN (SELECT d.winner_platform_id FROM matches d WHERE d.id = ?) ELSE p2_platform_id END,
	updated_at = ?
WHERE status = 'scheduled'
	AND tournament_id = (SELECT d.tournament_id FROM matches d WHERE d.id = ?)
	AND bracket_slot = (SELECT d.winner_to_slot FROM matches d WHERE d.id = ?)
	AND EXISTS (SELECT 1 FROM matches d WHERE d.id = ? AND d.status IN ('confirmed', 'forfeited')
		AND d.winner_platform_id IS NOT NULL)

-- name: seat_loser
UPDATE matches SET
	p1_platform_id = CASE WHEN (SELECT d.loser_to_side FROM matches d WHERE d.id = ?) = 1
		THEN (SELECT CASE WHEN d.winner_platform_id = d.p1_platform_id THEN d.p2_platform_id ELSE d.p1_platform_id END
			FROM matches d WHERE d.id = ?) ELSE p1_platform_id END,
	p2_platform_id = CASE WHEN (SELECT d.loser_to_side FROM matches d WHERE d.id = ?) = 2
		THEN (SELECT CASE WHEN d.winner_platform_id = d.p1_platform_id THEN d.p2_platform_id ELSE d.p1_platform_id END
			FROM matches d WHERE d.id = ?) ELSE p2_platform_id END,
	updated_at = ?
WHERE status = 'scheduled'
	AND tournament_id = (SELECT d.tournament_id FROM matches d WHERE d.id = ?)
	AND bracket_slot = (SELECT d.loser_to_slot FROM matches d WHERE d.id = ?)
	AND EXISTS (SELECT 1 FROM matches d WHERE d.id = ? AND d.status IN ('confirmed', 'forfeited')
		AND d.winner_platform_id IS NOT NULL)

-- name: decision_token
SELECT coalesce(decision_token, '') FROM matches WHERE id = ?

-- name: decided_finals
-- Tournaments still in playoffs whose final is decided: completing them is
-- what MatchDecided does next, and what the scheduled jobs repair.
SELECT DISTINCT m.tournament_id FROM matches m JOIN tournaments t ON t.id = m.tournament_id
WHERE t.status = 'playoffs' AND m.bracket_slot = 'FINAL' AND m.status IN ('confirmed', 'forfeited')
ORDER BY m.tournament_id

-- name: record_result_event
-- The decided match's result_confirmed event (once per match), read from
-- the decided row: a decision that did not happen records nothing.
INSERT INTO arena_events (kind, dedupe_key, match_id, tournament_id, detail, created_at)
SELECT 'result_confirmed', 'result:' || id, id, tournament_id, status, ? FROM matches
WHERE id = ? AND status IN ('confirmed', 'forfeited')
ON CONFLICT (dedupe_key) DO NOTHING

-- name: record_disputed_event
-- A submission or report that left the match disputed.
INSERT INTO arena_events (kind, dedupe_key, match_id, tournament_id, detail, created_at)
SELECT 'result_disputed', 'disputed:' || id, id, tournament_id, status, ? FROM matches
WHERE id = ? AND status = 'disputed'
ON CONFLICT (dedupe_key) DO NOTHING

-- name: end_caster_seats
-- A caster's seat ends with the match.
UPDATE match_casters SET ended_at = ?
WHERE match_id = ? AND ended_at IS NULL
	AND EXISTS (SELECT 1 FROM matches WHERE id = ? AND status IN ('confirmed', 'forfeited'))
