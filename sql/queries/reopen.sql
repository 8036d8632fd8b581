-- Reopening a decided match (core/reopen.go), one batch. reopen_claim
-- marks the match with the batch's token only while nothing downstream
-- started: the matches it feeds (its winner_to and loser_to seats, a
-- grand final's reset) are scheduled with no ready, submission, report
-- or game; a group match's tournament is still in its group stage; a
-- Swiss match's round is the last paired. Every later statement runs
-- only for the claimed match (decision_token = :token), so a claim that
-- failed changes nothing. Parameters: :match, :token, :at.

-- name: reopen_claim
UPDATE matches SET decision_token = :token, updated_at = :at
WHERE id = :match AND status IN {{resolved}} AND coalesce(result_source, '') <> 'bye'
	AND NOT EXISTS (SELECT 1 FROM matches f
		WHERE f.tournament_id = matches.tournament_id
			AND f.bracket_slot IN (matches.winner_to_slot, matches.loser_to_slot,
				CASE WHEN matches.bracket_slot = 'GF' THEN 'GF2' END)
			AND (f.status <> 'scheduled' OR f.p1_ready_at IS NOT NULL OR f.p2_ready_at IS NOT NULL
				OR EXISTS (SELECT 1 FROM match_submissions s WHERE s.match_id = f.id)
				OR EXISTS (SELECT 1 FROM match_reports r WHERE r.match_id = f.id)
				OR EXISTS (SELECT 1 FROM match_games g WHERE g.match_id = f.id)))
	AND NOT (matches.stage = 'group'
		AND (SELECT t.status FROM tournaments t WHERE t.id = matches.tournament_id) <> 'group_stage')
	AND NOT (matches.stage = 'swiss' AND (EXISTS (SELECT 1 FROM matches l WHERE l.tournament_id = matches.tournament_id
			AND l.stage = 'swiss' AND l.round_number > matches.round_number)
		OR (SELECT t.status FROM tournaments t WHERE t.id = matches.tournament_id) = 'playoffs'))

-- name: reopen_log
-- match.reopened, with what it was.
INSERT INTO event_log (at, type, tournament_slug, match_id, data)
SELECT :at, 'match.reopened', t.slug, m.id,
	json_object('admin', nullif(:admin, ''), 'status', m.status, 'winner', m.winner_platform_id,
		'source', m.result_source)
FROM matches m JOIN tournaments t ON t.id = m.tournament_id
WHERE m.id = :match AND m.decision_token = :token AND m.status IN {{resolved}}

-- name: reopen_unseat_winner
UPDATE matches SET
	p1_platform_id = CASE WHEN (SELECT d.winner_to_side FROM matches d WHERE d.id = :match) = 1
		THEN NULL ELSE p1_platform_id END,
	p2_platform_id = CASE WHEN (SELECT d.winner_to_side FROM matches d WHERE d.id = :match) = 2
		THEN NULL ELSE p2_platform_id END,
	updated_at = :at
WHERE tournament_id = (SELECT d.tournament_id FROM matches d WHERE d.id = :match)
	AND bracket_slot = (SELECT d.winner_to_slot FROM matches d WHERE d.id = :match)
	AND (SELECT d.decision_token FROM matches d WHERE d.id = :match AND d.status IN {{resolved}}) = :token

-- name: reopen_unseat_loser
UPDATE matches SET
	p1_platform_id = CASE WHEN (SELECT d.loser_to_side FROM matches d WHERE d.id = :match) = 1
		THEN NULL ELSE p1_platform_id END,
	p2_platform_id = CASE WHEN (SELECT d.loser_to_side FROM matches d WHERE d.id = :match) = 2
		THEN NULL ELSE p2_platform_id END,
	updated_at = :at
WHERE tournament_id = (SELECT d.tournament_id FROM matches d WHERE d.id = :match)
	AND bracket_slot = (SELECT d.loser_to_slot FROM matches d WHERE d.id = :match)
	AND (SELECT d.decision_token FROM matches d WHERE d.id = :match AND d.status IN {{resolved}}) = :token

-- name: reopen_drop_reset_casters
DELETE FROM match_casters WHERE match_id = (SELECT f.id FROM matches f JOIN matches d
	ON d.id = :match AND f.tournament_id = d.tournament_id AND d.bracket_slot = 'GF' AND f.bracket_slot = 'GF2'
	WHERE d.decision_token = :token AND d.status IN {{resolved}})

-- name: reopen_drop_reset_streams
DELETE FROM match_streams WHERE match_id = (SELECT f.id FROM matches f JOIN matches d
	ON d.id = :match AND f.tournament_id = d.tournament_id AND d.bracket_slot = 'GF' AND f.bracket_slot = 'GF2'
	WHERE d.decision_token = :token AND d.status IN {{resolved}})

-- name: reopen_drop_reset
DELETE FROM matches WHERE id = (SELECT f.id FROM matches f JOIN matches d
	ON d.id = :match AND f.tournament_id = d.tournament_id AND d.bracket_slot = 'GF' AND f.bracket_slot = 'GF2'
	WHERE d.decision_token = :token AND d.status IN {{resolved}})

-- name: reopen_uncomplete
-- A completed tournament plays again: its playing status back, its
-- podium and placements (and so its ladder points) withdrawn below.
UPDATE tournaments SET status = CASE WHEN format IN ('round_robin', 'swiss') AND top_cut = 0
		THEN 'group_stage' ELSE 'playoffs' END,
	completed_at = NULL, updated_at = :at
WHERE id = (SELECT d.tournament_id FROM matches d WHERE d.id = :match AND d.decision_token = :token
		AND d.status IN {{resolved}})
	AND status = 'completed'

-- name: reopen_podium
DELETE FROM podiums WHERE tournament_id = (SELECT d.tournament_id FROM matches d WHERE d.id = :match
	AND d.decision_token = :token AND d.status IN {{resolved}})
	AND (SELECT t.status FROM tournaments t WHERE t.id = podiums.tournament_id) <> 'completed'

-- name: reopen_placements
DELETE FROM placements WHERE tournament_id = (SELECT d.tournament_id FROM matches d WHERE d.id = :match
	AND d.decision_token = :token AND d.status IN {{resolved}})
	AND (SELECT t.status FROM tournaments t WHERE t.id = placements.tournament_id) <> 'completed'

-- name: reopen_ratings
-- A match a rating period rated: every period is rated again from the
-- start (the scheduled job), as if the match had not been decided.
DELETE FROM ratings WHERE EXISTS (SELECT 1 FROM matches d WHERE d.id = :match AND d.decision_token = :token
	AND d.status IN {{resolved}} AND d.resolved_at < (SELECT max(ends_at) FROM rating_periods))

-- name: reopen_rating_periods
DELETE FROM rating_periods WHERE EXISTS (SELECT 1 FROM matches d WHERE d.id = :match
	AND d.decision_token = :token AND d.status IN {{resolved}}
	AND d.resolved_at < (SELECT max(ends_at) FROM rating_periods))

-- name: reopen_alerts
-- The decision's alert keys are freed (the events and what they sent
-- stay), so the next decision alerts again.
UPDATE arena_events SET dedupe_key = dedupe_key || ':reopened:' || :token
WHERE dedupe_key IN ('result:' || :match, 'disputed:' || :match)
	AND EXISTS (SELECT 1 FROM matches d WHERE d.id = :match AND d.decision_token = :token
		AND d.status IN {{resolved}})

