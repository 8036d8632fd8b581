-- The result submission's hot path writes less.
--
-- A player's matches are found by their platform id alone: a player has a
-- few dozen matches, so filtering them by status costs nothing, while an
-- index that holds the status is rewritten on both sides every time a
-- match changes status (ready, live, each submission, the decision),
-- dirtying pages every commit writes to the log.
DROP INDEX matches_p1;
DROP INDEX matches_p2;
CREATE INDEX matches_p1 ON matches (p1_platform_id);
CREATE INDEX matches_p2 ON matches (p2_platform_id);

-- A submission's batch reads the status it produced in its own
-- transaction (submission_outcome), so it no longer records it on the
-- submission.
ALTER TABLE match_submissions DROP COLUMN outcome;
