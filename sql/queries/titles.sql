-- Titles: creation, state, volunteers, challenges, the clock's expiry and
-- retirement. What a decided title match does is in decided.sql. A title's
-- open match is its tournaments row's undecided match.

-- name: insert_title_tournament
INSERT INTO tournaments (slug, name, description, format, status, max_players, registration_opens_at,
	registration_closes_at, starts_at, environment, team_min_players, team_max_players,
	match_window_minutes, cast_hand_mode, cast_delay_seconds, allow_spectators, created_at, updated_at,
	best_of, group_best_of, final_best_of)
VALUES (:slug, :name, '', :format, 'playoffs', 2, :at, :at, :at, :environment, 1, 1, :window_minutes,
	'hidden', 0, 1, :at, :at, :best_of, :best_of, :best_of)

-- name: insert_title
INSERT INTO titles (slug, name, tournament_id, created_at, updated_at)
SELECT :slug, :name, id, :at, :at FROM tournaments WHERE slug = :slug

-- name: title_ids
SELECT id, tournament_id FROM titles WHERE slug = :slug

-- name: title_state
-- A title with its state in one row: the reigns, volunteers, open
-- challenge and open match as JSON arrays.
SELECT t.id, t.slug, t.name, t.tournament_id, tr.environment, coalesce(t.holder_platform_id, ''),
	coalesce(t.clock_started_at, ''), coalesce(t.retired_at, ''), t.created_at,
	(SELECT json_group_array(json_array(r.id, r.platform_id, r.since, r.until, r.defenses, r.ended))
		FROM title_reigns r WHERE r.title_id = t.id),
	(SELECT json_group_array(json_array(v.id, v.platform_id, v.volunteered_at))
		FROM title_volunteers v WHERE v.title_id = t.id),
	(SELECT json_array(c.id, c.challenger_platform_id, c.holder_platform_id, c.status, c.created_at,
			c.responded_at, coalesce(c.match_id, 0))
		FROM title_challenges c WHERE c.title_id = t.id AND c.status IN ('pending', 'declined')),
	(SELECT json_array(m.id, m.round_label, m.status, m.p1_platform_id, m.p2_platform_id, m.opens_at,
		m.closes_at)
		FROM matches m WHERE m.tournament_id = t.tournament_id AND m.status NOT IN {{resolved}}
		ORDER BY m.id LIMIT 1),
	tr.best_of
FROM titles t JOIN tournaments tr ON tr.id = t.tournament_id

-- name: title_challenge
SELECT id, title_id, challenger_platform_id, holder_platform_id, status, created_at, responded_at,
	coalesce(match_id, 0)
FROM title_challenges WHERE id = :challenge

-- name: title_exists
SELECT count(*) FROM titles WHERE id = :title

-- name: insert_title_player
-- A player who volunteers or challenges becomes known to the arena (a
-- placeholder name until the platform's summary names them).
INSERT INTO players (platform_id, persona_name, avatar_url, created_at, updated_at) VALUES (:player, :name,
	'', :at, :at)
ON CONFLICT (platform_id) DO NOTHING

-- name: insert_title_roster
-- A title match's players are on its tournaments row's rosters, so
-- discovery finds their matches.
INSERT INTO roster_members (tournament_id, platform_id, captain_id)
SELECT t.tournament_id, :player, :player FROM titles t WHERE t.id = :title
ON CONFLICT DO NOTHING

-- name: insert_title_volunteer
INSERT INTO title_volunteers (title_id, platform_id, volunteered_at, token)
SELECT t.id, :player, :at, :token FROM titles t
WHERE t.id = :title AND t.holder_platform_id IS NULL AND t.retired_at IS NULL
	AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.tournament_id = t.tournament_id
		AND m.status NOT IN {{resolved}})
ON CONFLICT (title_id, platform_id) DO NOTHING

