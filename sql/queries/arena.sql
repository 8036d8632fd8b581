-- Arena database queries. Parameters are named (:id), as every query's are.

-- name: insert_admin_token
INSERT INTO admin_tokens (id, hash, label, created_at) VALUES (:id, :hash, :label, :at)

-- name: admin_token
SELECT id, hash, label, created_at FROM admin_tokens WHERE id = :id AND revoked_at IS NULL

-- name: admin_tokens
SELECT id, label, created_at, revoked_at FROM admin_tokens ORDER BY created_at, rowid

-- name: admin_token_exists
SELECT count(*) FROM admin_tokens WHERE id = :id

-- name: revoke_admin_token
-- One statement, so two admins revoking the last two tokens at once leave
-- one: a token still in force is revoked only while another one is.
UPDATE admin_tokens SET revoked_at = coalesce(revoked_at, :at)
WHERE id = :id AND (revoked_at IS NOT NULL
	OR (SELECT count(*) FROM admin_tokens WHERE revoked_at IS NULL) > 1)
RETURNING id

-- name: insert_arena_admin
INSERT INTO arena_admins (platform_id, added_at) VALUES (:player, :at) ON CONFLICT (platform_id) DO NOTHING

-- name: arena_admins
SELECT platform_id FROM arena_admins ORDER BY platform_id

-- name: upsert_player
INSERT INTO players (platform_id, persona_name, avatar_url, created_at, updated_at)
VALUES (:player, :persona_name, :avatar_url, :at, :at)
ON CONFLICT (platform_id) DO UPDATE SET persona_name = excluded.persona_name,
	avatar_url = excluded.avatar_url, updated_at = excluded.updated_at

-- name: player_count
SELECT count(*) FROM players

-- name: insert_api_key
INSERT INTO api_keys (id, hash, label, created_at) VALUES (:id, :hash, :label, :at)

-- name: api_key_hash
SELECT hash FROM api_keys WHERE id = :id AND revoked_at IS NULL

-- name: revoke_api_key
UPDATE api_keys SET revoked_at = coalesce(revoked_at, :at) WHERE id = :id RETURNING id

-- name: api_key_exists
SELECT count(*) FROM api_keys WHERE id = :id

-- name: api_keys
SELECT id, label, created_at, revoked_at FROM api_keys ORDER BY created_at, rowid

-- name: count_request
INSERT INTO rate_counters (bucket, window_start, count) VALUES (:bucket, :window_start, 1)
ON CONFLICT (bucket, window_start) DO UPDATE SET count = count + 1
RETURNING count

-- name: sweep_rate_counters
DELETE FROM rate_counters WHERE window_start < :cutoff
