-- Seasons, tournaments, registrations and matches.

-- name: insert_season
INSERT INTO seasons (slug, name, starts_at, ends_at, created_at) VALUES (:slug, :name, :starts_at, :ends_at,
	:created_at) RETURNING id

-- name: update_season
UPDATE seasons SET name = :name, starts_at = :starts_at, ends_at = :ends_at WHERE slug = :slug RETURNING id

-- name: seasons
SELECT id, slug, name, starts_at, ends_at, created_at FROM seasons ORDER BY starts_at DESC, id DESC

-- name: insert_tournament
INSERT INTO tournaments (slug, name, description, format, status, max_players, registration_opens_at,
	registration_closes_at, starts_at, environment, season_id, team_min_players, team_max_players,
	group_count, advance_per_group, small_final, match_window_minutes, cast_hand_mode,
	cast_delay_seconds, allow_spectators, created_at, updated_at,
	grand_final_reset, swiss_rounds, top_cut, seed_from_ratings, check_in_minutes, group_format,
	best_of, group_best_of, final_best_of, pacing, grace_period_minutes)
VALUES (:slug, :name, :description, :format, 'draft', :max_players, :registration_opens_at,
	:registration_closes_at, :starts_at, :environment, NULLIF(:season, 0), :team_min_players,
	:team_max_players, :group_count, :advance_per_group, :small_final, :match_window_minutes, :hand_mode,
	:delay_seconds, :allow_spectators, :created_at, :updated_at, :grand_final_reset, :swiss_rounds,
	:top_cut, :seed_from_ratings, :check_in_minutes, :group_format, :best_of, :group_best_of, :final_best_of, :pacing,
	:grace_period_minutes)
RETURNING id

-- name: tournament_columns
SELECT t.id, t.slug, t.name, t.description, t.format, t.status, t.max_players,
	t.registration_opens_at, t.registration_closes_at, t.starts_at, t.environment,
	coalesce(t.season_id, 0), coalesce(s.slug, ''), t.team_min_players, t.team_max_players,
	t.group_count, t.advance_per_group, t.small_final, t.match_window_minutes, t.cast_hand_mode,
	t.cast_delay_seconds, t.allow_spectators,
	(SELECT count(*) FROM registrations r WHERE r.tournament_id = t.id),
	t.created_at, t.updated_at, t.completed_at,
	t.grand_final_reset, t.swiss_rounds, t.top_cut, t.seed_from_ratings, t.check_in_minutes, t.group_format,
	(SELECT min(m.opens_at) FROM matches m WHERE m.tournament_id = t.id),
	{{log_seq}}, t.best_of, t.group_best_of, t.final_best_of, t.pacing, t.grace_period_minutes
FROM tournaments t LEFT JOIN seasons s ON s.id = t.season_id

-- name: set_tournament_status
UPDATE tournaments SET status = :to, updated_at = :at WHERE id = :tournament AND status = :from RETURNING id

-- name: move_tournament_status
UPDATE tournaments SET status = :to, updated_at = :now WHERE id = :tournament AND status = :from

-- name: start_stage
-- The step happens only while none of the sides it withdraws for not
-- checking in (a JSON array of captains) has checked in meanwhile.
UPDATE tournaments SET status = :to, transition_token = :token,
	updated_at = :now WHERE id = :tournament AND status = :from
	AND NOT EXISTS (SELECT 1 FROM registrations r JOIN json_each(:absent_json) j ON r.platform_id = j.value
		WHERE r.tournament_id = tournaments.id AND r.checked_in_at IS NOT NULL)

-- name: withdraw_absent_roster
DELETE FROM roster_members WHERE tournament_id = :tournament AND captain_id = :player
	AND (SELECT transition_token FROM tournaments WHERE id = :tournament) = :token

-- name: withdraw_absent
DELETE FROM registrations WHERE tournament_id = :tournament AND platform_id = :player
	AND (SELECT transition_token FROM tournaments WHERE id = :tournament) = :token

-- name: record_check_in_missed
INSERT INTO arena_events (kind, dedupe_key, tournament_id, player_id, created_at)
SELECT 'check_in_missed', 'check_in_missed:' || t.id || ':' || :player, t.id, :player, :now FROM tournaments t
WHERE t.id = :tournament AND t.transition_token = :token
ON CONFLICT (dedupe_key) DO NOTHING