-- name: insert_coronation
-- The first two volunteers' match, once there are two and while none is
-- being played: of any number of concurrent volunteers, one creates it.
INSERT INTO matches (tournament_id, stage, round_label, round_number, status, p1_platform_id, p2_platform_id,
	opens_at, closes_at, created_at, updated_at, best_of)
SELECT t.tournament_id, :stage, :round, 1, 'scheduled',
	(SELECT v.platform_id FROM title_volunteers v WHERE v.title_id = t.id ORDER BY v.id LIMIT 1),
	(SELECT v.platform_id FROM title_volunteers v WHERE v.title_id = t.id ORDER BY v.id LIMIT 1 OFFSET 1),
	:opens, :closes, :at, :at, (SELECT tr.best_of FROM tournaments tr WHERE tr.id = t.tournament_id)
FROM titles t
WHERE t.id = :title AND t.holder_platform_id IS NULL AND t.retired_at IS NULL
	AND (SELECT count(*) FROM title_volunteers v WHERE v.title_id = t.id) >= 2
	AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.tournament_id = t.tournament_id
		AND m.status NOT IN {{resolved}})

-- name: volunteer_stored
SELECT count(*) FROM title_volunteers WHERE title_id = :title AND token = :token

-- name: restart_title_clock
-- A clock that ran out with no challenge open restarts (the scheduled
-- job's expiry, and a challenge arriving before the job ran).
UPDATE titles SET clock_started_at = :at, updated_at = :at
WHERE id = :title AND holder_platform_id IS NOT NULL AND retired_at IS NULL AND clock_started_at <= :cutoff
	AND NOT EXISTS (SELECT 1 FROM title_challenges c WHERE c.title_id = titles.id
		AND c.status IN ('pending', 'declined'))

-- name: insert_title_challenge
INSERT INTO title_challenges (title_id, challenger_platform_id, holder_platform_id, status, created_at, token)
SELECT t.id, :challenger, t.holder_platform_id, 'pending', :at, :token FROM titles t
WHERE t.id = :title AND t.holder_platform_id IS NOT NULL AND t.holder_platform_id <> :challenger AND t.retired_at IS NULL
	AND NOT EXISTS (SELECT 1 FROM title_challenges c WHERE c.title_id = t.id AND c.status IN ('pending',
		'declined'))
	AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.tournament_id = t.tournament_id
		AND m.status NOT IN {{resolved}})
ON CONFLICT DO NOTHING

-- name: challenge_stored
SELECT id, holder_platform_id FROM title_challenges WHERE token = :token

-- name: decline_title_challenge
UPDATE title_challenges SET status = 'declined', responded_at = :now, response_token = :token
WHERE id = :challenge AND status = 'pending'
	AND EXISTS (SELECT 1 FROM titles t WHERE t.id = title_challenges.title_id AND t.holder_platform_id = :holder
		AND t.retired_at IS NULL)

-- name: accept_title_challenge
-- Only while the holder's clock runs: the same batch as a racing expiry
-- cannot both apply, whichever comes first wins whole.
UPDATE title_challenges SET status = 'accepted', responded_at = :now, response_token = :token
WHERE id = :challenge AND status = 'pending'
	AND EXISTS (SELECT 1 FROM titles t WHERE t.id = title_challenges.title_id AND t.holder_platform_id = :holder
		AND t.retired_at IS NULL AND t.clock_started_at > :cutoff
		AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.tournament_id = t.tournament_id
			AND m.status NOT IN {{resolved}}))

-- name: insert_title_match
INSERT INTO matches (tournament_id, stage, round_label, round_number, status, p1_platform_id, p2_platform_id,
	opens_at, closes_at, created_at, updated_at, best_of)
SELECT t.tournament_id, :stage, :round, 1, 'scheduled', c.holder_platform_id, c.challenger_platform_id,
	:now, :closes, :now, :now, (SELECT tr.best_of FROM tournaments tr WHERE tr.id = t.tournament_id)
