-- Custom domain queries (directory database). Positional ? placeholders.

-- name: insert_domain
INSERT INTO custom_domains (hostname, arena_id, provider_id, status, ssl_status, verification, created_at, updated_at)
SELECT ?, ?, ?, ?, ?, ?, ?, ?
WHERE NOT EXISTS (SELECT 1 FROM arena_hosts WHERE host = ?)
RETURNING hostname

-- name: insert_domain_host
INSERT INTO arena_hosts (host, arena_id, position)
VALUES (?, ?, (SELECT coalesce(max(position), 0) + 1 FROM arena_hosts WHERE arena_id = ?))

-- name: domains
SELECT hostname, arena_id, provider_id, status, ssl_status, verification, created_at, updated_at
FROM custom_domains WHERE arena_id = ? ORDER BY created_at, hostname

-- name: update_domain
UPDATE custom_domains SET provider_id = ?, status = ?, ssl_status = ?, verification = ?, updated_at = ?
WHERE hostname = ? AND arena_id = ?
RETURNING hostname

-- name: route_domain
INSERT INTO arena_hosts (host, arena_id, position)
SELECT ?, ?, (SELECT coalesce(max(position), 0) + 1 FROM arena_hosts WHERE arena_id = ?)
WHERE EXISTS (SELECT 1 FROM custom_domains WHERE hostname = ? AND arena_id = ?)
AND NOT EXISTS (SELECT 1 FROM arena_hosts WHERE host = ?)

-- name: unroute_domain
DELETE FROM arena_hosts WHERE host = ? AND arena_id = ? AND position > 0

-- name: delete_domain
DELETE FROM custom_domains WHERE hostname = ? AND arena_id = ?
