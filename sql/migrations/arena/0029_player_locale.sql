-- The language a player reads alerts and pushes in: the one they last
-- chose with the site's picker, or signed in with ('' = the arena's
-- defaultLocale).
ALTER TABLE players ADD COLUMN locale TEXT NOT NULL DEFAULT '';
