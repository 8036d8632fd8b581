-- Website sign-in: OpenID response nonces and the player-summary cache.

-- name: claim_openid_nonce
INSERT INTO openid_nonces (nonce, seen_at) VALUES (:nonce, :at) ON CONFLICT (nonce) DO NOTHING RETURNING nonce

-- name: sweep_openid_nonces
DELETE FROM openid_nonces WHERE seen_at < :keep_since

-- name: mock_signin_player
INSERT INTO players (platform_id, persona_name, avatar_url, created_at, updated_at) VALUES (:player,
	:persona_name, :avatar_url, :now, :now)
ON CONFLICT (platform_id) DO UPDATE SET
	avatar_url = CASE WHEN players.avatar_url = '' THEN excluded.avatar_url ELSE players.avatar_url END,
	updated_at = excluded.updated_at

-- name: cache_summary
INSERT INTO players (platform_id, persona_name, avatar_url, created_at, updated_at, summary_fetched_at)
VALUES (:player, :persona_name, :avatar_url, :now, :now, :now)
ON CONFLICT (platform_id) DO UPDATE SET persona_name = excluded.persona_name,
	avatar_url = excluded.avatar_url, updated_at = excluded.updated_at,
	summary_fetched_at = excluded.summary_fetched_at

-- name: summary_missing
UPDATE players SET summary_fetched_at = :now WHERE platform_id = :player

-- name: fresh_summaries
-- A join rather than "platform_id IN (SELECT value FROM json_each(?))":
-- tursodb answers that form with no rows for an indexed column.
SELECT p.platform_id FROM players p JOIN json_each(:players) j ON p.platform_id = j.value
WHERE p.summary_fetched_at >= :since

-- name: insert_web_session
INSERT INTO web_sessions (id, platform_id, mock, created_at, expires_at) VALUES (:session, :player, :mock,
	:at, :expires)

-- name: sweep_web_sessions
DELETE FROM web_sessions WHERE expires_at <= :at

-- name: end_web_session
DELETE FROM web_sessions WHERE id = :session

-- name: web_session_viewer
-- The whole signed-in frame of a page in one read: the session's player,
-- their cached name and avatar (none when never cached), whether they
-- administer the arena, their unread alerts, linked channel and follows
-- ("kind:target" joined by commas).
SELECT s.platform_id, s.mock, p.persona_name, p.avatar_url,
	EXISTS (SELECT 1 FROM arena_admins a WHERE a.platform_id = s.platform_id),
	(SELECT count(*) FROM alerts al WHERE al.platform_id = s.platform_id AND al.read_at IS NULL),
	coalesce(p.stream_login, ''),
	coalesce((SELECT group_concat(f.kind || ':' || f.target_id,
		',') FROM follows f WHERE f.platform_id = s.platform_id), '')
FROM web_sessions s LEFT JOIN players p ON p.platform_id = s.platform_id
WHERE s.id = :session AND s.expires_at > :now

-- name: session_player
-- The player of an open session, as an expression: the reads a request
-- plans for its caller are keyed by the session cookie itself
-- (Arena.PlanViewerParts), so they need no read of the session first.
(SELECT ws.platform_id FROM web_sessions ws WHERE ws.id = :session AND ws.expires_at > :now)
