-- The match status each submission produced, written in the submission's
-- own batch: a concurrent second submission cannot change what the first
-- one is told.
ALTER TABLE match_submissions ADD COLUMN outcome TEXT;
