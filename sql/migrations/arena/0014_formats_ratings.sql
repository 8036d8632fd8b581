-- More formats and skill ratings. Tournaments keep a double elimination's
-- grand-final reset, a Swiss stage's rounds (0: the default for the
-- field) and top cut (0: none), and whether the draw seeds by rating.
ALTER TABLE tournaments ADD COLUMN grand_final_reset INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN swiss_rounds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN top_cut INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN seed_from_ratings INTEGER NOT NULL DEFAULT 0;

-- Glicko-2 ratings on the Glicko scale, as of the end of the last rating
-- period the player played in (rated_through).
CREATE TABLE ratings (
	platform_id TEXT PRIMARY KEY,
	rating REAL NOT NULL,
	deviation REAL NOT NULL,
	volatility REAL NOT NULL,
	matches INTEGER NOT NULL,
	rated_through TEXT NOT NULL,
	updated_at TEXT NOT NULL
);

CREATE INDEX ratings_ladder ON ratings (rating DESC, deviation, platform_id);

-- Every rating period rated, written in the batch that stores its
-- ratings: a period is rated once.
CREATE TABLE rating_periods (
	starts_at TEXT PRIMARY KEY,
	ends_at TEXT NOT NULL,
	matches INTEGER NOT NULL,
	applied_at TEXT NOT NULL
);

CREATE INDEX matches_resolved ON matches (resolved_at);
