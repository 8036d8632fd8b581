-- The arena's public event log (docs/events.md): every event, in the
-- order it happened, with seq counting from 1 without gaps (an INTEGER
-- PRIMARY KEY takes max(seq) + 1, and no row is ever deleted; a rolled
-- back batch takes its events with it). Events are appended by the
-- triggers below, in the statement that makes the change, so every path
-- that changes a match, a registration, a tournament's status or a title
-- logs it in its own batch without one more round trip. prev_hash and
-- hash are NULL until the arena seals the event (SQL cannot hash; the
-- server seals lazily, in seq order, before it answers the log).
-- A migration that rebuilds matches, match_submissions, match_reports,
-- registrations, tournaments, titles or recordings must create their
-- triggers again.
CREATE TABLE event_log (
	seq INTEGER PRIMARY KEY,
	at TEXT NOT NULL,
	type TEXT NOT NULL,
	tournament_slug TEXT,                 -- NULL: no tournament
	match_id INTEGER,                     -- NULL: no match
	data TEXT NOT NULL,                   -- a JSON object
	prev_hash TEXT,                       -- NULL until sealed
	hash TEXT                             -- NULL until sealed
);

CREATE INDEX event_log_unsealed ON event_log (seq) WHERE hash IS NULL;

-- A game client's stored submission: who sent it and the hash of its
-- result, never the result itself.
CREATE TRIGGER event_log_submission AFTER INSERT ON match_submissions
BEGIN
	INSERT INTO event_log (at, type, tournament_slug, match_id, data)
	SELECT new.received_at, 'match.submission', t.slug, m.id,
		json_object('platformId', new.submitter_id, 'resultHash', new.result_hash, 'side', new.side)
	FROM matches m JOIN tournaments t ON t.id = m.tournament_id WHERE m.id = new.match_id;
END;

-- A player's manual result report.
CREATE TRIGGER event_log_report AFTER INSERT ON match_reports
BEGIN
	INSERT INTO event_log (at, type, tournament_slug, match_id, data)
	SELECT new.reported_at, 'match.reported', t.slug, m.id,
		json_object('platformId', new.reporter_id, 'side', new.side, 'winner', new.winner_platform_id,
			'score', CASE WHEN new.score_p1 IS NULL THEN NULL
				ELSE json_array(new.score_p1, new.score_p2) END)
	FROM matches m JOIN tournaments t ON t.id = m.tournament_id WHERE m.id = new.match_id;
END;

-- A match going live, or decided, by its new status (an admin's decision
-- also appends match.resolved, naming the admin: queries/tournament.sql).
CREATE TRIGGER event_log_match AFTER UPDATE OF status ON matches
WHEN old.status IS NOT new.status AND new.status IN ('live', 'confirmed', 'disputed', 'forfeited')
BEGIN
	INSERT INTO event_log (at, type, tournament_slug, match_id, data)
	SELECT new.updated_at,
		CASE WHEN new.status = 'live' THEN 'match.live'
			WHEN new.status = 'disputed' THEN 'match.disputed'
			WHEN new.status = 'forfeited' THEN 'match.forfeited'
			ELSE 'match.confirmed' END,
		t.slug, new.id,
		CASE WHEN new.status IN ('live', 'disputed')
			THEN json_object('p1', new.p1_platform_id, 'p2', new.p2_platform_id)
			ELSE json_object('p1', new.p1_platform_id, 'p2', new.p2_platform_id, 'status', new.status,
				'winner', new.winner_platform_id, 'source', new.result_source,
				'score', CASE WHEN new.score_p1 IS NULL THEN NULL
					ELSE json_array(new.score_p1, new.score_p2) END) END
	FROM tournaments t WHERE t.id = new.tournament_id;
END;

CREATE TRIGGER event_log_registration_added AFTER INSERT ON registrations
BEGIN
	INSERT INTO event_log (at, type, tournament_slug, match_id, data)
	SELECT new.registered_at, 'registration.added', t.slug, NULL, json_object('platformId', new.platform_id)
	FROM tournaments t WHERE t.id = new.tournament_id;
END;

-- A registration removed (the side withdrew, or left before the start).
CREATE TRIGGER event_log_registration_withdrawn AFTER DELETE ON registrations
BEGIN
	INSERT INTO event_log (at, type, tournament_slug, match_id, data)
	SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'registration.withdrawn', t.slug, NULL,
		json_object('platformId', old.platform_id)
	FROM tournaments t WHERE t.id = old.tournament_id;
END;

-- A tournament created outside draft, or its status changed (a draft
-- cancelled was never public: not logged).
CREATE TRIGGER event_log_tournament_created AFTER INSERT ON tournaments
WHEN new.status <> 'draft'
BEGIN
	INSERT INTO event_log (at, type, tournament_slug, match_id, data)
	VALUES (new.created_at, 'tournament.status', new.slug, NULL,
		json_object('from', NULL, 'to', new.status));
END;

CREATE TRIGGER event_log_tournament_status AFTER UPDATE OF status ON tournaments
WHEN old.status IS NOT new.status AND NOT (old.status = 'draft' AND new.status = 'cancelled')
BEGIN
	INSERT INTO event_log (at, type, tournament_slug, match_id, data)
	VALUES (new.updated_at, 'tournament.status', new.slug, NULL,
		json_object('from', old.status, 'to', new.status));
END;

-- A title's holder changed (crowned, or vacated).
CREATE TRIGGER event_log_title AFTER UPDATE OF holder_platform_id ON titles
WHEN old.holder_platform_id IS NOT new.holder_platform_id
BEGIN
	INSERT INTO event_log (at, type, tournament_slug, match_id, data)
	VALUES (new.updated_at, 'title.changed', new.slug, NULL,
		json_object('from', old.holder_platform_id, 'to', new.holder_platform_id));
END;

-- A match's recording finalized (private recordings are the uploader's
-- own business: not logged).
CREATE TRIGGER event_log_recording AFTER UPDATE OF state ON recordings
WHEN old.state IS NOT new.state AND new.state = 'ready' AND new.match_id IS NOT NULL
	AND new.visibility <> 'private'
BEGIN
	INSERT INTO event_log (at, type, tournament_slug, match_id, data)
	SELECT coalesce(new.ready_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), 'recording.ready', t.slug, m.id,
		json_object('recordingId', new.id, 'platformId', new.uploader_id, 'scope', new.scope,
			'visibility', new.visibility)
	FROM matches m JOIN tournaments t ON t.id = m.tournament_id WHERE m.id = new.match_id;
END;
