-- A game client may send the match's score beside its result (metadata,
-- never hashed). When both agreeing submissions carry the same score, the
-- reconciling statement makes it the match's score.
ALTER TABLE match_submissions ADD COLUMN score_p1 INTEGER;
ALTER TABLE match_submissions ADD COLUMN score_p2 INTEGER;
