-- Integrator webhook subscriptions and their deliveries
-- (migrations/arena/0022_webhook_subscriptions.sql; core/subscriptions.go).

-- name: subscription_create
-- A subscription starts at the log's head: it hears of what happens next.
-- Only while the arena has fewer than :max (core.MaxSubscriptions): two
-- creations at once cannot pass it.
INSERT INTO webhook_subscriptions (id, url, secret, format, events, paused, log_cursor, created_at, updated_at)
SELECT :id, :url, :secret, :format, :events, :paused, {{log_seq}}, :at, :at
WHERE (SELECT count(*) FROM webhook_subscriptions) < :max
RETURNING log_cursor

-- name: subscriptions
SELECT id, url, secret, format, events, paused, log_cursor, created_at FROM webhook_subscriptions
ORDER BY created_at, id

-- name: subscription
SELECT id, url, secret, format, events, paused, log_cursor, created_at FROM webhook_subscriptions WHERE id = :id

-- name: subscription_update
UPDATE webhook_subscriptions SET url = :url, events = :events, paused = :paused, updated_at = :at WHERE id = :id

-- name: subscription_delete
DELETE FROM webhook_subscriptions WHERE id = :id

-- name: subscription_drop_deliveries
DELETE FROM webhook_subscription_deliveries WHERE subscription_id = :id

-- name: subscription_queue
INSERT INTO webhook_subscription_deliveries (subscription_id, seq, webhook_id, next_attempt_at, created_at)
VALUES (:id, :seq, :webhook_id, :at, :at)
ON CONFLICT (subscription_id, seq) DO NOTHING

-- name: subscription_advance
-- Concurrent runs queue the same deliveries; the cursor only moves on.
UPDATE webhook_subscriptions SET log_cursor = max(log_cursor, :cursor) WHERE id = :id

-- name: subscription_requeue
-- A replay: pending again with no attempts counted, the same webhook-id.
INSERT INTO webhook_subscription_deliveries (subscription_id, seq, webhook_id, next_attempt_at, created_at)
VALUES (:id, :seq, :webhook_id, :at, :at)
ON CONFLICT (subscription_id, seq) DO UPDATE SET state = 'pending', attempts = 0, next_attempt_at = :at

-- name: subscription_requeue_one
UPDATE webhook_subscription_deliveries SET state = 'pending', attempts = 0, next_attempt_at = :at
WHERE id = :delivery AND subscription_id = :id RETURNING id

-- name: subscription_deliveries
SELECT id, subscription_id, seq, webhook_id, state, attempts, next_attempt_at, last_status, latency_ms,
	created_at, last_attempt_at, sent_at
FROM webhook_subscription_deliveries WHERE subscription_id = :id ORDER BY seq DESC, id DESC LIMIT :limit

-- name: subscription_due
SELECT d.id, d.subscription_id, d.seq, d.webhook_id, d.state, d.attempts, d.next_attempt_at, d.last_status,
	d.latency_ms, d.created_at, d.last_attempt_at, d.sent_at, s.url, s.secret, s.format,
	e.seq, e.at, e.type, e.tournament_slug, e.match_id, e.data, e.prev_hash, e.hash
FROM webhook_subscription_deliveries d
JOIN webhook_subscriptions s ON s.id = d.subscription_id
JOIN event_log e ON e.seq = d.seq
WHERE d.subscription_id = :subscription AND d.state = 'pending' AND d.next_attempt_at <= :now AND s.paused = 0
	AND e.hash IS NOT NULL
ORDER BY d.next_attempt_at, d.id LIMIT :limit

-- name: subscription_claim
UPDATE webhook_subscription_deliveries SET attempts = attempts + 1, next_attempt_at = :next, last_attempt_at = :now
WHERE id = :delivery AND state = 'pending' AND attempts = :attempts AND next_attempt_at <= :now
RETURNING id

-- name: subscription_attempted
-- A sent delivery gets its sent_at; a failed attempt keeps its state
-- pending (the claim scheduled the retry) or, given up, failed. Only the
-- claim's own row is written (its attempt, claimed at :at): a replay
-- while the attempt was under way reset it, and the replay stands.
-- An attempt that got no answer (:status 0) records no latency.
UPDATE webhook_subscription_deliveries SET state = :state, last_status = :status,
	latency_ms = CASE WHEN :status = 0 THEN NULL ELSE :latency END,
	sent_at = CASE WHEN :state = 'sent' THEN :at ELSE sent_at END
WHERE id = :delivery AND state = 'pending' AND attempts = :attempt AND last_attempt_at = :at
