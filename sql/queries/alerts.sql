-- Events, inboxes and webhooks.

-- name: record_event
INSERT INTO arena_events (kind, dedupe_key, match_id, tournament_id, player_id, detail, created_at)
VALUES (:kind, :key, NULLIF(:match, 0), NULLIF(:tournament, 0), NULLIF(:player, ''), :detail, :created_at)
ON CONFLICT (dedupe_key) DO NOTHING

-- name: record_live_events
INSERT INTO arena_events (kind, dedupe_key, match_id, tournament_id, created_at)
SELECT 'match_live', 'live:' || id, id, tournament_id, :now FROM matches
WHERE status IN ('live', 'awaiting_result') AND live_at >= :from
ON CONFLICT (dedupe_key) DO NOTHING

-- name: record_tournament_events
INSERT INTO arena_events (kind, dedupe_key, tournament_id, detail, created_at)
SELECT 'tournament_status', 'tournament:' || id || ':' || status, id, status, :now FROM tournaments
WHERE status != 'draft' AND updated_at >= :from
ON CONFLICT (dedupe_key) DO NOTHING

-- name: record_check_in_open_events
-- A tournament whose check-in window is open now: its players hear of it
-- once (by key, so concurrent scheduled runs record it once).
INSERT INTO arena_events (kind, dedupe_key, tournament_id, created_at)
SELECT 'check_in_open', 'check_in_open:' || id, id, :now FROM tournaments
WHERE check_in_minutes > 0 AND status IN ('registration_open', 'registration_closed') AND starts_at > :now
	AND strftime('%Y-%m-%dT%H:%M:%fZ', :now, '+' || check_in_minutes || ' minutes') >= starts_at
ON CONFLICT (dedupe_key) DO NOTHING

-- name: record_upcoming_events
INSERT INTO arena_events (kind, dedupe_key, match_id, tournament_id, created_at)
SELECT 'match_upcoming', 'upcoming:' || id, id, tournament_id, :at FROM matches
WHERE status = 'scheduled' AND upcoming_alert_at IS NULL AND p1_platform_id IS NOT NULL
	AND p2_platform_id IS NOT NULL AND opens_at <= :by AND closes_at > :at
ON CONFLICT (dedupe_key) DO NOTHING

-- name: stamp_upcoming
-- The same matches as record_upcoming_events, in the same batch: each
-- match's upcoming alert happens once.
UPDATE matches SET upcoming_alert_at = :at
WHERE status = 'scheduled' AND upcoming_alert_at IS NULL AND p1_platform_id IS NOT NULL
	AND p2_platform_id IS NOT NULL AND opens_at <= :by AND closes_at > :at

-- name: record_stale_events
-- A live match with nothing reported since the cutoff (an empty cutoff
-- stamps nothing): the organizer hears of it once.
INSERT INTO arena_events (kind, dedupe_key, match_id, tournament_id, created_at)
SELECT 'match_stale', 'stale:' || id, id, tournament_id, :at FROM matches
WHERE status = 'live' AND stale_alert_at IS NULL AND live_at <= :live_by
ON CONFLICT (dedupe_key) DO NOTHING

-- name: stamp_stale
UPDATE matches SET stale_alert_at = :at WHERE status = 'live' AND stale_alert_at IS NULL AND live_at <= :live_by

-- name: record_closing_events
-- A match with both sides known and nothing reported whose window closes
-- after now and by the cutoff: the organizer hears of it once.
INSERT INTO arena_events (kind, dedupe_key, match_id, tournament_id, created_at)
SELECT 'match_window_closing', 'closing:' || id, id, tournament_id, :at FROM matches
WHERE status IN ('scheduled', 'live') AND closing_alert_at IS NULL AND p1_platform_id IS NOT NULL
	AND p2_platform_id IS NOT NULL AND closes_at > :at AND closes_at <= :closes_by
ON CONFLICT (dedupe_key) DO NOTHING

-- name: stamp_closing
UPDATE matches SET closing_alert_at = :at
WHERE status IN ('scheduled', 'live') AND closing_alert_at IS NULL AND p1_platform_id IS NOT NULL
	AND p2_platform_id IS NOT NULL AND closes_at > :at AND closes_at <= :closes_by

-- name: record_overdue_events
-- A match with both sides known still scheduled or live past a window that
-- closed since :since, which no window-closing alert told of (its sides
-- became known late, or no scheduled run fell within the notice): the
-- organizer hears of it once, as of closing.
INSERT INTO arena_events (kind, dedupe_key, match_id, tournament_id, created_at)
SELECT 'match_overdue', 'overdue:' || id, id, tournament_id, :at FROM matches
WHERE status IN ('scheduled', 'live') AND closing_alert_at IS NULL AND p1_platform_id IS NOT NULL
	AND p2_platform_id IS NOT NULL AND closes_at <= :at AND closes_at > :since
