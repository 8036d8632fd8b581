-- Stand-in for the arena migration numbered 0013 on another branch, so
-- that 0014 applies here: it changes nothing. Drop this file when the
-- real 0013 merges.
SELECT 1;