-- name: check_in
-- A side checks in once (a second check-in keeps the first time), only
-- while its tournament has not started.
UPDATE registrations SET checked_in_at = coalesce(checked_in_at, :at)
WHERE tournament_id = :tournament AND platform_id = :captain
	AND (SELECT status FROM tournaments WHERE id = :tournament) IN ('registration_open',
		'registration_closed')
RETURNING platform_id

-- name: check_out
-- The organizer clears a side's check-in, only while its tournament has
-- not started.
UPDATE registrations SET checked_in_at = NULL
WHERE tournament_id = :tournament AND platform_id = :captain
	AND (SELECT status FROM tournaments WHERE id = :tournament) IN ('registration_open',
		'registration_closed')
RETURNING platform_id

-- name: stage_token
SELECT status, coalesce(transition_token, '') FROM tournaments WHERE id = :tournament

-- name: insert_stage_match
INSERT INTO matches (tournament_id, stage, round_label, round_number, group_name, bracket_slot, status,
	p1_platform_id, p2_platform_id, opens_at, closes_at, winner_platform_id, result_source,
	winner_to_slot, winner_to_side, loser_to_slot, loser_to_side, resolved_at, ended_at, created_at,
		updated_at, best_of)
SELECT :tournament, :stage, :round, :round_number, NULLIF(:group, ''), NULLIF(:slot, ''), :status,
	NULLIF(:p1, ''), NULLIF(:p2, ''), :opens_at, :closes_at, NULLIF(:winner, ''), NULLIF(:source, ''),
	NULLIF(:winner_to_slot, ''), NULLIF(:winner_to_side, 0), NULLIF(:loser_to_slot, ''),
		NULLIF(:loser_to_side, 0),
	:resolved_at, :resolved_at, :now, :now, :best_of
WHERE (SELECT transition_token FROM tournaments WHERE id = :tournament) = :token

-- name: insert_added_match
-- A stage's next matches (a Swiss round, a top cut): stored while the
-- tournament has the status the step leads to; a slot stored already is
-- skipped.
INSERT INTO matches (tournament_id, stage, round_label, round_number, group_name, bracket_slot, status,
	p1_platform_id, p2_platform_id, opens_at, closes_at, winner_platform_id, result_source,
	winner_to_slot, winner_to_side, loser_to_slot, loser_to_side, resolved_at, ended_at, created_at,
		updated_at, best_of)
SELECT :tournament, :stage, :round, :round_number, NULLIF(:group, ''), :slot, :status,
	NULLIF(:p1, ''), NULLIF(:p2, ''), :opens_at, :closes_at, NULLIF(:winner, ''), NULLIF(:source, ''),
	NULLIF(:winner_to_slot, ''), NULLIF(:winner_to_side, 0), NULLIF(:loser_to_slot, ''),
		NULLIF(:loser_to_side, 0),
	:resolved_at, :resolved_at, :now, :now, :best_of
WHERE (SELECT status FROM tournaments WHERE id = :tournament) = :to
ON CONFLICT (tournament_id, bracket_slot) DO NOTHING

-- name: set_registration_seed
UPDATE registrations SET seed = :seed
WHERE tournament_id = :tournament AND platform_id = :captain AND (SELECT transition_token FROM tournaments WHERE id = :tournament) = :token

-- name: set_registration_group
UPDATE registrations SET group_name = :group
WHERE tournament_id = :tournament AND platform_id = :captain AND (SELECT transition_token FROM tournaments WHERE id = :tournament) = :token

-- name: insert_registration
INSERT INTO registrations (tournament_id, platform_id, seed, registered_at)
SELECT t.id, :player, NULLIF(:seed, 0), :at FROM tournaments t
WHERE t.id = :tournament AND t.status = 'registration_open'
	AND t.registration_opens_at <= :at AND :at < t.registration_closes_at
	AND (SELECT count(*) FROM registrations r WHERE r.tournament_id = t.id) < t.max_players

-- name: insert_roster_member
INSERT INTO roster_members (tournament_id, platform_id, captain_id)
SELECT :tournament, :player,
	:captain WHERE EXISTS (SELECT 1 FROM registrations WHERE tournament_id = :tournament AND platform_id = :captain)

