-- Custom domain queries (directory database).

-- name: insert_domain
INSERT INTO custom_domains (hostname, arena_id, provider_id, status, ssl_status, verification, created_at,
	updated_at)
SELECT :hostname, :arena, :provider, :status, :ssl_status, :records, :created_at, :updated_at
WHERE NOT EXISTS (SELECT 1 FROM arena_hosts WHERE host = :hostname)
RETURNING hostname

-- name: insert_domain_host
INSERT INTO arena_hosts (host, arena_id, position)
VALUES (:hostname, :arena, (SELECT coalesce(max(position), 0) + 1 FROM arena_hosts WHERE arena_id = :arena))

-- name: domains
SELECT hostname, arena_id, provider_id, status, ssl_status, verification, created_at, updated_at
FROM custom_domains WHERE arena_id = :arena ORDER BY created_at, hostname

-- name: update_domain
UPDATE custom_domains SET provider_id = :provider, status = :status, ssl_status = :ssl_status,
	verification = :records, updated_at = :updated_at
WHERE hostname = :hostname AND arena_id = :arena
RETURNING hostname

-- name: route_domain
INSERT INTO arena_hosts (host, arena_id, position)
SELECT :hostname, :arena, (SELECT coalesce(max(position), 0) + 1 FROM arena_hosts WHERE arena_id = :arena)
WHERE EXISTS (SELECT 1 FROM custom_domains WHERE hostname = :hostname AND arena_id = :arena)
AND NOT EXISTS (SELECT 1 FROM arena_hosts WHERE host = :hostname)

-- name: unroute_domain
DELETE FROM arena_hosts WHERE host = :hostname AND arena_id = :arena AND position > 0

-- name: delete_domain
DELETE FROM custom_domains WHERE hostname = :hostname AND arena_id = :arena
