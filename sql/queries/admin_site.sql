-- What the admin web pages change beyond the admin API. Positional ? only.

-- name: update_draft_tournament
UPDATE tournaments SET slug = ?, name = ?, description = ?, format = ?, max_players = ?,
	registration_opens_at = ?, registration_closes_at = ?, starts_at = ?, environment = ?,
	season_id = NULLIF(?, 0), team_min_players = ?, team_max_players = ?, group_count = ?,
	advance_per_group = ?, small_final = ?, match_window_minutes = ?, cast_hand_mode = ?,
	cast_delay_seconds = ?, allow_spectators = ?, updated_at = ?,
	grand_final_reset = ?, swiss_rounds = ?, top_cut = ?, seed_from_ratings = ?, check_in_minutes = ?,
	group_format = ?
WHERE id = ? AND status = 'draft'
RETURNING id

-- name: set_seeds
-- The seeds are a JSON object {captain: seed}; 0 clears a seed. Only while
-- the groups or the bracket are not drawn yet.
UPDATE registrations
SET seed = NULLIF((SELECT j.value FROM json_each(?) j WHERE j.key = registrations.platform_id), 0)
WHERE tournament_id = ? AND platform_id IN (SELECT key FROM json_each(?))
	AND (SELECT status FROM tournaments WHERE id = ?) IN ('registration_open', 'registration_closed')
RETURNING platform_id

-- name: remove_arena_admin
-- Never the last admin: the count is read by the same statement.
DELETE FROM arena_admins WHERE platform_id = ? AND (SELECT count(*) FROM arena_admins) > 1
RETURNING platform_id

-- name: arena_admin_exists
SELECT count(*) FROM arena_admins WHERE platform_id = ?
