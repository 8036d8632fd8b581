-- One side of a match readying (docs/events.md): a follower of the match
-- (its page, the opponent's) sees it at once. The second side's ready
-- makes the match live, which event_log_match logs as match.live.
CREATE TRIGGER event_log_ready AFTER UPDATE OF p1_ready_at, p2_ready_at ON matches
WHEN new.status <> 'live'
	AND (old.p1_ready_at IS NULL AND new.p1_ready_at IS NOT NULL
		OR old.p2_ready_at IS NULL AND new.p2_ready_at IS NOT NULL)
BEGIN
	INSERT INTO event_log (at, type, tournament_slug, match_id, data)
	SELECT coalesce(CASE WHEN old.p1_ready_at IS NULL THEN new.p1_ready_at END, new.p2_ready_at),
		'match.ready', t.slug, new.id,
		CASE WHEN old.p1_ready_at IS NULL AND new.p1_ready_at IS NOT NULL
			THEN json_object('platformId', new.p1_platform_id, 'side', 1)
			ELSE json_object('platformId', new.p2_platform_id, 'side', 2) END
	FROM tournaments t WHERE t.id = new.tournament_id;
END;
