-- Web Push: the arena's VAPID key, players' devices, the kinds they
-- turned off and the queued pushes (core/push.go).

-- name: push_key
SELECT public_key, private_key FROM push_keys WHERE id = 1

-- name: add_push_key
INSERT INTO push_keys (id, public_key, private_key, created_at) VALUES (1, :public, :private, :at)
ON CONFLICT (id) DO NOTHING

-- name: save_push_subscription
-- A new endpoint is taken while its player has fewer than :max devices;
-- a known one (the same device subscribing again, or another account
-- signed in on it) moves to the player with its new keys.
INSERT INTO push_subscriptions (platform_id, endpoint, p256dh, auth, device, created_at)
SELECT :player, :endpoint, :p256dh, :auth, :device, :at
WHERE EXISTS (SELECT 1 FROM push_subscriptions WHERE endpoint = :endpoint)
	OR (SELECT count(*) FROM push_subscriptions WHERE platform_id = :player) < :max
ON CONFLICT (endpoint) DO UPDATE SET platform_id = excluded.platform_id, p256dh = excluded.p256dh,
	auth = excluded.auth, device = excluded.device
RETURNING id

-- name: drop_subscription_pushes
-- The pending pushes of the player's device being forgotten.
DELETE FROM push_deliveries WHERE state = 'pending' AND subscription_id IN (SELECT id FROM push_subscriptions
	WHERE platform_id = :player AND (id = :id OR (:id = 0 AND endpoint = :endpoint)))

-- name: remove_push_subscription
DELETE FROM push_subscriptions WHERE platform_id = :player AND (id = :id OR (:id = 0 AND endpoint = :endpoint))

-- name: push_subscriptions
SELECT id, platform_id, endpoint, p256dh, auth, device, created_at, last_sent_at
FROM push_subscriptions WHERE platform_id = :player ORDER BY id

-- name: muted_push_kinds
SELECT kind FROM push_muted WHERE platform_id = :player ORDER BY kind

-- name: unmute_push_kinds
DELETE FROM push_muted WHERE platform_id = :player

-- name: mute_push_kinds
INSERT INTO push_muted (platform_id, kind) SELECT :player, j.value FROM json_each(:kinds) j WHERE true
ON CONFLICT DO NOTHING

-- name: insert_pushes
-- The event's push to each device of the player, unless the player
-- turned its kind off.
INSERT INTO push_deliveries (subscription_id, event_id, payload, urgency, next_attempt_at, created_at)
SELECT s.id, :event, :payload, :urgency, :now, :now FROM push_subscriptions s
WHERE s.platform_id = :player
	AND NOT EXISTS (SELECT 1 FROM push_muted m WHERE m.platform_id = :player AND m.kind = :kind)
ON CONFLICT (subscription_id, event_id) DO NOTHING

-- name: due_pushes
SELECT d.id, d.subscription_id, d.event_id, s.endpoint, s.p256dh, s.auth, d.payload, d.urgency,
	d.attempts, d.next_attempt_at, d.created_at
FROM push_deliveries d JOIN push_subscriptions s ON s.id = d.subscription_id
WHERE d.state = 'pending' AND d.next_attempt_at <= :now
ORDER BY d.next_attempt_at, d.id LIMIT :limit

-- name: claim_push
UPDATE push_deliveries SET attempts = attempts + 1, next_attempt_at = :next
WHERE id = :push AND state = 'pending' AND attempts = :attempts AND next_attempt_at <= :now
RETURNING id

-- name: push_sent
UPDATE push_deliveries SET state = 'sent', last_status = :status, sent_at = :at WHERE id = :push

-- name: push_device_used
UPDATE push_subscriptions SET last_sent_at = :at WHERE id = :subscription

-- name: push_failed
UPDATE push_deliveries SET last_status = :status,
	state = CASE WHEN :give_up THEN 'failed' ELSE state END WHERE id = :push AND state = 'pending'

-- name: push_device_gone
-- A push service said the device is gone (404, 410): it is forgotten
-- with whatever was still queued for it.
DELETE FROM push_subscriptions WHERE id = :subscription

-- name: drop_device_pushes
DELETE FROM push_deliveries WHERE subscription_id = :subscription AND state = 'pending'

-- name: record_ready_events
-- A scheduled match one side is ready for and the other not: the other
-- side hears of it, once per match and side.
INSERT INTO arena_events (kind, dedupe_key, match_id, tournament_id, detail, created_at)
SELECT 'opponent_ready', 'ready:' || id || ':' || CASE WHEN p1_ready_at IS NOT NULL THEN 1 ELSE 2 END,
	id, tournament_id, CASE WHEN p1_ready_at IS NOT NULL THEN '1' ELSE '2' END, :now
FROM matches
WHERE status = 'scheduled' AND (p1_ready_at IS NULL) != (p2_ready_at IS NULL)
	AND coalesce(p1_ready_at, p2_ready_at) >= :from
ON CONFLICT (dedupe_key) DO NOTHING

-- name: record_report_events
-- A result reported on the site and not decided yet: the other side is
-- asked to confirm it, once per report.
INSERT INTO arena_events (kind, dedupe_key, match_id, tournament_id, detail, created_at)
SELECT 'result_reported', 'reported:' || r.match_id || ':' || r.token, r.match_id, m.tournament_id,
	CAST(r.side AS TEXT), :now
FROM match_reports r JOIN matches m ON m.id = r.match_id
WHERE r.status = 'pending' AND r.reported_at >= :from
ON CONFLICT (dedupe_key) DO NOTHING
