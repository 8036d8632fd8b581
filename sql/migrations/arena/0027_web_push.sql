-- Web Push (docs/notifications.md): the arena's VAPID key pair (RFC 8292),
-- drawn once on first use; the private half is read only by the job that
-- signs deliveries and never leaves the store otherwise.
CREATE TABLE push_keys (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	public_key TEXT NOT NULL,   -- base64url of the uncompressed P-256 point
	private_key TEXT NOT NULL,  -- base64url of the 32-byte scalar
	created_at TEXT NOT NULL
);

-- A player's device: the push service's endpoint and the keys its browser
-- gave (RFC 8291). One row per endpoint; signing in as someone else on the
-- device moves it to them.
CREATE TABLE push_subscriptions (
	id INTEGER PRIMARY KEY,
	platform_id TEXT NOT NULL,
	endpoint TEXT NOT NULL UNIQUE,
	p256dh TEXT NOT NULL,
	auth TEXT NOT NULL,
	device TEXT NOT NULL,       -- a label for the account page ("Chrome on Android")
	created_at TEXT NOT NULL,
	last_sent_at TEXT
);
CREATE INDEX push_subscriptions_player ON push_subscriptions (platform_id);

-- The kinds of push a player turned off (core.PushKinds); every other
-- kind is pushed.
CREATE TABLE push_muted (
	platform_id TEXT NOT NULL,
	kind TEXT NOT NULL,
	PRIMARY KEY (platform_id, kind)
);

-- One event's push to one device, queued by the fan-out in its batch and
-- sent by the scheduled job; payload is the plaintext JSON, encrypted for
-- the device when it is sent.
CREATE TABLE push_deliveries (
	id INTEGER PRIMARY KEY,
	subscription_id INTEGER NOT NULL,
	event_id INTEGER NOT NULL,
	payload TEXT NOT NULL,
	urgency TEXT NOT NULL,
	state TEXT NOT NULL DEFAULT 'pending',  -- pending, sent, failed
	attempts INTEGER NOT NULL DEFAULT 0,
	next_attempt_at TEXT NOT NULL,
	last_status INTEGER NOT NULL DEFAULT 0,
	created_at TEXT NOT NULL,
	sent_at TEXT,
	UNIQUE (subscription_id, event_id)
);
CREATE INDEX push_deliveries_due ON push_deliveries (state, next_attempt_at);
