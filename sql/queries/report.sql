-- The players' website actions: manual result reports and withdrawals.

-- name: insert_report
INSERT INTO match_reports (match_id, side, reporter_id, winner_platform_id, score_p1, score_p2, status,
	reported_at, token)
SELECT :match, :side, :reporter, :winner, :p1, :p2, 'pending', :at, :token
WHERE EXISTS (SELECT 1 FROM matches WHERE id = :match AND status IN ('live', 'awaiting_result'))
	AND NOT EXISTS (SELECT 1 FROM match_submissions WHERE match_id = :match)
ON CONFLICT (match_id) DO NOTHING

-- name: report_awaits_confirmation
UPDATE matches SET status = 'awaiting_result', ended_at = coalesce(ended_at, :at), updated_at = :at
WHERE id = :match AND status = 'live' AND EXISTS (SELECT 1 FROM match_reports WHERE match_id = :match AND token = :token)

-- name: report_attempt
SELECT m.status, (SELECT count(*) FROM match_submissions s WHERE s.match_id = m.id), coalesce(r.token, '')
FROM matches m LEFT JOIN match_reports r ON r.match_id = m.id
WHERE m.id = :match

-- name: match_report
SELECT match_id, side, reporter_id, winner_platform_id, score_p1, score_p2, status, reported_at,
	decided_at, decided_by, dispute_reason
FROM match_reports WHERE match_id = :match

-- name: decide_report
UPDATE match_reports SET
	status = CASE WHEN :confirm AND NOT EXISTS (SELECT 1 FROM match_submissions s
			WHERE s.match_id = match_reports.match_id AND s.winner_side_id <> match_reports.winner_platform_id)
		THEN 'confirmed' ELSE 'disputed' END,
	decided_at = :at, decided_by = :by, decision_token = :token, dispute_reason = :reason
WHERE match_id = :match AND status = 'pending' AND side <> :by_side AND reported_at <= :reported_by
	AND EXISTS (SELECT 1 FROM matches m WHERE m.id = match_reports.match_id AND m.status = 'awaiting_result')

-- name: apply_report
UPDATE matches SET
	status = (SELECT r.status FROM match_reports r WHERE r.match_id = matches.id),
	winner_platform_id = coalesce((SELECT r.winner_platform_id FROM match_reports r
		WHERE r.match_id = matches.id AND r.status = 'confirmed'), winner_platform_id),
	score_p1 = CASE WHEN (SELECT r.status FROM match_reports r WHERE r.match_id = matches.id) = 'confirmed'
		THEN (SELECT r.score_p1 FROM match_reports r WHERE r.match_id = matches.id) ELSE score_p1 END,
	score_p2 = CASE WHEN (SELECT r.status FROM match_reports r WHERE r.match_id = matches.id) = 'confirmed'
		THEN (SELECT r.score_p2 FROM match_reports r WHERE r.match_id = matches.id) ELSE score_p2 END,
	result_source = CASE WHEN (SELECT r.status FROM match_reports r WHERE r.match_id = matches.id) = 'confirmed'
		THEN 'player_report' ELSE result_source END,
	resolved_at = CASE WHEN (SELECT r.status FROM match_reports r WHERE r.match_id = matches.id) = 'confirmed'
		THEN :at ELSE resolved_at END,
	updated_at = :at
WHERE id = :match AND status = 'awaiting_result'
	AND EXISTS (SELECT 1 FROM match_reports r WHERE r.match_id = matches.id AND r.decision_token = :token)

-- name: report_decision
SELECT r.decision_token, m.status FROM match_reports r JOIN matches m ON m.id = r.match_id
WHERE r.match_id = :match

-- name: pending_reports
SELECT r.match_id FROM match_reports r JOIN matches m ON m.id = r.match_id
	JOIN tournaments t ON t.id = m.tournament_id
WHERE r.status = 'pending' AND m.status = 'awaiting_result' AND r.reported_at <= {{grace_cutoff}}
ORDER BY r.match_id

-- name: withdraw_roster
DELETE FROM roster_members WHERE tournament_id = :tournament AND captain_id = :captain
	AND EXISTS (SELECT 1 FROM tournaments t WHERE t.id = :tournament AND t.status = 'registration_open'
		AND t.registration_opens_at <= :now AND :now < t.registration_closes_at)

-- name: withdraw_registration
DELETE FROM registrations WHERE tournament_id = :tournament AND platform_id = :captain
	AND EXISTS (SELECT 1 FROM tournaments t WHERE t.id = :tournament AND t.status = 'registration_open'
		AND t.registration_opens_at <= :now AND :now < t.registration_closes_at)
