-- The website's own reads and writes: a player's entries, their name.
-- Positional ? only.

-- name: roster_captains
SELECT tournament_id, captain_id FROM roster_members WHERE platform_id = ?

-- name: set_persona_name
UPDATE players SET persona_name = ?, updated_at = ? WHERE platform_id = ? RETURNING platform_id
