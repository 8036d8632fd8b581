-- Public read API rate limits per arena (requests per minute; 0 = no limit).
ALTER TABLE arenas ADD COLUMN rate_limit_anonymous INTEGER NOT NULL DEFAULT 60;
ALTER TABLE arenas ADD COLUMN rate_limit_key INTEGER NOT NULL DEFAULT 600;
