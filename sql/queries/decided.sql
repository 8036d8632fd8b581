-- What every decision of a match does in the same batch, whatever decided
-- it (an admin, two agreeing game clients, a player report, the grace
-- period, the window-close timer): the decided match's winner takes the
-- seat its winner_to points at, and its loser the seat of loser_to (a
-- semifinal feeding a small final), while that match is still scheduled.
-- Everything is read from the decided row itself, so a decision that did
-- not happen seats nobody. Parameters: :match, the decided match's id,
-- and :at, the time.

-- name: seat_winner
UPDATE matches SET
	p1_platform_id = CASE WHEN (SELECT d.winner_to_side FROM matches d WHERE d.id = :match) = 1
		THEN (SELECT d.winner_platform_id FROM matches d WHERE d.id = :match) ELSE p1_platform_id END,
	p2_platform_id = CASE WHEN (SELECT d.winner_to_side FROM matches d WHERE d.id = :match) = 2
		THEN (SELECT d.winner_platform_id FROM matches d WHERE d.id = :match) ELSE p2_platform_id END,
	updated_at = :at
WHERE status = 'scheduled'
	AND tournament_id = (SELECT d.tournament_id FROM matches d WHERE d.id = :match)
	AND bracket_slot = (SELECT d.winner_to_slot FROM matches d WHERE d.id = :match)
	AND EXISTS (SELECT 1 FROM matches d WHERE d.id = :match AND d.status IN {{resolved}}
		AND d.winner_platform_id IS NOT NULL)

-- name: seat_loser
UPDATE matches SET
	p1_platform_id = CASE WHEN (SELECT d.loser_to_side FROM matches d WHERE d.id = :match) = 1
		THEN (SELECT CASE WHEN d.winner_platform_id = d.p1_platform_id THEN d.p2_platform_id ELSE d.p1_platform_id END
			FROM matches d WHERE d.id = :match) ELSE p1_platform_id END,
	p2_platform_id = CASE WHEN (SELECT d.loser_to_side FROM matches d WHERE d.id = :match) = 2
		THEN (SELECT CASE WHEN d.winner_platform_id = d.p1_platform_id THEN d.p2_platform_id ELSE d.p1_platform_id END
			FROM matches d WHERE d.id = :match) ELSE p2_platform_id END,
	updated_at = :at
WHERE status = 'scheduled'
	AND tournament_id = (SELECT d.tournament_id FROM matches d WHERE d.id = :match)
	AND bracket_slot = (SELECT d.loser_to_slot FROM matches d WHERE d.id = :match)
	AND EXISTS (SELECT 1 FROM matches d WHERE d.id = :match AND d.status IN {{resolved}}
		AND d.winner_platform_id IS NOT NULL)

-- name: insert_grand_final_reset
-- A double elimination's grand final won by its side 2 (the losers'
-- champion) is played again when the tournament has the reset: GF2, the
-- same sides, its window from the decision on.
INSERT INTO matches (tournament_id, stage, round_label, round_number, bracket_slot, status,
	p1_platform_id, p2_platform_id, opens_at, closes_at, created_at, updated_at, best_of)
SELECT d.tournament_id, 'final', 'Grand final reset', d.round_number + 1, 'GF2', 'scheduled',
	d.p1_platform_id, d.p2_platform_id, :at,
	strftime('%Y-%m-%dT%H:%M:%fZ', :at, '+' || (t.match_window_minutes * d.best_of) || ' minutes'), :at, :at,
	d.best_of
FROM matches d JOIN tournaments t ON t.id = d.tournament_id
WHERE d.id = :match AND d.bracket_slot = 'GF' AND t.format = 'double_elimination' AND t.grand_final_reset = 1
	AND d.status IN {{resolved}} AND d.winner_platform_id = d.p2_platform_id
ON CONFLICT (tournament_id, bracket_slot) DO NOTHING

-- name: decision_token
SELECT coalesce(decision_token, '') FROM matches WHERE id = :match

-- name: decided_finals
-- Tournaments still in playoffs whose final is decided: completing them is
-- what MatchDecided does next, and what the scheduled jobs repair.
SELECT DISTINCT m.tournament_id FROM matches m JOIN tournaments t ON t.id = m.tournament_id
WHERE t.status = 'playoffs' AND m.bracket_slot = 'FINAL' AND m.status IN {{resolved}}
ORDER BY m.tournament_id

-- What a decided title match does to its title, in the same batch as the
-- decision: title_result records it once per match (holder is the holder
-- before the match, NULL for a coronation), the next statements apply the
-- unapplied record (a defense; or the reign lost, a new reign, the new
-- holder; the clock restarts at the decision; volunteers leave) and the
-- last marks it applied. A racing second decision of the same match finds
-- the record applied and changes nothing. A match whose title is retired,
-- or whose holder is on neither side, changes no title. Parameters:
-- :match, the decided match's id, and :at, the time.

-- name: title_result
INSERT INTO title_results (match_id, title_id, winner_platform_id, holder_platform_id, decided_at, applied)
SELECT d.id, t.id, d.winner_platform_id, t.holder_platform_id, :at, 0
FROM matches d JOIN titles t ON t.tournament_id = d.tournament_id
WHERE d.id = :match AND d.status IN {{resolved}} AND d.winner_platform_id IS NOT NULL
	AND t.retired_at IS NULL
	AND (t.holder_platform_id IS NULL OR t.holder_platform_id IN (d.p1_platform_id, d.p2_platform_id))
ON CONFLICT (match_id) DO NOTHING

