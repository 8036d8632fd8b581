-- Who may administer the arena, and the players it knows.
CREATE TABLE admin_tokens (
	id TEXT PRIMARY KEY,                  -- the 8 hex characters after admkey_
	hash TEXT NOT NULL,                   -- SHA-256 of the whole token, hex
	label TEXT NOT NULL DEFAULT '',
	created_at TEXT NOT NULL,
	revoked_at TEXT
);

CREATE TABLE arena_admins (
	platform_id TEXT PRIMARY KEY,
	added_at TEXT NOT NULL
);

CREATE TABLE players (
	platform_id TEXT PRIMARY KEY,
	persona_name TEXT NOT NULL,
	avatar_url TEXT NOT NULL DEFAULT '',
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL
);
