-- The website's own reads and writes: a player's entries, their name.

-- name: roster_captains
SELECT tournament_id, captain_id FROM roster_members WHERE platform_id = :player

-- name: set_persona_name
UPDATE players SET persona_name = :name, updated_at = :at WHERE platform_id = :player RETURNING platform_id

-- name: viewer_reports
-- The reports of the viewer's matches (player_matches_where follows).
SELECT match_id, side, reporter_id, winner_platform_id, score_p1, score_p2, status, reported_at,
	decided_at, decided_by, dispute_reason
FROM match_reports WHERE match_id IN (SELECT m.id FROM matches m

-- name: viewer_check_ins
-- Whether each side the viewer plays in checked in, by tournament.
SELECT r.tournament_id, r.checked_in_at IS NOT NULL FROM registrations r
JOIN roster_members rm ON rm.tournament_id = r.tournament_id AND rm.captain_id = r.platform_id
WHERE rm.platform_id = :player

-- name: viewer_people
-- The profiles the viewer's panel names: the sides of their matches
-- (player_matches_where follows, twice) and their sides' captains.
SELECT p.platform_id, p.persona_name, p.avatar_url FROM players p
WHERE p.platform_id IN (SELECT captain_id FROM roster_members WHERE platform_id = :player)
	OR p.platform_id IN (SELECT m.p1_platform_id FROM matches m