-- name: title_defense
UPDATE title_reigns SET defenses = defenses + 1
WHERE id = (SELECT t.reign_id FROM title_results r JOIN titles t ON t.id = r.title_id
	WHERE r.match_id = :match AND r.applied = 0 AND r.holder_platform_id = r.winner_platform_id)

-- name: title_lost
UPDATE title_reigns SET until = (SELECT r.decided_at FROM title_results r WHERE r.match_id = :match),
	ended = 'lost'
WHERE id = (SELECT t.reign_id FROM title_results r JOIN titles t ON t.id = r.title_id
	WHERE r.match_id = :match AND r.applied = 0 AND r.holder_platform_id <> r.winner_platform_id)

-- name: title_crowned
INSERT INTO title_reigns (title_id, platform_id, since, defenses, won_match_id)
SELECT r.title_id, r.winner_platform_id, r.decided_at, 0, r.match_id FROM title_results r
WHERE r.match_id = :match AND r.applied = 0
	AND (r.holder_platform_id IS NULL OR r.holder_platform_id <> r.winner_platform_id)
ON CONFLICT (won_match_id) DO NOTHING

-- name: title_holder
UPDATE titles SET
	holder_platform_id = (SELECT r.winner_platform_id FROM title_results r WHERE r.match_id = :match),
	reign_id = coalesce((SELECT g.id FROM title_reigns g WHERE g.won_match_id = :match), reign_id),
	clock_started_at = (SELECT r.decided_at FROM title_results r WHERE r.match_id = :match),
	updated_at = (SELECT r.decided_at FROM title_results r WHERE r.match_id = :match)
WHERE id = (SELECT r.title_id FROM title_results r WHERE r.match_id = :match AND r.applied = 0)

-- name: title_volunteers_crowned
DELETE FROM title_volunteers
WHERE title_id = (SELECT r.title_id FROM title_results r WHERE r.match_id = :match AND r.applied = 0)

-- name: title_result_applied
UPDATE title_results SET applied = 1 WHERE match_id = :match AND applied = 0

-- name: record_decision_event
-- The decided match's result_confirmed event (once per match), or its
-- result_disputed event when a submission or report left it disputed,
-- read from the decided row: a decision that did not happen records
-- nothing.
INSERT INTO arena_events (kind, dedupe_key, match_id, tournament_id, detail, created_at)
SELECT CASE status WHEN 'disputed' THEN 'result_disputed' ELSE 'result_confirmed' END,
	CASE status WHEN 'disputed' THEN 'disputed:' ELSE 'result:' END || id, id, tournament_id, status, :at
FROM matches
WHERE id = :match AND status IN ('confirmed', 'forfeited', 'disputed')
ON CONFLICT (dedupe_key) DO NOTHING

-- name: end_caster_seats
-- A caster's seat ends with the match.
UPDATE match_casters SET ended_at = :at
WHERE match_id = :match AND ended_at IS NULL
	AND EXISTS (SELECT 1 FROM matches WHERE id = :match AND status IN {{resolved}})

-- name: stages_to_settle
-- Round-robin and Swiss stages with every match resolved (the next round,
-- the top cut or the completion is due), and double eliminations whose
-- grand final is decided with no reset pending.
SELECT t.id FROM tournaments t
WHERE (t.status = 'group_stage' AND t.format IN ('round_robin', 'swiss')
		AND EXISTS (SELECT 1 FROM matches m WHERE m.tournament_id = t.id)
		AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.tournament_id = t.id
			AND m.status NOT IN {{resolved}}))
	OR (t.status = 'playoffs' AND t.format = 'double_elimination'
		AND EXISTS (SELECT 1 FROM matches m WHERE m.tournament_id = t.id AND m.bracket_slot = 'GF'
			AND m.status IN {{resolved}})
		AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.tournament_id = t.id AND m.stage = 'final'
			AND m.status NOT IN {{resolved}}))
ORDER BY t.id

-- name: play_fingerprint
-- A tournament's matches and sides as core.PlayFingerprint writes them
-- (every match "id:status:winner" in id order; the sides
-- "count:disqualified"), whether they are as :matches_after and
-- :sides_after say: the condition of a completion worked out ahead of the
-- decision that makes it (core.Completion). An expression.
(coalesce((SELECT group_concat(f.x, ',') FROM (SELECT fm.id || ':' || fm.status || ':' ||
		coalesce(fm.winner_platform_id, '') AS x FROM matches fm WHERE fm.tournament_id = :tournament ORDER BY fm.id) f), '')
	= :matches_after
	AND (SELECT count(*) || ':' || count(fr.disqualified_at) FROM registrations fr WHERE fr.tournament_id = :tournament)
	= :sides_after)

-- name: complete_tournament_ahead
-- complete_tournament on a completion's condition (play_fingerprint
-- follows).
UPDATE tournaments SET status = 'completed', completed_at = :at, updated_at = :at
WHERE id = :tournament AND status IN ('group_stage', 'playoffs') AND

-- name: insert_podium_ahead
-- insert_podium when the batch's complete_tournament_ahead completed the
-- tournament.
INSERT INTO podiums (tournament_id, rank, platform_id) SELECT :tournament, :rank, :player
WHERE EXISTS (SELECT 1 FROM tournaments WHERE id = :tournament AND status = 'completed' AND completed_at = :at)
ON CONFLICT DO NOTHING

-- name: insert_placement_ahead
-- insert_placement when the batch's complete_tournament_ahead completed
-- the tournament.
INSERT INTO placements (tournament_id, platform_id, place, points) SELECT :tournament, :player, :place, :points
WHERE EXISTS (SELECT 1 FROM tournaments WHERE id = :tournament AND status = 'completed' AND completed_at = :at)
ON CONFLICT DO NOTHING
