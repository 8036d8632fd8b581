-- Discord: linked accounts and the states of links under way
-- (core/discord.go).

-- name: discord_link_of
SELECT platform_id FROM discord_links WHERE discord_user_id = :discord

-- name: discord_link_for
SELECT discord_user_id, username, linked_at FROM discord_links WHERE platform_id = :player

-- name: discord_unlink
-- Either side's earlier link goes: one Discord account per player and
-- one player per Discord account.
DELETE FROM discord_links WHERE platform_id = :player OR discord_user_id = :discord

-- name: discord_link
INSERT INTO discord_links (discord_user_id, platform_id, username, linked_at) VALUES (:discord, :player, :username, :at)

-- name: discord_state_add
INSERT INTO discord_link_states (state, platform_id, created_at) VALUES (:state, :player, :at)

-- name: discord_state_take
-- A state is used once, and only while fresh.
DELETE FROM discord_link_states WHERE state = :state AND created_at >= :since RETURNING platform_id

-- name: discord_states_sweep
DELETE FROM discord_link_states WHERE created_at < :since
