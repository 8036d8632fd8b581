-- Stand-in for the arena migration numbered 0011 on another branch, so
-- that 0014 applies here: it changes nothing. Drop this file when the
-- real 0011 merges.
SELECT 1;
