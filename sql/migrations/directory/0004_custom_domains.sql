-- Custom domains an arena's admin attached, with the edge provider's view
-- of them (Cloudflare for SaaS custom hostnames). An active domain also
-- has a row in arena_hosts (position > 0): that is what routes it.
CREATE TABLE custom_domains (
	hostname TEXT PRIMARY KEY,            -- lowercase, no trailing dot
	arena_id INTEGER NOT NULL REFERENCES arenas (id) ON DELETE CASCADE,
	provider_id TEXT NOT NULL DEFAULT '', -- the provider's id; '' without a provider
	status TEXT NOT NULL,                 -- the provider's hostname status
	ssl_status TEXT NOT NULL,             -- the provider's certificate status
	verification TEXT NOT NULL DEFAULT '[]', -- JSON [{type, name, value}] for the owner
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL
);

CREATE INDEX custom_domains_arena ON custom_domains (arena_id, created_at);
