-- What the admin web pages change beyond the admin API.

-- name: update_draft_tournament
UPDATE tournaments SET slug = :slug, name = :name, description = :description, format = :format,
	max_players = :max_players,
	registration_opens_at = :registration_opens_at, registration_closes_at = :registration_closes_at,
		starts_at = :starts_at, environment = :environment,
	season_id = NULLIF(:season, 0), team_min_players = :team_min_players,
		team_max_players = :team_max_players, group_count = :group_count,
	advance_per_group = :advance_per_group, small_final = :small_final,
		match_window_minutes = :match_window_minutes, cast_hand_mode = :hand_mode,
	cast_delay_seconds = :delay_seconds, allow_spectators = :allow_spectators, updated_at = :updated_at,
	grand_final_reset = :grand_final_reset, swiss_rounds = :swiss_rounds, top_cut = :top_cut,
		seed_from_ratings = :seed_from_ratings, check_in_minutes = :check_in_minutes,
	group_format = :group_format, best_of = :best_of, group_best_of = :group_best_of,
	final_best_of = :final_best_of, pacing = :pacing, grace_period_minutes = :grace_period_minutes
WHERE id = :tournament AND status = 'draft'
RETURNING id

-- name: set_seeds
-- The seeds are a JSON object {captain: seed}; 0 clears a seed. Only while
-- the groups or the bracket are not drawn yet.
UPDATE registrations
SET seed = NULLIF((SELECT j.value FROM json_each(:seeds) j WHERE j.key = registrations.platform_id), 0)
WHERE tournament_id = :tournament AND platform_id IN (SELECT key FROM json_each(:seeds))
	AND (SELECT status FROM tournaments WHERE id = :tournament) IN ('registration_open',
		'registration_closed')
RETURNING platform_id

-- name: remove_arena_admin
-- Never the last admin: the count is read by the same statement.
DELETE FROM arena_admins WHERE platform_id = :player AND (SELECT count(*) FROM arena_admins) > 1
RETURNING platform_id

-- name: arena_admin_exists
SELECT count(*) FROM arena_admins WHERE platform_id = :player
