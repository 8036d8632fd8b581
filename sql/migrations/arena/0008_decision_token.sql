-- The request (or scheduled run) that decided a match: every way a match is
-- decided writes a fresh token in its conditional decision batch and reads
-- it back, so exactly one of two racing deciders is told it decided.
ALTER TABLE matches ADD COLUMN decision_token TEXT;