-- name: upsert_registered_player
INSERT INTO players (platform_id, persona_name, avatar_url, created_at, updated_at)
SELECT :player, :name, :avatar_url, :at,
	:at WHERE EXISTS (SELECT 1 FROM registrations WHERE tournament_id = :tournament AND platform_id = :captain)
ON CONFLICT (platform_id) DO UPDATE SET
	persona_name = CASE WHEN :named THEN excluded.persona_name ELSE players.persona_name END,
	updated_at = excluded.updated_at

-- name: insert_bulk_registration
-- One side of a list (:captains, a JSON array of :n captains), all or
-- none: each side's insert asks whether the whole list fits beside the
-- sides registered outside it, which no insert of the list changes, so
-- every insert of the batch goes in or none does. A player already on a
-- side fails the batch (its unique keys).
INSERT INTO registrations (tournament_id, platform_id, seed, registered_at)
SELECT t.id, :player, NULLIF(:seed, 0), :at FROM tournaments t
WHERE t.id = :tournament AND t.status = 'registration_open'
	AND t.registration_opens_at <= :at AND :at < t.registration_closes_at
	AND (SELECT count(*) FROM registrations r WHERE r.tournament_id = t.id
		AND r.platform_id NOT IN (SELECT value FROM json_each(:captains))) + :n <= t.max_players

-- name: registered_of
-- How many captains of the list are registered: all of them once the
-- bulk batch went in.
SELECT count(*) FROM registrations WHERE tournament_id = :tournament
	AND platform_id IN (SELECT value FROM json_each(:captains))

-- name: registration_exists
SELECT count(*) FROM registrations WHERE tournament_id = :tournament AND platform_id = :captain

-- name: registrations
SELECT r.platform_id, coalesce(p.persona_name, ''), coalesce(r.seed, 0), coalesce(r.group_name, ''),
	r.registered_at, r.disqualified_at, r.checked_in_at,
	(SELECT json_group_array(m.platform_id) FROM roster_members m
		WHERE m.tournament_id = r.tournament_id AND m.captain_id = r.platform_id)
FROM registrations r LEFT JOIN players p ON p.platform_id = r.platform_id
WHERE r.tournament_id = :tournament
ORDER BY r.id

-- name: match_columns
SELECT id, tournament_id, stage, round_label, round_number, coalesce(group_name, ''),
	coalesce(bracket_slot, ''), status, coalesce(p1_platform_id, ''), coalesce(p2_platform_id, ''),
	opens_at, closes_at, coalesce(winner_platform_id, ''), score_p1, score_p2,
	coalesce(result_source, ''), coalesce(winner_to_slot, ''), coalesce(winner_to_side, 0),
	coalesce(loser_to_slot, ''), coalesce(loser_to_side, 0), coalesce(session_nonce, ''),
	coalesce(game_seed, 0), p1_ready_at, p2_ready_at, live_at, ended_at, resolved_at,
	best_of, {{match_games}}
FROM matches m

-- name: match_order
ORDER BY CASE stage WHEN 'group' THEN 0 ELSE 1 END, length(coalesce(group_name, '')),
	group_name, round_number, id

-- name: resolve_match
UPDATE matches SET status = :status, winner_platform_id = :winner, score_p1 = :p1, score_p2 = :p2,
	result_source = :source,
	resolved_at = :at, ended_at = coalesce(ended_at, :at), updated_at = :at, decision_token = :token
WHERE id = :match AND status NOT IN {{resolved}}
	AND p1_platform_id IS NOT NULL AND p2_platform_id IS NOT NULL


-- name: reschedule_match
UPDATE matches SET opens_at = :opens_at, closes_at = :closes_at,
	updated_at = :at WHERE id = :match RETURNING id

-- name: complete_tournament
UPDATE tournaments SET status = 'completed', completed_at = :at, updated_at = :at
WHERE id = :tournament AND status IN ('group_stage', 'playoffs')

-- name: insert_podium
INSERT INTO podiums (tournament_id, rank, platform_id) VALUES (:tournament, :rank, :player)
ON CONFLICT DO NOTHING

-- name: insert_placement
INSERT INTO placements (tournament_id, platform_id, place, points) VALUES (:tournament, :player, :place,
	:points)
ON CONFLICT DO NOTHING

-- name: podium
SELECT rank, platform_id FROM podiums WHERE tournament_id = :tournament ORDER BY rank, platform_id