-- name: reopen_results
DELETE FROM match_submissions WHERE match_id = :match AND EXISTS (SELECT 1 FROM matches d
	WHERE d.id = :match AND d.decision_token = :token AND d.status IN {{resolved}})

-- name: reopen_reports
DELETE FROM match_reports WHERE match_id = :match AND EXISTS (SELECT 1 FROM matches d
	WHERE d.id = :match AND d.decision_token = :token AND d.status IN {{resolved}})

-- name: reopen_game_submissions
DELETE FROM match_game_submissions WHERE match_id = :match AND EXISTS (SELECT 1 FROM matches d
	WHERE d.id = :match AND d.decision_token = :token AND d.status IN {{resolved}})

-- name: reopen_games
DELETE FROM match_games WHERE match_id = :match AND EXISTS (SELECT 1 FROM matches d
	WHERE d.id = :match AND d.decision_token = :token AND d.status IN {{resolved}})

-- name: reopen_match
-- Last: the match itself, scheduled with a fresh window from now.
UPDATE matches SET status = 'scheduled', winner_platform_id = NULL, result_source = NULL,
	score_p1 = NULL, score_p2 = NULL, resolved_at = NULL, ended_at = NULL, live_at = NULL,
	p1_ready_at = NULL, p2_ready_at = NULL, session_nonce = NULL, game_seed = NULL,
	opens_at = :at,
	closes_at = strftime('%Y-%m-%dT%H:%M:%fZ', :at, '+' || ((SELECT t.match_window_minutes FROM tournaments t
		WHERE t.id = matches.tournament_id) * best_of) || ' minutes'),
	updated_at = :at
WHERE id = :match AND decision_token = :token AND status IN {{resolved}}

-- name: reopen_outcome
-- Read after the batch: the match reopened when it is scheduled with the
-- batch's token.
SELECT status, coalesce(decision_token, '') FROM matches WHERE id = :match
