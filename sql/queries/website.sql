-- The website's own reads and writes: a player's entries, their name.

-- name: roster_captains
SELECT tournament_id, captain_id FROM roster_members WHERE platform_id = :player

-- name: set_persona_name
UPDATE players SET persona_name = :name, updated_at = :at WHERE platform_id = :player RETURNING platform_id
