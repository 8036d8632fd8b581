-- Directory queries.
-- Writes that must know whether they matched use RETURNING, never the
-- affected-row count, which some libSQL servers report as 0.

-- name: insert_arena
INSERT INTO arenas (slug, name, plan, app_ids, publisher_key, identity, referee_enabled,
	grace_period_seconds, database_url, database_token, schema_version, created_at, updated_at,
	creating, database_provisioned)
VALUES (:slug, :name, :plan, :app_ids, :publisher_key, :identity, :referee_enabled, :grace_period_seconds,
	:database_url, :database_token, :schema_version, :created_at, :updated_at, :creating, :provisioned)

-- name: insert_arena_host
INSERT INTO arena_hosts (host, arena_id, position)
VALUES (:host, (SELECT id FROM arenas WHERE slug = :slug), :position)

-- name: arena_columns
SELECT a.id, a.slug, a.name, a.plan, a.app_ids, a.publisher_key, a.identity, a.referee_enabled,
	a.grace_period_seconds, a.database_url, a.database_token, a.schema_version, a.created_at, a.updated_at,
	a.rate_limit_anonymous, a.rate_limit_key, a.default_locale,
	(SELECT json_group_array(host) FROM (SELECT host FROM arena_hosts h WHERE h.arena_id = a.id ORDER BY position))
FROM arenas a

-- name: hosts_taken
SELECT h.host FROM arena_hosts h JOIN json_each(:hosts) j ON h.host = j.value
UNION
SELECT d.hostname FROM custom_domains d JOIN json_each(:hosts) j ON d.hostname = j.value
ORDER BY 1

-- name: slug_taken
SELECT count(*) FROM arenas WHERE slug = :slug

-- name: update_arena_settings
UPDATE arenas SET name = :name, plan = :plan, app_ids = :app_ids, publisher_key = :publisher_key,
	identity = :identity,
	referee_enabled = :referee_enabled, grace_period_seconds = :grace_period_seconds,
		rate_limit_anonymous = :anonymous_per_minute, rate_limit_key = :key_per_minute,
	default_locale = :default_locale,
	updated_at = :updated_at
WHERE id = :arena
RETURNING id

-- name: set_schema_version
UPDATE arenas SET schema_version = :version WHERE id = :arena AND schema_version < :version

-- name: database_in_use
SELECT count(*) FROM arenas WHERE database_url = :url

-- name: set_creating_database
UPDATE arenas SET database_url = :url, database_token = :token WHERE id = :arena AND creating = 1
RETURNING id

-- name: complete_arena
UPDATE arenas SET creating = 0, database_url = :database_url, database_token = :database_token,
	schema_version = :schema_version
WHERE id = :arena AND creating = 1
RETURNING id

-- name: delete_creating_arena_hosts
DELETE FROM arena_hosts WHERE arena_id = (SELECT id FROM arenas WHERE id = :arena AND creating = 1)

-- name: delete_creating_arena
DELETE FROM arenas WHERE id = :arena AND creating = 1

-- name: creating_arenas
SELECT id, slug, database_url, database_provisioned, created_at FROM arenas WHERE creating = 1 ORDER BY id

-- Moving an arena's own hosts (the operator's; custom domains stay) is one
-- batch: update_arena_settings, shift_domain_hosts, unroute_arena_hosts,
-- then route_arena_host for each new host, primary first.

-- name: shift_domain_hosts
-- The arena's routed custom domains move past the new hosts' positions
-- (0 .. n-1), keeping their order.
UPDATE arena_hosts SET position = position + :hosts
WHERE arena_id = :arena AND host IN (SELECT hostname FROM custom_domains WHERE arena_id = :arena)

-- name: unroute_arena_hosts
DELETE FROM arena_hosts
WHERE arena_id = :arena AND host NOT IN (SELECT hostname FROM custom_domains WHERE arena_id = :arena)

-- name: route_arena_host
-- A host that is a custom domain (any arena's, pending too) is taken: its
-- position becomes NULL, which fails the batch (NOT NULL), as another
-- arena's host fails it (UNIQUE); either way nothing of the batch stays.
INSERT INTO arena_hosts (host, arena_id, position)
VALUES (:host, :arena,
	CASE WHEN EXISTS (SELECT 1 FROM custom_domains WHERE hostname = :host) THEN NULL ELSE :position END)
