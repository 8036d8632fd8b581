-- Organizer tools: a side disqualified after the draw (its matches are
-- forfeited to its opponents), and the reason a player gives when disputing
-- a reported result.
ALTER TABLE registrations ADD COLUMN disqualified_at TEXT;
ALTER TABLE match_reports ADD COLUMN dispute_reason TEXT NOT NULL DEFAULT '';
