-- Website sessions. The session cookie names a row here (signed, so a
-- guessed id is refused without a read); signing out deletes the row, so
-- a replayed cookie opens nothing. The edge keeps no memory between
-- requests, so this table is where a session lives. mock marks a session
-- started with the mock form: it stops counting once the arena signs in
-- through the platform. Expired rows are swept when a session starts.
CREATE TABLE web_sessions (
	id TEXT PRIMARY KEY,                  -- 32 random hex characters
	platform_id TEXT NOT NULL,
	mock INTEGER NOT NULL CHECK (mock IN (0, 1)),
	created_at TEXT NOT NULL,
	expires_at TEXT NOT NULL
);

CREATE INDEX web_sessions_expires_at ON web_sessions (expires_at);