FROM title_challenges c JOIN titles t ON t.id = c.title_id
WHERE c.id = :challenge AND c.status = 'accepted' AND c.response_token = :token

-- name: link_title_match
UPDATE title_challenges SET match_id = (SELECT max(m.id) FROM matches m JOIN titles t ON t.tournament_id = m.tournament_id
	WHERE t.id = title_challenges.title_id)
WHERE id = :challenge AND status = 'accepted' AND response_token = :token AND match_id IS NULL

-- name: insert_holder_roster
INSERT INTO roster_members (tournament_id, platform_id, captain_id)
SELECT t.tournament_id, c.holder_platform_id, c.holder_platform_id
FROM title_challenges c JOIN titles t ON t.id = c.title_id
WHERE c.id = :challenge AND c.response_token = :token
ON CONFLICT DO NOTHING

-- name: challenge_answer_token
SELECT response_token FROM title_challenges WHERE id = :challenge

-- name: expired_title_clocks
SELECT id FROM titles
WHERE holder_platform_id IS NOT NULL AND retired_at IS NULL AND clock_started_at <= :cutoff
ORDER BY id

-- The clock's expiry (the scheduled job), in one batch, each statement
-- guarded by the clock having run out (started at or before the cutoff),
-- so a second run or a racing accept that committed first changes
-- nothing. With a challenge still unanswered or declined the holder is
-- stripped: the challenger becomes the vacant title's first volunteer, the
-- reign ends stripped, the title falls vacant and the challenge expires.
-- With no challenge open the clock restarts (restart_title_clock). Each
-- stripping statement reads the title's state as it was before the batch
-- stripped it, so the order of the batch matters: volunteer, reign, title,
-- challenge.

-- name: strip_to_volunteer
INSERT INTO title_volunteers (title_id, platform_id, volunteered_at, token)
SELECT t.id, c.challenger_platform_id, :at, 'stripped'
FROM titles t JOIN title_challenges c ON c.title_id = t.id AND c.status IN ('pending', 'declined')
WHERE t.id = :title AND t.holder_platform_id IS NOT NULL AND t.retired_at IS NULL AND t.clock_started_at <= :cutoff
ON CONFLICT (title_id, platform_id) DO NOTHING

-- name: strip_reign
UPDATE title_reigns SET until = :at, ended = 'stripped'
WHERE id = (SELECT t.reign_id FROM titles t
	WHERE t.id = :title AND t.holder_platform_id IS NOT NULL AND t.retired_at IS NULL AND t.clock_started_at <= :cutoff
		AND EXISTS (SELECT 1 FROM title_challenges c WHERE c.title_id = t.id AND c.status IN ('pending',
			'declined')))

-- name: strip_title
UPDATE titles SET holder_platform_id = NULL, reign_id = NULL, clock_started_at = NULL, updated_at = :at
WHERE id = :title AND holder_platform_id IS NOT NULL AND retired_at IS NULL AND clock_started_at <= :cutoff
	AND EXISTS (SELECT 1 FROM title_challenges c WHERE c.title_id = titles.id AND c.status IN ('pending',
		'declined'))

-- name: expire_title_challenges
UPDATE title_challenges SET status = 'expired', responded_at = coalesce(responded_at, :at)
WHERE title_id = :title AND status IN ('pending', 'declined')
	AND (SELECT t.holder_platform_id FROM titles t WHERE t.id = title_challenges.title_id) IS NULL

-- name: retire_title
UPDATE titles SET retired_at = coalesce(retired_at, :now), clock_started_at = NULL,
	updated_at = :now WHERE id = :title

-- name: void_title_challenges
UPDATE title_challenges SET status = 'void', responded_at = coalesce(responded_at, :now)
WHERE title_id = :title AND status IN ('pending', 'declined')

-- name: drop_title_volunteers
DELETE FROM title_volunteers WHERE title_id = :title
