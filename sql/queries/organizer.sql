-- The organizer's tools: removing a side before the draw, disqualifying one
-- after it, editing a started tournament's details.

-- name: remove_roster
DELETE FROM roster_members WHERE tournament_id = :tournament AND captain_id = :captain
	AND EXISTS (SELECT 1 FROM tournaments t WHERE t.id = :tournament
		AND t.status IN ('registration_open', 'registration_closed'))

-- name: remove_registration
DELETE FROM registrations WHERE tournament_id = :tournament AND platform_id = :captain
	AND EXISTS (SELECT 1 FROM tournaments t WHERE t.id = :tournament
		AND t.status IN ('registration_open', 'registration_closed'))

-- name: disqualify_side
UPDATE registrations SET disqualified_at = coalesce(disqualified_at, :at)
WHERE tournament_id = :tournament AND platform_id = :captain
	AND EXISTS (SELECT 1 FROM tournaments t WHERE t.id = :tournament AND t.status IN ('group_stage',
		'playoffs'))
RETURNING platform_id

-- name: forfeit_disqualified
-- Forfeits the match to the side that is not disqualified (or, both being
-- disqualified, to side 1), while it is undecided.
UPDATE matches SET status = 'forfeited',
	winner_platform_id = CASE WHEN EXISTS (SELECT 1 FROM registrations r WHERE r.tournament_id = matches.tournament_id
			AND r.platform_id = matches.p1_platform_id AND r.disqualified_at IS NOT NULL)
		AND NOT EXISTS (SELECT 1 FROM registrations r WHERE r.tournament_id = matches.tournament_id
			AND r.platform_id = matches.p2_platform_id AND r.disqualified_at IS NOT NULL)
		THEN p2_platform_id ELSE p1_platform_id END,
	result_source = 'admin', resolved_at = :now, ended_at = coalesce(ended_at, :now), updated_at = :now,
		decision_token = :token
WHERE id = :match AND status IN ('scheduled', 'live', 'awaiting_result', 'disputed')
	AND p1_platform_id IS NOT NULL AND p2_platform_id IS NOT NULL
	AND EXISTS (SELECT 1 FROM registrations r WHERE r.tournament_id = matches.tournament_id
		AND r.platform_id IN (matches.p1_platform_id,
			matches.p2_platform_id) AND r.disqualified_at IS NOT NULL)

-- name: disqualified_matches
-- Undecided matches (both sides known) of running tournaments with a
-- disqualified side: the settle job forfeits them.
SELECT m.id FROM matches m JOIN tournaments t ON t.id = m.tournament_id
WHERE t.status IN ('group_stage', 'playoffs')
	AND m.status IN ('scheduled', 'live', 'awaiting_result', 'disputed')
	AND m.p1_platform_id IS NOT NULL AND m.p2_platform_id IS NOT NULL
	AND EXISTS (SELECT 1 FROM registrations r WHERE r.tournament_id = m.tournament_id
		AND r.platform_id IN (m.p1_platform_id, m.p2_platform_id) AND r.disqualified_at IS NOT NULL)
ORDER BY m.id

-- name: update_tournament_details
UPDATE tournaments SET name = :name, description = :description,
	registration_opens_at = :registration_opens_at, registration_closes_at = :registration_closes_at,
	starts_at = :starts_at, check_in_minutes = :check_in_minutes, grace_period_minutes = :grace_period_minutes,
	updated_at = :updated_at
WHERE id = :tournament AND status = :status
RETURNING id
