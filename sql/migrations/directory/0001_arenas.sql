-- The arenas (tenants) and the hosts that reach them.
CREATE TABLE arenas (
	id INTEGER PRIMARY KEY,
	slug TEXT NOT NULL UNIQUE,
	name TEXT NOT NULL,
	plan TEXT NOT NULL CHECK (plan IN ('free', 'indie', 'studio')),
	app_ids TEXT NOT NULL,                -- JSON array, primary first
	publisher_key TEXT NOT NULL DEFAULT '',
	identity TEXT NOT NULL DEFAULT '',
	referee_enabled INTEGER NOT NULL DEFAULT 0,
	grace_period_seconds INTEGER NOT NULL,
	database_url TEXT NOT NULL,
	database_token TEXT NOT NULL DEFAULT '',
	schema_version INTEGER NOT NULL DEFAULT 0,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL
);

CREATE TABLE arena_hosts (
	host TEXT PRIMARY KEY,                -- lowercase, no port
	arena_id INTEGER NOT NULL REFERENCES arenas (id) ON DELETE CASCADE,
	position INTEGER NOT NULL             -- 0 is the primary host
);

CREATE INDEX arena_hosts_arena ON arena_hosts (arena_id, position);
