-- The organizer's day. A tournament may ask its players to check in
-- (check_in_minutes before starts_at; 0: no check-in), and its groups may
-- be GSL groups (group_format). A registration records when its side
-- checked in. A match records when the organizer was told it went stale
-- (live without a result) and when its window was about to close with
-- nothing reported: each alert happens once.
ALTER TABLE tournaments ADD COLUMN check_in_minutes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN group_format TEXT NOT NULL DEFAULT 'round_robin';
ALTER TABLE registrations ADD COLUMN checked_in_at TEXT;
ALTER TABLE matches ADD COLUMN stale_alert_at TEXT;
ALTER TABLE matches ADD COLUMN closing_alert_at TEXT;
