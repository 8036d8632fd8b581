-- Streams, follows, casters, alerts and webhooks (spec 2.6, 4.3, 6).

-- The player's linked streaming-provider channel: its login, lowercased.
-- A channel is linked to one player of the arena at a time.
ALTER TABLE players ADD COLUMN stream_login TEXT;
CREATE UNIQUE INDEX players_stream_login ON players (stream_login);

-- A link in progress: the random state sent to the provider, mapped to
-- the player, used once before it expires. The state starts with the
-- arena's slug, so the one network-wide callback finds this database.
CREATE TABLE stream_link_states (
	state TEXT PRIMARY KEY,
	platform_id TEXT NOT NULL,
	return_to TEXT NOT NULL,              -- the arena origin the browser goes back to
	created_at TEXT NOT NULL,
	expires_at TEXT NOT NULL
);

-- The provider's live set as last polled (the per-arena cache): one row
-- per live login, with the provider's stream id (a stream session).
CREATE TABLE stream_live (
	login TEXT PRIMARY KEY,
	stream_id TEXT NOT NULL,
	started_at TEXT NOT NULL
);

-- follows: one row per user, kind (tournament or player) and target.
CREATE TABLE follows (
	platform_id TEXT NOT NULL,
	kind TEXT NOT NULL,
	target_id TEXT NOT NULL,              -- a tournament's id, a player's account id
	created_at TEXT NOT NULL,
	PRIMARY KEY (platform_id, kind, target_id)
);
CREATE INDEX follows_target ON follows (kind, target_id);

-- A participant's own POV stream of a match: one per user per match.
CREATE TABLE match_streams (
	match_id INTEGER NOT NULL REFERENCES matches (id),
	platform_id TEXT NOT NULL,
	stream_login TEXT NOT NULL,
	created_at TEXT NOT NULL,
	PRIMARY KEY (match_id, platform_id)
);

-- Casters of a match: community (claimed), invited (by a participant) or
-- arena (the arena's official channel, no player). A seat ends with the
-- match (ended_at, set by the deciding batch) or when retired.
CREATE TABLE match_casters (
	match_id INTEGER NOT NULL REFERENCES matches (id),
	stream_login TEXT NOT NULL,
	source TEXT NOT NULL,
	platform_id TEXT,                     -- null for the arena's official caster
	invited_by TEXT,
	created_at TEXT NOT NULL,
	ended_at TEXT,
	PRIMARY KEY (match_id, stream_login)
);
CREATE INDEX match_casters_player ON match_casters (platform_id);

-- The outbox of everything alerts are made of. dedupe_key makes each
-- event happen once (an upcoming match once per match, a stream once per
-- stream session); the statement that changes the state records the event
-- in the same batch. The scheduled job fans pending events out to inboxes
-- and webhooks.
CREATE TABLE arena_events (
	id INTEGER PRIMARY KEY,
	kind TEXT NOT NULL,
	dedupe_key TEXT NOT NULL UNIQUE,
	match_id INTEGER,
	tournament_id INTEGER,
	player_id TEXT,
	detail TEXT NOT NULL DEFAULT '',
	title TEXT NOT NULL DEFAULT '',               -- written when fanned out
	path TEXT NOT NULL DEFAULT '',
	created_at TEXT NOT NULL,
	fanned_out_at TEXT
);
CREATE INDEX arena_events_pending ON arena_events (fanned_out_at, id);

-- A player's inbox.
CREATE TABLE alerts (
	id INTEGER PRIMARY KEY,
	platform_id TEXT NOT NULL,
	event_id INTEGER NOT NULL REFERENCES arena_events (id),
	created_at TEXT NOT NULL,
	read_at TEXT,
	UNIQUE (platform_id, event_id)
);
CREATE INDEX alerts_inbox ON alerts (platform_id, read_at);

-- Webhooks: a player's own (owner = account id) and the arena's (owner =
-- 'arena'). failures counts deliveries given up in a row; disabled_at is
-- set when the webhook is turned off for failing.
CREATE TABLE webhooks (
	owner TEXT PRIMARY KEY,
	url TEXT NOT NULL,
	secret TEXT NOT NULL,
	failures INTEGER NOT NULL DEFAULT 0,
	created_at TEXT NOT NULL,
	disabled_at TEXT
);

-- Webhook deliveries, queued when an event fans out, sent by the
-- scheduled job: the body is fixed when queued (with its idempotency key),
-- so a retry sends the same bytes.
CREATE TABLE webhook_deliveries (
	id INTEGER PRIMARY KEY,
	owner TEXT NOT NULL,
	event_id INTEGER NOT NULL REFERENCES arena_events (id),
	url TEXT NOT NULL,
	body TEXT NOT NULL,
	state TEXT NOT NULL DEFAULT 'pending',  -- pending, sent, failed
	attempts INTEGER NOT NULL DEFAULT 0,
	next_attempt_at TEXT NOT NULL,
	last_status INTEGER NOT NULL DEFAULT 0,
	created_at TEXT NOT NULL,
	sent_at TEXT,
	UNIQUE (owner, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);
