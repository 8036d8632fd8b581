-- Streams: linked channels, link states, the live set, caster seats, POV
-- streams and follows.

-- name: set_stream_login
-- Stores the player if the arena did not know them (a placeholder name
-- the platform's summaries replace), then links the login.
INSERT INTO players (platform_id, persona_name, avatar_url, created_at, updated_at, stream_login)
VALUES (:player, :name, '', :now, :now, :login)
ON CONFLICT (platform_id) DO UPDATE SET stream_login = excluded.stream_login, updated_at = excluded.updated_at

-- name: stream_login
SELECT coalesce(stream_login, '') FROM players WHERE platform_id = :player

-- name: linked_channels
SELECT stream_login, platform_id FROM players WHERE stream_login IS NOT NULL ORDER BY stream_login

-- name: sweep_link_states
DELETE FROM stream_link_states WHERE expires_at <= :created_at

-- name: insert_link_state
INSERT INTO stream_link_states (state, platform_id, return_to, created_at, expires_at) VALUES (:state,
	:player, :return_to, :created_at, :expires_at)

-- name: take_link_state
-- Used once: the row is gone after the first taker, whatever races.
DELETE FROM stream_link_states WHERE state = :state AND expires_at > :now
RETURNING platform_id, return_to, created_at, expires_at

-- name: polled_logins
SELECT stream_login FROM players WHERE stream_login IS NOT NULL
UNION SELECT stream_login FROM match_casters WHERE ended_at IS NULL
UNION SELECT s.stream_login FROM match_streams s JOIN matches m ON m.id = s.match_id
	WHERE m.status NOT IN {{resolved}}
ORDER BY 1

-- name: live_set
-- The live rows, and one row with an empty login carrying when the set
-- was polled.
SELECT login, stream_id, started_at FROM stream_live
UNION ALL SELECT '', '', value FROM arena_settings WHERE key = 'stream_live_polled_at'

-- name: clear_live_set
DELETE FROM stream_live

-- name: insert_live
INSERT INTO stream_live (login, stream_id, started_at) VALUES (:login, :stream, :started_at)
ON CONFLICT (login) DO NOTHING

-- name: set_live_polled_at
INSERT INTO arena_settings (key, value) VALUES ('stream_live_polled_at', :polled_at)
ON CONFLICT (key) DO UPDATE SET value = excluded.value

-- name: record_streaming_event
-- A linked player's stream session: once per stream id.
INSERT INTO arena_events (kind, dedupe_key, player_id, detail, created_at)
SELECT 'player_streaming', 'streaming:' || platform_id || ':' || :stream, platform_id, stream_login, :at
FROM players WHERE stream_login = :login
ON CONFLICT (dedupe_key) DO NOTHING

-- name: add_caster
-- One statement: the seat is taken only while the match is undecided and
-- has a free seat; an ended seat of the same channel is reopened.
INSERT INTO match_casters (match_id, stream_login, source, platform_id, invited_by, created_at)
SELECT :match, :stream_login, :source, :player, :invited_by, :created_at
WHERE EXISTS (SELECT 1 FROM matches WHERE id = :match AND status NOT IN {{resolved}})
	AND (SELECT count(*) FROM match_casters WHERE match_id = :match AND ended_at IS NULL AND stream_login != :stream_login) < :max_casters
ON CONFLICT (match_id, stream_login) DO UPDATE SET source = excluded.source,
	platform_id = excluded.platform_id,
	invited_by = excluded.invited_by, created_at = CASE WHEN match_casters.ended_at IS NULL
		THEN match_casters.created_at ELSE excluded.created_at END, ended_at = NULL
RETURNING match_id

-- name: caster_refusal
-- Why add_caster seated nobody: the match's status and its active seats.
SELECT status, (SELECT count(*) FROM match_casters WHERE match_id = m.id AND ended_at IS NULL)
FROM matches m WHERE id = :match

-- name: retire_caster
UPDATE match_casters SET ended_at = :at WHERE match_id = :match AND platform_id = :player AND ended_at IS NULL

-- name: match_casters
SELECT match_id, stream_login, source, coalesce(platform_id, ''), coalesce(invited_by, ''), created_at
FROM match_casters WHERE match_id = :match AND ended_at IS NULL ORDER BY created_at, rowid

-- name: tournament_casters
SELECT c.match_id, c.stream_login, c.source, coalesce(c.platform_id, ''), coalesce(c.invited_by, ''),
	c.created_at
FROM match_casters c JOIN matches m ON m.id = c.match_id
WHERE m.tournament_id = :tournament AND c.ended_at IS NULL ORDER BY c.created_at, c.rowid

-- name: active_casters
SELECT match_id, stream_login, source, coalesce(platform_id, ''), coalesce(invited_by, ''), created_at
FROM match_casters WHERE ended_at IS NULL ORDER BY created_at, rowid

-- name: set_match_stream
INSERT INTO match_streams (match_id, platform_id, stream_login, created_at) VALUES (:match, :player, :login,
	:at)
ON CONFLICT (match_id, platform_id) DO UPDATE SET stream_login = excluded.stream_login

-- name: delete_match_stream
DELETE FROM match_streams WHERE match_id = :match AND platform_id = :player

-- name: match_streams
SELECT match_id, platform_id, stream_login FROM match_streams WHERE match_id = :match ORDER BY created_at,
	platform_id

-- name: tournament_streams
SELECT s.match_id, s.platform_id, s.stream_login FROM match_streams s JOIN matches m ON m.id = s.match_id
WHERE m.tournament_id = :tournament ORDER BY s.created_at, s.platform_id

-- name: active_streams
SELECT s.match_id, s.platform_id, s.stream_login FROM match_streams s JOIN matches m ON m.id = s.match_id
WHERE m.status NOT IN {{resolved}} ORDER BY s.created_at, s.platform_id

-- name: follow
INSERT INTO follows (platform_id, kind, target_id, created_at) VALUES (:player, :kind, :target, :at)
ON CONFLICT (platform_id, kind, target_id) DO NOTHING

-- name: unfollow
DELETE FROM follows WHERE platform_id = :player AND kind = :kind AND target_id = :target

-- name: follows
SELECT kind, target_id FROM follows WHERE platform_id = :player ORDER BY kind, created_at, target_id

-- name: expire_live_set
DELETE FROM arena_settings WHERE key = 'stream_live_polled_at'

-- name: player_casters
-- The casters seated on a player's matches (the match ids follow, then
-- player_casters_order).
SELECT c.match_id, c.stream_login, c.source, coalesce(c.platform_id, ''), coalesce(c.invited_by, ''), c.created_at
FROM match_casters c WHERE c.ended_at IS NULL AND c.match_id IN

-- name: player_casters_order
ORDER BY c.created_at, c.rowid
