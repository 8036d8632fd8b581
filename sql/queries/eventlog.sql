-- The arena's public event log (migrations/arena/0020_event_log.sql
-- appends its events; core/eventlog.go seals and serves them).

-- name: log_resolved
-- An admin's decision of a match, naming the admin's token (:admin, ''
-- when the caller is not a token), in the batch that decided it: only
-- when this batch's decision (:token) is the match's and decided it (an
-- admin's decision of one game that leaves the series going on is its
-- match.game_decided, source admin).
INSERT INTO event_log (at, type, tournament_slug, match_id, data)
SELECT :at, 'match.resolved', t.slug, m.id,
	json_object('admin', nullif(:admin, ''), 'status', m.status, 'winner', m.winner_platform_id)
FROM matches m JOIN tournaments t ON t.id = m.tournament_id
WHERE m.id = :match AND m.decision_token = :token AND m.status IN {{resolved}}

-- name: log_seal
-- Deterministic: concurrent sealers compute the same hash, and the first
-- one's stands.
UPDATE event_log SET prev_hash = :prev_hash, hash = :hash WHERE seq = :seq AND hash IS NULL

-- name: log_events
SELECT seq, at, type, tournament_slug, match_id, data, prev_hash, hash
FROM event_log WHERE seq > :after AND hash IS NOT NULL ORDER BY seq LIMIT :limit

-- name: log_seq
-- The last event's seq, sealed or not (0: the log is empty).
SELECT {{log_seq}}

-- name: log_head
SELECT seq, at, type, tournament_slug, match_id, data, prev_hash, hash
FROM event_log WHERE hash IS NOT NULL ORDER BY seq DESC LIMIT 1

-- name: log_key_create
-- The arena's log signing key, made once: the first writer's stands.
INSERT INTO arena_settings (key, value) VALUES ('log_signing_key', :value) ON CONFLICT (key) DO NOTHING

-- name: log_tree_add
-- The tree's stored hashes a seal adds (:hashes, a JSON array of [index,
-- hex hash]); deterministic like log_seal: a concurrent sealer's stand.
INSERT OR IGNORE INTO log_tree (idx, hash)
SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(:hashes)

-- name: log_tree_read
-- The tree's stored hashes of :indexes (a JSON array).
SELECT idx, hash FROM log_tree WHERE idx IN (SELECT value FROM json_each(:indexes))

-- name: log_deciding
-- The seq of match :match's deciding event (docs/events.md "Receipts"):
-- its last decision after its last reopening, while it is decided; the
-- match's status is read too (no row: no such match).
SELECT m.status, (SELECT max(e.seq) FROM event_log e WHERE e.match_id = m.id AND e.type IN {{deciding}}
	AND e.seq > coalesce((SELECT max(r.seq) FROM event_log r WHERE r.match_id = m.id AND r.type = 'match.reopened'), 0))
FROM matches m WHERE m.id = :match

-- name: log_unsealed
-- The first :limit unsealed events (the partial index event_log_unsealed).
SELECT seq, at, type, tournament_slug, match_id, data FROM event_log
WHERE hash IS NULL ORDER BY seq LIMIT :limit
