-- Integrator webhooks (docs/webhooks.md): subscriptions to event types of
-- the arena's event log, delivered in the Standard Webhooks format (or a
-- Discord-compatible body). log_cursor is the last log seq the
-- subscription has considered: the scheduled job queues a delivery for
-- each matching event after it and moves it on in the same batch, so
-- nothing the log has is missed. A subscription starts at the log's head.
CREATE TABLE webhook_subscriptions (
	id TEXT PRIMARY KEY,
	url TEXT NOT NULL,
	secret TEXT NOT NULL,                 -- whsec_ + base64 of the key
	format TEXT NOT NULL,                 -- standard, discord
	events TEXT NOT NULL,                 -- JSON array of event types
	paused INTEGER NOT NULL DEFAULT 0,
	log_cursor INTEGER NOT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL
);

-- One event's delivery to one subscription: webhook_id is the same on
-- every attempt and every replay (receivers deduplicate by it); the body
-- is rendered from the sealed event, so it is the same bytes each time.
CREATE TABLE webhook_subscription_deliveries (
	id INTEGER PRIMARY KEY,
	subscription_id TEXT NOT NULL,
	seq INTEGER NOT NULL,
	webhook_id TEXT NOT NULL,
	state TEXT NOT NULL DEFAULT 'pending',  -- pending, sent, failed
	attempts INTEGER NOT NULL DEFAULT 0,
	next_attempt_at TEXT NOT NULL,
	last_status INTEGER NOT NULL DEFAULT 0,
	latency_ms INTEGER,
	created_at TEXT NOT NULL,
	last_attempt_at TEXT,
	sent_at TEXT,
	UNIQUE (subscription_id, seq)
);
CREATE INDEX webhook_subscription_deliveries_due ON webhook_subscription_deliveries (state, next_attempt_at);