ON CONFLICT (dedupe_key) DO NOTHING

-- name: stamp_overdue
UPDATE matches SET closing_alert_at = :at
WHERE status IN ('scheduled', 'live') AND closing_alert_at IS NULL AND p1_platform_id IS NOT NULL
	AND p2_platform_id IS NOT NULL AND closes_at <= :at AND closes_at > :since

-- name: pending_events
SELECT id, kind, dedupe_key, coalesce(match_id, 0), coalesce(tournament_id, 0), coalesce(player_id, ''),
	detail, created_at
FROM arena_events WHERE fanned_out_at IS NULL ORDER BY id LIMIT :limit

-- name: followers
-- A join rather than IN (SELECT ... json_each): see fresh_summaries.
SELECT platform_id FROM follows WHERE kind = 'tournament' AND target_id = :tournament
UNION SELECT f.platform_id FROM follows f JOIN json_each(:players) j ON f.target_id = j.value WHERE f.kind = 'player'
ORDER BY 1

-- name: event_fanned_out
UPDATE arena_events SET title = :title, path = :path, fanned_out_at = :now WHERE id = :event

-- name: insert_alert
-- An alert's own title ('' for none) is what the event says to its
-- recipient in the second person; without one the event's title stands.
INSERT INTO alerts (platform_id, event_id, title, created_at) VALUES (:player, :event, NULLIF(:title, ''), :now)
ON CONFLICT (platform_id, event_id) DO NOTHING

-- name: insert_delivery
INSERT INTO webhook_deliveries (owner, event_id, url, body, next_attempt_at, created_at) VALUES (:owner,
	:event, :url, :body, :next_attempt_at, :now)
ON CONFLICT (owner, event_id) DO NOTHING

-- name: alerts
SELECT a.id, e.kind, coalesce(a.title, e.title), e.path, a.created_at, a.read_at IS NOT NULL
FROM alerts a JOIN arena_events e ON e.id = a.event_id
WHERE a.platform_id = :player ORDER BY a.id DESC LIMIT :limit

-- name: mark_alerts_read
UPDATE alerts SET read_at = :at WHERE platform_id = :player AND read_at IS NULL AND (:up_to = 0 OR id <= :up_to)

-- name: set_webhook
INSERT INTO webhooks (owner, url, secret, failures, created_at) VALUES (:owner, :url, :secret, 0, :at)
ON CONFLICT (owner) DO UPDATE SET url = excluded.url, secret = excluded.secret, failures = 0,
	disabled_at = NULL

-- name: delete_webhook
DELETE FROM webhooks WHERE owner = :owner

-- name: drop_pending_deliveries
UPDATE webhook_deliveries SET state = 'failed' WHERE owner = :owner AND state = 'pending'

-- name: webhook
SELECT owner, url, secret, created_at, disabled_at FROM webhooks WHERE owner = :owner

-- name: enabled_webhooks
SELECT w.owner, w.url, w.secret, w.created_at,
	w.disabled_at FROM webhooks w JOIN json_each(:owners) j ON w.owner = j.value
WHERE w.disabled_at IS NULL ORDER BY w.owner

-- name: due_deliveries
SELECT d.id, d.owner, d.event_id, d.url, d.body, d.attempts, d.next_attempt_at
FROM webhook_deliveries d JOIN webhooks w ON w.owner = d.owner
WHERE d.state = 'pending' AND d.next_attempt_at <= :now AND w.disabled_at IS NULL
ORDER BY d.next_attempt_at, d.id LIMIT :limit

-- name: claim_delivery
UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = :next
WHERE id = :delivery AND state = 'pending' AND attempts = :attempts AND next_attempt_at <= :now
RETURNING id

-- name: delivery_sent
UPDATE webhook_deliveries SET state = 'sent', last_status = :status, sent_at = :at WHERE id = :delivery

-- name: webhook_succeeded
-- A sent delivery forgets its webhook's failures.
UPDATE webhooks SET failures = 0 WHERE owner = (SELECT owner FROM webhook_deliveries WHERE id = :webhook)

-- name: delivery_attempt_failed
UPDATE webhook_deliveries SET last_status = :status WHERE id = :delivery

-- name: delivery_given_up
UPDATE webhook_deliveries SET state = 'failed',
	last_status = :status WHERE id = :delivery AND state = 'pending'

-- name: disable_webhook
UPDATE webhooks SET failures = failures + 1,
	disabled_at = :now WHERE owner = :owner AND url = :url AND disabled_at IS NULL

-- name: drop_pending_events
-- Marks every pending event fanned out without alerting anyone: the
-- demo arena's seeded history is not news.
UPDATE arena_events SET fanned_out_at = :at WHERE fanned_out_at IS NULL