-- name: players_in
SELECT p.platform_id, p.persona_name, p.avatar_url, p.locale
FROM players p JOIN json_each(:players) j ON p.platform_id = j.value

-- name: first_player_locale
UPDATE players SET locale = :locale WHERE platform_id = :player AND locale = ''

-- name: set_player_locale
UPDATE players SET locale = :locale WHERE platform_id = :player

-- name: player
SELECT platform_id, persona_name, avatar_url FROM players WHERE platform_id = :player

-- name: players_named
-- Players whose name contains the text (ASCII letters in any case), by
-- name; the text's % and _ are escaped by the caller.
SELECT platform_id, persona_name, avatar_url FROM players
WHERE persona_name LIKE '%' || :pattern || '%' ESCAPE '\' ORDER BY persona_name, platform_id LIMIT :limit

-- name: player_match_counts
SELECT count(*), coalesce(sum(CASE WHEN m.winner_platform_id = r.captain_id THEN 1 ELSE 0 END), 0)
FROM roster_members r
JOIN matches m ON m.tournament_id = r.tournament_id
	AND (m.p1_platform_id = r.captain_id OR m.p2_platform_id = r.captain_id)
WHERE r.platform_id = :player AND m.status IN {{resolved}}
	AND coalesce(m.result_source, '') <> 'bye'

-- name: player_trophies
SELECT p.rank, t.id, t.slug, t.name
FROM roster_members r
JOIN podiums p ON p.tournament_id = r.tournament_id AND p.platform_id = r.captain_id
JOIN tournaments t ON t.id = p.tournament_id
WHERE r.platform_id = :player
ORDER BY t.completed_at DESC, p.rank

-- name: ladder
SELECT pl.platform_id, sum(pl.points), count(*)
FROM placements pl JOIN tournaments t ON t.id = pl.tournament_id
WHERE t.status = 'completed' AND t.season_id IS NOT NULL AND (:season = 0 OR t.season_id = :season)
GROUP BY pl.platform_id
ORDER BY sum(pl.points) DESC, count(*) DESC, pl.platform_id

-- name: setting
SELECT value FROM arena_settings WHERE key = :key

-- name: set_setting
INSERT INTO arena_settings (key, value) VALUES (:key, :value)
ON CONFLICT (key) DO UPDATE SET value = excluded.value

-- name: registered_players
-- The profiles of a tournament's registered sides (their captains): the
-- read model's names, read with its other parts (TournamentParts).
SELECT p.platform_id, p.persona_name, p.avatar_url
FROM players p JOIN registrations r ON r.platform_id = p.platform_id
WHERE r.tournament_id = :tournament

-- name: running_matches_where
-- The front page's matches: those not resolved yet of the tournaments
-- being played (FrontParts).
WHERE m.status NOT IN {{resolved}}
	AND m.tournament_id IN (SELECT id FROM tournaments WHERE status IN ('group_stage', 'playoffs'))

-- name: running_players
-- The profiles of the sides of running_matches_where's matches.
SELECT p.platform_id, p.persona_name, p.avatar_url FROM players p
WHERE p.platform_id IN (SELECT m.p1_platform_id FROM matches m
		JOIN tournaments t ON t.id = m.tournament_id AND t.status IN ('group_stage', 'playoffs')
		WHERE m.status NOT IN {{resolved}}
	UNION SELECT m.p2_platform_id FROM matches m
		JOIN tournaments t ON t.id = m.tournament_id AND t.status IN ('group_stage', 'playoffs')
		WHERE m.status NOT IN {{resolved}})

-- name: match_people
-- The profiles a match's page names: its sides, their rosters and its
-- casters (MatchParts).
SELECT p.platform_id, p.persona_name, p.avatar_url FROM players p
WHERE p.platform_id IN (SELECT p1_platform_id FROM matches WHERE id = :match
	UNION SELECT p2_platform_id FROM matches WHERE id = :match
	UNION SELECT r.platform_id FROM roster_members r JOIN matches m ON r.tournament_id = m.tournament_id
		AND r.captain_id IN (m.p1_platform_id, m.p2_platform_id) WHERE m.id = :match
	UNION SELECT platform_id FROM match_casters WHERE match_id = :match AND ended_at IS NULL)
